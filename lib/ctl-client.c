/* One control request to ember-init and its reply, bounded in time: its callers
 * (ember-activator on the bus, ember-udev-wants on udev's events) must keep serving, so a
 * PID 1 that does not answer costs them one timeout, never a hang. */
#include "ctl-client.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#define RECORDS_MAX 8192 /* a status reply is one record of well under this */

static int connect_control(const char *path, char *err, size_t errlen)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof a.sun_path) {
		snprintf(err, errlen, "%.64s...: control socket path too long", path);
		return -1;
	}
	memcpy(a.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
		snprintf(err, errlen, "%s: cannot connect: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* The next packet within the deadline: its length, or -1 (err set). */
static ssize_t next_packet(int fd, char *buf, size_t size, long long deadline, char *err,
			   size_t errlen)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long long left = deadline - now_ms();
		ssize_t n;
		if (left <= 0 || poll(&p, 1, (int)left) == 0) {
			snprintf(err, errlen, "no complete answer from ember-init in time");
			return -1;
		}
		n = recv(fd, buf, size, 0);
		if (n > 0)
			return n;
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		snprintf(err, errlen, "ember-init ended the reply early%s%s", n ? ": " : "",
			 n ? strerror(errno) : "");
		return -1;
	}
}

/* The records of a reply: a fixed buffer (a status reply), or one grown as needed up to
 * max (a list). */
struct records {
	char *buf;
	size_t len, size, max;
	bool grows;
};

static int records_add(struct records *r, const char *data, size_t n)
{
	if (r->len + n >= r->size) {
		size_t size = r->size;
		char *grown;
		while (r->grows && r->len + n >= size && size < r->max)
			size *= 2;
		if (r->len + n >= size || !(grown = realloc(r->buf, size)))
			return -1;
		r->buf = grown;
		r->size = size;
	}
	memcpy(r->buf + r->len, data, n);
	r->len += n;
	return 0;
}

/* The reply's packets until 'X': its status, the first 'E' text in err, and the
 * records in rec (a fixed buffer drops what does not fit; a growing one fails). */
static int read_reply(int fd, long long deadline, struct records *rec, char *err, size_t errlen)
{
	char packet[CTL_PACKET_MAX + 1];
	int status;

	err[0] = '\0';
	for (;;) {
		ssize_t n = next_packet(fd, packet, CTL_PACKET_MAX, deadline, err, errlen);
		if (n < 0)
			return -1;
		if (packet[0] == CTL_KIND_ERROR && !err[0])
			snprintf(err, errlen, "%.*s", (int)n - 1, packet + 1);
		if (packet[0] == CTL_KIND_RECORD && records_add(rec, packet + 1, (size_t)n - 1) < 0 &&
		    rec->grows) {
			snprintf(err, errlen, "reply from ember-init over %zu bytes", rec->max);
			return -1;
		}
		if (packet[0] == CTL_KIND_EXIT) {
			rec->buf[rec->len] = '\0';
			if (ctl_parse_exit(packet + 1, (size_t)n - 1, &status) < 0) {
				snprintf(err, errlen, "malformed status from ember-init");
				return -1;
			}
			return status;
		}
	}
}

static void first_field(char *rec, const char *field, char *value, size_t size)
{
	struct ctl_record r;
	size_t pos = 0;
	char err[128];
	const char *v = NULL;

	if (ctl_record_read(rec, strlen(rec), &pos, &r, err, sizeof err) == 1)
		v = ctl_record_get(&r, field);
	snprintf(value, size, "%s", v ? v : "");
}

static int exchange(const char *socket_path, const struct ctl_request *req, long timeout_ms,
		    struct records *rec, char *err, size_t errlen)
{
	char buf[CTL_REQUEST_MAX + 1];
	long long deadline = now_ms() + timeout_ms;
	int fd, len, status;

	len = ctl_request_format(req, buf, sizeof buf, err, errlen);
	if (len < 0 || (fd = connect_control(socket_path, err, errlen)) < 0)
		return -1;
	if (send(fd, buf, (size_t)len, MSG_NOSIGNAL) != len) {
		snprintf(err, errlen, "cannot send to ember-init: %s", strerror(errno));
		close(fd);
		return -1;
	}
	status = read_reply(fd, deadline, rec, err, errlen);
	close(fd);
	return status;
}

static int request(const char *socket_path, const struct ctl_request *req, long timeout_ms,
		   const char *field, char *value, size_t value_size, char *err, size_t errlen)
{
	char buf[RECORDS_MAX];
	struct records rec = { buf, 0, sizeof buf, sizeof buf, false };
	int status = exchange(socket_path, req, timeout_ms, &rec, err, errlen);

	if (status >= 0 && field)
		first_field(buf, field, value, value_size);
	return status;
}

int ember_request_records(const char *socket_path, enum ctl_verb verb, const char *name,
			  long timeout_ms, char **records, size_t max, char *err, size_t errlen)
{
	struct ctl_request req = { .verb = verb };
	struct records rec = { malloc(RECORDS_MAX), 0, RECORDS_MAX, max, true };
	int status;

	if (!rec.buf) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	snprintf(req.name, sizeof req.name, "%s", name);
	status = exchange(socket_path, &req, timeout_ms, &rec, err, errlen);
	if (status < 0) {
		free(rec.buf);
		rec.buf = NULL;
	}
	*records = rec.buf;
	return status;
}

int ember_request(const char *socket_path, enum ctl_verb verb, const char *name,
		  long timeout_ms, const char *field, char *value, size_t value_size, char *err,
		  size_t errlen)
{
	struct ctl_request req = { .verb = verb };

	snprintf(req.name, sizeof req.name, "%s", name);
	return request(socket_path, &req, timeout_ms, field, value, value_size, err, errlen);
}

int ember_request_opts(const char *socket_path, enum ctl_verb verb, const char *name,
		       unsigned options, long timeout_ms, char *err, size_t errlen)
{
	struct ctl_request req = { .verb = verb, .options = options };

	snprintf(req.name, sizeof req.name, "%s", name);
	return request(socket_path, &req, timeout_ms, NULL, NULL, 0, err, errlen);
}
