#ifndef EMBER_CALENDAR_H
#define EMBER_CALENDAR_H
/* Calendar events as systemd.time(7) spells them ("*-*-* 06:00", "Mon..Fri 8..17:0/15",
 * "daily", "Sun *-*-* 03:10:00 UTC"): parsing, the next elapse after a given time, and
 * the normalized form. Pure: no allocation, no I/O beyond the C library's time zone
 * (local time, or UTC when the event says so). Used by PID 1 (timer units) and emberctl
 * (calendar). docs/calendar.md says what is read and how it differs from systemd. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CALENDAR_TEXT_MAX 256 /* an event's text or normalized form, incl. NUL */
#define CALENDAR_YEAR_MIN 1970
#define CALENDAR_YEAR_MAX 2199

/* Every field is the set of its allowed values: bit v set = v allowed. */
struct calendar_spec {
	uint64_t years[4];   /* bit y - CALENDAR_YEAR_MIN */
	uint64_t minutes;    /* bits 0..59 */
	uint64_t seconds;    /* bits 0..59 */
	uint32_t days;       /* bits 1..31 (days of the month) */
	uint32_t days_end;   /* "~": bit d = the d-th last day of the month (1: the last) */
	uint32_t hours;      /* bits 0..23 */
	uint16_t months;     /* bits 1..12 */
	uint8_t weekdays;    /* bit 0 Monday .. bit 6 Sunday */
	uint8_t stepped;     /* CALENDAR_STEPPED_*: the field was written as one a/step */
	uint8_t ranged;      /* CALENDAR_STEPPED_*: ... as one a..b/step */
	bool utc;            /* "UTC" at the end: computed in UTC, else in local time */
};

/* Only for the normalized form, which keeps a repetition as written ("00/30", not the
 * "00,30" its set would give), as systemd keeps it. */
enum {
	CALENDAR_STEPPED_YEAR = 1, CALENDAR_STEPPED_MONTH = 2, CALENDAR_STEPPED_DAY = 4,
	CALENDAR_STEPPED_HOUR = 8, CALENDAR_STEPPED_MINUTE = 16, CALENDAR_STEPPED_SECOND = 32,
};

/* text -> spec: 0, or -1 with a one-line reason in err (the input is never echoed). */
int calendar_parse(const char *text, struct calendar_spec *spec, char *err, size_t err_size);
/* The first elapse strictly after `after` (seconds since the epoch): 0 and *next, or -1
 * when the event never elapses again (a year range that has ended, February 30). */
int calendar_next(const struct calendar_spec *spec, long long after, long long *next);
/* The normalized form ("daily" -> "*-*-* 00:00:00"): 0, -1 when it does not fit. */
int calendar_format(const struct calendar_spec *spec, char *out, size_t size);

#endif
