#ifndef EMBERCTL_TIMERS_H
#define EMBERCTL_TIMERS_H
/* Timer units in emberctl: `list-timers` (systemctl's table: next elapse, time left,
 * last elapse, time passed, the timer, what it starts) and the timer lines of `status`.
 * Pure views: records in, text out; wall-clock times in local time. */
#include <stdio.h>

#include "records.h"

/* The table of the active timers in set (other records skipped); now: seconds since the
 * epoch. */
void show_timers(FILE *f, const struct record_set *set, long long now);
/* One JSON array of the active timers' records. */
void show_timers_json(FILE *f, const struct record_set *set);
/* status: "Trigger:", "Triggers:" and "Last:" for a timer's record, nothing for others. */
void show_timer_lines(FILE *f, const struct ctl_record *rec, long long now);

/* Path units: `list-paths` (systemctl's table: each watched path, its condition, the path
 * unit, what it starts) of the active path units, and the same records as JSON. */
void show_paths(FILE *f, const struct record_set *set);
void show_paths_json(FILE *f, const struct record_set *set);
#endif
