#include "supervisor.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec-context.h"
#include "emergency.h"
#include "exec-line.h"
#include "log.h"
#include "spawn.h"
#include "svc-cgroup.h"

#define KILL_GRACE_MS 5000      /* after SIGKILL, how long to wait for an empty cgroup */
#define STOP_POLL_MS 50         /* how often a stopping service's cgroup is checked */
#define OUTPUT_READS_PER_TURN 4 /* per service and loop turn: a flood cannot starve others */
#define OUTPUT_DRAIN_TURNS 4    /* after an exit: 4 turns of reads empty a 64 KiB pipe */

/* The state PID 1 keeps about services, in one place. */
static struct {
	struct supervisor_config cfg;
	struct service services[SERVICE_COUNT_MAX];
	struct unit units[SERVICE_COUNT_MAX];
	size_t count;
	struct depgraph graph;
	struct spawn_env spawn;
	bool stopping_all;
	long long boot_ready_us;
	void (*boot_ready_cb)(void);
	void (*essential_cb)(const char *name);
} sv; /* zero-initialised: 5 MB that must stay in .bss, not the binary */

static const char *const state_names[] = {
	[UNIT_INACTIVE] = "inactive", [UNIT_WAITING] = "waiting", [UNIT_STARTING] = "starting",
	[UNIT_RUNNING] = "running", [UNIT_READY] = "ready", [UNIT_STOPPING] = "stopping",
	[UNIT_STOPPED] = "stopped", [UNIT_FAILED] = "failed", [UNIT_PERMANENT] = "permanent-failure",
	[UNIT_MASKED] = "masked", [UNIT_INVALID] = "invalid", [UNIT_CONDITION] = "condition-failed",
};

const char *unit_state_name(enum unit_state s) { return state_names[s]; }

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static const char *name_of(const struct unit *u) { return u->svc->name; }

static size_t index_of(const struct unit *u) { return (size_t)(u - sv.units); }

static void set_state(struct unit *u, enum unit_state s)
{
	if (u->state == s)
		return;
	u->state = s;
	u->since_us = now_us();
	log_debug("%s: %s", name_of(u), state_names[s]);
}

static long long deadline_after(unsigned long ms)
{
	return ms == SERVICE_TIMEOUT_INFINITY ? -1 : now_ms() + (long long)ms;
}

/* ---- loading ---------------------------------------------------------------------- */

static void diag_report(void *ctx, enum service_severity sev, const char *file,
			unsigned line, const char *msg)
{
	(void)ctx;
	if (line)
		(sev == SERVICE_WARNING ? log_warn : log_error)("%s:%u: %s", file, line, msg);
	else
		(sev == SERVICE_WARNING ? log_warn : log_error)("%s: %s", file, msg);
}

static const struct service_diag diag = { diag_report, NULL };

static void unit_reset(struct unit *u, struct service *svc)
{
	memset(u, 0, sizeof *u);
	u->svc = svc;
	u->cg_fd = u->out_fd = u->out_wfd = u->exec_fd = -1;
	u->err_fd = u->err_wfd = -1;
	u->deadline_ms = -1;
	u->exit_status = -1;
	u->started_us = u->ready_us = u->failed_us = u->stopped_us = -1;
	u->since_us = now_us();
}

static void unit_classify(struct unit *u)
{
	const struct service *s = u->svc;

	if (s->masked) {
		u->state = UNIT_MASKED;
	} else if (s->failed) {
		u->state = UNIT_INVALID;
		snprintf(u->error, sizeof u->error, "%s", s->error);
	} else if (sv.cfg.essential_only && !s->essential) {
		u->state = UNIT_INACTIVE;
	} else {
		u->state = UNIT_WAITING;
		u->start_wanted = true;
	}
}

void supervisor_init(const struct supervisor_config *cfg)
{
	sv.boot_ready_us = -1;
	sv.cfg = *cfg;
	sv.spawn.notify_path = cfg->notify_path;
	sv.spawn.caps_helper = cfg->caps_helper;
	sv.spawn.console_fd = -1;
	sv.spawn.caught_signals = emergency_caught_signals();
	svc_cgroup_init(cfg->cgroup_root, cfg->cgroup_options);
	service_load(cfg->dirs, cfg->ndirs, sv.services, SERVICE_COUNT_MAX, &sv.count, &diag);
	depgraph_from_services(&sv.graph, sv.services, sv.count, &diag);
	for (size_t i = 0; i < sv.count; i++) {
		unit_reset(&sv.units[i], &sv.services[i]);
		unit_classify(&sv.units[i]);
	}
	log_info("supervisor: %zu service(s) loaded", sv.count);
}

