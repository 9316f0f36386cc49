#ifndef EMBERCTL_SHOW_H
#define EMBERCTL_SHOW_H
/* Views of list and status replies. now_us: CLOCK_BOOTTIME now, for "3min ago". */
#include <stdio.h>

#include "records.h"

/* A table: NAME STATE PID RESTARTS SINCE DESCRIPTION, one row per record. */
void show_list(FILE *f, const struct record_set *set, long long now_us);
/* A JSON array of the records. */
void show_list_json(FILE *f, const struct record_set *set);
/* systemctl-status-like lines for one service record. */
void show_status(FILE *f, const struct ctl_record *rec, long long now_us);
void show_status_json(FILE *f, const struct ctl_record *rec);
/* A unit ember-init has not loaded (not pulled in since boot) whose file exists: stopped,
 * as systemctl shows an inactive unit. */
void show_not_loaded(FILE *f, const char *name, const char *fragment, const char *file_state);
void show_not_loaded_json(FILE *f, const char *name, const char *fragment, const char *file_state);
/* Is the service in a state emberctl status reports as running (exit 0)? */
bool status_running(const struct ctl_record *rec);
#endif
