/* journal: the stdout stream protocol of systemd-journald. After connecting, a client
 * sends seven header lines (identifier, unit, priority, level prefix, and three forward
 * flags), then its output; journald learns the sender's pid from the socket's credentials,
 * and from the pid the cgroup and so the unit. Hence the child connects, not PID 1. */
#include "journal-stream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "io.h"

#define HEADER_MAX 640
#define NAME_MAX_LEN 255

static size_t put_name(char *buf, size_t size, size_t at, const char *name)
{
	size_t i;

	for (i = 0; name && name[i] && i < NAME_MAX_LEN && at + i < size; i++)
		buf[at + i] = (unsigned char)name[i] < 0x20 || name[i] == 0x7f ? '_' : name[i];
	return at + i;
}

size_t journal_stream_header(char *buf, size_t size, const struct journal_stream_header *h)
{
	size_t at = put_name(buf, size, 0, h->identifier);
	int n;

	if (at >= size)
		return 0;
	buf[at++] = '\n';
	at = put_name(buf, size, at, h->unit);
	if (at >= size)
		return 0;
	buf[at++] = '\n';
	/* forward to syslog: journald's own setting decides; to kmsg: ember does that itself */
	n = snprintf(buf + at, size - at, "%u\n%d\n0\n0\n%d\n", h->priority & 0xffu,
		     h->level_prefix, h->to_console);
	if (n < 0 || (size_t)n >= size - at)
		return 0;
	return at + (size_t)n;
}

int journal_stream_connect(const char *socket_path, const struct journal_stream_header *h)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char header[HEADER_MAX];
	size_t len = journal_stream_header(header, sizeof header, h);
	int fd;

	if (len == 0 || strlen(socket_path) >= sizeof addr.sun_path)
		return -1;
	memcpy(addr.sun_path, socket_path, strlen(socket_path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	/* Non-blocking: a journald that is stopped with its socket still held, or drowning in
	 * connections, must not hold the service's start. The header fits an empty buffer. */
	if (connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0 ||
	    shutdown(fd, SHUT_RD) < 0 || io_write_all(fd, header, len) < 0 ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int journal_stream_env(int fd, char *buf, size_t size)
{
	struct stat st;
	int n;

	if (fstat(fd, &st) < 0)
		return -1;
	n = snprintf(buf, size, "JOURNAL_STREAM=%lu:%lu", (unsigned long)st.st_dev,
		     (unsigned long)st.st_ino);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}
