/* U5: RuntimeDirectory= and friends, created and removed without following symlinks.
 * See exec-context.h (struct exec_dir) and docs/exec-context.md. Runs in a forked child
 * (creation: before the identity switch; removal: a short-lived child of PID 1). */
#include "exec-context.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define DIR_COMPONENT_MAX 256
#define DIR_LINK_MAX 1024
#define REMOVE_DEPTH_MAX 32
#define CHOWN_DEPTH_MAX 64

static int own_subdir(int parent, const char *name, uid_t uid, gid_t gid, int depth);

static void close_keep_errno(int fd)
{
	int saved = errno;
	close(fd);
	errno = saved;
}

static void close_all(const int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (fds[i] >= 0)
			close_keep_errno(fds[i]);
}

static int fail_dir(struct exec_failure *f, size_t index)
{
	f->step = EXEC_STEP_DIRS;
	f->err = errno;
	f->arg = (int64_t)index;
	return -1;
}

/* One component below parent: created if missing (mode 0755: root's intermediate
 * directories, or the innermost one before its fchmod), then opened without following a
 * symlink. A planted symlink gives ELOOP (or ENOTDIR), never a redirected open. */
static int open_component(int parent, const char *name, mode_t mode)
{
	struct stat st;
	int fd;

	if (mkdirat(parent, name, mode) < 0 && errno != EEXIST)
		return -1;
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	/* O_DIRECTORY may win over O_NOFOLLOW (ENOTDIR): name a symlink as such. */
	if (fd < 0 && errno == ENOTDIR && fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISLNK(st.st_mode))
		errno = ELOOP;
	return fd;
}

/* One path component into name: not empty, not "." or "..", fits. */
static int copy_component(const char *p, size_t len, char name[DIR_COMPONENT_MAX])
{
	if (len == 0 || len >= DIR_COMPONENT_MAX || (p[0] == '.' && (len == 1 ||
						    (len == 2 && p[1] == '.')))) {
		errno = EINVAL;
		return -1;
	}
	memcpy(name, p, len);
	name[len] = '\0';
	return 0;
}

/* From fd (consumed) down to the parent of path's last component, creating root's 0755
 * directories on the way; *leaf is that last component (copied into leaf_name). */
static int walk_parent(int fd, const char *path, char leaf_name[DIR_COMPONENT_MAX])
{
	char name[DIR_COMPONENT_MAX];

	for (const char *p = path;;) {
		size_t len = strcspn(p, "/");
		int next;

		if (p[len] == '\0') {
			if (copy_component(p, len, leaf_name) == 0)
				return fd;
			close(fd);
			return -1;
		}
		next = copy_component(p, len, name) < 0 ? -1 : open_component(fd, name, 0755);
		close_keep_errno(fd);
		if (next < 0)
			return -1;
		fd = next;
		p += len + 1;
	}
}

/* The kernel's directory records (getdents64(2)): read straight into a buffer on the
 * stack, because this runs in PID 1's clone3() child, which must not allocate. */
struct dirent64_raw {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/* One entry of the walk: opened with O_PATH|O_NOFOLLOW and changed through that fd, so
 * nothing can be swapped in between the look and the chown. */
static int own_entry(int dirfd, const char *name, uid_t uid, gid_t gid, int depth)
{
	struct stat st;
	int fd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC), r = 0;

	if (fd < 0 || fstat(fd, &st) < 0)
		r = errno == ENOENT ? 0 : -1; /* gone meanwhile: nothing to own */
	else if (S_ISDIR(st.st_mode))
		r = own_subdir(dirfd, name, uid, gid, depth + 1);
	else if (!(S_ISREG(st.st_mode) && st.st_nlink > 1) && !S_ISCHR(st.st_mode) &&
		 !S_ISBLK(st.st_mode))
		r = fchownat(fd, "", uid, gid, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
	if (fd >= 0)
		close_keep_errno(fd);
	return r;
}

/* What is in dirfd gets uid:gid (see struct exec_dir). */
static int chown_entries(int dirfd, uid_t uid, gid_t gid, int depth)
{
	_Alignas(8) char buf[2048];
	long n;
	int r = 0;

	if (lseek(dirfd, 0, SEEK_SET) < 0)
		return -1;
	while ((n = syscall(SYS_getdents64, dirfd, buf, sizeof buf)) > 0) {
		for (long pos = 0; pos < n;) {
			const struct dirent64_raw *e = (const void *)(buf + pos);
			pos += e->reclen;
			if (strcmp(e->name, ".") == 0 || strcmp(e->name, "..") == 0)
				continue;
			if (own_entry(dirfd, e->name, uid, gid, depth) < 0)
				r = -1;
		}
	}
	return n < 0 ? -1 : r;
}

/* A directory below the top: its entries first, then itself, so a walk cut short leaves
 * the top with its old owner and the next start walks again. */
static int own_subdir(int parent, const char *name, uid_t uid, gid_t gid, int depth)
{
	int fd, r;

	if (depth > CHOWN_DEPTH_MAX) {
		errno = ELOOP;
		return -1;
	}
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	r = chown_entries(fd, uid, gid, depth) < 0 || fchown(fd, uid, gid) < 0 ? -1 : 0;
	close_keep_errno(fd);
	return r;
}

static int own_tree(int fd, uid_t uid, gid_t gid)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -1;
	if (st.st_uid == uid && st.st_gid == gid)
		return 0; /* as systemd: the top's owner says whether the rest needs a walk */
	if (chown_entries(fd, uid, gid, 0) < 0)
		return -1;
	return fchown(fd, uid, gid);
}

