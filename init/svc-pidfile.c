/* PIDFile= and main-PID guessing for Type=forking. See svc-pidfile.h. */
#include "svc-pidfile.h"

#include <errno.h>
#include <fcntl.h>
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
	char buf[SVC_PIDFILE_MAX + 1];
	struct stat link_st, st;
	ssize_t n;
	int fd;

	if (lstat(path, &link_st) < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "PIDFile=%s: %s", path, strerror(errno));
		return -1;
	}
	/* O_NONBLOCK: a FIFO put in its place must not hang PID 1 (it is refused below). */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
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
	n = read(fd, buf, sizeof buf);
	close(fd);
	if (n < 0 || n > SVC_PIDFILE_MAX || svc_pidfile_parse(buf, (size_t)n, pid) < 0) {
		snprintf(err, errlen, "PIDFile=%s: does not hold a PID", path);
		return -1;
	}
	*trusted = st.st_uid == 0 && link_st.st_uid == 0 && dir_owned_by_root(path);
	return 1;
}

pid_t svc_guess_main_pid(int cg_fd, pid_t except)
{
	char buf[512];
	pid_t found = 0, pid;
	ssize_t n;
	int fd;

	if (cg_fd < 0)
		return -1;
	fd = openat(cg_fd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n < 0 || n == (ssize_t)sizeof buf - 1) /* unreadable, or too many to be one */
		return -1;
	buf[n] = '\0';
	for (char *line = buf, *next; *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		if (svc_pidfile_parse(line, strlen(line), &pid) < 0 || pid == except)
			continue;
		if (found)
			return -1;
		found = pid;
	}
	return found;
}
