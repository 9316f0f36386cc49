/* U5: RuntimeDirectory= and friends, created and removed without following symlinks.
 * See exec-context.h (struct exec_dir) and docs/exec-context.md. Runs in a forked child
 * (creation: before the identity switch; removal: a short-lived child of PID 1). */
#include "exec-context.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DIR_COMPONENT_MAX 256
#define REMOVE_DEPTH_MAX 32

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

static int create_one(const struct exec_dir *d, uid_t uid, gid_t gid)
{
	char name[DIR_COMPONENT_MAX];
	const char *p = d->path;
	int fd = open(d->base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (*p) {
		size_t len = strcspn(p, "/");
		bool last = p[len] == '\0';
		int next;

		if (len == 0 || len >= sizeof name) {
			close(fd);
			errno = EINVAL;
			return -1;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		next = open_component(fd, name, last ? 0700 : 0755);
		close(fd);
		if (next < 0)
			return -1;
		fd = next;
		p += len + (last ? 0 : 1);
	}
	/* Through the fd: what was opened is what gets the owner and mode. */
	if ((d->owned && fchown(fd, uid, gid) < 0) || fchmod(fd, d->mode) < 0) {
		int saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	close(fd);
	return 0;
}

int exec_dirs_create(const struct exec_context *c, struct exec_failure *fail)
{
	uid_t uid = c->set_ids ? c->uid : 0;
	gid_t gid = c->set_ids ? c->gid : 0;

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

int exec_dirs_remove(const char *base, const char *path)
{
	char parent[4096];
	const char *slash = strrchr(path, '/');
	const char *leaf = slash ? slash + 1 : path;
	int pfd, fd, r;

	if (strlen(path) >= sizeof parent) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/* The parent: walked without following symlinks below base, like creation. */
	pfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (const char *p = path; pfd >= 0 && p < leaf; ) {
		size_t len = strcspn(p, "/");
		char name[DIR_COMPONENT_MAX];
		int next;
		if (len == 0 || len >= sizeof name)
			break;
		memcpy(name, p, len);
		name[len] = '\0';
		next = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(pfd);
		pfd = next;
		p += len + 1;
	}
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
