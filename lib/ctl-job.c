/* See ctl-job.h. A start ends once the unit is up (ready; a oneshot has run) or down for
 * good, a stop once no process is left, a reload once ExecReload= (or notify-reload's
 * handshake) is over. */
#include <string.h>

#include "ctl-job.h"

static bool is(const char *a, const char *b) { return strcmp(a, b) == 0; }

/* Not there yet: queued behind its ordering, its start or stop commands running, or (a
 * start) its main process not yet ready. */
static bool moving(enum ctl_verb verb, const char *state)
{
	return is(state, "waiting") || is(state, "starting") || is(state, "stopping") ||
	       (verb != CTL_STOP && is(state, "running"));
}

static bool failed(const char *state)
{
	return is(state, "failed") || is(state, "permanent-failure") || is(state, "invalid");
}

enum ctl_job_end ctl_job_end(enum ctl_verb verb, const char *state, const char *active_state,
			     const char *reload_result, const char *result)
{
	if (verb == CTL_RELOAD) {
		if (is(active_state, "reloading"))
			return CTL_JOB_RUNNING;
		/* the unit went down meanwhile, or ExecReload= failed: systemd's job fails too */
		return is(state, "ready") && !is(reload_result, "failed") ? CTL_JOB_DONE
									  : CTL_JOB_FAILED;
	}
	if (moving(verb, state))
		return CTL_JOB_RUNNING;
	/* a stop is done however the unit ended; a start whose condition did not hold is
	 * done too (systemd's start job: "done", the unit skipped) */
	if (verb == CTL_STOP)
		return CTL_JOB_DONE;
	if (is(state, "stopped") && is(result, "dependency")) /* a new start resets it */
		return CTL_JOB_DEPENDENCY;
	if (is(state, "stopped") && is(result, "timeout")) /* a device that did not appear */
		return CTL_JOB_FAILED;
	return failed(state) ? CTL_JOB_FAILED : CTL_JOB_DONE;
}
