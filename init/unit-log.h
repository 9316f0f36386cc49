#ifndef EMBER_INIT_UNIT_LOG_H
#define EMBER_INIT_UNIT_LOG_H
/* What PID 1 keeps of a unit's output, in one fixed pool apart from struct unit.
 *
 * The ring is 8 KiB (LOGBUF_SIZE) and the kmsg forwarding state 1.8 KiB, and many
 * services never write a byte (they log to syslog, or not at all). Inline in struct unit,
 * every loaded unit cost PID 1 those pages; here a unit takes a slot on its first output
 * and gives it back when it leaves the table, so only units that wrote something use
 * that memory. The pool has one slot per possible unit (SERVICE_COUNT_MAX): a unit in the
 * table can always get one. */
#include <stdbool.h>

#include "kmsg-forward.h"
#include "logbuf.h"

struct unit_output {
	struct kmsg_forward kmsg; /* StandardOutput=kmsg, StandardError=kmsg */
	struct logbuf log;        /* last: its data pages are touched only as it fills */
};

/* A free slot, emptied (the ring's data bytes are not touched: a ring reads only what it
 * was given). NULL when all are taken (only possible if units that left the table still
 * held theirs: a bug, reported once; the output is then dropped, nothing else). */
struct unit_output *unit_output_take(void);
/* Give a slot back; NULL is fine. */
void unit_output_release(struct unit_output *o);
/* For readers: o's ring, or an empty one when o is NULL (a unit that has not written). */
const struct logbuf *unit_log_view(const struct unit_output *o);
#endif