/* ---- readiness and the boot timeline --------------------------------------------- */

static bool unit_in_progress(const struct unit *u)
{
	return u->state == UNIT_WAITING || u->state == UNIT_STARTING || u->state == UNIT_RUNNING;
}

static void done_set(struct depgraph_set *done)
{
	memset(done, 0, sizeof *done);
	for (size_t i = 0; i < sv.count; i++)
		if (!unit_in_progress(&sv.units[i]) && !sv.units[i].restart_pending)
			depgraph_set_add(done, i);
}

/* ---- state handover (issue 14): see init/handover.c ------------------------------ */

struct unit *supervisor_unit_for_handover(const char *name)
{
	for (size_t i = 0; i < sv.count; i++)
		if (strcmp(sv.units[i].svc->name, name) == 0)
			return &sv.units[i];
	return NULL;
}

void supervisor_restore_boot_ready(long long boot_ready_us)
{
	sv.boot_ready_us = boot_ready_us;
}

static void check_boot_ready(void)
{
	if (sv.boot_ready_us >= 0)
		return;
	for (size_t i = 0; i < sv.count; i++)
		if (unit_in_progress(&sv.units[i]))
			return;
	sv.boot_ready_us = now_us();
	if (sv.boot_ready_cb)
		sv.boot_ready_cb();
}

static void mark_ready(struct unit *u)
{
	if (u->ready_us < 0 || u->ready_us < u->started_us)
		u->ready_us = now_us();
	u->deadline_ms = -1;
	set_state(u, UNIT_READY);
	log_info("%s: ready", name_of(u));
}

/* ---- starting ----------------------------------------------------------------------- */

