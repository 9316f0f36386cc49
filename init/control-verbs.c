/* emberctl verbs (issue 17): systemd's state names, kill, and logs with line times.
 * No allocation; everything goes out through the client's ctl_writer. */
#include "control-verbs.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "svc-cgroup.h"
#include "svc-lifecycle.h"
#include "unit-timer.h" /* timer units */
#include "unit-automount.h" /* automount units */
#include "unit-path.h" /* path units */

#define LOG_PIECE_MAX 1000 /* text bytes per record: escaped, it still fits one packet */

static const char *active_sub(const struct unit *u)
{
	if (u->phase == PHASE_RELOAD || u->reloading)
		return "reload";
	if (u->svc->kind == UNIT_SOCKET)
		return "listening";
	if (u->svc->kind == UNIT_TIMER) /* timer units, as systemd names them */
		return timer_unit_due(u) >= 0 ? "waiting" : "elapsed";
	if (u->svc->kind == UNIT_PATH) /* path units */
		return path_unit_sub_state(u);
	if (u->svc->kind == UNIT_AUTOMOUNT) /* automount units */
		return automount_unit_sub_state(u);
	return u->main_pid > 0 ? "running" : "exited";
}

static const char *stopping_sub(const struct unit *u)
{
	switch (u->phase) {
	case PHASE_STOP_CMD: return u->svc->kind == UNIT_SOCKET ? "stop-pre" : "stop"; /* socket-exec */
	case PHASE_KILL: return u->killed ? "stop-sigkill" : "stop-sigterm";
	case PHASE_STOP_POST: return "stop-post";
	case PHASE_SWAPOFF: return u->killed ? "deactivating-sigkill" : "deactivating";
	default: return "stop";
	}
}

/* As systemd reports it: a unit waiting for its ordering dependencies is "inactive"
 * (its start job is queued); a failed one with a restart pending is "activating
 * (auto-restart)"; an invalid file or an unmet Requires= is "failed" (ember lists it
 * so, and list --failed must show it). */
void verbs_unit_states(const struct unit *u, const char **load, const char **active,
		       const char **sub)
{
	*load = u->state == UNIT_MASKED ? "masked" : u->svc->failed ? "bad-setting" : "loaded";
	*active = "inactive";
	*sub = "dead";
	switch (u->state) {
	case UNIT_STARTING:
		*active = "activating";
		*sub = u->phase == PHASE_PRE ? "start-pre" : u->phase == PHASE_CONDITION ? "condition"
		       : u->phase == PHASE_START_POST ? "start-post" /* socket-exec */ : "start";
		break;
	case UNIT_RUNNING:
		*active = "activating";
		*sub = u->phase == PHASE_START_POST ? "start-post" : "start";
		break;
	case UNIT_READY:
		*active = u->phase == PHASE_RELOAD || u->reloading ? "reloading" : "active";
		*sub = active_sub(u);
		break;
	case UNIT_STOPPING:
		*active = "deactivating";
		*sub = stopping_sub(u);
		break;
	case UNIT_FAILED:
		*active = u->restart_pending ? "activating" : "failed";
		*sub = u->restart_pending ? "auto-restart" : "failed";
		break;
	case UNIT_PERMANENT: case UNIT_INVALID:
		*active = *sub = "failed";
		break;
	default: /* inactive, waiting, stopped, masked, condition-failed */
		break;
	}
}

void verbs_add_summary(struct ctl_writer *w, const struct unit *u)
{
	const char *load, *active, *sub;

	verbs_unit_states(u, &load, &active, &sub);
	ctl_record_add_str(w, "load_state", load);
	ctl_record_add_str(w, "active_state", active);
	ctl_record_add_str(w, "sub_state", sub);
}

void verbs_add_status(struct ctl_writer *w, const struct unit *u)
{
	ctl_record_add_str(w, "fragment_path", u->svc->path);
	ctl_record_add_str(w, "result", svc_result_name((enum svc_result)u->result));
	ctl_record_add_str(w, "reload_result", u->reload_failed ? "failed" : "success");
	ctl_record_add_int(w, "control_pid", u->control_pid);
	ctl_record_add_int(w, "exit_signal", u->exit_signal);
	ctl_record_add_int(w, "started_us", u->started_us);
	ctl_record_add_int(w, "ready_us", u->ready_us);
	ctl_record_add_int(w, "failed_us", u->failed_us);
	ctl_record_add_int(w, "stopped_us", u->stopped_us);
}

