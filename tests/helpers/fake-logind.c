/* Test helper: a hostile or honest org.freedesktop.login1 on a test bus, for
 * tests/integration/test-session.sh. It owns the name and answers CreateSession with a
 * well-formed "soshusub" reply whose fd (index 0) is chosen by MODE:
 *   fake-logind fifo DIR       the write end of a FIFO made in DIR (what logind sends)
 *   fake-logind file PATH      PATH opened read-write (a forged fd: must be refused)
 *   fake-logind extra DIR PATH the FIFO, and PATH twice more (fds nobody asked for)
 *   fake-logind forge DIR      a peer that does NOT own the name: to each new client
 *                              (NameOwnerChanged) it sends, unasked, a return with
 *                              that FIFO for each of the serials a client's first
 *                              calls get (2..4), as if it were logind (the bus must let
 *                              unrequested replies through)
 *   fake-logind flood DIR      the same peer, that sends each new client signals
 *                              without end instead (a bus flooding it)
 * Prints "requested" once the name is owned (forge: once the match is in place). */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "dbus-client.h"

static int fds[3], nfds;

static void send_fds(int sock, const uint8_t *buf, size_t n)
{
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof fds)];
	} ctl;
	struct iovec iov = { (void *)buf, n };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.b,
			     .msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds) };
	struct cmsghdr *h = CMSG_FIRSTHDR(&mh);

	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
	memcpy(CMSG_DATA(h), fds, sizeof(int) * (size_t)nfds);
	if (sendmsg(sock, &mh, 0) != (ssize_t)n)
		exit(1);
}

static void answer_to(struct dbus_conn *c, uint32_t reply_serial, const char *to)
{
	uint8_t body_buf[512], buf[1024];
	struct dbus_body b = { body_buf, 0, sizeof body_buf, false };
	struct dbus_out o = { .type = DBUS_METHOD_RETURN, .serial = ++c->serial,
			      .reply_serial = reply_serial, .destination = to,
			      .signature = "soshusub", .body = &b, .unix_fds = (uint32_t)nfds };
	size_t n;

	dbus_put_string(&b, "c1");
	dbus_put_string(&b, "/org/freedesktop/login1/session/c1");
	dbus_put_string(&b, "/run/user/65534");
	dbus_put_u32(&b, 0);     /* the fd's index */
	dbus_put_u32(&b, 65534); /* original uid */
	dbus_put_string(&b, "");
	dbus_put_u32(&b, 0);
	dbus_put_bool(&b, false);
	n = dbus_msg_build(buf, sizeof buf, &o);
	if (n == 0)
		exit(1);
	send_fds(c->fd, buf, n);
}

static void answer(struct dbus_conn *c, const struct dbus_msg *m)
{
	answer_to(c, m->serial, m->sender);
}

static bool flooding;

/* Signals to one client until it is gone (the write fails). */
static _Noreturn void flood(struct dbus_conn *c, const char *to)
{
	uint8_t buf[512];

	for (;;) {
		struct dbus_out o = { .type = DBUS_SIGNAL, .serial = ++c->serial,
				      .path = "/org/freedesktop/login1",
				      .interface = "org.freedesktop.login1.Manager",
				      .member = "Flood", .destination = to };
		size_t n = dbus_msg_build(buf, sizeof buf, &o);
		if (n == 0 || write(c->fd, buf, n) != (ssize_t)n)
			exit(0);
	}
}

/* NameOwnerChanged (name, old, new) for a unique name that just came: forge. */
static void forge(struct dbus_conn *c, const struct dbus_msg *m)
{
	const char *a[3];
	char to[256];

	if (!m->member || strcmp(m->member, "NameOwnerChanged") != 0 ||
	    dbus_body_strings(m, a, 3) < 0 || a[0][0] != ':' || !*a[2] ||
	    strlen(a[0]) >= sizeof to)
		return;
	strcpy(to, a[0]);
	if (flooding)
		flood(c, to);
	for (uint32_t serial = 2; serial <= 4; serial++)
		answer_to(c, serial, to);
}

static int fifo_end(const char *dir)
{
	char path[512];
	int rd;

	snprintf(path, sizeof path, "%s/session.fifo", dir);
	if (mkfifo(path, 0600) < 0 || (rd = open(path, O_RDONLY | O_NONBLOCK)) < 0)
		exit(1);
	(void)rd; /* kept open: the write end needs a reader */
	return open(path, O_WRONLY | O_NONBLOCK);
}

int main(int argc, char **argv)
{
	static struct dbus_conn c;
	struct dbus_msg m;
	char err[256];
	uint32_t serial;
	int r;

	if (argc < 3)
		return 100;
	if (strcmp(argv[1], "file") == 0)
		fds[nfds++] = open(argv[2], O_RDWR);
	else
		fds[nfds++] = fifo_end(argv[2]);
	if (strcmp(argv[1], "extra") == 0 && argc > 3) {
		fds[nfds++] = open(argv[3], O_RDWR);
		fds[nfds++] = open(argv[3], O_RDONLY);
	}
	for (int i = 0; i < nfds; i++)
		if (fds[i] < 0)
			return 111;
	if (dbus_conn_open_fds(&c, NULL, dbus_now_ms() + 10000, err, sizeof err) < 0)
		return 111;
	flooding = strcmp(argv[1], "flood") == 0;
	if (strcmp(argv[1], "forge") == 0 || flooding)
		r = dbus_conn_call(&c, "AddMatch", "type='signal',member='NameOwnerChanged'",
				   false, 0, &serial);
	else
		r = dbus_conn_call(&c, "RequestName", "org.freedesktop.login1", true, 4, &serial);
	if (r < 0 || dbus_conn_wait_reply(&c, serial, &m, dbus_now_ms() + 10000) <= 0) {
		fprintf(stderr, "fake-logind: cannot own org.freedesktop.login1 (or AddMatch)\n");
		return 111;
	}
	printf("requested\n");
	fflush(stdout);
	while (dbus_conn_read(&c, &m, -1) > 0) {
		if (m.type == DBUS_SIGNAL && (strcmp(argv[1], "forge") == 0 || flooding))
			forge(&c, &m);
		if (m.type == DBUS_METHOD_CALL && m.member && strcmp(m.member, "CreateSession") == 0)
			answer(&c, &m);
	}
	return 0;
}