static void fail_unit(struct unit *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void begin_stop(struct unit *u, bool wanted);
static bool should_restart(const struct unit *u, int status);
static void schedule_restart(struct unit *u);
static void retry_starved(struct unit *u);

static bool path_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static pid_t spawn_line(struct unit *u, const char *line)
{
	int exec_fd = -1;
	pid_t pid = spawn_command(u, line, &sv.spawn, &exec_fd);

	if (pid < 0)
		return pid; /* -1, or SPAWN_NO_RESOURCES */
	backoff_fed(&u->backoff);
	if (u->exec_fd >= 0)
		close(u->exec_fd);
	u->exec_fd = exec_fd;
	return pid;
}

static void start_main(struct unit *u)
{
	const struct service *s = u->svc;
	pid_t pid;

	if (s->exec_start.count == 0) {
		fail_unit(u, "no ExecStart=");
		return;
	}
	u->phase = PHASE_MAIN;
	pid = spawn_line(u, service_str(s, s->exec_start.line[0]));
	if (pid == SPAWN_NO_RESOURCES) {
		retry_starved(u);
		return;
	}
	if (pid < 0) {
		fail_unit(u, "%s", u->error);
		return;
	}
	u->main_pid = pid;
	u->pgid = pid;
	set_state(u, s->type == SERVICE_ONESHOT ? UNIT_STARTING : UNIT_RUNNING);
	log_info("%s: started (pid %d)", name_of(u), (int)pid);
}

static void run_next_pre(struct unit *u)
{
	const struct service *s = u->svc;
	pid_t pid;

	if (u->exec_index >= s->exec_start_pre.count) {
		start_main(u);
		return;
	}
	u->phase = PHASE_PRE;
	pid = spawn_line(u, service_str(s, s->exec_start_pre.line[u->exec_index]));
	if (pid == SPAWN_NO_RESOURCES) {
		retry_starved(u);
		return;
	}
	if (pid < 0) {
		fail_unit(u, "ExecStartPre=: %s", u->error);
		return;
	}
	u->control_pid = pid;
}

static bool requirements_failed(struct unit *u)
{
	const struct service *s = u->svc;

	for (unsigned i = 0; i < s->requires.count; i++) {
		const struct unit *r = supervisor_find(service_str(s, s->requires.name[i]));
		if (!r)
			continue; /* the graph already failed it */
		if (r->state == UNIT_FAILED || r->state == UNIT_PERMANENT || r->state == UNIT_INVALID ||
		    r->state == UNIT_CONDITION || r->state == UNIT_MASKED) {
			fail_unit(u, "dependency failed: %s", name_of(r));
			return true;
		}
	}
	return false;
}

static void begin_start(struct unit *u)
{
	char err[UNIT_ERROR_MAX];

	u->restart_pending = false;
	u->error[0] = '\0';
	if (!service_conditions_met(u->svc, path_exists)) {
		set_state(u, UNIT_CONDITION);
		log_info("%s: condition not met, skipped", name_of(u));
		return;
	}
	if (requirements_failed(u))
		return;
	if (svc_cgroup_prepare(u, err, sizeof err) < 0)
		log_warn("%s: %s", name_of(u), err);
	u->started_us = now_us();
	/* The backoff counts from this attempt: a start that fails at once must not look
	 * like the end of a long run (issue 14). */
	u->run_started_ms = now_ms();
	u->ready_us = -1;
	u->killed = false;
	u->deadline_ms = deadline_after(u->svc->timeout_start_ms);
	u->exec_index = 0;
	set_state(u, UNIT_STARTING);
	run_next_pre(u);
}

/* ---- failing, restarting, stopping ------------------------------------------------- */

static void propagate_start_failure(struct unit *u)
{
	struct depgraph_set req;
	size_t me = index_of(u);

	depgraph_requirers(&sv.graph, me, &req);
	for (size_t i = 0; i < sv.count; i++) {
		struct unit *r = &sv.units[i];
		if (!depgraph_set_has(&req, i))
			continue;
		if (r->state == UNIT_WAITING)
			fail_unit(r, "dependency failed: %s", name_of(u));
	}
}

static void fail_unit(struct unit *u, const char *fmt, ...)
{
	va_list ap;
	bool was_starting = u->ready_us < 0;
	char msg[UNIT_ERROR_MAX];

	/* The message may quote u->error itself: format into a copy first. */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	memcpy(u->error, msg, sizeof msg);
	log_error("%s: %s", name_of(u), u->error);
	u->failed_us = now_us();
	u->deadline_ms = -1;
	set_state(u, UNIT_FAILED);
	/* Leftover processes go first; the restart decision comes once they are gone. */
	if (u->main_pid > 0 || u->control_pid > 0 || svc_cgroup_populated(u) == 1)
		begin_stop(u, false);
	else if (should_restart(u, u->exit_status))
		schedule_restart(u);
	if (was_starting)
		propagate_start_failure(u);
	if (u->svc->essential && sv.essential_cb && !u->svc->restart)
		sv.essential_cb(name_of(u));
}

static bool should_restart(const struct unit *u, int status)
{
	if (sv.stopping_all || u->stop_wanted)
		return false;
	switch (u->svc->restart) {
	case RESTART_ALWAYS: return true;
	case RESTART_ON_FAILURE: return status != 0;
	default: return false;
	}
}

static void schedule_restart(struct unit *u)
{
	const struct service *s = u->svc;
	struct backoff_policy p = {
		s->restart_ms, s->restart_max_delay_ms, s->start_limit_burst,
		s->start_limit_interval_ms,
	};
	long long delay = backoff_next(&p, &u->backoff, now_ms(), now_ms() - u->run_started_ms);

	if (delay < 0) {
		set_state(u, UNIT_PERMANENT);
		snprintf(u->error, sizeof u->error, "gave up after %u failures within %lu ms",
			 p.burst + 1, p.interval_ms);
		log_error("%s: %s", name_of(u), u->error);
		/* Not forever: what failed may have been a passing condition (ember.failed_retry=). */
		if (sv.cfg.failed_retry_ms > 0) {
			u->deadline_ms = now_ms() + sv.cfg.failed_retry_ms;
			log_info("%s: trying again in %lld s", name_of(u), sv.cfg.failed_retry_ms / 1000);
		}
		if (u->svc->essential && sv.essential_cb)
			sv.essential_cb(name_of(u));
		return;
	}
	u->restart_pending = true;
	u->restarts++;
	u->deadline_ms = now_ms() + delay;
	log_info("%s: restarting in %lld ms", name_of(u), delay);
}

/* fork (or a pipe) failed for want of processes or memory. Not the service's failure:
 * no restart is counted and the start limit is untouched; the start is tried again
 * with its own backoff until resources come back (backoff_starved()). */
static void retry_starved(struct unit *u)
{
	long long delay = backoff_starved(&u->backoff);

	if (u->backoff.starved == 1 || delay == (long long)BACKOFF_STARVED_MAX_MS)
		log_warn("%s: %s; no resources, trying again in %lld ms", name_of(u), u->error, delay);
	u->phase = PHASE_NONE;
	u->control_pid = 0;
	set_state(u, UNIT_WAITING);
	u->restart_pending = true;
	u->deadline_ms = now_ms() + delay;
}

static void send_stop_signal(struct unit *u)
{
	int sig = u->svc->kill_signal ? u->svc->kill_signal : SIGTERM;

	if (u->main_pid > 0) {
		kill(u->main_pid, sig);
		kill(u->main_pid, SIGCONT);
	}
	if (u->control_pid > 0)
		kill(u->control_pid, sig);
	if (u->main_pid <= 0 && u->control_pid <= 0)
		svc_cgroup_signal(u, sig);
}

static void kill_everything(struct unit *u)
{
	log_warn("%s: stop timed out, killing its whole cgroup", name_of(u));
	u->killed = true;
	svc_cgroup_kill(u);
	u->deadline_ms = now_ms() + KILL_GRACE_MS;
}

/* Start the next ExecStop= line; false when there is none left (or it cannot start). */
static bool run_next_stop(struct unit *u)
{
	const struct service *s = u->svc;

	while (u->exec_index < s->exec_stop.count) {
		pid_t pid = spawn_line(u, service_str(s, s->exec_stop.line[u->exec_index++]));
		if (pid > 0) {
			u->control_pid = pid;
			return true;
		}
		log_warn("%s: ExecStop=: %s", name_of(u), u->error);
	}
	return false;
}

/* wanted: an explicit stop (emberctl, shutdown), as opposed to cleaning up after a
 * failure. Either way the service is stopped when its main process is gone and its
 * cgroup is empty. */
static void begin_stop(struct unit *u, bool wanted)
{
	const struct service *s = u->svc;

	if (wanted) {
		u->stop_wanted = true;
		u->restart_pending = false;
	}
	if (u->state != UNIT_FAILED)
		set_state(u, UNIT_STOPPING);
	u->deadline_ms = deadline_after(s->timeout_stop_ms);
	if (u->main_pid > 0 && s->exec_stop.count > 0 && u->phase == PHASE_MAIN && u->control_pid <= 0) {
		u->exec_index = 0;
		u->phase = PHASE_STOP_CMD;
		if (run_next_stop(u))
			return;
	}
	u->phase = PHASE_KILL;
	send_stop_signal(u);
}

/* Called whenever a process of a stopping unit is gone. */
static void maybe_stopped(struct unit *u)
{
	if (u->main_pid > 0 || u->control_pid > 0)
		return;
	if (svc_cgroup_populated(u) == 1)
		return;
	u->phase = PHASE_NONE;
	u->deadline_ms = -1;
	u->stopped_us = now_us();
	svc_cgroup_release(u);
	if (u->state == UNIT_STOPPING)
		set_state(u, UNIT_STOPPED);
	log_info("%s: stopped", name_of(u));
	if (u->start_after_stop) {
		u->start_after_stop = false;
		u->stop_wanted = false;
		backoff_reset(&u->backoff);
		set_state(u, UNIT_WAITING);
		return;
	}
	if (u->state == UNIT_FAILED && should_restart(u, u->exit_status))
		schedule_restart(u);
}

/* ---- events ------------------------------------------------------------------------- */

static void control_exited(struct unit *u, int status)
{
	const struct service *s = u->svc;
	int code = exec_status_code(status);
	bool ignore = false;

	u->control_pid = 0;
	if (u->phase == PHASE_PRE) {
		ignore = exec_line_prefixes(service_str(s, s->exec_start_pre.line[u->exec_index])) &
			 EXEC_IGNORE_FAILURE;
		if (code != 0 && !ignore) {
			fail_unit(u, "ExecStartPre= exited with status %d", code);
			return;
		}
		u->exec_index++;
		if (u->state == UNIT_STARTING)
			run_next_pre(u);
		return;
	}
	if (u->phase == PHASE_STOP_CMD) {
		if (run_next_stop(u))
			return;
		u->phase = PHASE_KILL;
		send_stop_signal(u);
	}
	maybe_stopped(u);
}

static void main_exited(struct unit *u, int status)
{
	int code = exec_status_code(status);
	bool clean = code == 0 || (u->svc->kill_signal && code == 128 + u->svc->kill_signal) ||
		     code == 128 + SIGTERM;

	u->main_pid = 0;
	u->exit_status = code;
	if (u->state == UNIT_STOPPING || u->stop_wanted) {
		if (u->control_pid <= 0 && svc_cgroup_populated(u) == 1 && !u->killed)
			send_stop_signal(u);
		maybe_stopped(u);
		return;
	}
	if (u->state == UNIT_FAILED) {
		maybe_stopped(u);
		return;
	}
	if (u->svc->type == SERVICE_ONESHOT && code == 0) {
		mark_ready(u);
		set_state(u, UNIT_STOPPING);
		maybe_stopped(u);
		if (u->state == UNIT_STOPPING)
			begin_stop(u, false);
		return;
	}
	if (code != 0 && !(clean && u->ready_us >= 0)) {
		fail_unit(u, "main process exited with status %d", code);
		return;
	}
	u->stopped_us = now_us();
	set_state(u, UNIT_STOPPING);
	begin_stop(u, false); /* leftovers in the cgroup go too */
	maybe_stopped(u);
	if (u->state == UNIT_STOPPED && should_restart(u, code))
		schedule_restart(u);
}

static void flush_output(struct unit *u, pid_t pid);

bool supervisor_child_exited(pid_t pid, int status)
{
	for (size_t i = 0; i < sv.count; i++) {
		struct unit *u = &sv.units[i];
		if (pid == u->control_pid) {
			flush_output(u, pid);
			control_exited(u, status);
			return true;
		}
		if (pid == u->main_pid) {
			flush_output(u, pid);
			main_exited(u, status);
			return true;
		}
	}
	return false;
}

static void handle_timeout(struct unit *u)
{
	if (u->restart_pending) {
		set_state(u, UNIT_WAITING);
		u->restart_pending = false;
		u->deadline_ms = -1;
		return;
	}
	switch (u->state) {
	case UNIT_STARTING:
	case UNIT_RUNNING:
		fail_unit(u, "start timed out");
		break;
	case UNIT_PERMANENT: /* ember.failed_retry=: a fresh chance, a fresh start limit */
		log_info("%s: retrying after permanent failure", name_of(u));
		backoff_reset(&u->backoff);
		u->deadline_ms = -1;
		set_state(u, UNIT_WAITING);
		break;
	case UNIT_STOPPING:
	case UNIT_FAILED:
		if (!u->killed) {
			kill_everything(u);
		} else {
			log_error("%s: processes survived SIGKILL; giving up on them", name_of(u));
			u->main_pid = u->control_pid = 0;
			u->killed = false;
			set_state(u, UNIT_STOPPED);
			u->deadline_ms = -1;
		}
		break;
	default:
		u->deadline_ms = -1;
	}
}

static void start_what_can_start(void)
{
	struct depgraph_set done;

	done_set(&done);
	for (size_t i = 0; i < sv.count; i++) {
		struct unit *u = &sv.units[i];
		if (u->state != UNIT_WAITING || u->restart_pending || sv.stopping_all)
			continue;
		if (depgraph_startable(&sv.graph, i, &done))
			begin_start(u);
	}
}

static bool unit_up(const struct unit *u)
{
	return u->main_pid > 0 || u->control_pid > 0 || u->state == UNIT_STOPPING ||
	       u->state == UNIT_STARTING || u->state == UNIT_RUNNING || u->state == UNIT_READY;
}

static void stop_what_can_stop(void)
{
	struct depgraph_set running;

	memset(&running, 0, sizeof running);
	for (size_t i = 0; i < sv.count; i++)
		if (unit_up(&sv.units[i]))
			depgraph_set_add(&running, i);
	for (size_t i = 0; i < sv.count; i++) {
		struct unit *u = &sv.units[i];
		u->restart_pending = false;
		if (u->stop_wanted || !unit_up(u))
			continue;
		if (depgraph_stoppable(&sv.graph, i, &running))
			begin_stop(u, true);
	}
}

void supervisor_tick(long long now)
{
	for (size_t i = 0; i < sv.count; i++) {
		struct unit *u = &sv.units[i];
		if (u->deadline_ms >= 0 && now >= u->deadline_ms)
			handle_timeout(u);
		if (u->state == UNIT_STOPPING || (u->state == UNIT_FAILED && u->phase == PHASE_KILL))
			maybe_stopped(u);
	}
	if (sv.stopping_all)
		stop_what_can_stop();
	else
		start_what_can_start();
	check_boot_ready();
}

long long supervisor_next_deadline(void)
{
	long long next = -1;

	for (size_t i = 0; i < sv.count; i++) {
		const struct unit *u = &sv.units[i];
		long long d = u->deadline_ms;
		/* A stopping service's cgroup is polled until it is empty. */
		if (u->state == UNIT_STOPPING || (u->state == UNIT_FAILED && u->phase == PHASE_KILL)) {
			long long poll_at = now_ms() + STOP_POLL_MS;
			d = d < 0 || poll_at < d ? poll_at : d;
		}
		if (d >= 0 && (next < 0 || d < next))
			next = d;
	}
	return next;
}

/* ---- fds: output and exec status -------------------------------------------------- */

size_t supervisor_pollfds(struct pollfd *fds, size_t max)
{
	size_t n = 0;

	/* Three slots per unit, in unit order; poll skips the -1 ones. */
	for (size_t i = 0; i < sv.count && n + 3 <= max; i++) {
		const struct unit *u = &sv.units[i];
		fds[n++] = (struct pollfd){ .fd = u->out_fd, .events = POLLIN };
		fds[n++] = (struct pollfd){ .fd = u->exec_fd, .events = POLLIN };
		fds[n++] = (struct pollfd){ .fd = u->err_fd, .events = POLLIN };
	}
	return n;
}

/* One record, one write. A record the kernel refuses is lost, and nothing else; saying
 * so for each one would flood the log that refuses them. */
static void write_kmsg(void *ctx, const char *record, size_t len)
{
	(void)ctx;
	if (sv.cfg.kmsg_fd >= 0 && write(sv.cfg.kmsg_fd, record, len) < 0)
		return; /* refused: this record is lost */
}

static bool forwards_to_kmsg(const struct unit *u, enum kmsg_stream s)
{
	const struct service *svc = u->svc;
	return (s == KMSG_STDOUT ? svc->std_output.kind : svc->std_error.kind) == OUTPUT_KMSG;
}

static struct kmsg_forward_limit kmsg_limit(const struct unit *u)
{
	return (struct kmsg_forward_limit){ u->svc->log_rate_burst, u->svc->log_rate_interval_ms };
}

/* Records name the main process, or the ExecStartPre=/ExecStop= one while it runs alone. */
static pid_t output_pid(const struct unit *u)
{
	return u->main_pid > 0 ? u->main_pid : u->control_pid;
}

static void forward_output(struct unit *u, enum kmsg_stream s, const char *data, size_t len)
{
	const struct kmsg_forward_limit limit = kmsg_limit(u);
	const struct kmsg_forward_sink sink = { name_of(u), (int)output_pid(u), write_kmsg, NULL };

	if (forwards_to_kmsg(u, s))
		kmsg_forward_feed(&u->kmsg, s, data, len, now_ms(), &limit, &sink);
}

static void read_output(struct unit *u, int fd, enum kmsg_stream s)
{
	char buf[4096];

	for (int i = 0; i < OUTPUT_READS_PER_TURN; i++) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n <= 0)
			return;
		logbuf_append(&u->log, buf, (size_t)n);
		forward_output(u, s, buf, (size_t)n);
	}
}

