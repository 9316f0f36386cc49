/* Talking to PID 1 over the control socket (docs/control-protocol.md). */
#include "client.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "ctl.h"
#include "log.h"
#include "records.h"

void reply_init(struct reply *r, FILE *text, bool text_tty, FILE *errors)
{
	memset(r, 0, sizeof *r);
	r->status = -1;
	r->text = text;
	r->text_tty = text_tty;
	r->errors = errors;
}

void reply_free(struct reply *r)
{
	free(r->records);
	r->records = NULL;
	r->records_len = 0;
}

static int add_records(struct reply *r, const char *payload, size_t len, char *err,
		       size_t errlen)
{
	char *grown;

	/* A record line never spans packets: a payload that does not end a line was cut. */
	if (len == 0 || payload[len - 1] != '\n') {
		snprintf(err, errlen, "record packet that does not end with a complete line");
		return CLIENT_PROTOCOL;
	}
	if (r->records_len + len > CLIENT_RECORDS_MAX) {
		snprintf(err, errlen, "reply with more than %u bytes of records", CLIENT_RECORDS_MAX);
		return CLIENT_PROTOCOL;
	}
	grown = realloc(r->records, r->records_len + len + 1);
	if (!grown) {
		snprintf(err, errlen, "out of memory for %zu bytes of records", r->records_len + len);
		return CLIENT_SYSTEM;
	}
	r->records = grown;
	memcpy(r->records + r->records_len, payload, len);
	r->records_len += len;
	r->records[r->records_len] = '\0';
	return CLIENT_MORE;
}

/* Log lines as they are, but never raw control bytes on a terminal. */
static void put_text(struct reply *r, const char *payload, size_t len)
{
	size_t start = 0;

	r->text_len += len;
	if (!r->text_tty) {
		fwrite(payload, 1, len, r->text);
	} else {
		for (size_t i = 0; i < len; i++) {
			unsigned char c = (unsigned char)payload[i];
			if ((c >= 0x20 && c != 0x7f) || c == '\n' || c == '\t')
				continue;
			fwrite(payload + start, 1, i - start, r->text);
			print_safe_n(r->text, payload + i, 1);
			start = i + 1;
		}
		fwrite(payload + start, 1, len - start, r->text);
	}
	fflush(r->text);
}

int reply_packet(struct reply *r, const char *packet, size_t len, char *err, size_t errlen)
{
	const char *payload = packet + 1;
	size_t n = len > 0 ? len - 1 : 0;

	if (r->status >= 0) {
		snprintf(err, errlen, "packet after the final status packet");
		return CLIENT_PROTOCOL;
	}
	if (len == 0) {
		snprintf(err, errlen, "empty packet");
		return CLIENT_PROTOCOL;
	}
	switch (packet[0]) {
	case CTL_KIND_RECORD:
		return add_records(r, payload, n, err, errlen);
	case CTL_KIND_TEXT:
		put_text(r, payload, n);
		return CLIENT_MORE;
	case CTL_KIND_ERROR:
		fprintf(r->errors, "%s: ", log_prog());
		print_safe_n(r->errors, payload, n);
		fputc('\n', r->errors);
		return CLIENT_MORE;
	case CTL_KIND_EXIT:
		if (ctl_parse_exit(payload, n, &r->status) < 0) {
			r->status = -1;
			snprintf(err, errlen, "malformed final status packet");
			return CLIENT_PROTOCOL;
		}
		return CLIENT_DONE;
	default:
		snprintf(err, errlen, "unknown packet kind 0x%02x", (unsigned char)packet[0]);
		return CLIENT_PROTOCOL;
	}
}

static long long deadline_ms = -1; /* CLOCK_MONOTONIC; -1: none */

static long long mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void client_set_deadline(long timeout_ms)
{
	deadline_ms = timeout_ms > 0 ? mono_ms() + timeout_ms : -1;
}