/* The innermost directory, below pfd: created 0700, so no one else can enter it before
 * its owner and mode are set; then owner (with what is in it) and mode, through the fd. */
static int finish_leaf(int pfd, const char *leaf, const struct exec_dir *d, uid_t uid,
		       gid_t gid)
{
	int fd = open_component(pfd, leaf, 0700), r;

	if (fd < 0)
		return -1;
	r = (d->owned && own_tree(fd, uid, gid) < 0) || fchmod(fd, d->mode) < 0 ? -1 : 0;
	close_keep_errno(fd);
	return r;
}

/* base/private: root's, mode 0700. One that belongs to someone else is not used. */
static int open_private_root(int base)
{
	int fd = open_component(base, "private", 0700);
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && st.st_uid != 0)
		errno = EPERM;
	else if (fstat(fd, &st) == 0 && ((st.st_mode & 07777) == 0700 || fchmod(fd, 0700) == 0))
		return fd;
	close_keep_errno(fd);
	return -1;
}

/* "private/a" for "a", "../private/a/b" for "a/b": relative to the link's directory. */
static int private_link_target(const char *path, char *buf, size_t size)
{
	size_t used = 0;
	int n;

	for (const char *p = strchr(path, '/'); p; p = strchr(p + 1, '/')) {
		if (used + 3 >= size)
			return -1;
		memcpy(buf + used, "../", 3);
		used += 3;
	}
	n = snprintf(buf + used, size - used, "private/%s", path);
	return n < 0 || (size_t)n >= size - used ? -1 : 0;
}

/* base/path, the public name: nothing yet, or our symlink already, or an older real
 * directory that is moved into private/ (no second one there). 1: the link is missing. */
