#include "logbuf.h"

#include <string.h>
#include <time.h>

#define STAMP_MAX ((1LL << (7 * LOGBUF_STAMP_LEN)) - 1)

/* Copy n bytes into the ring; beyond LOGBUF_SIZE only the last ones stay. */
static void ring_put(struct logbuf *b, const char *data, size_t n)
{
	if (n > LOGBUF_SIZE) {
		b->total += n - LOGBUF_SIZE;
		data += n - LOGBUF_SIZE;
		n = LOGBUF_SIZE;
	}
	b->total += n;
	while (n > 0) {
		size_t room = LOGBUF_SIZE - b->head;
		size_t k = n < room ? n : room;
		memcpy(b->data + b->head, data, k);
		b->head = (b->head + k) % LOGBUF_SIZE;
		data += k;
		n -= k;
		b->used = b->used + k > LOGBUF_SIZE ? LOGBUF_SIZE : b->used + k;
	}
}

/* The byte at stream position pos (oldest <= pos < total). */
static unsigned char byte_at(const struct logbuf *b, unsigned long long pos)
{
	return (unsigned char)b->data[(b->head + LOGBUF_SIZE - (size_t)(b->total - pos)) %
				      LOGBUF_SIZE];
}

static bool at_line_start(const struct logbuf *b)
{
	return b->total == 0 || byte_at(b, b->total - 1) == '\n';
}

/* Seven bits per byte, most significant first, each with the high bit set. */
static void put_stamp(struct logbuf *b, long long t_ms)
{
	char stamp[LOGBUF_STAMP_LEN];
	unsigned long long v = t_ms < 0 ? 0 : t_ms > STAMP_MAX ? STAMP_MAX : (unsigned long long)t_ms;

	for (int i = LOGBUF_STAMP_LEN - 1; i >= 0; i--, v >>= 7)
		stamp[i] = (char)(0x80 | (v & 0x7f));
	ring_put(b, stamp, sizeof stamp);
}

static long long get_stamp(const struct logbuf *b, unsigned long long pos)
{
	long long v = 0;

	for (int i = 0; i < LOGBUF_STAMP_LEN; i++)
		v = v << 7 | (byte_at(b, pos + (unsigned)i) & 0x7f);
	return v;
}

void logbuf_append_at(struct logbuf *b, const char *data, size_t len, long long t_ms)
{
	while (len > 0) {
		const char *nl = memchr(data, '\n', len);
		size_t n = nl ? (size_t)(nl - data) + 1 : len;
		if (at_line_start(b))
			put_stamp(b, t_ms);
		ring_put(b, data, n);
		data += n;
		len -= n;
	}
}

void logbuf_append(struct logbuf *b, const char *data, size_t len)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	logbuf_append_at(b, data, len, (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* Where reading from cursor begins, and whether a stamp is there. A cursor the ring has
 * lost (or one exactly at its oldest byte, which may be inside a line) resumes after the
 * first newline still held. */
static unsigned long long read_start(const struct logbuf *b, unsigned long long cursor,
				     bool *line_start)
{
	unsigned long long oldest = b->total - b->used, pos;

	if (cursor > b->total)
		cursor = b->total;
	*line_start = true;
	if (cursor == 0 && oldest == 0)
		return 0;
	if (cursor > oldest) {
		*line_start = byte_at(b, cursor - 1) == '\n';
		return cursor;
	}
	for (pos = oldest; pos < b->total; pos++)
		if (byte_at(b, pos) == '\n')
			return pos + 1;
	return b->total;
}

/* Emit the stream positions [from, to) in pieces contiguous in the ring. */
static void emit_range(const struct logbuf *b, unsigned long long from, unsigned long long to,
		       long long t_ms, bool eol,
		       void (*emit)(void *, long long, const char *, size_t, bool), void *ctx)
{
	while (from < to) {
		size_t start = (b->head + LOGBUF_SIZE - (size_t)(b->total - from)) % LOGBUF_SIZE;
		size_t n = LOGBUF_SIZE - start;
		if (n > to - from)
			n = (size_t)(to - from);
		from += n;
		emit(ctx, t_ms, b->data + start, n, eol && from == to);
	}
}

unsigned long long logbuf_read_stamped(const struct logbuf *b, unsigned long long cursor,
				       void (*emit)(void *ctx, long long t_ms, const char *data,
						    size_t len, bool eol),
				       void *ctx)
{
	bool line_start;
	unsigned long long pos = read_start(b, cursor, &line_start), end;
	long long t_ms = -1;

	while (pos < b->total) {
		if (line_start) {
			if (b->total - pos <= LOGBUF_STAMP_LEN)
				break; /* a stamp is never written without text after it */
			t_ms = get_stamp(b, pos);
			pos += LOGBUF_STAMP_LEN;
		}
		for (end = pos; end < b->total && byte_at(b, end) != '\n'; end++)
			;
		line_start = end < b->total;
		if (line_start)
			end++;
		emit_range(b, pos, end, t_ms, line_start, emit, ctx);
		pos = end;
		t_ms = -1;
	}
	return b->total;
}

struct plain {
	void (*emit)(void *ctx, const char *data, size_t len);
	void *ctx;
};

static void emit_plain(void *ctx, long long t_ms, const char *data, size_t len, bool eol)
{
	const struct plain *p = ctx;
	(void)t_ms;
	(void)eol;
	p->emit(p->ctx, data, len);
}

unsigned long long logbuf_read(const struct logbuf *b, unsigned long long cursor,
			       void (*emit)(void *ctx, const char *data, size_t len), void *ctx)
{
	struct plain p = { emit, ctx };
	return logbuf_read_stamped(b, cursor, emit_plain, &p);
}
