#ifndef EMBER_MODLOAD_LOADCONF_H
#define EMBER_MODLOAD_LOADCONF_H
/* The list of modules to load: modules-load.d files (one name per line) and names
 * given on the command line, in order, without duplicates after '-'/'_' folding. */
#include <stdbool.h>
#include <stddef.h>

#include "util.h"

struct request {
	char *name;   /* normalized: '_' for '-' */
	char *source; /* "FILE:LINE", "kernel command line" or "command line" */
};

struct request_list {
	struct request *v;
	size_t n, cap;
	struct strmap seen; /* name -> 1: keeps adding linear in hostile files */
};

/* Append name unless an equal name is already listed. Returns true when added. */
bool request_add(struct request_list *l, const char *name, const char *source);
/* Parse one modules-load.d file: a name per line; blank lines and lines whose first
 * non-blank character is '#' or ';' are skipped; no inline comments. Returns the
 * number of rejected lines (each logged with FILE:LINE and why). */
int modules_load_parse(const char *text, const char *file, struct request_list *out);
void request_list_free(struct request_list *l);
#endif
