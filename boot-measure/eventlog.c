#include "eventlog.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io.h"
#include "parse.h"

#define LOG_MODE 0600 /* so that unprivileged users cannot take the lock */

static int make_parent(const char *path)
{
	char dir[PATH_MAX];
	char *slash;
	if (str_copy(dir, sizeof dir, path) < 0)
		return -1;
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	return io_mkdir_p(dir, 0755);
}

static int lock(int fd, int how)
{
	while (flock(fd, how) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

/* Regular file check after locking; the marker state comes with it. */
static int check_regular(int fd, bool *incomplete)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -1;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return -1;
	}
	*incomplete = (st.st_mode & S_ISVTX) != 0;
	return 0;
}

static void close_keeping_errno(int fd)
{
	int saved = errno;
	close(fd);
	errno = saved;
}

int event_log_open_writer(struct event_log *log, const char *path)
{
	log->path = path;
	log->fd = -1;
	if (make_parent(path) < 0)
		return -1;
	log->fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW, LOG_MODE);
	if (log->fd < 0)
		return -1;
	if (lock(log->fd, LOCK_EX) < 0 || check_regular(log->fd, &log->was_incomplete) < 0) {
		close_keeping_errno(log->fd);
		log->fd = -1;
		return -1;
	}
	return 0;
}

int event_log_mark_in_progress(struct event_log *log)
{
	if (fchmod(log->fd, LOG_MODE | S_ISVTX) < 0)
		return -1;
	return fsync(log->fd);
}

int event_log_append(struct event_log *log, const char *record, size_t len)
{
	if (lseek(log->fd, 0, SEEK_END) < 0)
		return -1;
	if (io_write_all(log->fd, record, len) < 0)
		return -1;
	return fsync(log->fd);
}

int event_log_mark_complete(struct event_log *log)
{
	if (log->was_incomplete)
		return 0;
	if (fchmod(log->fd, LOG_MODE) < 0)
		return -1;
	return fsync(log->fd);
}

void event_log_close(struct event_log *log)
{
	if (log->fd >= 0)
		close(log->fd);
	log->fd = -1;
}

static int read_all(int fd, char **data, size_t *len)
{
	size_t size = 4096, used = 0;
	char *buf = malloc(size + 1);
	if (!buf)
		return -1;
	for (;;) {
		ssize_t n;
		if (used == size) {
			char *bigger;
			if (size >= EVENT_LOG_READ_MAX) {
				free(buf);
				errno = EFBIG;
				return -1;
			}
			size *= 2;
			bigger = realloc(buf, size + 1);
			if (!bigger) {
				free(buf);
				return -1;
			}
			buf = bigger;
		}
		n = read(fd, buf + used, size - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return -1;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	buf[used] = '\0';
	*data = buf;
	*len = used;
	return 0;
}

int event_log_read(struct event_log *log, const char *path, char **data, size_t *len)
{
	log->path = path;
	log->was_incomplete = false;
	log->fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
	if (log->fd < 0 && errno == ENOENT) {
		*data = calloc(1, 1);
		*len = 0;
		return *data ? 0 : -1;
	}
	if (log->fd < 0)
		return -1;
	if (lock(log->fd, LOCK_SH) < 0 || check_regular(log->fd, &log->was_incomplete) < 0 ||
	    read_all(log->fd, data, len) < 0) {
		close_keeping_errno(log->fd);
		log->fd = -1;
		return -1;
	}
	return 0;
}
