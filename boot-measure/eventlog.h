#ifndef BOOT_MEASURE_EVENTLOG_H
#define BOOT_MEASURE_EVENTLOG_H
/* The log file on disk. Writers hold an exclusive flock from before the extend until
 * the record is appended, and set the sticky bit meanwhile ("in progress"): a writer
 * that dies between extend and append leaves the bit set, and every reader then knows
 * the log is incomplete. Readers take a shared lock. The file is never rewritten. */
#include <stdbool.h>
#include <stddef.h>

#define EVENT_LOG_DEFAULT "/run/log/ember/tpm2-measure.log"
#define EVENT_LOG_ENV "EMBER_MEASURE_LOG"
#define EVENT_LOG_READ_MAX (16u << 20)

struct event_log {
	const char *path;
	int fd;
	bool was_incomplete; /* the marker was already set when we took the lock */
};

/* Create (0600, parent directories 0755) and lock exclusively. Returns 0 or -1/errno. */
int event_log_open_writer(struct event_log *log, const char *path);
/* Set the "in progress" marker and flush it, before the PCR is extended. */
int event_log_mark_in_progress(struct event_log *log);
/* Append one formatted record and flush it. */
int event_log_append(struct event_log *log, const char *record, size_t len);
/* Clear the marker again, unless an earlier writer had left it set. */
int event_log_mark_complete(struct event_log *log);
/* Close, which drops the lock. */
void event_log_close(struct event_log *log);

/* Read the whole log under a shared lock, which stays held until event_log_close so
 * the caller can read PCRs that agree with it. A missing file reads as empty (fd -1).
 * *data is malloc'd (NUL-terminated). Returns 0 or -1/errno (EFBIG above the limit). */
int event_log_read(struct event_log *log, const char *path, char **data, size_t *len);
#endif
