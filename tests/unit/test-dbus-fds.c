// sources:
/* Unix fds with D-Bus messages (an 'h' value: logind's session fifo): dbus_conn_read takes
 * the fds that come with the bytes (SCM_RIGHTS, over a real socket pair), hands them out
 * with their message, closes what the caller did not take, and refuses a message that
 * names fds which never came. */
#include "harness.h"
#include "dbus-client.h"
#include "dbus-wire.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

static struct dbus_conn conn;

static size_t message(uint8_t *buf, size_t size, uint32_t serial, uint32_t fds)
{
	uint8_t body_buf[64];
	struct dbus_body b = { body_buf, 0, sizeof body_buf, false };
	struct dbus_out o = { .type = DBUS_METHOD_RETURN, .serial = serial, .reply_serial = 1,
			      .signature = "sh", .body = &b, .unix_fds = fds };

	dbus_put_string(&b, "x");
	dbus_put_u32(&b, 0);
	return dbus_msg_build(buf, size, &o);
}

/* The bytes, with fds attached as the bus sends them. */
static int send_with_fds(int sock, const uint8_t *buf, size_t n, const int *fds, size_t nfds)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int) * 4)];
	} ctl;
	struct iovec iov = { (void *)buf, n };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (nfds) {
		struct cmsghdr *h;
		mh.msg_control = ctl.buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
		h = CMSG_FIRSTHDR(&mh);
		h->cmsg_level = SOL_SOCKET;
		h->cmsg_type = SCM_RIGHTS;
		h->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
		memcpy(CMSG_DATA(h), fds, sizeof(int) * nfds);
	}
	return sendmsg(sock, &mh, 0) == (ssize_t)n ? 0 : -1;
}

static void open_pair(int sv[2])
{
	memset(&conn, 0, sizeof conn);
	socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv);
	conn.fd = sv[0];
}

static bool same_file(int a, int b)
{
	struct stat sa, sb;
	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_ino == sb.st_ino &&
	       sa.st_dev == sb.st_dev;
}

static void fd_comes_with_its_message(void)
{
	int sv[2], p[2], fd, kept;
	uint8_t buf[256];
	size_t n = message(buf, sizeof buf, 7, 1);
	struct dbus_msg m;
	union dbus_value v[2];

	open_pair(sv);
	CHECK(pipe(p) == 0);
	CHECK(n > 0 && send_with_fds(sv[1], buf, n, &p[0], 1) == 0);
	CHECK(dbus_conn_read(&conn, &m, dbus_now_ms() + 2000) == 1);
	CHECK(m.unix_fds == 1 && m.serial == 7);
	CHECK(dbus_body_read(&m, "sh", v) == 0 && v[1].u == 0);
	fd = dbus_conn_take_fd(&conn, v[1].u);
	CHECK(fd >= 0 && same_file(fd, p[0]));
	CHECK(fd >= 0 && (fcntl(fd, F_GETFD) & FD_CLOEXEC)); /* until the caller says otherwise */
	CHECK(dbus_conn_take_fd(&conn, 0) < 0 && errno == EBADF); /* taken once */
	CHECK(dbus_conn_take_fd(&conn, 1) < 0);
	/* a second message's fd, not taken, is closed on the next read */
	CHECK(send_with_fds(sv[1], buf, n, &p[1], 1) == 0);
	CHECK(dbus_conn_read(&conn, &m, dbus_now_ms() + 2000) == 1);
	kept = conn.fds[0];
	CHECK(kept >= 0 && same_file(kept, p[1]));
	CHECK(send_with_fds(sv[1], buf, n, NULL, 0) == 0); /* names an fd, brings none */
	CHECK(dbus_conn_read(&conn, &m, dbus_now_ms() + 2000) == -1 && errno == EBADMSG);
	CHECK(fcntl(kept, F_GETFD) < 0 && errno == EBADF);
	close(sv[1]);
	dbus_conn_close(&conn);
	close(fd);
	close(p[0]);
	close(p[1]);
}

