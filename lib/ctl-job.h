#ifndef EMBER_CTL_JOB_H
#define EMBER_CTL_JOB_H
/* The end of a start, stop, restart or reload job, read from the unit's status record
 * (docs/control-protocol.md): ember-init answers such a request once the job has begun,
 * and its clients (emberctl, ember-activator's D-Bus jobs) wait for the end as systemd's
 * clients wait for a job. */
#include "ctl.h"

/* CTL_JOB_DEPENDENCY: a start that failed before the unit ran (a unit it requires
 * failed, a Requisite= not active); the unit is left inactive, as systemd's job result
 * "dependency". */
enum ctl_job_end { CTL_JOB_RUNNING, CTL_JOB_DONE, CTL_JOB_FAILED, CTL_JOB_DEPENDENCY };

/* From the unit's state, active_state, reload_result and result fields ("" when not
 * read). */
enum ctl_job_end ctl_job_end(enum ctl_verb verb, const char *state, const char *active_state,
			     const char *reload_result, const char *result);
#endif
