#include "kmsg-forward.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const int stream_priority[KMSG_STREAMS] = {
	[KMSG_STDOUT] = KMSG_PRIORITY_STDOUT, [KMSG_STDERR] = KMSG_PRIORITY_STDERR,
};

size_t kmsg_forward_format(char *buf, int priority, const char *name, int pid, const char *text,
			   size_t len)
{
	const size_t size = KMSG_FORWARD_RECORD_MAX;
	int n = pid > 0 ? snprintf(buf, size, "<%d>%s[%d]: ", priority, name, pid)
			: snprintf(buf, size, "<%d>%s: ", priority, name);
	size_t head = n < 0 ? 0 : (size_t)n;

	if (head > size - 2)
		head = size - 2; /* a name longer than any service name: cut, keep the newline */
	if (len > size - 1 - head)
		len = size - 1 - head;
	memcpy(buf + head, text, len);
	buf[head + len] = '\n';
	return head + len + 1;
}

static void emit(const struct kmsg_forward_sink *sink, int priority, int pid, const char *text,
		 size_t len)
{
	char record[KMSG_FORWARD_RECORD_MAX];
	size_t n = kmsg_forward_format(record, priority, sink->name, pid, text, len);

	sink->emit(sink->ctx, record, n);
}

static void report_suppressed(struct kmsg_forward *f, const struct kmsg_forward_sink *sink)
{
	char text[64];
	int n = snprintf(text, sizeof text, "%lu line%s suppressed", f->suppressed,
			 f->suppressed == 1 ? "" : "s");

	f->suppressed = 0;
	emit(sink, KMSG_PRIORITY_SUPPRESSED, 0, text, (size_t)n);
}

/* ---- the rate limit: a token bucket in integer arithmetic ---------------------------- */

static bool limited(const struct kmsg_forward_limit *l)
{
	return l && l->burst > 0 && l->interval_ms > 0;
}

/* May one more line go out now? Once the bucket ran dry, nothing goes out until it is
 * full again: a steady flood then yields a burst and one "suppressed" record per
 * interval, not a record per token that trickles back. */
static bool admit(struct kmsg_forward *f, long long now_ms, const struct kmsg_forward_limit *l,
		  const struct kmsg_forward_sink *sink)
{
	unsigned long long burst, cost, full;
	long long elapsed = now_ms - f->refilled_ms;

	if (!limited(l)) {
		if (f->suppressed > 0)
			report_suppressed(f, sink);
		return true;
	}
	burst = l->burst < KMSG_FORWARD_BURST_MAX ? l->burst : KMSG_FORWARD_BURST_MAX;
	cost = l->interval_ms < KMSG_FORWARD_INTERVAL_MAX_MS ? l->interval_ms
							     : KMSG_FORWARD_INTERVAL_MAX_MS;
	full = burst * cost;
	f->refilled_ms = now_ms;
	if (elapsed >= (long long)cost)
		f->debt = 0;
	else if (elapsed > 0) {
		unsigned long long back = (unsigned long long)elapsed * burst;
		f->debt = f->debt > back ? f->debt - back : 0;
	}
	if (f->suppressed > 0) {
		if (f->debt > 0) {
			f->suppressed++;
			return false;
		}
		report_suppressed(f, sink);
	}
	if (f->debt + cost > full) {
		f->suppressed = 1;
		return false;
	}
	f->debt += cost;
	return true;
}

/* ---- lines -------------------------------------------------------------------------- */

struct feed {
	struct kmsg_forward *f;
	enum kmsg_stream s;
	long long now_ms;
	const struct kmsg_forward_limit *limit;
	const struct kmsg_forward_sink *sink;
};

/* The held line is complete (or as long as a record may be): send it. Empty lines are
 * not worth a record. */
static void end_line(const struct feed *in)
{
	struct kmsg_forward_stream *st = &in->f->stream[in->s];

	if (st->len > 0 && admit(in->f, in->now_ms, in->limit, in->sink))
		emit(in->sink, stream_priority[in->s], in->sink->pid, st->text, st->len);
	st->len = 0;
}

static void add_text(const struct feed *in, const char *text, size_t len)
{
	struct kmsg_forward_stream *st = &in->f->stream[in->s];

	while (len > 0) {
		size_t room = KMSG_FORWARD_TEXT_MAX - st->len;
		size_t n = len < room ? len : room;
		memcpy(st->text + st->len, text, n);
		st->len = (uint16_t)(st->len + n);
		text += n;
		len -= n;
		if (st->len == KMSG_FORWARD_TEXT_MAX)
			end_line(in);
	}
}

void kmsg_forward_feed(struct kmsg_forward *f, enum kmsg_stream s, const char *data, size_t len,
		       long long now_ms, const struct kmsg_forward_limit *limit,
		       const struct kmsg_forward_sink *sink)
{
	const struct feed in = { f, s, now_ms, limit, sink };

	while (len > 0) {
		const char *nl = memchr(data, '\n', len);
		size_t take = nl ? (size_t)(nl - data) : len;
		add_text(&in, data, take);
		if (!nl)
			return;
		end_line(&in);
		data += take + 1;
		len -= take + 1;
	}
}

void kmsg_forward_flush(struct kmsg_forward *f, long long now_ms,
			const struct kmsg_forward_limit *limit,
			const struct kmsg_forward_sink *sink)
{
	for (int s = 0; s < KMSG_STREAMS; s++) {
		const struct feed in = { f, (enum kmsg_stream)s, now_ms, limit, sink };
		end_line(&in);
	}
	if (f->suppressed > 0)
		report_suppressed(f, sink);
}