static void message_naming_fds_that_never_came_is_refused(void)
{
	int sv[2];
	uint8_t buf[256];
	size_t n = message(buf, sizeof buf, 8, 1);
	struct dbus_msg m;

	open_pair(sv);
	CHECK(send_with_fds(sv[1], buf, n, NULL, 0) == 0);
	errno = 0;
	CHECK(dbus_conn_read(&conn, &m, dbus_now_ms() + 2000) == -1 && errno == EBADMSG);
	dbus_conn_close(&conn);
	close(sv[1]);
}

static void fds_of_two_messages_in_one_read_stay_in_order(void)
{
	int sv[2], p[2], a, b;
	uint8_t buf[512];
	size_t n = message(buf, sizeof buf, 9, 1);
	size_t n2 = message(buf + n, sizeof buf - n, 10, 1);
	int fds[2];
	struct dbus_msg m;

	open_pair(sv);
	CHECK(pipe(p) == 0);
	fds[0] = p[0];
	fds[1] = p[1];
	CHECK(send_with_fds(sv[1], buf, n + n2, fds, 2) == 0);
	CHECK(dbus_conn_read(&conn, &m, dbus_now_ms() + 2000) == 1 && m.serial == 9);
	a = dbus_conn_take_fd(&conn, 0);
	CHECK(dbus_conn_take_fd(&conn, 1) < 0); /* the next message's */
	CHECK(dbus_conn_read(&conn, &m, dbus_now_ms() + 2000) == 1 && m.serial == 10);
	b = dbus_conn_take_fd(&conn, 0);
	CHECK(a >= 0 && same_file(a, p[0]));
	CHECK(b >= 0 && same_file(b, p[1]));
	dbus_conn_close(&conn);
	close(sv[1]);
	close(a);
	close(b);
	close(p[0]);
	close(p[1]);
}

static void body_read_checks_h_against_the_fds(void)
{
	uint8_t buf[256];
	size_t n = message(buf, sizeof buf, 7, 0);
	struct dbus_msg m;
	union dbus_value v[2];

	CHECK(dbus_msg_parse(buf, n, &m) == 0 && m.unix_fds == 0);
	CHECK(dbus_body_read(&m, "sh", v) < 0); /* index 0 of no fds */
	n = message(buf, sizeof buf, 7, 1);
	CHECK(dbus_msg_parse(buf, n, &m) == 0 && m.unix_fds == 1);
	CHECK(dbus_body_read(&m, "sh", v) == 0);
	CHECK(dbus_body_read(&m, "su", v) < 0); /* not the message's signature */
	CHECK(dbus_body_read(&m, "s", v) < 0);
}

/* The message read last carries p[1] as its fd 0; then everything is closed. */
static void reply_fd_then_close(int peer, const int p[2])
{
	int fd = dbus_conn_take_fd(&conn, 0);

	CHECK(fd >= 0 && same_file(fd, p[1]));
	dbus_conn_close(&conn);
	close(peer);
	if (fd >= 0)
		close(fd);
	close(p[0]);
	close(p[1]);
}

/* fds sent with a message that names none are closed when it is read: twenty of them
 * (more than the table holds) and then the reply with its one fd still gets it. */
static void fds_no_message_names_are_closed_at_once(void)
{
	int sv[2], p[2];
	uint8_t plain[256], with[256];
	size_t n0 = message(plain, sizeof plain, 11, 0), n1 = message(with, sizeof with, 12, 1);
	struct dbus_msg m;

	open_pair(sv);
	CHECK(pipe(p) == 0);
	for (int i = 0; i < 20; i++) {
		CHECK(send_with_fds(sv[1], plain, n0, &p[0], 1) == 0);
		CHECK(dbus_conn_read(&conn, &m, dbus_now_ms() + 2000) == 1 && m.unix_fds == 0);
		CHECK(conn.nfds == 0);
	}
	CHECK(send_with_fds(sv[1], with, n1, &p[1], 1) == 0);
	CHECK(dbus_conn_read(&conn, &m, dbus_now_ms() + 2000) == 1 && m.serial == 12);
	reply_fd_then_close(sv[1], p);
}

static int open_fd_count(void)
{
	int n = 0;
	for (int fd = 0; fd < 1024; fd++)
		n += fcntl(fd, F_GETFD) >= 0;
	return n;
}

