/* A minimal D-Bus client (dbus-client.h). */
#include "dbus-client.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "io.h"
#include "parse.h"

long long dbus_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Decode value (up to end) with %XX escapes into out. */
static int unescape(const char *value, const char *end, char *out, size_t size)
{
	size_t n = 0;

	for (const char *s = value; s < end; s++) {
		char c = *s;
		if (c == '%') {
			int hi, lo;
			if (end - s < 3 || (hi = hex_digit_value(s[1])) < 0 || (lo = hex_digit_value(s[2])) < 0)
				return -1;
			c = (char)(hi * 16 + lo);
			s += 2;
		}
		if (c == '\0' || n + 1 >= size)
			return -1;
		out[n++] = c;
	}
	out[n] = '\0';
	return n > 0 ? 0 : -1;
}

int dbus_address_unix(const char *address, char *path, size_t size)
{
	const char *entry = address;

	while (entry && *entry) {
		const char *end = strchr(entry, ';');
		const char *stop = end ? end : entry + strlen(entry);
		if (strncmp(entry, "unix:", 5) == 0) {
			for (const char *kv = entry + 5; kv < stop;) {
				const char *comma = memchr(kv, ',', (size_t)(stop - kv));
				const char *kv_end = comma ? comma : stop;
				if (strncmp(kv, "path=", 5) == 0 && kv + 5 < kv_end)
					return unescape(kv + 5, kv_end, path, size);
				if (strncmp(kv, "abstract=", 9) == 0 && kv + 9 < kv_end && size > 1) {
					path[0] = '@';
					return unescape(kv + 9, kv_end, path + 1, size - 1);
				}
				kv = comma ? comma + 1 : stop;
			}
		}
		entry = end ? end + 1 : NULL;
	}
	return -1;
}

/* fd ready for events: 1; the deadline passed or wake (>= 0) is readable: 0; -1. */
static int wait_fd_or_wake(int fd, short events, int wake, long long deadline_ms)
{
	struct pollfd p[2] = { { .fd = fd, .events = events }, { .fd = wake, .events = POLLIN } };
	int timeout = -1, r;

	if (deadline_ms >= 0) {
		long long left = deadline_ms - dbus_now_ms();
		timeout = left <= 0 ? 0 : left > 60000 ? 60000 : (int)left;
	}
	do
		r = poll(p, wake >= 0 ? 2 : 1, timeout);
	while (r < 0 && errno == EINTR);
	return r > 0 && !p[0].revents ? 0 : r > 0 ? 1 : r;
}

static int wait_fd(int fd, short events, long long deadline_ms)
{
	return wait_fd_or_wake(fd, events, -1, deadline_ms);
}

