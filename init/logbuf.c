#include "logbuf.h"

#include <string.h>

void logbuf_append(struct logbuf *b, const char *data, size_t len)
{
	if (len > LOGBUF_SIZE) {
		b->total += len - LOGBUF_SIZE;
		data += len - LOGBUF_SIZE;
		len = LOGBUF_SIZE;
	}
	b->total += len;
	while (len > 0) {
		size_t room = LOGBUF_SIZE - b->head;
		size_t n = len < room ? len : room;
		memcpy(b->data + b->head, data, n);
		b->head = (b->head + n) % LOGBUF_SIZE;
		data += n;
		len -= n;
		b->used = b->used + n > LOGBUF_SIZE ? LOGBUF_SIZE : b->used + n;
	}
}

unsigned long long logbuf_read(const struct logbuf *b, unsigned long long cursor,
			       void (*emit)(void *ctx, const char *data, size_t len), void *ctx)
{
	unsigned long long oldest = b->total - b->used;
	size_t skip = 0, start, len;

	if (cursor > b->total)
		cursor = b->total;
	if (cursor < oldest) {
		/* The ring lost bytes the reader has not seen: resume at the next full line. */
		cursor = oldest;
		for (; skip < b->used; skip++)
			if (b->data[(b->head + LOGBUF_SIZE - b->used + skip) % LOGBUF_SIZE] == '\n') {
				skip++;
				break;
			}
		if (b->used < LOGBUF_SIZE)
			skip = 0; /* nothing was lost yet: start at the very beginning */
	}
	len = (size_t)(b->total - cursor) - skip;
	start = (b->head + LOGBUF_SIZE - (size_t)(b->total - cursor) + skip) % LOGBUF_SIZE;
	while (len > 0) {
		size_t n = len < LOGBUF_SIZE - start ? len : LOGBUF_SIZE - start;
		emit(ctx, b->data + start, n);
		start = (start + n) % LOGBUF_SIZE;
		len -= n;
	}
	return b->total;
}