/* Process pid of u exited: its last words may still be in the pipes. With kmsg
 * forwarding, read them now (bounded: a grandchild that keeps writing cannot hold PID 1
 * here) and send the unfinished lines under its pid. */
static void flush_output(struct unit *u, pid_t pid)
{
	const struct kmsg_forward_limit limit = kmsg_limit(u);
	const struct kmsg_forward_sink sink = { name_of(u), (int)pid, write_kmsg, NULL };

	if (!forwards_to_kmsg(u, KMSG_STDOUT) && !forwards_to_kmsg(u, KMSG_STDERR))
		return;
	for (int i = 0; i < OUTPUT_DRAIN_TURNS; i++) {
		if (u->out_fd >= 0)
			read_output(u, u->out_fd, KMSG_STDOUT);
		if (u->err_fd >= 0)
			read_output(u, u->err_fd, KMSG_STDERR);
	}
	kmsg_forward_flush(&u->kmsg, now_ms(), &limit, &sink);
}

static void read_exec_status(struct unit *u)
{
	struct exec_failure f;
	int r = exec_failure_read(u->exec_fd, &f);

	if (r < 0 && errno == EAGAIN)
		return;
	close(u->exec_fd);
	u->exec_fd = -1;
	if (r > 0) {
		spawn_describe_failure(u, &f, u->error, sizeof u->error);
		log_error("%s: %s", name_of(u), u->error);
		return;
	}
	/* End of file: exec succeeded. A simple service is ready once its program runs. */
	if (u->phase == PHASE_MAIN && u->svc->type == SERVICE_SIMPLE && u->state == UNIT_RUNNING)
		mark_ready(u);
}

