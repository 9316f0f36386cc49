#ifndef EMBER_INIT_KMSG_FORWARD_H
#define EMBER_INIT_KMSG_FORWARD_H
/* StandardOutput=kmsg / StandardError=kmsg: a service's output, cut into lines, as kernel
 * log records "<PRI>NAME[PID]: line", under a per-service rate limit. See docs/services.md.
 *
 * Pure: bytes and the time go in, records come out through a callback; the caller writes
 * them to /dev/kmsg. The state is fixed-size (a partial line per stream and a token
 * bucket): a service flooding its output costs PID 1 neither memory nor printk time.
 * A zeroed struct is a valid fresh state with a full bucket. */
#include <stddef.h>
#include <stdint.h>

/* Text bytes per record. The kernel refuses a /dev/kmsg write over 976 bytes (Linux 6.1,
 * LOG_LINE_MAX); the "<3>NAME[PID]: " prefix takes at most 80 (a 63-byte name, a 10-digit
 * pid), the newline 1: 880 + 81 fits. Longer lines are split into several records. */
#define KMSG_FORWARD_TEXT_MAX 880
#define KMSG_FORWARD_RECORD_MAX 1024 /* a formatted record, with room to spare */

enum kmsg_stream { KMSG_STDOUT, KMSG_STDERR, KMSG_STREAMS };

/* The kernel priority of each stream's records: info for stdout (and for stderr sharing
 * stdout's pipe), err for a stderr of its own. */
#define KMSG_PRIORITY_STDOUT 6
#define KMSG_PRIORITY_STDERR 3
#define KMSG_PRIORITY_SUPPRESSED 4 /* "NAME: N lines suppressed" */

struct kmsg_forward_stream {
	uint16_t len; /* bytes of an unfinished line held in text */
	char text[KMSG_FORWARD_TEXT_MAX];
};

struct kmsg_forward {
	/* Spent budget in line-milliseconds: a line costs interval_ms, time gives back
	 * burst per millisecond; full when it reaches burst * interval_ms. 0 = all there. */
	unsigned long long debt;
	long long refilled_ms;    /* when debt was last brought up to date */
	unsigned long suppressed; /* lines dropped since the limit hit; 0 = not limiting */
	struct kmsg_forward_stream stream[KMSG_STREAMS];
};

/* burst lines at once, refilled at burst per interval_ms; either 0: no limit. Larger
 * values than the maxima count as the maxima (the parser refuses them). */
#define KMSG_FORWARD_BURST_MAX 1000000u
#define KMSG_FORWARD_INTERVAL_MAX_MS 3600000UL /* 1 h */
struct kmsg_forward_limit {
	unsigned burst;
	unsigned long interval_ms;
};

/* Where records go and how they are labelled. pid <= 0 leaves out "[PID]". */
struct kmsg_forward_sink {
	const char *name;
	int pid;
	void (*emit)(void *ctx, const char *record, size_t len); /* one whole record */
	void *ctx;
};

/* Take len bytes of stream s: each complete non-empty line (and every
 * KMSG_FORWARD_TEXT_MAX bytes of an overlong one) becomes a record, if the rate limit
 * lets it through. An unfinished line is kept for the next call. */
void kmsg_forward_feed(struct kmsg_forward *f, enum kmsg_stream s, const char *data, size_t len,
		       long long now_ms, const struct kmsg_forward_limit *limit,
		       const struct kmsg_forward_sink *sink);

/* The writer exited: send the unfinished lines as they are, then the count of
 * suppressed lines if there is one. */
void kmsg_forward_flush(struct kmsg_forward *f, long long now_ms,
			const struct kmsg_forward_limit *limit,
			const struct kmsg_forward_sink *sink);

/* "<pri>name[pid]: text\n" into buf (KMSG_FORWARD_RECORD_MAX bytes); returns its length. */
size_t kmsg_forward_format(char *buf, int priority, const char *name, int pid, const char *text,
			   size_t len);
#endif
