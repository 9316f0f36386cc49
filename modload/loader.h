#ifndef EMBER_MODLOAD_LOADER_H
#define EMBER_MODLOAD_LOADER_H
/* Runs a plan: a pool of threads takes modules whose dependencies are live, lowest
 * plan position first, and inserts them. A module loads once however many others
 * need it; when a hard dependency fails, the modules above it are not tried. */
#include <stdbool.h>

#include "plan.h"

/* Insert one module; returns 0 or an errno. Tests pass their own. */
typedef int (*insert_fn)(const struct mod_node *n, void *ctx);

struct loader_opts {
	unsigned jobs; /* threads, including the caller's */
	bool verbose;
	insert_fn insert;
	void *ctx;
};

/* An errno-like code of ours: compressed module, kernel cannot decompress it. */
#define ERR_NO_DECOMPRESS 4096

struct kernel_support {
	/* /sys/module/compression: the format finit_module may decompress, or "". */
	char decompress[16];
};

void kernel_support_probe(const char *root, struct kernel_support *k);
/* open + finit_module(2); ctx is a struct kernel_support. */
int insert_module_file(const struct mod_node *n, void *ctx);
/* Human-readable reason for a node's err. */
const char *load_error_string(int err);
void loader_run(struct plan *p, const struct loader_opts *o);
#endif