void supervisor_handle_pollfds(const struct pollfd *fds, size_t n)
{
	/* A slot whose fd changed since supervisor_pollfds (a reload in between) waits for
	 * the next turn. */
	for (size_t i = 0, k = 0; i < sv.count && k + 3 <= n; i++, k += 3) {
		struct unit *u = &sv.units[i];
		if (u->out_fd >= 0 && fds[k].fd == u->out_fd && (fds[k].revents & POLLIN))
			read_output(u, u->out_fd, KMSG_STDOUT);
		if (u->exec_fd >= 0 && fds[k + 1].fd == u->exec_fd && fds[k + 1].revents)
			read_exec_status(u);
		if (u->err_fd >= 0 && fds[k + 2].fd == u->err_fd && (fds[k + 2].revents & POLLIN))
			read_output(u, u->err_fd, KMSG_STDERR);
	}
}

/* ---- notify ------------------------------------------------------------------------- */

struct unit *supervisor_unit_of_pid(pid_t pid)
{
	for (size_t i = 0; i < sv.count; i++) {
		struct unit *u = &sv.units[i];
		if (u->main_pid == pid || u->control_pid == pid || svc_cgroup_has_pid(u, pid))
			return u;
	}
	return NULL;
}

void supervisor_notify(struct unit *u, pid_t sender, bool ready, bool stopping,
		       const char *status, pid_t mainpid)
{
	if (status)
		snprintf(u->status_text, sizeof u->status_text, "%s", status);
	if (mainpid > 0 && (mainpid == sender || svc_cgroup_has_pid(u, mainpid)))
		u->main_pid = mainpid;
	if (ready && u->svc->type == SERVICE_NOTIFY && u->state == UNIT_RUNNING)
		mark_ready(u);
	if (stopping && u->state != UNIT_STOPPING)
		log_info("%s: stopping (told by the service)", name_of(u));
}