/* More fds than the table holds come before a message is whole (a local user flooding a
 * service on the bus that takes fds, such as ember-activator for logind's pidfds): that
 * message goes, not the connection; the ones after it, fds and all, are read as ever,
 * and no fd is left open. */
static void fds_flood_drops_the_message_not_the_connection(void)
{
	int sv[2], p[2], before = open_fd_count();
	uint8_t big[256], plain[256], with[256];
	size_t n = message(big, sizeof big, 20, 4), n0 = message(plain, sizeof plain, 21, 0);
	size_t n1 = message(with, sizeof with, 22, 1), step = n / 20 + 1;
	int four[4];
	struct dbus_msg m;

	open_pair(sv);
	CHECK(pipe(p) == 0);
	for (int i = 0; i < 4; i++)
		four[i] = p[0];
	for (size_t at = 0; at < n; at += step) /* 4 fds with each piece: 80 in all */
		CHECK(send_with_fds(sv[1], big + at, at + step < n ? step : n - at, four, 4) == 0);
	CHECK(send_with_fds(sv[1], plain, n0, NULL, 0) == 0);
	CHECK(send_with_fds(sv[1], with, n1, &p[1], 1) == 0);
	CHECK(dbus_conn_read(&conn, &m, dbus_now_ms() + 2000) == 1 && m.serial == 21);
	CHECK(conn.dropped == 1);
	CHECK(dbus_conn_read(&conn, &m, dbus_now_ms() + 2000) == 1 && m.serial == 22);
	reply_fd_then_close(sv[1], p);
	CHECK(open_fd_count() == before);
}

/* A peer that never stops sending (other replies, signals) must not hold the reader past
 * its deadline: here the deadline has passed and messages are still waiting. */
static void deadline_holds_under_a_flood(void)
{
	uint8_t buf[256];
	int sv[2];
	size_t n = message(buf, sizeof buf, 9, 0);
	struct dbus_msg m;

	open_pair(sv);
	for (int i = 0; i < 200; i++) /* replies to serial 1, while 2 is awaited */
		CHECK(write(sv[1], buf, n) == (ssize_t)n);
	CHECK(dbus_conn_wait_reply(&conn, 2, &m, dbus_now_ms() - 1) == 0);
	CHECK(conn.len > 0 || recv(sv[0], buf, 1, MSG_PEEK | MSG_DONTWAIT) == 1);
	dbus_conn_close(&conn);
	close(sv[1]);
}

/* A second fd wakes the read (ember-activator's inotify on scopes' cgroups): 0 long
 * before the deadline, the message still read whole when it comes. */
static void wake_fd_ends_the_wait(void)
{
	int sv[2], p[2];
	uint8_t buf[256];
	size_t n = message(buf, sizeof buf, 9, 0);
	struct dbus_msg m;
	long long t0;

	open_pair(sv);
	CHECK(pipe(p) == 0);
	CHECK(write(p[1], "x", 1) == 1);
	t0 = dbus_now_ms();
	CHECK(dbus_conn_read_or_wake(&conn, &m, t0 + 5000, p[0]) == 0);
	CHECK(dbus_now_ms() - t0 < 1000);
	CHECK(write(sv[1], buf, n) == (ssize_t)n);
	CHECK(dbus_conn_read_or_wake(&conn, &m, dbus_now_ms() + 2000, p[0]) == 1);
	CHECK(m.serial == 9);
	/* nothing to wake it: the deadline */
	CHECK(read(p[0], buf, 1) == 1);
	t0 = dbus_now_ms();
	CHECK(dbus_conn_read_or_wake(&conn, &m, t0 + 200, p[0]) == 0);
	CHECK(dbus_now_ms() - t0 >= 150);
	close(p[0]);
	close(p[1]);
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	RUN(fd_comes_with_its_message);
	RUN(message_naming_fds_that_never_came_is_refused);
	RUN(fds_of_two_messages_in_one_read_stay_in_order);
	RUN(body_read_checks_h_against_the_fds);
	RUN(deadline_holds_under_a_flood);
	RUN(fds_no_message_names_are_closed_at_once);
	RUN(wake_fd_ends_the_wait);
	RUN(fds_flood_drops_the_message_not_the_connection);
	return harness_done();
}