/* One "\r\n"-terminated line of the auth conversation (at most size - 1 bytes). */
static int read_line(int fd, char *line, size_t size, long long deadline_ms)
{
	size_t n = 0;

	while (n + 1 < size) {
		ssize_t r;
		if (wait_fd(fd, POLLIN, deadline_ms) <= 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		r = read(fd, line + n, 1); /* one byte at a time: nothing past the line is taken */
		if (r <= 0) {
			if (r == 0)
				errno = ECONNRESET;
			if (r < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			return -1;
		}
		if (++n >= 2 && line[n - 2] == '\r' && line[n - 1] == '\n') {
			line[n - 2] = '\0';
			return 0;
		}
	}
	errno = EPROTO;
	return -1;
}

static int connect_unix(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	size_t len = strlen(path);
	int fd;

	if (len >= sizeof a.sun_path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(a.sun_path, path, len);
	if (path[0] == '@')
		a.sun_path[0] = '\0';
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&a,
		    (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len + (path[0] != '@'))) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static int fail(char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s: %s", what, strerror(errno));
	return -1;
}

/* NEGOTIATE_UNIX_FD after OK: the bus says AGREE_UNIX_FD or ERROR. */
static int negotiate_fds(struct dbus_conn *c, long long deadline_ms, char *err, size_t errlen)
{
	char line[256];

	if (io_write_all(c->fd, "NEGOTIATE_UNIX_FD\r\n", 19) < 0)
		return fail(err, errlen, "sending NEGOTIATE_UNIX_FD");
	if (read_line(c->fd, line, sizeof line, deadline_ms) < 0)
		return fail(err, errlen, "reading the NEGOTIATE_UNIX_FD answer");
	if (strcmp(line, "AGREE_UNIX_FD") != 0) {
		snprintf(err, errlen, "the bus does not pass file descriptors: %.64s", line);
		return -1;
	}
	return 0;
}

static int authenticate(struct dbus_conn *c, bool want_fds, long long deadline_ms, char *err,
			size_t errlen)
{
	char line[256];
	size_t n = dbus_auth_line(line, sizeof line, (unsigned long)geteuid());

	if (io_write_all(c->fd, "", 1) < 0 || io_write_all(c->fd, line, n) < 0)
		return fail(err, errlen, "sending AUTH");
	if (read_line(c->fd, line, sizeof line, deadline_ms) < 0)
		return fail(err, errlen, "reading the AUTH answer");
	if (strncmp(line, "OK ", 3) != 0) {
		snprintf(err, errlen, "the bus refused AUTH EXTERNAL: %.64s", line);
		return -1;
	}
	if (want_fds && negotiate_fds(c, deadline_ms, err, errlen) < 0)
		return -1;
	if (io_write_all(c->fd, "BEGIN\r\n", 7) < 0)
		return fail(err, errlen, "sending BEGIN");
	return 0;
}

static int open_conn(struct dbus_conn *c, const char *address, bool want_fds,
		     long long deadline_ms, char *err, size_t errlen)
{
	char path[108];
	struct dbus_msg m;
	uint32_t serial;
	int r;

	c->fd = -1;
	c->len = c->pending = 0;
	c->nfds = c->pending_fds = 0;
	c->fds_lost = false;
	c->lost_end = 0;
	c->dropped = 0;
	c->serial = 0;
	if (errlen)
		err[0] = '\0';
	if (!address)
		address = getenv("DBUS_SYSTEM_BUS_ADDRESS");
	if (!address || !*address)
		address = DBUS_SYSTEM_BUS_DEFAULT;
	if (dbus_address_unix(address, path, sizeof path) < 0) {
		snprintf(err, errlen, "%.200s: no unix:path= or unix:abstract= address", address);
		errno = EINVAL;
		return -1;
	}
	c->fd = connect_unix(path);
	if (c->fd < 0) {
		int e = errno;
		snprintf(err, errlen, "connect %s: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	if (authenticate(c, want_fds, deadline_ms, err, errlen) < 0 ||
	    dbus_conn_call(c, "Hello", NULL, false, 0, &serial) < 0) {
		if (!*err)
			fail(err, errlen, "Hello");
		dbus_conn_close(c);
		errno = EPROTO;
		return -1;
	}
	r = dbus_conn_wait_reply_from(c, serial, DBUS_DRIVER, &m, deadline_ms);
	if (r <= 0) {
		if (r == 0)
			snprintf(err, errlen, "Hello: no answer before the deadline");
		else
			fail(err, errlen, "Hello");
		dbus_conn_close(c);
		errno = r == 0 ? ETIMEDOUT : EPROTO;
		return -1;
	}
	return 0;
}

int dbus_conn_open(struct dbus_conn *c, const char *address, long long deadline_ms,
		   char *err, size_t errlen)
{
	return open_conn(c, address, false, deadline_ms, err, errlen);
}

int dbus_conn_open_fds(struct dbus_conn *c, const char *address, long long deadline_ms,
		       char *err, size_t errlen)
{
	return open_conn(c, address, true, deadline_ms, err, errlen);
}

void dbus_conn_close(struct dbus_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	for (size_t i = 0; i < c->nfds; i++)
		if (c->fds[i] >= 0)
			close(c->fds[i]);
	c->nfds = c->pending_fds = 0;
}

int dbus_conn_send(struct dbus_conn *c, struct dbus_out *o, uint32_t *serial)
{
	uint8_t msg[4096];
	size_t n;

	o->serial = c->serial + 1;
	n = dbus_msg_build(msg, sizeof msg, o);
	if (n == 0) {
		errno = EMSGSIZE;
		return -1;
	}
	*serial = ++c->serial;
	return io_write_all(c->fd, msg, n);
}

int dbus_conn_take_fd(struct dbus_conn *c, uint32_t index)
{
	int fd;

	if (index >= c->pending_fds || c->fds[index] < 0) {
		errno = EBADF;
		return -1;
	}
	fd = c->fds[index];
	c->fds[index] = -1;
	return fd;
}

int dbus_conn_call(struct dbus_conn *c, const char *member, const char *arg, bool with_u32,
		   uint32_t u32, uint32_t *serial)
{
	uint8_t msg[1024];
	size_t n = dbus_call_build(msg, sizeof msg, ++c->serial, member, arg, with_u32, u32);

	if (n == 0) {
		errno = EMSGSIZE;
		return -1;
	}
	*serial = c->serial;
	return io_write_all(c->fd, msg, n);
}

/* Close fds[from..to) (those not taken) and close the gap. */
static void drop_fds(struct dbus_conn *c, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (c->fds[i] >= 0)
			close(c->fds[i]);
	memmove(c->fds + from, c->fds + to, (c->nfds - to) * sizeof *c->fds);
	memmove(c->fd_end + from, c->fd_end + to, (c->nfds - to) * sizeof *c->fd_end);
	c->nfds -= to - from;
}

/* Drop the message at the front of buf, and its fds that were not taken. */
static void consume(struct dbus_conn *c, size_t n)
{
	memmove(c->buf, c->buf + n, c->len - n);
	c->len -= n;
	drop_fds(c, 0, c->pending_fds);
	c->pending_fds = 0;
	for (size_t i = 0; i < c->nfds; i++)
		c->fd_end[i] = c->fd_end[i] > n ? c->fd_end[i] - n : 0;
	/* past the bytes the last lost fd came with: what follows is whole again */
	c->lost_end = c->lost_end > n ? c->lost_end - n : 0;
	if (c->lost_end == 0)
		c->fds_lost = false;
}

/* A message of size bytes naming count fds is complete at the front of buf. The fds
 * that came only with its bytes and beyond count are no one's (a peer sending fds with
 * a message that names none): closed now, or they would pile up until the table is
 * full and the fds of the reply awaited were lost. An fd whose bytes reach past the
 * message may belong to the next one (two messages in one write) and stays. */
static void drop_surplus_fds(struct dbus_conn *c, size_t size, size_t count)
{
	size_t end = count;

	while (end < c->nfds && c->fd_end[end] <= size)
		end++;
	if (end > count)
		drop_fds(c, count, end);
}

/* An fd that came with the bytes up to end was closed: the messages up to there may miss
 * theirs. */
static void lost_until(struct dbus_conn *c, size_t end)
{
	c->fds_lost = true;
	if (end > c->lost_end)
		c->lost_end = end;
}

static void keep_fd(struct dbus_conn *c, int fd, size_t end)
{
	if (c->nfds < DBUS_CONN_FDS_MAX) {
		c->fd_end[c->nfds] = end;
		c->fds[c->nfds++] = fd;
		return;
	}
	close(fd);
	lost_until(c, end);
}

/* read(2) that also takes the fds sent with the bytes (close-on-exec at once). */
static ssize_t receive(struct dbus_conn *c)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int) * DBUS_CONN_FDS_MAX)];
	} ctl;
	struct iovec iov = { c->buf + c->len, sizeof c->buf - c->len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			     .msg_controllen = sizeof ctl.buf };
	ssize_t r = recvmsg(c->fd, &mh, MSG_CMSG_CLOEXEC);

	if (r < 0)
		return r;
	for (struct cmsghdr *h = CMSG_FIRSTHDR(&mh); h; h = CMSG_NXTHDR(&mh, h)) {
		size_t n;
		if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS)
			continue;
		n = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < n; i++) {
			int fd;
			memcpy(&fd, CMSG_DATA(h) + i * sizeof fd, sizeof fd);
			keep_fd(c, fd, c->len + (size_t)r);
		}
	}
	if (mh.msg_flags & MSG_CTRUNC)
		lost_until(c, c->len + (size_t)r);
	return r;
}

