#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int io_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

ssize_t io_read_full(int fd, void *buf, size_t size)
{
	char *p = buf;
	size_t got = 0;

	while (got < size) {
		ssize_t n = read(fd, p + got, size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

int io_write_file_at(int dirfd, const char *path, const char *value)
{
	int fd = openat(dirfd, path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	ssize_t n;
	int saved;

	if (fd < 0)
		return -1;
	n = write(fd, value, strlen(value));
	saved = errno;
	close(fd);
	if (n < 0) {
		errno = saved;
		return -1;
	}
	if ((size_t)n != strlen(value)) {
		errno = EIO;
		return -1;
	}
	return 0;
}

int io_write_file(const char *path, const char *value)
{
	return io_write_file_at(AT_FDCWD, path, value);
}

ssize_t io_read_file_at(int dirfd, const char *path, char *buf, size_t size)
{
	int fd, saved;
	ssize_t len;

	if (size == 0) { /* no room for the NUL */
		errno = EINVAL;
		return -1;
	}
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	len = io_read_full(fd, buf, size - 1);
	saved = errno;
	close(fd);
	errno = saved;
	if (len < 0)
		return -1;
	buf[len] = '\0';
	return len;
}

ssize_t io_read_file(const char *path, char *buf, size_t size)
{
	return io_read_file_at(AT_FDCWD, path, buf, size);
}

int io_mkdir_p(const char *path, unsigned mode)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof buf) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, mode) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, mode) < 0 && errno != EEXIST)
		return -1;
	return 0;
}
