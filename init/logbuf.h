#ifndef EMBER_INIT_LOGBUF_H
#define EMBER_INIT_LOGBUF_H
/* A bounded ring of a service's output. When full, the oldest bytes go: a service that
 * floods its output costs PID 1 neither memory nor a stall.
 *
 * Every line starts with a stamp of LOGBUF_STAMP_LEN bytes in the ring: when its first
 * byte arrived, CLOCK_BOOTTIME milliseconds (emberctl log --since, --all). A stamp's
 * bytes all have the high bit set, so none is a newline: a line starts wherever the
 * byte before it is '\n', and what a service writes can never pose as a stamp. */
#include <stdbool.h>
#include <stddef.h>

#define LOGBUF_SIZE 8192
#define LOGBUF_STAMP_LEN 6 /* 42 bits of milliseconds: 139 years after boot */

struct logbuf {
	size_t head;       /* next write position */
	size_t used;       /* bytes held, <= LOGBUF_SIZE */
	unsigned long long total; /* bytes ever written, stamps included (readers' cursor) */
	char data[LOGBUF_SIZE];
};

/* Append output that arrived now (CLOCK_BOOTTIME). */
void logbuf_append(struct logbuf *b, const char *data, size_t len);
/* The same, with the time given (tests). */
void logbuf_append_at(struct logbuf *b, const char *data, size_t len, long long t_ms);
/* Copy out the text held from cursor on (a value of `total` seen earlier; 0 = all),
 * stamps left out, starting at a line boundary when the ring has wrapped past cursor.
 * Calls emit with contiguous pieces. Returns the new cursor (b->total). */
unsigned long long logbuf_read(const struct logbuf *b, unsigned long long cursor,
			       void (*emit)(void *ctx, const char *data, size_t len), void *ctx);
/* The same, with each line's stamp: emit gets the pieces of one line in order, with the
 * time its first byte arrived (-1 when cursor was inside a line) and eol set on the
 * piece that ends with its newline (a last line still being written has none). */
unsigned long long logbuf_read_stamped(const struct logbuf *b, unsigned long long cursor,
				       void (*emit)(void *ctx, long long t_ms, const char *data,
						    size_t len, bool eol),
				       void *ctx);
#endif