/* Arm SO_RCVTIMEO and SO_SNDTIMEO with what is left before the deadline. Returns false
 * when it has passed. */
static bool arm_timeouts(int fd)
{
	struct timeval tv = { 0, 0 };
	long long left;

	if (deadline_ms < 0) {
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
		return true;
	}
	left = deadline_ms - mono_ms();
	if (left <= 0)
		return false;
	tv.tv_sec = (time_t)(left / 1000);
	tv.tv_usec = (suseconds_t)(left % 1000) * 1000;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	return true;
}

static int timed_out(char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "no answer from PID 1 %s before the timeout (--timeout)", what);
	return CLIENT_TIMEOUT;
}

int client_connect(const char *path, char *err, size_t errlen)
{
	long long saved = deadline_ms;
	int fd;

	deadline_ms = -1;
	fd = client_connect_timed(path, err, errlen);
	deadline_ms = saved;
	return fd;
}

int client_connect_timed(const char *path, char *err, size_t errlen)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof addr.sun_path) {
		snprintf(err, errlen, "%s: socket path longer than %zu bytes", path,
			 sizeof addr.sun_path - 1);
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(addr.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	/* connect(2) on a Unix socket waits up to SO_SNDTIMEO while the backlog is full. */
	if (!arm_timeouts(fd) || connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
		int saved = errno == EINPROGRESS ? EAGAIN : errno;
		if (saved == EAGAIN)
			snprintf(err, errlen, "%s: cannot connect: the server is busy and did not "
				 "accept before the timeout (--timeout)", path);
		else
			snprintf(err, errlen, "%s: cannot connect: %s", path, strerror(saved));
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

/* One packet into buf. Returns its length, 0 at the end of the stream, -1 for a system
 * error, -2 for a packet longer than the protocol allows. */
static ssize_t receive_packet(int fd, char *buf, size_t size)
{
	struct iovec iov = { .iov_base = buf, .iov_len = size };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	do
		n = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n > 0 && (msg.msg_flags & MSG_TRUNC))
		return -2;
	return n;
}

int client_exchange(int fd, const char *request, size_t len, struct reply *r, char *err,
		    size_t errlen)
{
	return client_exchange_follow(fd, request, len, r, err, errlen, false);
}

int client_exchange_follow(int fd, const char *request, size_t len, struct reply *r, char *err,
			   size_t errlen, bool follow)
{
	char packet[CTL_PACKET_MAX];
	bool first = true;
	ssize_t n;

	if (!arm_timeouts(fd))
		return timed_out(err, errlen, "to the request");
	do
		n = send(fd, request, len, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return timed_out(err, errlen, "to the request");
	/* A server that closed at once may still have queued a reply (an error): read it. */
	if (n < 0 && errno != EPIPE && errno != ECONNRESET) {
		snprintf(err, errlen, "cannot send the request: %s", strerror(errno));
		return CLIENT_SYSTEM;
	}
	for (;;) {
		/* A follower waits as long as it takes: an empty log sends nothing yet. */
		if (follow && first) {
			deadline_ms = -1;
			arm_timeouts(fd);
		} else if (!arm_timeouts(fd)) {
			return timed_out(err, errlen, "with a complete reply");
		}
		first = false;
		n = receive_packet(fd, packet, sizeof packet);
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return timed_out(err, errlen, "with a complete reply");
		if (n == -2) {
			snprintf(err, errlen, "reply packet longer than %d bytes", CTL_PACKET_MAX);
			return CLIENT_PROTOCOL;
		}
		if (n < 0 && errno != ECONNRESET) {
			snprintf(err, errlen, "cannot read the reply: %s", strerror(errno));
			return CLIENT_SYSTEM;
		}
		if (n <= 0) {
			snprintf(err, errlen, "the connection closed before the final status packet");
			return CLIENT_PROTOCOL;
		}
		int res = reply_packet(r, packet, (size_t)n, err, errlen);
		if (res != CLIENT_MORE)
			return res;
	}
}
