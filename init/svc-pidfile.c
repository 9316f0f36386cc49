/* PIDFile= and main-PID guessing for Type=forking. See svc-pidfile.h. */
#include "svc-pidfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int svc_pidfile_parse(const char *text, size_t len, pid_t *pid)
{
	unsigned long v = 0;
	size_t i = 0;

	while (i < len && (text[i] == ' ' || text[i] == '\t'))
		i++;
	if (i == len || text[i] < '0' || text[i] > '9')
		return -1;
	for (; i < len && text[i] >= '0' && text[i] <= '9'; i++) {
		v = v * 10 + (unsigned long)(text[i] - '0');
		if (v > 4194304) /* PID_MAX_LIMIT */
			return -1;
	}
	for (; i < len; i++)
		if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r')
			return -1;
	if (v == 0)
		return -1;
	*pid = (pid_t)v;
	return 0;
}

/* The directory of path belongs to root (the file's name is not ours to trust if
 * someone else may rename files in it). */
static bool dir_owned_by_root(const char *path)
{
	char dir[256];
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (!slash || (size_t)(slash - path) >= sizeof dir)
		return false;
	if (slash == path)
		return stat("/", &st) == 0 && st.st_uid == 0;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	return stat(dir, &st) == 0 && st.st_uid == 0;
}

int svc_pidfile_read(const char *path, pid_t *pid, bool *trusted, char *err, size_t errlen)
{
	char buf[SVC_PIDFILE_MAX + 1], self[32];
	struct stat link_st, st;
	ssize_t n;
	int fd, file;

	if (lstat(path, &link_st) < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "PIDFile=%s: %s", path, strerror(errno));
		return -1;
	}
	/* Looked at (O_PATH) before it is opened: the service's user may put a FIFO or a
	 * link to a device there, and the open itself acts (/dev/watchdog is armed by it,
	 * a FIFO's waiting writer let through). Only a regular file is read, through that
	 * fd; a link is followed, and its owner decides trusted below (as systemd). */
	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "PIDFile=%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(err, errlen, "PIDFile=%s: not a regular file", path);
		return -1;
	}
	snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
	file = open(self, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	close(fd);
	if (file < 0) {
		snprintf(err, errlen, "PIDFile=%s: %s", path, strerror(errno));
		return -1;
	}
	n = read(file, buf, sizeof buf);
	close(file);
	/* Created but not yet written: a daemon whose child writes the file after its parent
	 * has exited (busybox crond) is caught here under load; systemd waits for it too. */
	if (n == 0)
		return 0;
	if (n < 0 || n > SVC_PIDFILE_MAX || svc_pidfile_parse(buf, (size_t)n, pid) < 0) {
		snprintf(err, errlen, "PIDFile=%s: does not hold a PID", path);
		return -1;
	}
	*trusted = st.st_uid == 0 && link_st.st_uid == 0 && dir_owned_by_root(path);
	return 1;
}

/* The parent of pid from /proc/PID/stat (the field after the state, past the last ')'
 * of the command name, which may hold anything); -1 when it cannot be read. */
static pid_t parent_of(pid_t pid)
{
	char path[32], buf[512], *p;
	long ppid;
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (!(p = strrchr(buf, ')')) || sscanf(p + 1, " %*c %ld", &ppid) != 1)
		return -1;
	return (pid_t)ppid;
}

pid_t svc_guess_main_pid(int cg_fd, pid_t except)
{
	char buf[4096];
	pid_t only = 0, orphan = 0, pid;
	unsigned count = 0, orphans = 0;
	ssize_t n;
	int fd;

	if (cg_fd < 0)
		return -1;
	fd = openat(cg_fd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n < 0 || n == (ssize_t)sizeof buf - 1) /* unreadable, or too many to tell */
		return -1;
	buf[n] = '\0';
	for (char *line = buf, *next; *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		if (svc_pidfile_parse(line, strlen(line), &pid) < 0 || pid == except)
			continue;
		count++;
		only = pid;
		/* as systemd: of several, the daemon is the one handed to us, its parent gone */
		if (parent_of(pid) == getpid()) {
			orphans++;
			orphan = pid;
		}
	}
	if (count <= 1)
		return only;
	return orphans == 1 ? orphan : -1;
}

/* Only root can have put what a directory holds: it is root's and no one else may
 * write to it. */
static bool dir_root_only(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && st.st_uid == 0 && !(st.st_mode & (S_IWGRP | S_IWOTH));
}

/* The link `name` in the directory fd, if only root can have made it: its target, with
 * what followed it in the path (rest), into path as the next path to walk. */
static bool follow_root_link(int fd, const char *name, size_t name_at, const char *rest,
			     char *path, size_t size)
{
	char target[PATH_MAX], next[PATH_MAX];
	struct stat st;
	ssize_t n;
	int w;

	if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISLNK(st.st_mode) ||
	    st.st_uid != 0 || !dir_root_only(fd))
		return false;
	n = readlinkat(fd, name, target, sizeof target - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	/* A relative target continues from the link's directory: the path up to the link. */
	w = target[0] == '/' ? snprintf(next, sizeof next, "%s%s", target, rest)
			     : snprintf(next, sizeof next, "%.*s%s%s", (int)name_at, path, target, rest);
	if (w < 0 || (size_t)w >= size || (size_t)w >= sizeof next)
		return false;
	memcpy(path, next, (size_t)w + 1);
	return true;
}

/* Open the directory at the absolute path dir without following a link anyone but root
 * can have placed: the directories on the way may be the service user's, who must not be
 * able to point PID 1 at another directory. Root's links (Debian's /var/run -> /run) are
 * followed, at most PIDFILE_LINK_HOPS of them. Returns an O_PATH fd or -1. */
#define PIDFILE_LINK_HOPS 8
static int open_dir_guarded(const char *dir)
{
	char path[PATH_MAX], name[NAME_MAX + 1];
	int fd = -1, hops = 0;
	size_t pos = 0, len;

	if (strlen(dir) >= sizeof path)
		return -1;
	strcpy(path, dir);
restart:
	if (fd >= 0)
		close(fd);
	fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	for (pos = 0; fd >= 0;) {
		int next;

		pos += strspn(path + pos, "/");
		len = strcspn(path + pos, "/");
		if (len == 0)
			return fd;
		if (len > NAME_MAX)
			break;
		memcpy(name, path + pos, len);
		name[len] = '\0';
		next = openat(fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0) {
			if (++hops > PIDFILE_LINK_HOPS ||
			    !follow_root_link(fd, name, pos, path + pos + len, path, sizeof path))
				break;
			goto restart;
		}
		close(fd);
		fd = next;
		pos += len;
	}
	if (fd >= 0)
		close(fd);
	return -1;
}

void svc_pidfile_remove(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd;

	if (!slash || !slash[1] || (size_t)(slash - path) >= sizeof dir)
		return;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	fd = open_dir_guarded(dir);
	if (fd < 0)
		return;
	(void)unlinkat(fd, slash + 1, 0); /* gone already, or a directory: as systemd, no word */
	close(fd);
}
