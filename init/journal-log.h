#ifndef EMBER_INIT_JOURNAL_LOG_H
#define EMBER_INIT_JOURNAL_LOG_H
/* PID 1's own log lines go to systemd-journald while it runs, over journald's native
 * protocol, as systemd's PID 1 sends its own. In /dev/kmsg they were kernel records to
 * journald, which it does not forward to the syslog daemon: /var/log/syslog had none of
 * them. A line about a unit ("sshd: started (pid 212)") carries UNIT= and INVOCATION_ID=,
 * so `journalctl -u ssh` shows it beside the service's own lines, as under systemd.
 * docs/design.md, "PID 1's log". */
#include <stdbool.h>
#include <stddef.h>

#include "log.h"

#define JOURNAL_NATIVE_SOCKET "/run/systemd/journal/socket"
#define JOURNALD_UNIT "systemd-journald" /* the service whose readiness opens the way */

struct journal_log_entry {
	enum log_level level;
	const char *identifier; /* SYSLOG_IDENTIFIER= */
	const char *unit;       /* full unit name ("sshd.service"); NULL: not about a unit */
	const char *invocation; /* that unit's invocation id; NULL or "": none */
	const char *text;       /* MESSAGE=, any bytes */
	size_t len;
};

/* One native-protocol datagram; 0 when it does not fit in size. */
size_t journal_log_format(char *buf, size_t size, const struct journal_log_entry *e);

/* For log_set_sink(): sends the line when journald is ready, without ever waiting; false
 * (the line goes to kmsg) when it is not, or its queue is full. */
bool journal_log_line(enum log_level level, const char *text, size_t len);
#endif
