#ifndef EMBER_INIT_CONTROL_VERBS_H
#define EMBER_INIT_CONTROL_VERBS_H
/* emberctl verbs (issue 17), PID 1's side: systemd's names for a unit's state (is-active,
 * is-failed, list --state, show), the facts show and cat need, kill, and logs with each
 * line's time (log --since, -n, --all). control.c calls these; see
 * docs/control-protocol.md. */
#include <stdbool.h>
#include <stddef.h>

#include "ctl.h"
#include "supervisor.h"

/* systemd's LoadState, ActiveState and SubState for u ("loaded", "active", "running"). */
void verbs_unit_states(const struct unit *u, const char **load, const char **active,
		       const char **sub);
/* load_state, active_state, sub_state: added to every list and status record. */
void verbs_add_summary(struct ctl_writer *w, const struct unit *u);
/* What status adds for show and cat: fragment_path, result, control_pid, exit_signal and
 * the times of the last start, ready, failure and stop. */
void verbs_add_status(struct ctl_writer *w, const struct unit *u);
/* Send signal sig to whom of the unit called name. 0, or -1 with a message and *status
 * the reply's status (no such service, or failed: nothing to signal). */
int verbs_kill(const char *name, int sig, enum ctl_whom whom, uid_t by, int *status,
	       char *err, size_t errlen);
/* The unit's log as records: t_ms, text, eol per line (long lines in pieces), then one
 * record with the cursor a follow request may go on from. */
void verbs_reply_stamped_log(struct ctl_writer *w, const struct unit *u);
#endif
