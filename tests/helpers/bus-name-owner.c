/* Test helper: own a well-known name on the system bus after a delay, then stay
 * connected (the name stays owned) until killed. Uses ember's own minimal client.
 *   bus-name-owner NAME [DELAY_MS [answer]]
 * Prints "requested NAME: N" (RequestName's reply: 1 = primary owner). With "answer" it
 * replies to every method call with an empty return, and prints "called MEMBER". */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dbus-client.h"

static void reply_empty(struct dbus_conn *c, const struct dbus_msg *m)
{
	struct dbus_out o = { .type = DBUS_METHOD_RETURN, .serial = ++c->serial,
			      .reply_serial = m->serial, .destination = m->sender };
	uint8_t buf[512];
	size_t n = dbus_msg_build(buf, sizeof buf, &o);

	printf("called %s\n", m->member ? m->member : "?");
	fflush(stdout);
	if (n == 0 || write(c->fd, buf, n) != (ssize_t)n)
		exit(1);
}

/* Answer every method call. The bus hands over calls queued for an activation as soon
 * as the name is ours, possibly before RequestName's reply: those are answered too. */
static void answer(struct dbus_conn *c)
{
	struct dbus_msg m;

	while (dbus_conn_read(c, &m, -1) > 0)
		if (m.type == DBUS_METHOD_CALL)
			reply_empty(c, &m);
	exit(0);
}

/* RequestName's reply; with answering on, calls that come first are answered. */
static int request_reply(struct dbus_conn *c, uint32_t serial, bool answering, struct dbus_msg *m)
{
	for (;;) {
		if (dbus_conn_read(c, m, dbus_now_ms() + 10000) <= 0)
			return -1;
		if (answering && m->type == DBUS_METHOD_CALL)
			reply_empty(c, m);
		else if ((m->type == DBUS_METHOD_RETURN || m->type == DBUS_ERROR) &&
			 m->reply_serial == serial)
			return m->type == DBUS_METHOD_RETURN ? 0 : -1;
	}
}

int main(int argc, char **argv)
{
	static struct dbus_conn c;
	struct dbus_msg m;
	char err[256];
	uint32_t serial, result = 0;
	long delay = argc > 2 ? atol(argv[2]) : 0;
	bool answering = argc > 3 && strcmp(argv[3], "answer") == 0;
	struct timespec ts = { delay / 1000, (delay % 1000) * 1000000L };

	if (argc < 2) {
		fprintf(stderr, "usage: bus-name-owner NAME [DELAY_MS]\n");
		return 100;
	}
	if (dbus_conn_open(&c, NULL, dbus_now_ms() + 10000, err, sizeof err) < 0) {
		fprintf(stderr, "bus-name-owner: %s\n", err);
		return 111;
	}
	nanosleep(&ts, NULL);
	/* flags 4: DBUS_NAME_FLAG_DO_NOT_QUEUE */
	if (dbus_conn_call(&c, "RequestName", argv[1], true, 4, &serial) < 0 ||
	    request_reply(&c, serial, answering, &m) < 0) {
		fprintf(stderr, "bus-name-owner: RequestName %s refused: %s\n", argv[1],
			m.error_name ? m.error_name : "no reply");
		return 1;
	}
	if (m.body_len >= 4)
		result = m.body[0] | (uint32_t)m.body[1] << 8 | (uint32_t)m.body[2] << 16 |
			 (uint32_t)m.body[3] << 24;
	printf("requested %s: %u\n", argv[1], result);
	fflush(stdout);
	if (answering)
		answer(&c);
	for (;;)
		pause();
}
