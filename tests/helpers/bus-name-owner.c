/* Test helper: own a well-known name on the system bus after a delay, then stay
 * connected (the name stays owned) until killed. Uses ember's own minimal client.
 *   bus-name-owner NAME [DELAY_MS]
 * Prints "requested NAME: N" (RequestName's reply: 1 = primary owner). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "dbus-client.h"

int main(int argc, char **argv)
{
	static struct dbus_conn c;
	struct dbus_msg m;
	char err[256];
	uint32_t serial, result = 0;
	long delay = argc > 2 ? atol(argv[2]) : 0;
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
	    dbus_conn_wait_reply(&c, serial, &m, dbus_now_ms() + 10000) <= 0) {
		fprintf(stderr, "bus-name-owner: RequestName %s refused: %s\n", argv[1],
			m.error_name ? m.error_name : "no reply");
		return 1;
	}
	if (m.body_len >= 4)
		result = m.body[0] | (uint32_t)m.body[1] << 8 | (uint32_t)m.body[2] << 16 |
			 (uint32_t)m.body[3] << 24;
	printf("requested %s: %u\n", argv[1], result);
	fflush(stdout);
	for (;;)
		pause();
}
