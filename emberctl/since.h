#ifndef EMBERCTL_SINCE_H
#define EMBERCTL_SINCE_H
/* emberctl log --since=TIME: the times systemd.time(7) lets journalctl take, in local
 * time: "2026-12-04 10:24:02", "2026-12-04 10:24", "2026-12-04", "10:24:02", "10:24"
 * (today), "now", "today", "yesterday", "@EPOCH", and relative ones: "-5min",
 * "5 min ago", "-1h 30min", "2 days ago" (units us, ms, s, sec, second(s), m, min,
 * minute(s), h, hr, hour(s), d, day(s), w, week(s), M, month(s), y, year(s)). */

#include <stddef.h>

/* Parse s against now (µs since the epoch). Returns 0 with *out (µs since the epoch),
 * or -1 with a message in err. */
int since_parse(const char *s, long long now_us, long long *out, char *err, size_t errlen);
#endif
