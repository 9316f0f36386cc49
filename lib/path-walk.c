/* Walking a path as root without following another user's symlinks: see path-walk.h. */
#include "path-walk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WALK_PATH_MAX 4096

/* The symlink opened as link (closed here), followed from dir when root owns it, through
 * the text read from that very link, so it cannot be swapped for another meanwhile; one
 * anyone else made is refused (ELOOP). */
static int follow_root_link(int dir, int link, const struct stat *st, bool directory)
{
	char target[WALK_PATH_MAX];
	ssize_t n = st->st_uid == 0 ? readlinkat(link, "", target, sizeof target - 1) : -1;

	close(link);
	if (n < 0) {
		if (st->st_uid != 0)
			errno = ELOOP;
		return -1;
	}
	target[n] = '\0';
	return openat(dir, target, O_PATH | O_CLOEXEC | (directory ? O_DIRECTORY : 0));
}

int path_walk_component(int dir, const char *name, bool directory)
{
	struct stat st;
	int fd = openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return -1;
	}
	if (S_ISLNK(st.st_mode))
		return follow_root_link(dir, fd, &st, directory);
	if (directory && !S_ISDIR(st.st_mode)) {
		close(fd);
		errno = ENOTDIR;
		return -1;
	}
	return fd;
}

/* One directory below dir, as path_walk_component() opens it; a missing one is made
 * (root's, 0755) when create is set. */
static int walk_directory(int dir, const char *name, bool create)
{
	int fd = path_walk_component(dir, name, true);

	if (fd >= 0 || errno != ENOENT || !create)
		return fd;
	if (mkdirat(dir, name, 0755) < 0 && errno != EEXIST)
		return -1;
	return path_walk_component(dir, name, true);
}

int path_walk_parent(const char *path, bool create, char name[static PATH_WALK_NAME_MAX])
{
	const char *p = path + 1;
	int dir, fd;

	if (path[0] != '/') {
		errno = EINVAL;
		return -1;
	}
	dir = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	while (dir >= 0) {
		size_t len = strcspn(p, "/");
		if (len >= PATH_WALK_NAME_MAX) {
			close(dir);
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		if (!p[len])
			return dir;
		fd = walk_directory(dir, name, create);
		close(dir);
		dir = fd;
		p += len + 1;
	}
	return -1;
}

int path_walk_open(const char *path)
{
	char name[PATH_WALK_NAME_MAX];
	int dir = path_walk_parent(path, false, name), fd, err;

	if (dir < 0 || !*name) /* "/" */
		return dir;
	fd = path_walk_component(dir, name, false);
	err = errno;
	close(dir);
	errno = err;
	return fd;
}

/* name in dir opened with flags, never following a symlink there; a root-owned one is
 * followed through its O_PATH fd (reopened from /proc/self/fd). */
static int open_leaf(int dir, const char *name, int flags, mode_t mode)
{
	char self[32];
	int fd = openat(dir, name, flags | O_NOFOLLOW, mode), link, err;

	if (fd >= 0 || errno != ELOOP)
		return fd;
	link = path_walk_component(dir, name, false); /* ELOOP unless root's */
	if (link < 0)
		return -1;
	snprintf(self, sizeof self, "/proc/self/fd/%d", link);
	fd = open(self, flags & ~(O_CREAT | O_EXCL), mode);
	err = errno;
	close(link);
	errno = err;
	return fd;
}

int path_walk_open_file(const char *path, int flags, mode_t mode)
{
	char name[PATH_WALK_NAME_MAX];
	struct stat st;
	int dir = path_walk_parent(path, false, name), fd, err;
	bool truncate = flags & O_TRUNC;

	if (dir < 0)
		return -1;
	if (!*name) {
		close(dir);
		errno = EISDIR;
		return -1;
	}
	fd = open_leaf(dir, name, (flags & ~O_TRUNC) | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, mode);
	err = errno;
	close(dir);
	errno = err;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		goto fail;
	if (S_ISREG(st.st_mode) && st.st_nlink > 1) {
		errno = EMLINK;
		goto fail;
	}
	if ((truncate && S_ISREG(st.st_mode) && ftruncate(fd, 0) < 0) ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0)
		goto fail;
	return fd;
fail:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}