/* ---- requests ------------------------------------------------------------------------- */

const struct unit *supervisor_find(const char *name)
{
	for (size_t i = 0; i < sv.count; i++)
		if (strcmp(sv.units[i].svc->name, name) == 0)
			return &sv.units[i];
	return NULL;
}

static struct unit *find_mutable(const char *name, char *err, size_t errlen)
{
	const struct unit *u = supervisor_find(name);
	if (!u)
		snprintf(err, errlen, "%s: no such service", name);
	return (struct unit *)u;
}

int supervisor_start(const char *name, char *err, size_t errlen)
{
	struct unit *u = find_mutable(name, err, errlen);

	if (!u)
		return -1;
	if (u->state == UNIT_MASKED || u->state == UNIT_INVALID) {
		snprintf(err, errlen, "%s: %s, cannot start%s%s", name, state_names[u->state],
			 u->error[0] ? ": " : "", u->error);
		return -1;
	}
	if (unit_in_progress(u) || u->state == UNIT_READY || u->state == UNIT_STOPPING)
		return 0;
	u->stop_wanted = false;
	u->start_wanted = true;
	backoff_reset(&u->backoff);
	set_state(u, UNIT_WAITING);
	return 0;
}

int supervisor_stop(const char *name, char *err, size_t errlen)
{
	struct unit *u = find_mutable(name, err, errlen);
	struct depgraph_set req;

	if (!u)
		return -1;
	depgraph_requirers(&sv.graph, index_of(u), &req);
	for (size_t i = 0; i < sv.count; i++)
		if (depgraph_set_has(&req, i) && unit_up(&sv.units[i]))
			begin_stop(&sv.units[i], true);
	u->restart_pending = false;
	if (unit_up(u))
		begin_stop(u, true);
	else if (u->state == UNIT_WAITING || u->state == UNIT_FAILED || u->state == UNIT_PERMANENT) {
		set_state(u, UNIT_STOPPED);
		u->deadline_ms = -1; /* no pending retry (starved start, ember.failed_retry=) */
	}
	u->stop_wanted = true;
	return 0;
}

