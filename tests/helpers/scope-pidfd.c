/* Test helper: logind 257's StartTransientUnit of a session scope, which passes the
 * leader as a pidfd (PIDFDs=ah) instead of a pid (busctl cannot send an 'h'). On the
 * system bus ($DBUS_SYSTEM_BUS_ADDRESS), to org.freedesktop.systemd1:
 *   scope-pidfd NAME pidfd PID     a pidfd of PID, index 0
 *   scope-pidfd NAME file PATH     PATH opened instead (no pidfd: must be refused)
 * Prints "return" or "error NAME: TEXT" for the answer; exit 0 when one came. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "dbus-client.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

static void pad(struct dbus_body *b, size_t to)
{
	while (b->len % to && b->len < b->size)
		b->buf[b->len++] = 0;
}

static void signature(struct dbus_body *b, const char *s)
{
	size_t n = strlen(s);

	if (b->len + n + 2 > b->size) {
		b->full = true;
		return;
	}
	b->buf[b->len++] = (uint8_t)n;
	memcpy(b->buf + b->len, s, n + 1);
	b->len += n + 1;
}

/* "ssa(sv)a(sa(sv))": NAME, "fail", {PIDFDs: ah [0], Slice: s user-0.slice}, no aux units */
static void body(struct dbus_body *b, const char *name)
{
	size_t props, first;

	dbus_put_string(b, name);
	dbus_put_string(b, "fail");
	dbus_put_u32(b, 0);
	props = b->len - 4;
	pad(b, 8);
	first = b->len;
	dbus_put_string(b, "PIDFDs");
	signature(b, "ah");
	dbus_put_u32(b, 4); /* the array's bytes: one index, */
	dbus_put_u32(b, 0); /* the message's first fd */
	pad(b, 8);
	dbus_put_string(b, "Slice");
	signature(b, "s");
	dbus_put_string(b, "user-0.slice");
	memcpy(b->buf + props, &(uint32_t){ (uint32_t)(b->len - first) }, 4);
	dbus_put_u32(b, 0); /* aux: empty a(sa(sv)) */
	pad(b, 8);
}

static int send_with_fd(int sock, const uint8_t *buf, size_t n, int fd)
{
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct iovec iov = { (void *)buf, n };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.b,
			     .msg_controllen = CMSG_SPACE(sizeof(int)) };
	struct cmsghdr *h = CMSG_FIRSTHDR(&mh);

	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(h), &fd, sizeof fd);
	return sendmsg(sock, &mh, 0) == (ssize_t)n ? 0 : -1;
}

int main(int argc, char **argv)
{
	static struct dbus_conn c;
	uint8_t body_buf[512], buf[2048];
	struct dbus_body b = { body_buf, 0, sizeof body_buf, false };
	struct dbus_out o = { .type = DBUS_METHOD_CALL, .path = "/org/freedesktop/systemd1",
			      .interface = "org.freedesktop.systemd1.Manager",
			      .member = "StartTransientUnit",
			      .destination = "org.freedesktop.systemd1",
			      .signature = "ssa(sv)a(sa(sv))", .body = &b, .unix_fds = 1 };
	struct dbus_msg m;
	char err[256];
	size_t n;
	int fd;

	if (argc != 4)
		return 100;
	fd = strcmp(argv[2], "pidfd") == 0 ? (int)syscall(SYS_pidfd_open, atoi(argv[3]), 0)
					   : open(argv[3], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[3]);
		return 1;
	}
	if (dbus_conn_open_fds(&c, NULL, dbus_now_ms() + 10000, err, sizeof err) < 0) {
		fprintf(stderr, "scope-pidfd: %s\n", err);
		return 1;
	}
	body(&b, argv[1]);
	o.serial = ++c.serial;
	n = dbus_msg_build(buf, sizeof buf, &o);
	if (n == 0 || send_with_fd(c.fd, buf, n, fd) < 0)
		return 1;
	for (;;) {
		if (dbus_conn_read(&c, &m, dbus_now_ms() + 30000) <= 0)
			return 1;
		if (m.reply_serial != o.serial)
			continue;
		if (m.type == DBUS_ERROR) {
			const char *text = "";
			dbus_body_strings(&m, &text, 1);
			printf("error %s: %s\n", m.error_name ? m.error_name : "?", text);
		} else {
			printf("return\n");
		}
		return 0;
	}
}
