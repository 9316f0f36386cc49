#ifndef EMBER_MODLOAD_CONFDIRS_H
#define EMBER_MODLOAD_CONFDIRS_H
/* Drop-in directories (modules-load.d, modprobe.d): every *.conf of every directory,
 * merged and sorted by file name. A name found in a higher-precedence directory hides
 * the same name below it; a symlink to /dev/null hides it and contributes nothing. */
#include <stddef.h>

struct conf_file {
	char *name; /* "10-net.conf" */
	char *path; /* root-prefixed path to read */
};

struct conf_list {
	struct conf_file *v;
	size_t n;
};

/* dirs: NULL-terminated, highest precedence first, each absolute; root ("" for none)
 * is prefixed to each. A missing directory is skipped. Returns 0, or -1 when a
 * directory could not be read (it is logged; the others are still listed). */
int conf_list_dirs(const char *root, const char *const *dirs, struct conf_list *out);
void conf_list_free(struct conf_list *l);
#endif