int supervisor_restart(const char *name, char *err, size_t errlen)
{
	struct unit *u = find_mutable(name, err, errlen);

	if (!u)
		return -1;
	if (!unit_up(u))
		return supervisor_start(name, err, errlen);
	/* The start waits until the stop is complete. */
	begin_stop(u, true);
	u->start_after_stop = true;
	return 0;
}

void supervisor_stop_all(void)
{
	sv.stopping_all = true;
	stop_what_can_stop();
}

bool supervisor_all_stopped(void)
{
	for (size_t i = 0; i < sv.count; i++)
		if (unit_up(&sv.units[i]))
			return false;
	return true;
}

/* ---- reload ------------------------------------------------------------------------- */

static struct {
	struct service services[SERVICE_COUNT_MAX];
	struct unit units[SERVICE_COUNT_MAX];
} fresh;

static void say(void (*report)(void *, const char *), void *ctx, const char *verb,
		const char *name)
{
	char line[128];
	snprintf(line, sizeof line, "%s %s", verb, name);
	report(ctx, line);
	log_info("reload: %s", line);
}

/* Did the file change? The dependency graph marks services failed after parsing
 * (cycles, broken requirements): that verdict is not part of the file. */
static bool service_changed(const struct service *a, const struct service *b)
{
	static struct service x, y;

	x = *a;
	y = *b;
	x.failed = y.failed = false;
	memset(x.error, 0, sizeof x.error);
	memset(y.error, 0, sizeof y.error);
	return memcmp(&x, &y, sizeof x) != 0;
}