/* A message that names fds while some were closed for want of room (they may be its
 * own): it goes, with what is left of its fds, not the connection. */
static void drop_lost(struct dbus_conn *c, size_t size, size_t count)
{
	c->pending_fds = count < c->nfds ? count : c->nfds;
	consume(c, size);
	c->dropped++;
}

int dbus_conn_read(struct dbus_conn *c, struct dbus_msg *m, long long deadline_ms)
{
	return dbus_conn_read_or_wake(c, m, deadline_ms, -1);
}

int dbus_conn_read_or_wake(struct dbus_conn *c, struct dbus_msg *m, long long deadline_ms,
			   int wake)
{
	if (c->pending) {
		consume(c, c->pending);
		c->pending = 0;
	}
	for (;;) {
		long size = dbus_msg_size(c->buf, c->len);
		ssize_t r;
		if (size < 0) {
			errno = EBADMSG;
			return -1;
		}
		if (size > 0 && c->len >= (size_t)size) {
			if (dbus_msg_parse(c->buf, (size_t)size, m) < 0 ||
			    (m->unix_fds && !c->fds_lost && m->unix_fds > c->nfds)) {
				errno = EBADMSG;
				return -1;
			}
			if (m->unix_fds && c->fds_lost) {
				drop_lost(c, (size_t)size, m->unix_fds);
				continue;
			}
			drop_surplus_fds(c, (size_t)size, m->unix_fds);
			c->pending = (size_t)size;
			c->pending_fds = m->unix_fds;
			return 1;
		}
		r = wait_fd_or_wake(c->fd, POLLIN, wake, deadline_ms);
		if (r == 0)
			return 0;
		if (r < 0)
			return -1;
		r = receive(c);
		if (r == 0)
			errno = ECONNRESET;
		if (r <= 0) {
			if (r < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			return -1;
		}
		c->len += (size_t)r;
	}
}

int dbus_conn_wait_reply_from(struct dbus_conn *c, uint32_t serial, const char *sender,
			      struct dbus_msg *m, long long deadline_ms)
{
	for (;;) {
		int r;
		/* poll() with no time left still says "readable": a peer that keeps sending
		 * would otherwise hold us past the deadline. */
		if (deadline_ms >= 0 && dbus_now_ms() >= deadline_ms)
			return 0;
		r = dbus_conn_read(c, m, deadline_ms);
		if (r <= 0)
			return r;
		if ((m->type != DBUS_METHOD_RETURN && m->type != DBUS_ERROR) || m->reply_serial != serial)
			continue;
		/* Any peer may send a return with our serial (a bus that lets unrequested
		 * replies through): only the one asked may answer. */
		if (sender && (!m->sender || strcmp(m->sender, sender) != 0))
			continue;
		if (m->type == DBUS_ERROR) {
			errno = EREMOTEIO;
			return -1;
		}
		return 1;
	}
}

int dbus_conn_wait_reply(struct dbus_conn *c, uint32_t serial, struct dbus_msg *m,
			 long long deadline_ms)
{
	return dbus_conn_wait_reply_from(c, serial, NULL, m, deadline_ms);
}
