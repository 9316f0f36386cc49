#ifndef EMBER_SANDBOX_SETUP_H
#define EMBER_SANDBOX_SETUP_H
/* ember-sandbox: what to set up (parsed from the command line by main.c) and the steps
 * that do it (setup.c). Order and meaning: ember-sandbox(8), docs/services.md. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* BindPaths=, BindReadOnlyPaths= (binds.c): fd is the source, opened with O_PATH; tree
 * a detached copy of its mounts as the host has them (open_tree(2)), -1 on kernels
 * before 5.2; src_read_only: its mount was read-only on the host. */
struct sandbox_bind {
	const char *src, *dst;
	bool optional, recursive, read_only, src_read_only;
	int fd, tree;
};

struct sandbox_binds {
	size_t count;
	struct sandbox_bind item[SANDBOX_PATHS_MAX];
};

struct sandbox_request {
	bool private_tmp, private_devices, private_network, private_ipc;
	bool systemd_view; /* /run/systemd/system/ in this namespace (lib/systemd-view.h) */
	bool nosuid;       /* every mount here nosuid (NoNewPrivileges=, as systemd) */
	bool protect_kernel_tunables, protect_kernel_modules, protect_control_groups;
	enum sandbox_protect_system protect_system;
	enum sandbox_protect_home protect_home;
	struct sandbox_list read_only, read_write, inaccessible;
	struct sandbox_more more; /* exec keys (sandbox-more) */
	struct sandbox_list private_dirs; /* DynamicUser=: private-dirs.c */
	struct sandbox_binds binds;       /* binds.c */
	struct sandbox_list no_exec, exec; /* NoExecPaths=, ExecPaths=: binds.c */
};

/* ReadOnlyPaths= and ReadWritePaths= as systemd lays them out (layout.c): the paths to
 * make read-only (read_only[i]) or writable, parents first, without those already
 * treated so by their nearest parent (nor a writable one also read-only). At most max. */
size_t sandbox_layout(const struct sandbox_request *r, struct sandbox_path *out, bool *read_only,
		      size_t max);

/* What failed: an exec_sandbox_op (exec-context.h), errno and the path (or NULL). */
struct sandbox_error {
	int op;
	int err;
	const char *path;
};

/* In a process that may create namespaces (root): new mount (and network) namespace,
 * then every mount the request asks for. 0, or -1 with *e filled. */
int sandbox_setup(struct sandbox_request *req, struct sandbox_error *e);
/* mount_setattr(2) on path relative to dir ("": dir itself; recursive: with what is
 * mounted below); -1/errno, ENOSYS before Linux 5.12. */
#define SANDBOX_ATTR_RDONLY 0x1ULL
#define SANDBOX_ATTR_NOSUID 0x2ULL
#define SANDBOX_ATTR_NODEV 0x4ULL
#define SANDBOX_ATTR_NOEXEC 0x8ULL
int sandbox_mount_attr(int dir, const char *path, uint64_t set, uint64_t clear,
		       bool recursive);

/* binds.c: path walked (symlinks followed only when root owns them) and given the mount
 * attributes set, clear taken away, with what is below it; -1/errno (ENOENT: missing). */
int sandbox_path_attr(const char *path, uint64_t set, uint64_t clear);
/* binds.c: InaccessiblePaths=: path (walked so) covered by a read-only, nosuid, nodev,
 * noexec bind of dir_object or file_object (O_PATH fds), as path is a directory or not. */
int sandbox_path_hide(const char *path, int dir_object, int file_object);
/* binds.c: absolute, no "." or ".." component (systemd's "normalized"). */
bool sandbox_path_clean(const char *path);
/* binds.c: "[-]SRC[:DST[:rbind|norbind]]" into b; -1 when it does not parse. */
int sandbox_bind_option(struct sandbox_binds *b, const char *value, bool read_only);
/* First: each source opened (O_PATH) and each missing destination made where it can be. */
int sandbox_binds_open(struct sandbox_binds *b, struct sandbox_error *e);
/* After the other mounts: each source bound onto its destination, read-only or not. */
int sandbox_binds_mount(const struct sandbox_binds *b, struct sandbox_error *e);
/* Last of the mounts: NoExecPaths= noexec (with what is below), then ExecPaths= exec again. */
int sandbox_exec_paths(const struct sandbox_request *r, struct sandbox_error *e);

/* DynamicUser=: the service's own directories below BASE/private (private-dirs.c). */
int sandbox_private_dirs(const struct sandbox_list *dirs, struct sandbox_error *e);
#endif