/* Keep the runtime state of a service that is still there; its new configuration
 * applies from its next start. */
static void carry_over(struct unit *dst, const struct unit *old, struct service *svc)
{
	*dst = *old;
	dst->svc = svc;
}

void supervisor_reload(void (*report)(void *ctx, const char *line), void *ctx)
{
	size_t n = 0, kept = 0;

	service_load(sv.cfg.dirs, sv.cfg.ndirs, fresh.services, SERVICE_COUNT_MAX, &n, &diag);
	for (size_t i = 0; i < n; i++) {
		struct service *svc = &fresh.services[i];
		const struct unit *old = supervisor_find(svc->name);
		if (old) {
			if (service_changed(old->svc, svc))
				say(report, ctx, "changed", svc->name);
			carry_over(&fresh.units[i], old, svc);
		} else {
			say(report, ctx, "added", svc->name);
			unit_reset(&fresh.units[i], svc);
			unit_classify(&fresh.units[i]);
		}
	}
	/* Removed services that still run are kept (stopping) until the next reload. */
	for (size_t i = 0; i < sv.count && n < SERVICE_COUNT_MAX; i++) {
		const struct unit *old = &sv.units[i];
		bool found = false;
		for (size_t k = 0; k < n && !found; k++)
			found = strcmp(fresh.services[k].name, old->svc->name) == 0;
		if (found)
			continue;
		say(report, ctx, "removed", old->svc->name);
		if (!unit_up(old))
			continue;
		fresh.services[n] = *old->svc;
		carry_over(&fresh.units[n], old, &fresh.services[n]);
		fresh.units[n].stop_wanted = true;
		n++;
		kept++;
	}
	memcpy(sv.services, fresh.services, n * sizeof *sv.services);
	for (size_t i = 0; i < n; i++) {
		sv.units[i] = fresh.units[i];
		sv.units[i].svc = &sv.services[i];
	}
	sv.count = n;
	depgraph_from_services(&sv.graph, sv.services, sv.count, &diag);
	for (size_t i = n - kept; i < n; i++)
		begin_stop(&sv.units[i], true);
}

size_t supervisor_count(void) { return sv.count; }
const struct unit *supervisor_unit(size_t i) { return i < sv.count ? &sv.units[i] : NULL; }
long long supervisor_ready_us(void) { return sv.boot_ready_us; }
long long supervisor_userspace_start_us(void) { return sv.cfg.userspace_start_us; }
void supervisor_on_boot_ready(void (*cb)(void)) { sv.boot_ready_cb = cb; }
void supervisor_on_essential_failure(void (*cb)(const char *name)) { sv.essential_cb = cb; }
