#ifndef EMBER_SANDBOX_SETUP_H
#define EMBER_SANDBOX_SETUP_H
/* ember-sandbox: what to set up (parsed from the command line by main.c) and the steps
 * that do it (setup.c). Order and meaning: ember-sandbox(8), docs/services.md. */
#include <stdbool.h>
#include <stddef.h>

#include "more.h" /* exec keys (sandbox-more) */

#define SANDBOX_PATHS_MAX 64

enum sandbox_protect_system { SB_SYSTEM_NO, SB_SYSTEM_YES, SB_SYSTEM_FULL, SB_SYSTEM_STRICT };
enum sandbox_protect_home { SB_HOME_NO, SB_HOME_YES, SB_HOME_READ_ONLY, SB_HOME_TMPFS };

struct sandbox_path {
	const char *path;
	bool optional; /* "-": a missing path is skipped */
};

struct sandbox_list {
	size_t count;
	struct sandbox_path item[SANDBOX_PATHS_MAX];
};

struct sandbox_request {
	bool private_tmp, private_devices, private_network;
	bool protect_kernel_tunables, protect_kernel_modules, protect_control_groups;
	enum sandbox_protect_system protect_system;
	enum sandbox_protect_home protect_home;
	struct sandbox_list read_only, read_write, inaccessible;
	struct sandbox_more more; /* exec keys (sandbox-more) */
	struct sandbox_list private_dirs; /* DynamicUser=: private-dirs.c */
};

/* What failed: an exec_sandbox_op (exec-context.h), errno and the path (or NULL). */
struct sandbox_error {
	int op;
	int err;
	const char *path;
};

/* In a process that may create namespaces (root): new mount (and network) namespace,
 * then every mount the request asks for. 0, or -1 with *e filled. */
int sandbox_setup(const struct sandbox_request *req, struct sandbox_error *e);
/* DynamicUser=: the service's own directories below BASE/private (private-dirs.c). */
int sandbox_private_dirs(const struct sandbox_list *dirs, struct sandbox_error *e);
#endif
