/* BindPaths=, BindReadOnlyPaths=, NoExecPaths=, ExecPaths= (systemd.exec(5)).
 *
 * A source is opened (O_PATH) before the sandbox mounts anything, so it is the file the
 * host has there even where PrivateDevices= or PrivateTmp= later put a fresh /dev or
 * /tmp over it; it is bound from /proc/self/fd. A missing destination is made as
 * systemd makes it (a directory, or an empty file for anything else), first on the real
 * file system while that is still writable, and again just before the bind if a fresh
 * tmpfs came over it. Binds come after the read-only passes, so each keeps the access it
 * asked for: BindPaths= writable, BindReadOnlyPaths= read-only, with what is below it
 * for rbind (the default). NoExecPaths= and ExecPaths= come last of all, on the tree as
 * the service will see it. See ember-sandbox(8). */
#include "setup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exec-context.h"

#define BIND_PATH_MAX 4096

static int failed(struct sandbox_error *e, const char *path)
{
	e->op = EXEC_SANDBOX_BIND;
	e->err = errno;
	e->path = path;
	return -1;
}

static bool clean_absolute(const char *p, size_t len)
{
	if (len == 0 || p[0] != '/' || len >= BIND_PATH_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (p[i] == '/' && i + 1 < len && p[i + 1] == '.' &&
		    (i + 2 == len || p[i + 2] == '/' ||
		     (p[i + 2] == '.' && (i + 3 == len || p[i + 3] == '/'))))
			return false;
	return true;
}

/* The strings point into value (an argv string): split in place at the colons. */
int sandbox_bind_option(struct sandbox_binds *b, const char *value, bool read_only)
{
	struct sandbox_bind *it;
	char *s = (char *)value, *dst, *opts;

	if (b->count >= SANDBOX_PATHS_MAX)
		return -1;
	it = &b->item[b->count];
	*it = (struct sandbox_bind){ .optional = *s == '-', .recursive = true,
				     .read_only = read_only, .fd = -1 };
	s += it->optional;
	dst = strchr(s, ':');
	opts = dst ? strchr(dst + 1, ':') : NULL;
	if (dst)
		*dst++ = '\0';
	if (opts)
		*opts++ = '\0';
	if (!clean_absolute(s, strlen(s)) || (dst && !clean_absolute(dst, strlen(dst))))
		return -1;
	if (opts && strcmp(opts, "norbind") == 0)
		it->recursive = false;
	else if (opts && strcmp(opts, "rbind") != 0)
		return -1;
	it->src = s;
	it->dst = dst ? dst : s;
	b->count++;
	return 0;
}

/* One component below dir: an intermediate directory is followed only when it is one,
 * or a symlink root owns (Debian's /var/run -> /run); a symlink anyone else made there
 * is not followed. Missing ones are made (root's, 0755) when create is set. */
static int walk_component(int dir, const char *name, bool create)
{
	struct stat st;
	int fd = openat(dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0 || (errno != ENOENT && errno != ENOTDIR && errno != ELOOP))
		return fd;
	if (errno == ENOENT && create) {
		if (mkdirat(dir, name, 0755) < 0 && errno != EEXIST)
			return -1;
		return openat(dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode) &&
	    st.st_uid == 0)
		return openat(dir, name, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (errno != ENOENT)
		errno = ELOOP;
	return -1;
}

/* A missing destination: a directory, or an empty file; one that is there is kept. */
static int make_leaf(int dir, const char *name, bool directory)
{
	int fd;

	if (directory)
		return mkdirat(dir, name, 0755) < 0 && errno != EEXIST ? -1 : 0;
	fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno == EEXIST ? 0 : -1;
	close(fd);
	return 0;
}

/* The destination, walked from / as walk_component() does; the last component is never
 * followed (a symlink there is refused) and, when missing and create is set, made as
 * systemd makes it: a directory for a directory source, an empty file otherwise.
 * Returns an O_PATH fd of what the bind goes onto. */
static int open_destination(const char *dst, bool directory, bool create)
{
	char name[256];
	const char *p = dst + 1;
	int dir = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), fd;
	struct stat st;

	while (dir >= 0) {
		size_t len = strcspn(p, "/");
		if (len >= sizeof name) {
			close(dir);
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		if (!p[len])
			break;
		fd = walk_component(dir, name, create);
		close(dir);
		dir = fd;
		p += len + 1;
	}
	if (dir < 0)
		return -1;
	if (create && make_leaf(dir, name, directory) < 0) {
		close(dir);
		return -1;
	}
	fd = openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	close(dir);
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISLNK(st.st_mode)) {
		close(fd);
		errno = ELOOP;
		return -1;
	}
	return fd;
}

int sandbox_binds_open(struct sandbox_binds *b, struct sandbox_error *e)
{
	for (size_t i = 0; i < b->count; i++) {
		struct sandbox_bind *it = &b->item[i];
		struct stat st;

		it->fd = open(it->src, O_PATH | O_CLOEXEC);
		if (it->fd < 0) {
			if (it->optional && errno == ENOENT)
				continue;
			return failed(e, it->src);
		}
		/* made now, while the file system is still writable; again below if a fresh
		 * tmpfs comes over it */
		if (fstat(it->fd, &st) == 0) {
			int fd = open_destination(it->dst, S_ISDIR(st.st_mode), true);
			if (fd >= 0)
				close(fd);
		}
	}
	return 0;
}

static int bind_one(const struct sandbox_bind *it, struct sandbox_error *e)
{
	char src[32], dst[32];
	struct stat st;
	unsigned long flags = MS_BIND | (it->recursive ? MS_REC : 0);
	int fd, r;

	if (fstat(it->fd, &st) < 0 || (fd = open_destination(it->dst, S_ISDIR(st.st_mode),
							     true)) < 0)
		return failed(e, it->dst);
	snprintf(src, sizeof src, "/proc/self/fd/%d", it->fd);
	snprintf(dst, sizeof dst, "/proc/self/fd/%d", fd);
	r = mount(src, dst, NULL, flags, NULL); /* onto what was opened, not a name */
	close(fd);
	if (r < 0)
		return failed(e, it->dst);
	if (sandbox_mount_attr(it->dst, it->read_only ? SANDBOX_ATTR_RDONLY : 0,
			       it->read_only ? 0 : SANDBOX_ATTR_RDONLY, it->recursive) == 0)
		return 0;
	if (errno != ENOSYS)
		return failed(e, it->dst);
	return mount(NULL, it->dst, NULL, MS_REMOUNT | MS_BIND | (it->read_only ? MS_RDONLY : 0),
		     NULL) < 0 ? failed(e, it->dst) : 0;
}

int sandbox_binds_mount(const struct sandbox_binds *b, struct sandbox_error *e)
{
	for (size_t i = 0; i < b->count; i++)
		if (b->item[i].fd >= 0 && bind_one(&b->item[i], e) < 0)
			return -1;
	return 0;
}

/* path becomes a mount of its own, then noexec (or exec again) with what is below it. */
static int set_exec(const struct sandbox_path *p, bool exec, struct sandbox_error *e)
{
	if (mount(p->path, p->path, NULL, MS_BIND | MS_REC, NULL) < 0) {
		if (p->optional && errno == ENOENT)
			return 0;
		return failed(e, p->path);
	}
	if (sandbox_mount_attr(p->path, exec ? 0 : SANDBOX_ATTR_NOEXEC,
			       exec ? SANDBOX_ATTR_NOEXEC : 0, true) < 0)
		return failed(e, p->path); /* ENOSYS: no way to do it on a kernel before 5.12 */
	return 0;
}

int sandbox_exec_paths(const struct sandbox_request *r, struct sandbox_error *e)
{
	for (size_t i = 0; i < r->no_exec.count; i++)
		if (set_exec(&r->no_exec.item[i], false, e) < 0)
			return -1;
	for (size_t i = 0; i < r->exec.count; i++)
		if (set_exec(&r->exec.item[i], true, e) < 0)
			return -1;
	return 0;
}