static int public_name(int pub, int priv, const char *leaf, const char *target)
{
	char old[DIR_LINK_MAX];
	struct stat st;
	ssize_t n;

	if (fstatat(pub, leaf, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 1 : -1;
	if (S_ISLNK(st.st_mode)) {
		n = readlinkat(pub, leaf, old, sizeof old);
		if (n >= 0 && (size_t)n == strlen(target) && memcmp(old, target, (size_t)n) == 0)
			return 0;
	} else if (S_ISDIR(st.st_mode) && fstatat(priv, leaf, &st, AT_SYMLINK_NOFOLLOW) < 0 &&
		   errno == ENOENT) {
		return renameat(pub, leaf, priv, leaf) < 0 ? -1 : 1;
	}
	errno = EEXIST; /* someone else's link or file: not followed, not replaced */
	return -1;
}

static int create_private(const struct exec_dir *d, int base, uid_t uid, gid_t gid)
{
	char leaf[DIR_COMPONENT_MAX], target[DIR_LINK_MAX];
	int priv = open_private_root(base), pub = -1, priv_parent = -1, missing, r = -1;

	if (priv < 0 || private_link_target(d->path, target, sizeof target) < 0) {
		if (priv >= 0)
			errno = ENAMETOOLONG;
		goto out;
	}
	pub = walk_parent(fcntl(base, F_DUPFD_CLOEXEC, 0), d->path, leaf);
	priv_parent = pub < 0 ? -1 : walk_parent(fcntl(priv, F_DUPFD_CLOEXEC, 0), d->path, leaf);
	if (priv_parent < 0 || (missing = public_name(pub, priv_parent, leaf, target)) < 0 ||
	    finish_leaf(priv_parent, leaf, d, uid, gid) < 0 ||
	    (missing && symlinkat(target, pub, leaf) < 0))
		goto out;
	r = 0;
out:
	close_all((int[]){ base, priv, pub, priv_parent }, 4);
	return r;
}

static int create_one(const struct exec_dir *d, uid_t uid, gid_t gid)
{
	char leaf[DIR_COMPONENT_MAX];
	int fd = open(d->base, O_RDONLY | O_DIRECTORY | O_CLOEXEC), r;

	if (fd < 0)
		return -1;
	if (d->private_dir)
		return create_private(d, fd, uid, gid);
	if ((fd = walk_parent(fd, d->path, leaf)) < 0)
		return -1;
	r = finish_leaf(fd, leaf, d, uid, gid);
	close_keep_errno(fd);
	return r;
}

int exec_dirs_create(const struct exec_context *c, struct exec_failure *fail)
{
	uid_t uid = c->dir_owner_set ? c->dir_uid : c->set_ids ? c->uid : 0;
	gid_t gid = c->dir_owner_set ? c->dir_gid : c->set_ids ? c->gid : 0;

	for (size_t i = 0; i < c->dir_count; i++)
		if (create_one(&c->dirs[i], uid, gid) < 0)
			return fail_dir(fail, i);
	return 0;
}

/* Empty the directory dirfd (consumed), then the caller unlinks it. Symlinks are unlinked,
 * never followed; subdirectories are opened with O_NOFOLLOW. */
static int empty_dir(int dirfd, int depth)
{
	DIR *d = fdopendir(dirfd);
	struct dirent *e;
	int r = 0;

	if (!d) {
		close(dirfd);
		return -1;
	}
	while ((e = readdir(d))) {
		int sub;
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(dirfd, e->d_name, 0) == 0)
			continue;
		if (errno != EISDIR && errno != EPERM) {
			r = -1;
			continue;
		}
		sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0 || depth >= REMOVE_DEPTH_MAX) {
			if (sub >= 0)
				close(sub);
			r = -1;
			continue;
		}
		if (empty_dir(sub, depth + 1) < 0)
			r = -1;
		if (unlinkat(dirfd, e->d_name, AT_REMOVEDIR) < 0)
			r = -1;
	}
	closedir(d);
	return r;
}

/* The parent of path's last component below base, walked without following symlinks;
 * *leaf points into path. -1 with errno (ENOENT: nothing there). */
static int open_parent_nofollow(const char *base, const char *path, const char **leaf)
{
	const char *slash = strrchr(path, '/');
	int pfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	*leaf = slash ? slash + 1 : path;
	for (const char *p = path; pfd >= 0 && p < *leaf;) {
		size_t len = strcspn(p, "/");
		char name[DIR_COMPONENT_MAX];
		int next;

		if (copy_component(p, len, name) < 0) {
			close(pfd);
			return -1;
		}
		next = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close_keep_errno(pfd);
		pfd = next;
		p += len + 1;
	}
	return pfd;
}

int exec_dirs_remove(const char *base, const char *path)
{
	const char *leaf;
	int pfd = open_parent_nofollow(base, path, &leaf), fd, r;

	if (pfd < 0)
		return errno == ENOENT ? 0 : -1;
	fd = openat(pfd, leaf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		r = errno == ENOENT ? 0 : -1;
		close(pfd);
		return r;
	}
	r = empty_dir(fd, 0);
	if (unlinkat(pfd, leaf, AT_REMOVEDIR) < 0)
		r = -1;
	close(pfd);
	return r;
}

int exec_dirs_set_aside(const char *base, const char *path, char *aside, size_t size)
{
	static unsigned counter;
	const char *leaf;
	int pfd = open_parent_nofollow(base, path, &leaf), r = -1;
	struct stat st;

	aside[0] = '\0';
	if (pfd < 0)
		return errno == ENOENT ? 0 : -1;
	/* Only a directory of ours goes aside; a symlink in its place is left alone, as the
	 * removal would leave it. */
	if (fstatat(pfd, leaf, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode)) {
		close(pfd);
		return 0;
	}
	for (int tries = 0; tries < 16 && r < 0; tries++) {
		int n = snprintf(aside, size, "%.*s.ember-removed.%s.%u", (int)(leaf - path), path,
				 leaf, ++counter);
		const char *aside_leaf = aside + (leaf - path);
		if (n < 0 || (size_t)n >= size || strlen(aside_leaf) >= DIR_COMPONENT_MAX) {
			errno = ENAMETOOLONG;
			break;
		}
		/* onto an empty directory rename replaces it; a name in use gives ENOTEMPTY */
		if (renameat(pfd, leaf, pfd, aside_leaf) == 0)
			r = 0;
		else if (errno != ENOTEMPTY && errno != EEXIST)
			break;
	}
	if (r < 0)
		aside[0] = '\0';
	close_keep_errno(pfd);
	return r;
}
