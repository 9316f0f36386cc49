#ifndef EMBER_INIT_UNIT_LOG_H
#define EMBER_INIT_UNIT_LOG_H
/* The output rings of the units, in one fixed pool apart from struct unit.
 *
 * A ring is 8 KiB (LOGBUF_SIZE) and many services never write a byte (they log to syslog,
 * or not at all). Inline in struct unit, every loaded unit cost PID 1 those pages; here a
 * unit takes a ring on its first output and gives it back when it leaves the table, so
 * only units that wrote something use ring memory. The pool has one ring per possible
 * unit (SERVICE_COUNT_MAX): a unit in the table can always get one. */
#include <stdbool.h>

#include "logbuf.h"

/* A free ring, emptied (its data bytes are not touched: a ring reads only what it was
 * given). NULL when all are taken (only possible while units that left the table still
 * hold theirs: a bug, reported once; the output is then dropped, nothing else). */
struct logbuf *unit_log_take(void);
/* Give a ring back; NULL is fine. */
void unit_log_release(struct logbuf *b);
/* For readers: b, or an empty ring when b is NULL (a unit that has not written yet). */
const struct logbuf *unit_log_view(const struct logbuf *b);
#endif