/* ---- kill ----------------------------------------------------------------------------- */

static int signal_one(pid_t pid, int sig)
{
	return pid > 1 && kill(pid, sig) == 0 ? 1 : 0;
}

static bool up(const struct unit *u)
{
	return u->state == UNIT_STARTING || u->state == UNIT_RUNNING || u->state == UNIT_READY ||
	       u->state == UNIT_STOPPING;
}

/* Every process of the service: its cgroup, or without cgroups its session (and the
 * main and control process should they have left it). */
static int signal_all(struct unit *u, int sig)
{
	int sent = 0;

	if (svc_cgroup_enabled() && u->cg_fd >= 0) {
		if (svc_cgroup_populated(u) == 0)
			return 0;
		svc_cgroup_signal(u, sig);
		return 1;
	}
	/* The session id stays set after the service stopped, and may be reused by then:
	 * only a unit that may have processes gets its session signalled. */
	if (u->pgid > 1 && (u->main_pid > 0 || u->control_pid > 0 || up(u)) &&
	    kill(-u->pgid, sig) == 0)
		sent++;
	if (u->main_pid > 1 && (u->pgid <= 1 || getpgid(u->main_pid) != u->pgid))
		sent += signal_one(u->main_pid, sig);
	if (u->control_pid > 1 && (u->pgid <= 1 || getpgid(u->control_pid) != u->pgid))
		sent += signal_one(u->control_pid, sig);
	return sent;
}

int verbs_kill(const char *name, int sig, enum ctl_whom whom, uid_t by, int *status,
	       char *err, size_t errlen)
{
	/* The supervisor's own lookup hands out its unit for changes; signalling changes
	 * the unit's processes, not the supervisor's bookkeeping (their exits come as
	 * usual). */
	struct unit *u = supervisor_unit_for_handover(name);
	int sent;

	*status = CTL_STATUS_FAILED;
	if (!u) {
		*status = CTL_STATUS_NO_SUCH_SERVICE;
		snprintf(err, errlen, "%s: no such service", name);
		return -1;
	}
	if (whom == CTL_WHOM_MAIN)
		sent = signal_one(u->main_pid, sig);
	else if (whom == CTL_WHOM_CONTROL)
		sent = signal_one(u->control_pid, sig);
	else
		sent = signal_all(u, sig);
	if (sent == 0) {
		snprintf(err, errlen, "%s: no %s to signal", name,
			 whom == CTL_WHOM_MAIN ? "main process" : whom == CTL_WHOM_CONTROL
			 ? "control process" : "process");
		return -1;
	}
	log_info("control: signal %d to %s of %s, requested by uid %u", sig,
		 ctl_whom_name(whom), name, (unsigned)by);
	return 0;
}

/* ---- logs with times ------------------------------------------------------------------ */

static void emit_piece(void *ctx, long long t_ms, const char *data, size_t len, bool eol)
{
	struct ctl_writer *w = ctx;
	char text[LOG_PIECE_MAX + 1];

	if (eol)
		len--; /* the newline is what eol=1 says */
	do {
		size_t n = len < LOG_PIECE_MAX ? len : LOG_PIECE_MAX;
		memcpy(text, data, n);
		text[n] = '\0';
		for (size_t i = 0; i < n; i++) /* a value is a C string: NUL shows as '?' */
			if (text[i] == '\0')
				text[i] = '?';
		data += n;
		len -= n;
		ctl_record_begin(w);
		ctl_record_add_int(w, "t_ms", t_ms);
		ctl_record_add_str(w, "text", text);
		ctl_record_add_int(w, "eol", eol && len == 0);
		ctl_record_end(w);
	} while (len > 0);
}

void verbs_reply_stamped_log(struct ctl_writer *w, const struct unit *u)
{
	unsigned long long cursor =
		logbuf_read_stamped(unit_log_view(u->output), 0, emit_piece, w);

	ctl_record_begin(w);
	ctl_record_add_int(w, "cursor", (long long)cursor);
	ctl_record_end(w);
	ctl_write_exit(w, CTL_STATUS_OK);
}
