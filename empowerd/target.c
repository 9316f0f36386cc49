/* Finding and opening the command as the caller (target.h). */
#include "target.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <unistd.h>

#include "env.h"
#include "escape.h"
#include "parse.h"

int caller_fs_enter(const struct peer *p)
{
	gid_t groups[PEER_GROUPS_MAX];
	for (size_t i = 1; i < p->gid_count; i++)
		groups[i - 1] = p->gids[i];
	if (setgroups(p->gid_count - 1, groups) < 0)
		return -1;
	setfsgid(p->gid);
	setfsuid(p->uid);
	/* setfs*id report the previous id, never an error: read back what holds now. */
	if ((uid_t)setfsuid((uid_t)-1) != p->uid || (gid_t)setfsgid((gid_t)-1) != p->gid) {
		caller_fs_leave();
		errno = EPERM;
		return -1;
	}
	return 0;
}

void caller_fs_leave(void)
{
	setfsuid(0);
	setfsgid(0);
	setgroups(0, NULL);
}

/* An executable regular file, or -1 with errno as execve would say. */
static int check_file(int fd)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -1;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return -1;
	}
	if (!S_ISREG(st.st_mode) || !(st.st_mode & 0111)) {
		errno = EACCES;
		return -1;
	}
	return 0;
}

static int open_checked(int dirfd, const char *path)
{
	int fd = openat(dirfd, path, O_PATH | O_CLOEXEC);
	if (fd >= 0 && check_file(fd) < 0) {
		int err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

int target_open(int base_fd, const char *name, char *path, size_t size)
{
	if (strchr(name, '/')) {
		if (str_copy(path, size, name) < 0) {
			errno = ENAMETOOLONG;
			return -1;
		}
		return open_checked(base_fd, name);
	}
	char dirs[] = ENV_SAFE_PATH, *save = NULL;
	int first_err = ENOENT;
	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		int n = snprintf(path, size, "%s/%s", d, name);
		if (n < 0 || (size_t)n >= size)
			continue;
		int fd = open_checked(AT_FDCWD, path);
		if (fd >= 0)
			return fd;
		if (errno != ENOENT && first_err == ENOENT)
			first_err = errno; /* as a shell says it: found, but not runnable */
	}
	path[0] = '\0';
	errno = first_err;
	return -1;
}

static bool owner_ok(const char *path, bool follow, char *why, size_t size)
{
	struct stat st;
	char shown[256];
	int r = follow ? stat(path, &st) : lstat(path, &st);
	if (r < 0) {
		snprintf(why, size, "%s: %s", escape_text(path, shown, sizeof shown), strerror(errno));
		return false;
	}
	if (st.st_uid != 0 || (!S_ISLNK(st.st_mode) && (st.st_mode & (S_IWGRP | S_IWOTH)))) {
		snprintf(why, size, "%s is %s", escape_text(path, shown, sizeof shown),
			 st.st_uid != 0 ? "not owned by root" : "writable by group or others");
		return false;
	}
	return true;
}

/* "/", "/a", "/a/b" ... and the whole path. */
static bool prefixes_ok(const char *path, char *why, size_t size)
{
	char part[PATH_MAX_LEN];
	if (path[0] != '/' || str_copy(part, sizeof part, path) < 0) {
		snprintf(why, size, "the path is not absolute");
		return false;
	}
	if (!owner_ok("/", true, why, size))
		return false;
	for (char *p = part + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		bool ok = part[0] == '\0' || owner_ok(part, false, why, size);
		*p = '/';
		if (!ok)
			return false;
	}
	return owner_ok(part, false, why, size);
}

bool target_path_trusted(int fd, const char *path, char *why, size_t size)
{
	char link[64], real[PATH_MAX_LEN];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, real, sizeof real - 1);
	if (n < 0) {
		snprintf(why, size, "cannot read the command's real path: %s", strerror(errno));
		return false;
	}
	real[n] = '\0';
	return prefixes_ok(path, why, size) && prefixes_ok(real, why, size);
}
