/* DynamicUser=: --private-dir=BASE/private/PATH. On the host BASE/private is root's, mode
 * 0700, so that an id given out again later cannot reach what an earlier holder left
 * there. Inside the sandbox the service must reach its own directories through the
 * BASE/PATH symlinks: each BASE/private becomes an empty tmpfs (mode 0755, read-only
 * once filled) holding bind mounts of the service's own directories, writable, and
 * nothing else. See ember-sandbox(8). */
#include "setup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exec-context.h"

#define PRIVATE_COMPONENT "/private/"
#define TMPFS_FLAGS (MS_NOSUID | MS_NODEV | MS_NOEXEC)

static int failed(struct sandbox_error *e, const char *path)
{
	e->op = EXEC_SANDBOX_BIND;
	e->err = errno;
	e->path = path;
	return -1;
}

/* Length of the BASE/private part of path; 0 when path has none or is only that. */
static size_t private_root_len(const char *path)
{
	const char *p = strstr(path, PRIVATE_COMPONENT);

	if (!p || p == path || !p[strlen(PRIVATE_COMPONENT)] || strstr(path, "/../") ||
	    strstr(path, "/./"))
		return 0;
	return (size_t)(p - path) + strlen(PRIVATE_COMPONENT) - 1;
}

/* mkdir -p of path's components after the first root_len bytes (inside the new tmpfs). */
static int make_below(const char *path, size_t root_len)
{
	char buf[4096];
	size_t len = strlen(path);

	if (len >= sizeof buf) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, len + 1);
	for (size_t i = root_len + 1; i <= len; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -1;
		buf[i] = i < len ? '/' : '\0';
	}
	return 0;
}

static bool root_seen(const struct sandbox_list *l, size_t upto, const char *path, size_t len)
{
	for (size_t i = 0; i < upto; i++)
		if (private_root_len(l->item[i].path) == len &&
		    strncmp(l->item[i].path, path, len) == 0)
			return true;
	return false;
}

/* Each distinct BASE/private once: a fresh tmpfs over it (seal false), or that tmpfs
 * made read-only once the directories are bound into it (seal true). */
static int each_root(const struct sandbox_list *l, bool seal, struct sandbox_error *e)
{
	char root[4096];

	for (size_t i = 0; i < l->count; i++) {
		const char *path = l->item[i].path;
		size_t len = private_root_len(path);
		int r;
		if (root_seen(l, i, path, len))
			continue;
		snprintf(root, sizeof root, "%.*s", (int)len, path);
		r = seal ? mount(NULL, root, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | TMPFS_FLAGS, NULL)
			 : mount("tmpfs", root, "tmpfs", TMPFS_FLAGS, "mode=0755");
		if (r < 0)
			return failed(e, path);
	}
	return 0;
}

static void close_fds(int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

int sandbox_private_dirs(const struct sandbox_list *l, struct sandbox_error *e)
{
	int fds[SANDBOX_PATHS_MAX];
	char src[64];
	size_t i;

	for (i = 0; i < l->count; i++)
		fds[i] = -1;
	/* Opened before the tmpfs hides them; ember-init's child made each of them as root,
	 * with no symlink on the way (lib/exec-dirs.c). */
	for (i = 0; i < l->count; i++) {
		const char *path = l->item[i].path;
		if (private_root_len(path) == 0) {
			errno = EINVAL;
			goto fail;
		}
		fds[i] = open(path, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fds[i] < 0)
			goto fail;
	}
	if (each_root(l, false, e) < 0)
		goto out;
	for (i = 0; i < l->count; i++) {
		const char *path = l->item[i].path;
		snprintf(src, sizeof src, "/proc/self/fd/%d", fds[i]);
		if (make_below(path, private_root_len(path)) < 0 ||
		    mount(src, path, NULL, MS_BIND, NULL) < 0 ||
		    mount(NULL, path, NULL, MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV, NULL) < 0)
			goto fail;
	}
	if (each_root(l, true, e) < 0)
		goto out;
	close_fds(fds, l->count);
	return 0;
fail:
	failed(e, i < l->count ? l->item[i].path : NULL);
out:
	close_fds(fds, l->count);
	return -1;
}
