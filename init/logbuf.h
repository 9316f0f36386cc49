#ifndef EMBER_INIT_LOGBUF_H
#define EMBER_INIT_LOGBUF_H
/* A bounded ring of a service's output. When full, the oldest bytes go: a service that
 * floods its output costs PID 1 neither memory nor a stall. */
#include <stddef.h>

#define LOGBUF_SIZE 8192

struct logbuf {
	size_t head;       /* next write position */
	size_t used;       /* bytes held, <= LOGBUF_SIZE */
	unsigned long long total; /* bytes ever written (readers use it as a cursor) */
	char data[LOGBUF_SIZE];
};

void logbuf_append(struct logbuf *b, const char *data, size_t len);
/* Copy out what is held from cursor on (a value of `total` seen earlier; 0 = all),
 * starting at a line boundary when the ring has wrapped past cursor. Calls emit with
 * contiguous pieces. Returns the new cursor (b->total). */
unsigned long long logbuf_read(const struct logbuf *b, unsigned long long cursor,
			       void (*emit)(void *ctx, const char *data, size_t len), void *ctx);
#endif
