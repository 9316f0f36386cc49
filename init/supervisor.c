#include "supervisor.h"
#include "pages.h" /* compact */

#include "condition.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec-context.h"
#include "hash.h"
#include "emergency.h"
#include "exec-line.h"
#include "locale.h"
#include "log.h"
#include "busname-watch.h"
#include "socket-accept.h"
#include "socket-unit.h"
#include "sockets.h"
#include "spawn.h"
#include "spawn-execenv.h"
#include "svc-cgroup.h"
#include "svc-lifecycle.h"
#include "svc-pidfile.h"
#include "unit-deps.h"
#include "fdstore.h"          /* unit-runtime2 */
#include "svc-runtime.h"      /* unit-runtime2 */
#include "spawn-execmore.h"   /* DynamicUser=: RemoveIPC= of the id */
#include "unit-runtime-keys.h" /* unit-runtime2 */
#include "unit-kinds.h" /* unit kinds (unit-kinds) */
#include "unit-timer.h" /* timer units */
#include "unit-automount.h"
#include "unit-path.h" /* path units */
#include "parse.h"

#define UNIT_EXTRA_MAX 32       /* U1: units started by name and up, beyond the boot's */
#define KILL_GRACE_MS 5000      /* after SIGKILL, how long to wait for an empty cgroup */
#define STOP_POLL_MS 50         /* how often a stopping service's cgroup is checked */
#define OUTPUT_READS_PER_TURN 4 /* per service and loop turn: a flood cannot starve others */
#define OUTPUT_DRAIN_TURNS 4    /* after an exit: 4 turns of reads empty a 64 KiB pipe */
#define IDLE_MAX_WAIT_MS 5000   /* Type=idle waits at most this long for the others (systemd) */
#define CGROUP_WATCH_MS 1000    /* a service known only by its cgroup is checked this often */
#define RELOAD_PROPAGATE_MAX 32 /* units one reload propagates to (PropagatesReloadTo=) */

/* The state PID 1 keeps about services, in one place. */
static struct {
	struct supervisor_config cfg;
	/* Where unit files are read to: full-size records, scratch once they are stored */
	struct service services[SERVICE_COUNT_MAX];
	struct unit units[SERVICE_COUNT_MAX];
	size_t count;
	/* The loaded units' services, packed (store_pack()): svcs[i] is units[i].svc */
	struct service *svcs[SERVICE_COUNT_MAX];
	_Alignas(struct service) unsigned char store[SERVICE_COUNT_MAX * sizeof(struct service)];
	unsigned char *store_end;
	struct depgraph graph;
	struct spawn_env spawn;
	bool stopping_all;
	bool reload_no_start; /* this daemon-reload leaves the units it adds stopped */
	long long boot_ready_us;
	/* U1: the default target from the kernel command line, and units started by name
	 * that nothing else pulls in (loaded again on every reload) */
	char default_target[SERVICE_NAME_MAX];
	char extra[UNIT_EXTRA_MAX][SERVICE_NAME_MAX];
	const char *extra_ptr[UNIT_EXTRA_MAX];
	size_t nextra;
	void (*boot_ready_cb)(void);
	void (*essential_cb)(const char *name);
} sv; /* zero-initialised: ~6 MB that must stay in .bss, not the binary */

/* ---- the store of loaded services ----------------------------------------------------
 * A struct service has room for 8 KiB of text and most units use a few hundred bytes,
 * so a loaded unit keeps only its used bytes (service_used_size()), packed one after
 * another in unit order: ~2.5 KiB a unit instead of a page of its own. The packing is
 * redone from the first unit that changed whenever units join, leave or are reloaded. */

static size_t record_size(const struct service *s)
{
	size_t align = _Alignof(struct service);
	return (service_used_size(s) + align - 1) / align * align;
}

/* Lays out the services of units[first..count) after units[first - 1]'s. Each record
 * moves towards the start only (unit order is kept), so memmove is safe. The pages
 * after the last record go back to the kernel. */
static void store_pack(size_t first)
{
	unsigned char *at = first ? (unsigned char *)sv.svcs[first - 1] +
				    record_size(sv.svcs[first - 1]) : sv.store;
	unsigned char *old_end = sv.store_end ? sv.store_end : sv.store;

	for (size_t k = first; k < sv.count; k++) {
		struct service *s = sv.units[k].svc;
		if ((unsigned char *)s != at)
			memmove(at, s, service_used_size(s));
		sv.units[k].svc = sv.svcs[k] = (struct service *)at;
		at += record_size(sv.svcs[k]);
	}
	sv.store_end = at;
	if (old_end > at)
		pages_release(at, (size_t)(old_end - at));
}

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

static void begin_stop(struct unit *u, bool wanted);
static void pull_in(struct unit *u);

/* DynamicUser=: the id goes back; the last unit holding it takes its IPC objects along
 * (RemoveIPC=, implied), as nothing may outlive a dynamic user that could reach the next
 * holder of the id. Returns that id (its IPC to remove), 0 when another unit holds it. */
static uid_t release_dynamic_user(struct unit *u)
{
	unsigned id = u->dynamic_uid;

	if (!id)
		return 0;
	u->dynamic_uid = 0;
	for (size_t i = 0; i < sv.count; i++)
		if (sv.units[i].dynamic_uid == id && sv.units[i].state >= UNIT_STARTING &&
		    sv.units[i].state <= UNIT_STOPPING)
			return 0;
	return (uid_t)id;
}

/* What a service leaves behind once all its processes are gone: its RuntimeDirectory=
 * (U5), its fd store (unit-runtime2) and, as systemd, its PIDFile=, out of date now. */
static void leave_stopped(struct unit *u, bool restarting)
{
	execenv_stopped(u->svc, restarting, release_dynamic_user(u));
	fdstore_unit_stopped(u->svc, restarting);
	if (u->svc->pid_file)
		svc_pidfile_remove(service_str(u->svc, u->svc->pid_file));
}

static bool should_restart(const struct unit *u);

/* U1: BindsTo=/PartOf= (unit-deps.c): when u goes down, so do the units bound to it; when
 * it is restarted, they are restarted too. A unit that failed and restarts by Restart=
 * keeps them, as under systemd, where it is "activating (auto-restart)" meanwhile, not
 * inactive (one crashed jabberd2 daemon took the others, bound together, down for good). */
static void stop_bound(struct unit *u, enum unit_state s)
{
	struct unit *bound[SERVICE_COUNT_MAX];
	/* still set when it has stopped: maybe_stopped() clears it after */
	bool restart = (s == UNIT_STOPPING || s == UNIT_STOPPED) && u->start_after_stop;
	size_t n;

	if (s != UNIT_STOPPING && s != UNIT_STOPPED && s != UNIT_FAILED && s != UNIT_PERMANENT &&
	    s != UNIT_CONDITION)
		return;
	if (s == UNIT_FAILED && should_restart(u))
		return;
	n = unit_bound_to(u, s == UNIT_STOPPING || s == UNIT_STOPPED, bound, SERVICE_COUNT_MAX);
	for (size_t i = 0; i < n; i++) {
		/* a waiting one: after a restart it waits on for u's start; after a skip its
		 * start fails on it (bound_skipped()) */
		if (bound[i]->state == UNIT_WAITING && (restart || s == UNIT_CONDITION))
			continue;
		log_info("%s: %s because %s %s (BindsTo=/PartOf=)", name_of(bound[i]),
			 restart ? "restarted" : "stopped", name_of(u),
			 restart ? "is restarted" : s == UNIT_CONDITION ? "was skipped" : "went down");
		if (bound[i]->state == UNIT_WAITING) {
			bound[i]->state = UNIT_STOPPED;
		} else {
			bound[i]->start_after_stop |= restart;
			begin_stop(bound[i], true);
		}
	}
}

static void set_state(struct unit *u, enum unit_state s)
{
	if (u->state == s)
		return;
	u->state = s;
	u->since_us = now_us();
	timer_units_changed(); /* timer units: OnUnitActiveSec= ... count from such changes */
	path_units_changed(); /* path units: a unit that ended may be started again */
	log_debug("%s: %s", name_of(u), state_names[s]);
	stop_bound(u, s);
}

static long long deadline_after(unsigned long ms)
{
	return ms == SERVICE_TIMEOUT_INFINITY ? -1 : now_ms() + (long long)ms;
}

/* ---- loading ---------------------------------------------------------------------- */

/* A unit file's diagnostics are said once per boot or daemon-reload. The files are read
 * again, and the ordering graph is built again, whenever the table changes without one
 * (a unit loaded on request, ember-udev-wants' devices, an Accept=yes connection, an
 * instance gone): a run-time round's boot said one ordering cycle 59 times. They are
 * remembered by a hash of their text; past SAID_MAX, said again. */
#define SAID_MAX 256
static struct {
	unsigned count;
	uint64_t hash[SAID_MAX];
} said;

static bool said_before(const char *file, unsigned line, const char *msg)
{
	uint64_t h = hash_fnv64(HASH_FNV64_START ^ line, file, strlen(file));

	h = hash_fnv64(h, msg, strlen(msg));

	for (unsigned i = 0; i < said.count; i++)
		if (said.hash[i] == h)
			return true;
	if (said.count < SAID_MAX)
		said.hash[said.count++] = h;
	return false;
}

static void diag_report(void *ctx, enum service_severity sev, const char *file,
			unsigned line, const char *msg)
{
	(void)ctx;
	if (said_before(file, line, msg))
		return;
	if (line)
		(sev == SERVICE_WARNING ? log_warn : log_error)("%s:%u: %s", file, line, msg);
	else
		(sev == SERVICE_WARNING ? log_warn : log_error)("%s: %s", file, msg);
}

static const struct service_diag diag = { diag_report, NULL, false };

static void graph_rebuild(void)
{
	depgraph_from_list(&sv.graph, sv.svcs, sv.count, &diag);
}
static void check_programs(const struct service *s); /* U2 */

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
	for (size_t i = 0; i < SOCKET_LISTEN_MAX; i++) /* U4 */
		u->listen_fd[i] = -1;
	u->trigger_window_ms = u->failure_window_ms = -1;
	u->watchdog_deadline_ms = u->watchdog_usec_override = -1; /* unit-runtime2 */
	u->timer_due_ms = u->timer_last_us = u->timer_last_wall = u->timer_next_wall = -1;
}

/* U4: a service a socket unit activates waits for traffic instead of starting at boot,
 * unless the default target pulls it in (Debian enables dbus.service as well as
 * dbus.socket): then it starts at boot and still gets the fds. */
static bool waits_for_socket(const struct unit *u, struct service *const *all, size_t n)
{
	return u->svc->kind == UNIT_SERVICE && !u->svc->pulled &&
	       sockets_activate(all, n, u->svc->name);
}

/* timer and path units: what a timer or path unit starts waits for it, unless pulled in. */
static bool waits_for_timer(const struct unit *u, struct service *const *all, size_t n)
{
	return !u->svc->pulled && service_triggered(all, n, u->svc->name);
}

/* Why a unit the default target wants is not started: who says Conflicts= of it (the
 * loader's drop_conflicted()). */
static void log_conflicted(const struct service *s, struct service *const *all, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct service *a = all[i];
		for (size_t j = 0; !a->conflicted && j < service_list_count(&a->conflicts); j++) {
			char buf[SERVICE_NAME_MAX];
			if (strcmp(service_list_name(a, &a->conflicts, j, buf), s->name) == 0) {
				log_info("%s: not started: %s, which starts too, conflicts with it "
					 "(Conflicts=)", s->name, a->name);
				return;
			}
		}
	}
	log_info("%s: not started: it needs a unit that conflicts with one the boot starts",
		 s->name);
}

static void unit_classify(struct unit *u, struct service *const *all, size_t n)
{
	const struct service *s = u->svc;

	if (s->masked) {
		u->state = UNIT_MASKED;
	} else if (s->failed) {
		u->state = UNIT_INVALID;
		snprintf(u->error, sizeof u->error, "%s", s->error);
	} else if (sv.cfg.essential_only && !s->essential) {
		u->state = UNIT_INACTIVE;
	} else if (waits_for_socket(u, all, n) || waits_for_timer(u, all, n)) {
		u->state = UNIT_INACTIVE;
	} else if (s->on_demand) { /* started with the socket, timer or path unit's */
		u->state = UNIT_INACTIVE;
	} else if (s->conflicted) {
		u->state = UNIT_INACTIVE;
		log_conflicted(s, all, n);
	} else {
		u->state = UNIT_WAITING;
		u->start_wanted = true;
	}
}

/* U1: the search path, the default target and the units named in extra (those started
 * by name; on a reload also those that are up). */
static void load_units(struct service *out, size_t *count, const char *const *extra,
		       size_t nextra)
{
	struct service_load_config lc = {
		.dirs = sv.cfg.dirs, .ndirs = sv.cfg.ndirs,
		.default_target = sv.default_target[0] ? sv.default_target : NULL,
		.extra = extra, .nextra = nextra,
	};

	service_load_from(&lc, out, SERVICE_COUNT_MAX, count, &diag);
}

/* What a reload loads besides the default target's units: those started by name, and
 * every unit that is up. As in systemd, a reload never unloads a running unit: one
 * disabled meanwhile (timedated's DisableUnitFiles, then Reload, then StopUnit) runs on
 * until it is stopped, instead of being stopped by the reload. The names are the loaded
 * units' own, valid until the reload copies the new ones in. */
static bool unit_up(const struct unit *u);
static bool unit_in_progress(const struct unit *u);
static size_t reload_roots(const char **roots, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < sv.nextra && n < max; i++)
		roots[n++] = sv.extra_ptr[i];
	/* not an Accept=yes instance: it is no file's unit, the reload carries it over as it
	 * is; loaded by name it was there twice, from its template too */
	for (size_t i = 0; i < sv.count && n < max; i++)
		if ((unit_up(&sv.units[i]) || unit_in_progress(&sv.units[i])) &&
		    accept_conn_fd(sv.units[i].svc->name) < 0)
			roots[n++] = sv.units[i].svc->name;
	return n;
}

void supervisor_init(const struct supervisor_config *cfg)
{
	sv.boot_ready_us = -1;
	sv.cfg = *cfg;
	sv.spawn.notify_path = cfg->notify_path;
	sv.spawn.caps_helper = cfg->caps_helper;
	sv.spawn.sandbox_helper = cfg->sandbox_helper;
	sv.spawn.session_helper = cfg->session_helper;
	sv.spawn.console_fd = -1;
	sv.spawn.caught_signals = emergency_caught_signals();
	locale_load("");
	svc_cgroup_init(cfg->cgroup_root, cfg->cgroup_options);
	timer_units_set_startup(cfg->userspace_start_us / 1000); /* timer units */
	unit_cmdline_target(sv.default_target, sizeof sv.default_target);
	if (cfg->generate)
		cfg->generate();
	load_units(sv.services, &sv.count, (const char *const *)sv.extra_ptr, sv.nextra);
	for (size_t i = 0; i < sv.count; i++)
		sv.units[i].svc = &sv.services[i];
	store_pack(0);
	pages_release(sv.services, sizeof sv.services);
	graph_rebuild();
	for (size_t i = 0; i < sv.count; i++) {
		unit_reset(&sv.units[i], sv.svcs[i]);
		unit_classify(&sv.units[i], sv.svcs, sv.count);
		check_programs(sv.svcs[i]);
	}
	log_info("supervisor: %zu service(s) loaded", sv.count);
}

/* ---- readiness and the boot timeline --------------------------------------------- */

static bool unit_in_progress(const struct unit *u)
{
	return u->state == UNIT_WAITING || u->state == UNIT_STARTING || u->state == UNIT_RUNNING;
}

/* What ordering no longer holds back. A unit that failed and waits to restart is done: as
 * systemd's start job, which ends "failed" though a restart follows; what is ordered after
 * it waits only while it runs again (a unit that restarts for good, Debian's pdns-recursor
 * with its port taken, held nss-lookup.target and multi-user.target back forever). One
 * still stopping with a start queued behind the stop is not: what comes after it waits for
 * that start, as behind systemd's queued start job (a login while logind stopped the
 * user's user-runtime-dir@ got a user@ whose runtime directory the stop then removed). */
static void done_set(struct depgraph_set *done)
{
	memset(done, 0, sizeof *done);
	for (size_t i = 0; i < sv.count; i++)
		if (!unit_in_progress(&sv.units[i]) && !sv.units[i].start_after_stop)
			depgraph_set_add(done, i);
}

/* ---- state handover (issue 14): see init/handover.c ------------------------------ */

static const struct unit *load_on_request(const char *name);

/* A unit the old PID 1 loaded by name (a start by name, an automount's mount unit) is
 * not among the boot's units: it is loaded again the same way, or its state (a mount
 * being made, a process that waits on it) would be lost. */
struct unit *supervisor_unit_for_handover(const char *name)
{
	for (size_t i = 0; i < sv.count; i++)
		if (strcmp(sv.units[i].svc->name, name) == 0)
			return &sv.units[i];
	return (struct unit *)load_on_request(name);
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
static void fail_start_job(struct unit *u, enum svc_result result, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void begin_stop(struct unit *u, bool wanted);
static void schedule_restart(struct unit *u);
static void maybe_stopped(struct unit *u);
/* U2 hooks, defined in the "U2" section below */
static void become_ready(struct unit *u);
static void pidfile_adopt(struct unit *u);
static bool line_ignores_failure(const char *line);
static void start_next_main(struct unit *u);
static void forking_parent_exited(struct unit *u);
static void settle_failed(struct unit *u);
static void start_listed(struct unit *u, const struct service_name_list *list, const char *key);
static void retry_starved(struct unit *u);
static void run_next_pre(struct unit *u); /* socket-exec */

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
	if (u->svc->kind == UNIT_SOCKET) { /* socket-exec: TimeoutSec= bounds each command */
		u->killed = false;
		u->deadline_ms = deadline_after(u->state == UNIT_STARTING ? u->svc->timeout_start_ms
									  : u->svc->timeout_stop_ms);
	}
	return pid;
}

/* ---- U4: socket units and Type=dbus ------------------------------------------------ */

/* The main process gets the fds of every socket unit that activates its service. */
static pid_t spawn_main_with_sockets(struct unit *u, const char *line)
{
	static struct listen_pass pass;
	pid_t pid;

	if (sockets_collect(sv.units, sv.count, u, &pass, u->error, sizeof u->error) < 0 ||
	    runtime_collect_sockets(sv.units, sv.count, u, &pass, u->error, sizeof u->error) < 0 ||
	    fdstore_collect(u->svc->name, &pass, u->error, sizeof u->error) < 0) /* unit-runtime2 */
		return -1;
	sv.spawn.listen = &pass;
	pid = spawn_line(u, line);
	sv.spawn.listen = NULL;
	return pid;
}

static void watch_bus_name(struct unit *u)
{
	const struct service *s = u->svc;
	int out_w = -1;

	if (spawn_output_pipe(u, &out_w) < 0)
		out_w = -1;
	u->busname_pid = busname_watch_spawn(sv.cfg.busname_helper, service_str(s, s->bus_name),
					     s->timeout_start_ms, out_w, sv.spawn.caught_signals);
	if (u->busname_pid < 0) {
		u->busname_pid = 0;
		fail_unit(u, "BusName=%s: cannot start %s: %s", service_str(s, s->bus_name),
			  sv.cfg.busname_helper, strerror(errno));
	}
}

static void stop_bus_name_watch(struct unit *u)
{
	if (u->busname_pid > 0)
		kill(u->busname_pid, SIGKILL);
}

static void bus_name_watch_exited(struct unit *u, int status)
{
	int code = exec_status_code(status);
	const char *name = service_str(u->svc, u->svc->bus_name);

	u->busname_pid = 0;
	if (u->state != UNIT_RUNNING || u->phase != PHASE_MAIN)
		return; /* the service failed or stopped meanwhile */
	if (code == 0)
		mark_ready(u);
	else
		fail_unit(u, "BusName=%s: not owned on the system bus (ember-busname-wait: %s %d)",
			  name, code == 1 ? "timed out, status" : "status", code);
}

/* ---- socket-exec: a socket unit's commands -----------------------------------------
 * As systemd.socket(5): ExecStartPre= runs before the sockets are bound, ExecStartPost=
 * once they listen (the unit is ready after its last line), ExecStopPre= while they are
 * still open, ExecStopPost= once they are closed. The lines are control processes that
 * go the services' way (run_next_start_line, run_next_post, run_next_stop,
 * run_stop_post, control_exited), so PID 1 never waits for one; spawn_line arms
 * TimeoutSec= for each. As on systemd, a failed ExecStartPre= ends the start without the
 * stop commands; any later failure (binding, ExecStartPost=) runs ExecStopPre=, closes
 * the sockets and runs ExecStopPost=. */

/* A socket unit starts with its ExecStartPre= lines, then binds (socket_bind). Its
 * commands run in its own cgroup (NAME.socket), as on systemd: what they leave behind
 * is accounted to the unit and killed when it stops. */
static void start_socket_unit(struct unit *u)
{
	char err[UNIT_ERROR_MAX];

	if (!u->svc->sock.accept && !sockets_target(sv.units, sv.count, u)) { /* sockets-accept */
		char name[SERVICE_NAME_MAX];
		fail_unit(u, "no service %s.service to activate (Service= or a file of the same "
			  "name)", socket_unit_service(u->svc, name, sizeof name));
		return;
	}
	if (svc_cgroup_prepare(u, err, sizeof err) < 0)
		log_warn("%s: %s", name_of(u), err);
	u->started_us = now_us();
	u->ready_us = -1;
	u->result = SVC_RESULT_SUCCESS;
	u->exec_index = 0;
	u->killed = false;
	u->stop_post_due = false; /* set once the ExecStartPre= lines are through */
	set_state(u, UNIT_STARTING);
	run_next_pre(u);
}

/* After ExecStartPre=: bind and listen, then ExecStartPost= (become_ready); listening
 * after the last of them is the socket unit's "ready". */
static void socket_bind(struct unit *u)
{
	char err[UNIT_ERROR_MAX];

	u->stop_post_due = true;
	u->deadline_ms = -1;
	if (sockets_listen(u, err, sizeof err) < 0) {
		fail_unit(u, "%s", err);
		return;
	}
	become_ready(u);
}

/* The commands a stop begins with: ExecStop= of a service, ExecStopPre= of a socket. */
static const struct service_exec_list *stop_lines(const struct service *s, const char **key)
{
	*key = s->kind == UNIT_SOCKET ? "ExecStopPre" : "ExecStop";
	return s->kind == UNIT_SOCKET ? &s->sock.exec_stop_pre : &s->exec_stop;
}

/* ---- sockets-accept: Accept=yes instances (socket-accept.c) --------------------------
 * A connection's instance joins the table at its end, starts at once, and leaves the table
 * once it is down again (reap_instances): instances are transient, as on systemd. */
static void read_output(struct unit *u, int fd, enum kmsg_stream stream);

/* One unit by name, with its drop-ins and nothing it pulls in, read into a free slot
 * (not yet counted): sv.services[slot]. NULL when there is no room or no file. */
static struct service *load_into_slot(size_t slot, const char *name)
{
	struct service_load_config lc = { .dirs = sv.cfg.dirs, .ndirs = sv.cfg.ndirs };
	struct service *s = &sv.services[slot];

	if (slot >= SERVICE_COUNT_MAX || service_load_one(&lc, name, s, &diag) < 0)
		return NULL;
	return s;
}

static struct service *load_into_next_slot(const char *name)
{
	return load_into_slot(sv.count, name);
}

/* The units read into sv.services[first..end) join the loaded ones (into the store),
 * and the graph. */
static void join_loaded(size_t first, size_t end)
{
	for (size_t i = first; i < end; i++)
		unit_reset(&sv.units[i], &sv.services[i]);
	sv.count = end;
	store_pack(first);
	pages_release(sv.services, sizeof sv.services); /* slots straddle pages: all of it */
	graph_rebuild();
}

static struct unit *append_loaded(void)
{
	join_loaded(sv.count, sv.count + 1);
	return &sv.units[sv.count - 1];
}

static void begin_start(struct unit *u);
static void remove_instance(size_t i);

static void start_instance(struct unit *sock, const char *name)
{
	struct unit *u;

	if (!load_into_next_slot(name)) {
		log_error("%s: cannot start %s: %s", name_of(sock), name,
			  sv.count >= SERVICE_COUNT_MAX ? "no room for more units" :
							  "no template for it");
		accept_conn_release(name);
		return;
	}
	u = append_loaded();
	/* During shutdown only an instance without default dependencies starts: the others
	 * conflict with shutdown.target, as on systemd. Those that do start are taken up at
	 * once (nothing is queued any more); ordered before what uses them (the utmp
	 * recorder's last record, for systemd's private socket), they stop after it. */
	if (sv.stopping_all && u->svc->default_dependencies) {
		log_info("%s: traffic during shutdown: %s would conflict with shutdown; "
			 "connection closed", name_of(sock), name);
		remove_instance(sv.count - 1);
		return;
	}
	unit_classify(u, sv.svcs, sv.count);
	log_info("%s: connection, starting %s", name_of(sock), name);
	if (sv.stopping_all && u->state == UNIT_WAITING)
		begin_start(u);
}

bool supervisor_adopt_instance(const char *name)
{
	if (supervisor_find(name))
		return true;
	if (!load_into_next_slot(name))
		return false;
	append_loaded();
	return true;
}

static void accept_traffic(struct unit *sock)
{
	char name[SERVICE_NAME_MAX];

	for (size_t j = 0; j < sock->svc->sock.listen_count; j++)
		for (int k = 0; k < ACCEPT_PER_TURN; k++) {
			int r = accept_connection(sock->svc, sock->listen_fd[j], name, sizeof name);
			if (r < 0) { /* as systemd: the socket unit fails (no busy loop on EMFILE) */
				int e = errno;
				sockets_close(sock);
				fail_unit(sock, "accept: %s", strerror(e));
				return;
			}
			if (r == 0)
				break;
			start_instance(sock, name);
		}
}

static bool unit_up(const struct unit *u);

static void remove_instance(size_t i)
{
	struct unit *u = &sv.units[i];

	if (u->out_fd >= 0)
		read_output(u, u->out_fd, KMSG_STDOUT); /* its last words */
	if (u->err_fd >= 0)
		read_output(u, u->err_fd, KMSG_STDERR);
	int fds[] = { u->out_fd, u->out_wfd, u->err_fd, u->err_wfd, u->exec_fd };
	for (size_t k = 0; k < sizeof fds / sizeof *fds; k++)
		if (fds[k] >= 0)
			close(fds[k]);
	svc_invocation_forget(u);
	svc_cgroup_release(u);
	accept_conn_release(name_of(u));
	unit_output_release(u->output);
	log_debug("%s: connection closed, instance removed", name_of(u));
	memmove(&sv.units[i], &sv.units[i + 1], (sv.count - i - 1) * sizeof *sv.units);
	sv.count--;
	store_pack(i);
	graph_rebuild();
}

/* Instances whose run is over (stopped, failed with no restart coming) go. */
static void reap_instances(void)
{
	for (size_t i = sv.count; i-- > 0;) {
		const struct unit *u = &sv.units[i];
		if (accept_conn_fd(name_of(u)) < 0 || unit_up(u) || u->restart_pending ||
		    u->state == UNIT_WAITING || u->phase == PHASE_KILL)
			continue;
		remove_instance(i);
	}
}

/* Traffic on a watched socket: start its service (once; the socket is not watched while
 * the service is up). Too many activations in a row fail the socket unit. */
static void socket_traffic(struct unit *sock)
{
	struct unit *svc = sockets_target(sv.units, sv.count, sock);
	char err[UNIT_ERROR_MAX];

	if (sv.stopping_all && !sock->svc->sock.accept && sockets_watched(sv.units, sv.count, sock)) {
		/* Nothing starts any more (systemd refuses such a start as destructive;
		 * Accept=yes instances are decided one by one, in start_instance). Closing
		 * ends the client's connection now; left open, it would wait in the backlog
		 * until the socket stops, and a client that is itself stopping would hold the
		 * shutdown up to its stop timeout. */
		log_info("%s: traffic during shutdown: nothing is started any more; socket closed",
			 name_of(sock));
		sockets_close(sock);
		return;
	}
	if (sock->svc->sock.accept) { /* sockets-accept */
		accept_traffic(sock);
		return;
	}
	if (!svc || !sockets_watched(sv.units, sv.count, sock))
		return;
	if (!sockets_trigger_allowed(sock, now_ms())) {
		sockets_close(sock);
		fail_unit(sock, "trigger limit hit: %s was activated %d times within %d ms",
			  name_of(svc), TRIGGER_LIMIT_BURST, TRIGGER_LIMIT_INTERVAL_MS);
		return;
	}
	if (!sockets_failure_allowed(sock, svc, now_ms())) {
		sockets_close(sock);
		fail_unit(sock, "%s failed %u times in a row when activated (StartLimitBurst=%u "
			  "within StartLimitIntervalSec=%lus); not watched any more", name_of(svc),
			  sock->failures, svc->svc->start_limit_burst,
			  svc->svc->start_limit_interval_ms / 1000);
		return;
	}
	log_info("%s: traffic, starting %s", name_of(sock), name_of(svc));
	if (supervisor_start(name_of(svc), err, sizeof err) < 0)
		log_error("%s: %s", name_of(sock), err);
}

static void start_main(struct unit *u)
{
	const struct service *s = u->svc;
	pid_t pid;

	if (s->exec_start.count == 0 && s->type == SERVICE_ONESHOT) {
		become_ready(u); /* a oneshot may consist of ExecStartPre=/Post= alone */
		return;
	}
	if (u->exec_index >= s->exec_start.count) {
		fail_unit(u, "no ExecStart=");
		return;
	}
	u->phase = PHASE_MAIN;
	pid = spawn_main_with_sockets(u, service_str(s, s->exec_start.line[u->exec_index]));
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
	runtime_watchdog_arm(u, now_ms()); /* unit-runtime2: WatchdogSec= */
	log_info("%s: started (pid %d)", name_of(u), (int)pid);
	if (s->type == SERVICE_DBUS)
		watch_bus_name(u);
}

/* The start's control lines, one after the other: the next line of list as phase, or,
 * after the last, what comes next. */
static void run_next_start_line(struct unit *u, const struct service_exec_list *list,
				enum unit_phase phase, const char *key, void (*then)(struct unit *))
{
	pid_t pid;

	if (u->exec_index >= list->count) {
		u->exec_index = 0;
		then(u);
		return;
	}
	u->phase = phase;
	pid = spawn_line(u, service_str(u->svc, list->line[u->exec_index]));
	if (pid == SPAWN_NO_RESOURCES) {
		retry_starved(u);
		return;
	}
	if (pid < 0) {
		fail_unit(u, "%s=: %s", key, u->error);
		return;
	}
	u->control_pid = pid;
}

static void run_next_pre(struct unit *u)
{
	run_next_start_line(u, &u->svc->exec_start_pre, PHASE_PRE, "ExecStartPre",
			    u->svc->kind == UNIT_SOCKET ? socket_bind : start_main); /* socket-exec */
}

/* ExecCondition= lines run first; then ExecStartPre=. */
static void run_next_condition(struct unit *u)
{
	run_next_start_line(u, &u->svc->exec_condition, PHASE_CONDITION, "ExecCondition",
			    run_next_pre);
}

/* An ExecCondition= line exited 1..254: as systemd, the start is skipped, not failed,
 * as for a Condition*= that is not met. */
static void skip_start(struct unit *u, int code)
{
	snprintf(u->error, sizeof u->error, "condition failed: ExecCondition= exited with status %d",
		 code);
	log_info("%s: %s, skipped", name_of(u), u->error);
	u->phase = PHASE_NONE;
	u->deadline_ms = -1;
	u->stop_post_due = false;
	svc_cgroup_release(u);
	set_state(u, UNIT_CONDITION);
}

/* Does u require, and come after, a unit that failed and waits to restart? u then waits
 * for that restart, as systemd queues the start job of what u requires behind it
 * (done_set() lets mere ordering go on meanwhile: no job waits there). */
static bool requirement_restarting(const struct unit *u)
{
	const struct service *s = u->svc;
	char buf[SERVICE_NAME_MAX];

	for (size_t i = 0; i < unit_requirement_count(s); i++) {
		const struct unit *r = supervisor_find(unit_requirement(s, i, buf));
		if (r && r->restart_pending && supervisor_ordered_before(index_of(r), index_of(u)))
			return true;
	}
	return false;
}

/* A required unit that failed fails u. One skipped by a condition does not: as in
 * systemd, whose start job for it ends "done", not "failed". */
static bool requirements_failed(struct unit *u)
{
	const struct service *s = u->svc;
	char buf[SERVICE_NAME_MAX];

	for (size_t i = 0; i < unit_requirement_count(s); i++) {
		const struct unit *r = supervisor_find(unit_requirement(s, i, buf));
		if (!r)
			continue; /* the graph already failed it */
		if (r->state == UNIT_FAILED || r->state == UNIT_PERMANENT || r->state == UNIT_INVALID ||
		    r->state == UNIT_MASKED) {
			fail_start_job(u, SVC_RESULT_DEPENDENCY, "dependency failed: %s", name_of(r));
			return true;
		}
	}
	return false;
}

/* A unit u is bound to (BindsTo=) that its condition skipped. As systemd checks before a
 * start, u must not start then (with After= it fails its start; without, systemd starts
 * it and stops it at once). Not one merely inactive: ember leaves a service its socket
 * activates to its traffic, where systemd's pull-in would start it (dbus.service, bound
 * by ember-activator, is started by the activator's own connection). Debian's
 * sssd-nss.socket is BindsTo=sssd.service, which is skipped without a configuration:
 * under systemd the socket stays down; ember listened, and each client's connection
 * started sssd-nss.service to fail until its start limit. */
static const struct unit *bound_skipped(const struct unit *u)
{
	const struct service *s = u->svc;
	char buf[SERVICE_NAME_MAX];

	for (size_t i = 0; i < service_list_count(&s->binds_to); i++) {
		const struct unit *o = supervisor_find(service_list_name(s, &s->binds_to, i, buf));
		if (o && o != u && o->state == UNIT_CONDITION)
			return o;
	}
	return NULL;
}

/* U1: Requisite= must be active already, and BindsTo= units not skipped; Conflicts= units
 * are stopped first. True when the start failed. */
static bool conflicts_and_requisites(struct unit *u)
{
	struct unit *other[SERVICE_COUNT_MAX];
	char buf[SERVICE_NAME_MAX];
	const char *inactive = unit_requisite_inactive(u, buf);
	const struct unit *bound = bound_skipped(u);
	size_t n;

	if (inactive) {
		fail_start_job(u, SVC_RESULT_DEPENDENCY, "Requisite=%s is not active", inactive);
		return true;
	}
	if (bound) {
		fail_start_job(u, SVC_RESULT_DEPENDENCY, "bound to %s (BindsTo=), which is %s",
			       name_of(bound), state_names[bound->state]);
		return true;
	}
	n = unit_conflicting(u, other, SERVICE_COUNT_MAX);
	for (size_t i = 0; i < n; i++) {
		log_info("%s: stopped, it conflicts with %s", name_of(other[i]), name_of(u));
		if (other[i]->state == UNIT_WAITING)
			other[i]->state = UNIT_STOPPED;
		else
			begin_stop(other[i], true);
	}
	return false;
}

/* Does a unit that is wanted up need this one (Requires=, Requisite=, BindsTo=)? */
static bool needed_by_any(const struct unit *u)
{
	for (size_t i = 0; i < sv.count; i++) {
		const struct service *s = sv.units[i].svc;
		if (&sv.units[i] != u && !sv.units[i].stop_wanted &&
		    (service_lists(s, &s->requires, u->svc->name) ||
		     service_lists(s, &s->requisite, u->svc->name) ||
		     service_lists(s, &s->binds_to, u->svc->name)))
			return true;
	}
	return false;
}

/* unit kinds (unit-kinds): mount, device and slice units run nothing; they are active
 * while their object is there (init/unit-kinds.h). */
static void start_passive(struct unit *u)
{
	char err[UNIT_ERROR_MAX];

	u->started_us = now_us();
	u->ready_us = -1;
	u->result = SVC_RESULT_SUCCESS;
	if (u->svc->kind == UNIT_SLICE) /* its [Slice] limits on its cgroup directory */
		svc_cgroup_slice_start(u->svc);
	switch (unit_kind_start(u->svc, err, sizeof err)) {
	case UNIT_KIND_ACTIVE:
		mark_ready(u);
		break;
	case UNIT_KIND_WAIT:
		u->deadline_ms = deadline_after(unit_kind_timeout_ms(u->svc));
		set_state(u, UNIT_STARTING);
		log_info("%s: waiting for it to appear", name_of(u));
		break;
	case UNIT_KIND_FAILED:
		fail_unit(u, "%s", err);
		break;
	case UNIT_KIND_NOT_FOUND: /* only wanted (basic.target: Wants=tmp.mount): inactive */
		if (needed_by_any(u)) {
			fail_unit(u, "%s", err);
			break;
		}
		log_info("%s: %s; not needed by anything, left inactive", name_of(u), err);
		u->stopped_us = now_us();
		set_state(u, UNIT_STOPPED);
		break;
	}
}

/* After the watch saw a change (and every turn for an awaited device): awaited objects
 * that appeared are ready; ready ones that went away stop, and BindsTo= follows. */
static void recheck_passive(void)
{
	unsigned what = unit_kinds_changed();

	for (size_t i = 0; i < sv.count; i++) {
		struct unit *u = &sv.units[i];
		enum unit_kind k = u->svc->kind;
		if (k != UNIT_MOUNT && k != UNIT_DEVICE && k != UNIT_SWAP)
			continue;
		bool changed = what & (k == UNIT_MOUNT ? UNIT_KINDS_MOUNTS :
				       k == UNIT_SWAP ? UNIT_KINDS_SWAPS : UNIT_KINDS_DEVICES);
		if (u->state == UNIT_STARTING && (changed || k == UNIT_DEVICE) &&
		    unit_kind_present(u->svc)) {
			mark_ready(u);
		} else if (u->state == UNIT_READY && changed && !unit_kind_present(u->svc)) {
			log_info("%s: gone", name_of(u));
			u->stopped_us = now_us();
			set_state(u, UNIT_STOPPED);
		} else if (u->state == UNIT_STOPPED && k == UNIT_DEVICE && changed &&
			   !u->stop_wanted && !sv.stopping_all && unit_kind_present(u->svc)) {
			u->started_us = now_us();
			u->result = SVC_RESULT_SUCCESS; /* it may have timed out first */
			u->error[0] = '\0';
			mark_ready(u); /* plugged in (again) */
		}
	}
}

/* A unit without a process of its own (timer, path, automount) is ready once its
 * kind's start says so, else failed with the reason. */
static void start_by(struct unit *u, int (*start)(struct unit *u, char *err, size_t size))
{
	char err[UNIT_ERROR_MAX];

	u->started_us = now_us();
	u->ready_us = -1;
	u->result = SVC_RESULT_SUCCESS;
	if (start(u, err, sizeof err) < 0)
		fail_unit(u, "%s", err);
	else
		mark_ready(u);
}

/* timer units (unit-timer-run.c): a timer is ready once it knows what it starts. */
static void start_timer(struct unit *u)
{
	start_by(u, timer_unit_start);
}

static void tick_timer(struct unit *u, long long now)
{
	if (sv.stopping_all) /* shutdown starts nothing more */
		return;
	switch (timer_unit_tick(u, now)) {
	case TIMER_DONE: /* RemainAfterElapse=no */
		log_info("%s: elapsed for the last time", name_of(u));
		u->stopped_us = now_us();
		set_state(u, UNIT_STOPPED);
		break;
	case TIMER_LIMIT:
		fail_unit(u, "trigger limit hit: elapsed more than %d times within %d ms",
			  TIMER_TRIGGER_BURST, TIMER_TRIGGER_WINDOW_MS);
		break;
	case TIMER_WAIT:
		break;
	}
}

/* path units (unit-path-run.c): active once every entry is watched. */
static void start_path(struct unit *u)
{
	start_by(u, path_unit_start);
}

static void tick_path(struct unit *u)
{
	if (sv.stopping_all || path_unit_tick(u) != PATH_LIMIT)
		return;
	path_unit_stop(u);
	fail_unit(u, "trigger limit hit: started its unit too often");
}

/* automount units (unit-automount.c): active while the autofs is mounted. */
static void start_automount(struct unit *u)
{
	start_by(u, automount_unit_start);
}

static void tick_automount(struct unit *u, long long now)
{
	if (u->svc->kind != UNIT_AUTOMOUNT || automount_unit_tick(u, now) != AUTOMOUNT_LOST)
		return;
	automount_unit_stop(u);
	fail_unit(u, "its autofs mount went away");
}

static void begin_start(struct unit *u)
{
	char err[UNIT_ERROR_MAX];

	u->restart_pending = false;
	u->error[0] = '\0';
	u->result = SVC_RESULT_SUCCESS; /* a new start: an earlier "dependency" is not this one's */
	switch (service_conditions_check(u->svc, &condition_probe_system, err, sizeof err)) {
	case SERVICE_CONDITION_FAILED: /* U3: skipped, not failed: status says which */
		snprintf(u->error, sizeof u->error, "condition failed: %.*s",
			 (int)sizeof u->error - 20, err);
		set_state(u, UNIT_CONDITION);
		log_info("%s: %s, skipped", name_of(u), u->error);
		return;
	case SERVICE_ASSERT_FAILED:
		fail_unit(u, "assertion failed: %.*s", (int)sizeof u->error - 20, err);
		return;
	case SERVICE_CONDITIONS_MET:
		break;
	}
	if (requirements_failed(u) || conflicts_and_requisites(u))
		return;
	if (u->svc->kind == UNIT_SOCKET) { /* U4 */
		start_socket_unit(u);
		return;
	}
	if (unit_kind_passive(u->svc->kind)) { /* unit kinds (unit-kinds) */
		start_passive(u);
		return;
	}
	if (u->svc->kind == UNIT_TIMER) { /* timer units: active while waiting to elapse */
		start_timer(u);
		return;
	}
	if (u->svc->kind == UNIT_PATH) { /* path units: active while watching */
		start_path(u);
		return;
	}
	if (u->svc->kind == UNIT_AUTOMOUNT) { /* automount units */
		start_automount(u);
		return;
	}
	if (u->svc->kind == UNIT_TARGET) { /* U1: reached once what it is after is done */
		u->started_us = now_us();
		mark_ready(u);
		return;
	}
	if (svc_cgroup_prepare(u, err, sizeof err) < 0)
		log_warn("%s: %s", name_of(u), err);
	svc_invocation_begin(u);
	u->started_us = now_us();
	/* The backoff counts from this attempt: a start that fails at once must not look
	 * like the end of a long run (issue 14). */
	u->run_started_ms = now_ms();
	u->ready_us = -1;
	u->killed = false;
	u->deadline_ms = deadline_after(u->svc->timeout_start_ms);
	u->exec_index = 0;
	u->result = SVC_RESULT_SUCCESS; /* U2 */
	u->exit_status = -1; /* the last run's: "status 139" once its signal was cleared */
	u->exit_signal = 0;
	u->stop_post_due = true;
	u->remain = u->pidfile_wait = u->reloading = u->reload_notified = false;
	u->idle_waited = false;
	u->watchdog_fired = false; /* unit-runtime2 */
	set_state(u, UNIT_STARTING);
	run_next_condition(u);
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
			fail_start_job(r, SVC_RESULT_DEPENDENCY, "dependency failed: %s", name_of(u));
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
	stop_bus_name_watch(u); /* U4 */
	u->failed_us = now_us();
	u->deadline_ms = -1;
	if (u->result == SVC_RESULT_SUCCESS)
		u->result = SVC_RESULT_EXIT_CODE;
	u->pidfile_wait = u->reloading = false;
	set_state(u, UNIT_FAILED);
	/* Leftover processes go first; ExecStopPost= and the restart decision come once they
	 * are gone. */
	if (u->main_pid > 0 || u->control_pid > 0 ||
	    (svc_kills_leftovers(u->svc) && svc_cgroup_populated(u) == 1) ||
	    (u->svc->kind == UNIT_SOCKET && u->stop_post_due)) /* socket-exec: ExecStopPre= */
		begin_stop(u, false);
	else
		maybe_stopped(u);
	/* RestartMode=direct: the units waiting for it wait on through the restart */
	if (was_starting && !(u->svc->restart_direct && should_restart(u)))
		propagate_start_failure(u);
	if (u->svc->essential && sv.essential_cb && !u->svc->restart)
		sv.essential_cb(name_of(u));
}

/* A start job that ends before the unit ran: a unit it requires failed, or a Requisite=
 * is not active (result "dependency"), or it waited longer than JobTimeoutSec=, a device
 * did not appear in time ("timeout").
 * As systemd's job results of those names: the unit stays inactive (not in list
 * --failed), OnFailure= runs, FailureAction= and Restart= do not; the units waiting on
 * it the same way end with "dependency". Its clients see the start fail (lib/ctl-job.c). */
static void fail_start_job(struct unit *u, enum svc_result result, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(u->error, sizeof u->error, fmt, ap);
	va_end(ap);
	log_error("%s: %s", name_of(u), u->error);
	u->result = result;
	u->deadline_ms = -1;
	u->restart_pending = false; /* a start retried for want of resources ends here too */
	u->stopped_us = now_us();
	set_state(u, UNIT_STOPPED);
	leave_stopped(u, false);
	propagate_start_failure(u);
	start_listed(u, &u->svc->on_failure, "OnFailure");
	if (u->svc->essential && sv.essential_cb)
		sv.essential_cb(name_of(u));
}

static bool should_restart(const struct unit *u)
{
	if (sv.stopping_all || u->stop_wanted)
		return false;
	return svc_restart_wanted(u->svc, (enum svc_result)u->result, u->exit_status,
				  u->exit_signal);
}

/* A service given up at its start limit takes its socket units down with it, as
 * systemd's ("service-start-limit-hit"): clients are refused at once instead of waiting
 * in a backlog nothing reads. */
static void fail_sockets_of(struct unit *svc)
{
	for (size_t i = 0; i < sv.count; i++) {
		struct unit *sock = &sv.units[i];
		if (sock->svc->kind != UNIT_SOCKET || sock->svc->sock.accept ||
		    sock->state != UNIT_READY || sockets_target(sv.units, sv.count, sock) != svc)
			continue;
		sockets_close(sock);
		fail_unit(sock, "%s hit its start limit (service-start-limit-hit); not listening "
			  "any more", name_of(svc));
	}
}

/* ember.failed_retry= of a service given up: the sockets its start limit failed listen
 * again first, or the retry would end at once on them (result "dependency"). Returns
 * how many were started. */
static size_t rearm_sockets_of(struct unit *svc)
{
	char err[UNIT_ERROR_MAX];
	size_t n = 0;

	for (size_t i = 0; i < sv.count; i++) {
		struct unit *sock = &sv.units[i];
		if (sock->svc->kind != UNIT_SOCKET || sock->svc->sock.accept ||
		    sock->state != UNIT_FAILED || sockets_target(sv.units, sv.count, sock) != svc)
			continue;
		if (supervisor_start(sock->svc->name, err, sizeof err) == 0)
			n++;
		else
			log_warn("%s: %s", name_of(sock), err);
	}
	return n;
}

static void schedule_restart(struct unit *u)
{
	const struct service *s = u->svc;
	struct backoff_policy p = {
		s->restart_ms, s->restart_max_delay_ms, s->start_limit_burst,
		s->start_limit_interval_ms, s->restart_steps,
	};
	long long delay = backoff_next(&p, &u->backoff, now_ms(), now_ms() - u->run_started_ms);

	if (delay < 0) {
		set_state(u, UNIT_PERMANENT);
		snprintf(u->error, sizeof u->error, "gave up: %u starts within %lu ms "
			 "(StartLimitBurst=, StartLimitIntervalSec=)", p.burst, p.interval_ms);
		log_error("%s: %s", name_of(u), u->error);
		/* Not forever: what failed may have been a passing condition (ember.failed_retry=). */
		if (sv.cfg.failed_retry_ms > 0) {
			u->deadline_ms = now_ms() + sv.cfg.failed_retry_ms;
			log_info("%s: trying again in %lld s", name_of(u), sv.cfg.failed_retry_ms / 1000);
		}
		if (u->svc->essential && sv.essential_cb)
			sv.essential_cb(name_of(u));
		fail_sockets_of(u);
		start_listed(u, &u->svc->on_failure, "OnFailure");
		runtime_action(u, u->svc->start_limit_action, "StartLimitAction"); /* unit-runtime2 */
		runtime_action(u, u->svc->failure_action, "FailureAction");
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

static void signal_processes(struct unit *u, int sig)
{
	if (u->main_pid > 0) {
		kill(u->main_pid, sig);
		kill(u->main_pid, SIGCONT);
	}
	if (u->control_pid > 0)
		kill(u->control_pid, sig);
}

/* KillSignal= (RestartKillSignal= for a restart) by KillMode=: control-group signals
 * every process at once, mixed the main (and control) process and, once it is gone, kills
 * the rest; process only the main (and control) process; none nothing. SendSIGHUP= adds
 * a SIGHUP to the same processes. */
static void send_stop_signal(struct unit *u)
{
	const struct service *s = u->svc;
	int sig = u->watchdog_fired ? s->watchdog_signal /* unit-runtime2 */
					: svc_stop_signal(s, u->start_after_stop);
	bool main_gone = u->main_pid <= 0 && u->control_pid <= 0;

	if (s->kill_mode == KILL_NONE)
		return;
	signal_processes(u, sig);
	if (s->send_sighup)
		signal_processes(u, SIGHUP);
	if (s->kill_mode == KILL_CONTROL_GROUP || (s->kill_mode == KILL_MIXED && main_gone)) {
		int group_sig = s->kill_mode == KILL_MIXED ? s->final_kill_signal : sig;
		svc_cgroup_signal(u, group_sig);
		if (s->send_sighup && s->kill_mode == KILL_CONTROL_GROUP)
			svc_cgroup_signal(u, SIGHUP);
	}
}

static void kill_everything(struct unit *u)
{
	const struct service *s = u->svc;
	int sig = s->final_kill_signal ? s->final_kill_signal : SIGKILL;

	u->killed = true;
	u->deadline_ms = now_ms() + KILL_GRACE_MS;
	if (u->result == SVC_RESULT_SUCCESS)
		u->result = SVC_RESULT_TIMEOUT;
	if (!s->send_sigkill || s->kill_mode == KILL_NONE) {
		log_warn("%s: stop timed out; SendSIGKILL=no or KillMode=none: its processes are "
			 "left running", name_of(u));
		u->deadline_ms = now_ms(); /* give up on them now (handle_timeout) */
		return;
	}
	if (s->kill_mode == KILL_PROCESS) {
		log_warn("%s: stop timed out, sending signal %d to its main process", name_of(u), sig);
		signal_processes(u, sig);
		return;
	}
	log_warn("%s: stop timed out, killing its whole cgroup", name_of(u));
	signal_processes(u, sig);
	if (sig == SIGKILL)
		svc_cgroup_kill(u);
	else
		svc_cgroup_signal(u, sig);
}

/* Start the next ExecStop= line (a socket's ExecStopPre=); false when there is none left
 * (or it cannot start). */
static bool run_next_stop(struct unit *u)
{
	const char *key;
	const struct service_exec_list *list = stop_lines(u->svc, &key);

	while (u->exec_index < list->count) {
		pid_t pid = spawn_line(u, service_str(u->svc, list->line[u->exec_index++]));
		if (pid > 0) {
			u->control_pid = pid;
			return true;
		}
		log_warn("%s: %s=: %s", name_of(u), key, u->error);
	}
	return false;
}

/* The stop commands are done (or there are none): a socket closes (socket-exec: after
 * ExecStopPre=), and what is left of the unit's processes gets KillSignal=. */
static void enter_kill(struct unit *u)
{
	if (u->svc->kind == UNIT_SOCKET)
		sockets_close(u);
	u->phase = PHASE_KILL;
	send_stop_signal(u);
}

/* unit kinds: a mount is unmounted at once; a swap is turned off by a child, the unit's
 * control process, bounded by its TimeoutSec= (unit_kind_timeout_ms()). True when the
 * stop goes on without begin_stop(): the child runs, or it could not be forked. */
static bool stop_passive(struct unit *u)
{
	pid_t pid;
	int e;

	pid = unit_kind_stop(u->svc);
	if (pid == 0)
		return false;
	if (pid < 0) {
		e = errno;
		fail_unit(u, "swapoff %.128s: fork: %s; it stays on",
			  service_str(u->svc, u->svc->kinds.what), strerror(e));
		return true;
	}
	u->control_pid = pid;
	u->phase = PHASE_SWAPOFF;
	u->killed = false;
	u->deadline_ms = deadline_after(unit_kind_timeout_ms(u->svc));
	return true;
}

/* The swapoff child exited: 0 is stopped; else the swap stays on and the unit failed.
 * A child killed once swapoff(2) was past the point of giving up dies of the signal with
 * the swap off: /proc/swaps says which. */
static void swapoff_exited(struct unit *u, int status)
{
	const char *what = service_str(u->svc, u->svc->kinds.what);
	bool timed_out = u->killed;

	u->phase = PHASE_NONE;
	u->killed = false;
	if ((WIFEXITED(status) && WEXITSTATUS(status) == 0) ||
	    (!WIFEXITED(status) && !unit_kind_present(u->svc))) {
		maybe_stopped(u);
		return;
	}
	if (timed_out) {
		u->result = SVC_RESULT_TIMEOUT;
		fail_unit(u, "swapoff timed out after %lu.%03lus; %.128s stays on",
			  unit_kind_timeout_ms(u->svc) / 1000, unit_kind_timeout_ms(u->svc) % 1000,
			  what);
	} else if (WIFEXITED(status)) {
		fail_unit(u, "swapoff %.128s: %s; it stays on", what, strerror(WEXITSTATUS(status)));
	} else {
		fail_unit(u, "swapoff %.128s: killed by signal %d; it stays on", what,
			  WTERMSIG(status));
	}
}

/* TimeoutSec= passed: SIGKILL, which swapoff(2) heeds (it puts the swap back); a child
 * that outlives KILL_GRACE_MS is left behind, the unit failed. */
static void swapoff_timed_out(struct unit *u)
{
	if (!u->killed) {
		log_warn("%s: swapoff timed out, killing it", name_of(u));
		kill(u->control_pid, SIGKILL);
		u->killed = true;
		u->deadline_ms = now_ms() + KILL_GRACE_MS;
		return;
	}
	log_error("%s: the swapoff process survived SIGKILL; giving up on it", name_of(u));
	u->control_pid = 0;
	swapoff_exited(u, SIGKILL); /* as if it died of it */
}

/* ExecStop= is for a service that came up (or remains, RemainAfterExit=); a socket's
 * ExecStopPre= for one that got past ExecStartPre= (socket-exec, as systemd). */
static bool came_up(const struct unit *u)
{
	if (u->svc->kind == UNIT_SOCKET)
		return u->stop_post_due;
	return u->state != UNIT_FAILED && (u->main_pid > 0 || u->remain) &&
	       (u->phase == PHASE_MAIN || u->phase == PHASE_START_POST || u->phase == PHASE_RELOAD);
}

/* A unit going down with u (BindsTo=, PartOf=) that starts after it is still stopping:
 * u waits, as systemd runs stop jobs in the reverse order of After=. user@UID binds to
 * user-runtime-dir@UID and starts after it: its /run/user/UID must outlive it (a
 * Debian 13 disk's logouts failed the user manager's stop jobs, round 10b). */
static bool bound_after_still_up(const struct unit *u)
{
	for (size_t i = 0; i < sv.count; i++) {
		const struct unit *o = &sv.units[i];
		if (o == u || o->state != UNIT_STOPPING)
			continue;
		if ((service_lists(o->svc, &o->svc->binds_to, u->svc->name) ||
		     service_lists(o->svc, &o->svc->part_of, u->svc->name)) &&
		    service_lists(o->svc, &o->svc->after, u->svc->name))
			return true;
	}
	return false;
}

static void stop_now(struct unit *u, bool was_up);

/* wanted: an explicit stop (emberctl, shutdown), as opposed to cleaning up after a
 * failure. Either way the service is stopped when its main process is gone and its
 * cgroup is empty. */
static void begin_stop(struct unit *u, bool wanted)
{
	bool was_up = came_up(u);

	if (wanted) {
		u->stop_wanted = true;
		u->restart_pending = false;
	}
	if (u->phase == PHASE_SWAPOFF) /* it runs already, with its own deadline */
		return;
	u->pidfile_wait = u->reloading = false;
	u->stop_deferred = false;
	if (u->state != UNIT_FAILED)
		set_state(u, UNIT_STOPPING); /* the units bound to it begin to stop */
	stop_bus_name_watch(u); /* U4 */
	if (was_up && u->state == UNIT_STOPPING && bound_after_still_up(u)) {
		u->stop_deferred = true; /* supervisor_tick() goes on once they are down */
		u->deadline_ms = -1;
		log_info("%s: stops once the units bound to it are down", name_of(u));
		return;
	}
	stop_now(u, was_up);
}

static void stop_now(struct unit *u, bool was_up)
{
	const struct service *s = u->svc;
	const char *key;

	u->deadline_ms = deadline_after(s->timeout_stop_ms);
	if (s->kind == UNIT_PATH) /* path units */
		path_unit_stop(u);
	if (s->kind == UNIT_AUTOMOUNT) /* automount units: waiters answered, autofs unmounted */
		automount_unit_stop(u);
	if (unit_kind_passive(s->kind) && stop_passive(u)) /* unit kinds (unit-kinds) */
		return;
	if (was_up && stop_lines(s, &key)->count > 0 && u->control_pid <= 0) {
		u->exec_index = 0;
		u->phase = PHASE_STOP_CMD;
		if (run_next_stop(u))
			return;
	}
	enter_kill(u);
}

/* Called whenever a process of a stopping unit is gone. */
static bool run_stop_post(struct unit *u);

static void maybe_stopped(struct unit *u)
{
	bool was_stopping = u->state == UNIT_STOPPING;

	if (u->main_pid > 0 || u->control_pid > 0 || u->stop_deferred)
		return; /* deferred: its ExecStop= and the rest come first (begin_stop) */
	if (svc_kills_leftovers(u->svc) && svc_cgroup_populated(u) == 1)
		return;
	if (run_stop_post(u)) /* U2: ExecStopPost= runs once everything else is gone */
		return;
	u->phase = PHASE_NONE;
	u->deadline_ms = -1;
	u->stop_deferred = false;
	u->stopped_us = now_us();
	u->remain = false;
	/* A failed service that restarts keeps its cgroup (and limits) for the next run. */
	if (!(u->state == UNIT_FAILED && !u->start_after_stop && should_restart(u)))
		svc_cgroup_release(u);
	if (was_stopping) {
		set_state(u, UNIT_STOPPED);
		log_info("%s: stopped", name_of(u));
	}
	if (u->start_after_stop) { /* a restart, or a start that came while it stopped */
		u->start_after_stop = false;
		u->stop_wanted = false;
		backoff_reset(&u->backoff);
		set_state(u, UNIT_WAITING);
		leave_stopped(u, true);
		pull_in(u); /* as the start would have, had it come later */
		return;
	}
	if (u->state == UNIT_FAILED) {
		settle_failed(u);
	} else if (u->result == SVC_RESULT_SUCCESS && !sv.stopping_all) {
		if (should_restart(u))
			schedule_restart(u);
		else { /* as systemd: an explicit stop counts too */
			start_listed(u, &u->svc->on_success, "OnSuccess");
			runtime_action(u, u->svc->success_action, "SuccessAction"); /* unit-runtime2 */
		}
	}
	leave_stopped(u, u->restart_pending || u->state == UNIT_WAITING);
}

/* ---- events ------------------------------------------------------------------------- */

static void lifecycle_control_exited(struct unit *u, int code);

static void control_exited(struct unit *u, int status)
{
	const struct service *s = u->svc;
	int code = exec_status_code(status);
	bool ignore = false;

	u->control_pid = 0;
	if (u->phase == PHASE_SWAPOFF) {
		swapoff_exited(u, status);
		return;
	}
	if (u->phase == PHASE_CONDITION) {
		if (WIFEXITED(status) && code == 0) {
			u->exec_index++;
			if (u->state == UNIT_STARTING)
				run_next_condition(u);
		} else if (WIFEXITED(status) && code < 255) {
			if (u->state == UNIT_STARTING)
				skip_start(u, code);
		} else {
			fail_unit(u, "ExecCondition= %s %d", WIFEXITED(status) ? "exited with status"
				  : "was killed by signal", WIFEXITED(status) ? code : WTERMSIG(status));
		}
		return;
	}
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
		enter_kill(u);
	}
	if (u->phase == PHASE_START_POST || u->phase == PHASE_RELOAD) {
		lifecycle_control_exited(u, code);
		return;
	}
	maybe_stopped(u);
}

/* The ExecStart= line the main process runs ("-": its failure counts as success). */
static const char *main_line(const struct unit *u)
{
	const struct service *s = u->svc;
	unsigned i = s->type == SERVICE_ONESHOT ? u->exec_index : 0; /* else pre/post lines' */

	return i < s->exec_start.count ? service_str(s, s->exec_start.line[i]) : "";
}

static void main_exited(struct unit *u, int status)
{
	const struct service *s = u->svc;
	int code = exec_status_code(status);
	int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	/* KillSignal= counts as clean too when someone else sent it (as before U2). */
	bool clean = svc_exit_clean(s, code, sig) || (sig && sig == s->kill_signal);
	char why[UNIT_ERROR_MAX];

	if (!clean && line_ignores_failure(main_line(u))) { /* as systemd: recorded, no effect */
		svc_describe_exit(code, sig, why, sizeof why);
		log_info("%s: %s (ignored: '-')", name_of(u), why);
		clean = true;
	}

	u->main_pid = 0;
	u->exit_status = code;
	u->exit_signal = (uint8_t)sig;
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
	if (!clean) {
		u->result = svc_exit_result(s, code, sig);
		svc_describe_exit(code, sig, why, sizeof why);
		fail_unit(u, "%s", why);
		return;
	}
	if (s->type == SERVICE_FORKING && u->ready_us < 0 && u->state == UNIT_RUNNING) {
		forking_parent_exited(u);
		return;
	}
	if (s->type == SERVICE_ONESHOT) {
		start_next_main(u);
		return;
	}
	/* U2: RemainAfterExit= keeps it active; ExitType=cgroup until the cgroup is empty. */
	if (u->ready_us >= 0 && (s->remain_after_exit ||
	    (s->exit_type == EXIT_TYPE_CGROUP && svc_cgroup_populated(u) == 1))) {
		u->remain = s->remain_after_exit;
		log_info("%s: main process exited, %s", name_of(u),
			 u->remain ? "remains active (RemainAfterExit=yes)" : "cgroup still in use");
		return;
	}
	u->stopped_us = now_us();
	set_state(u, UNIT_STOPPING);
	begin_stop(u, false); /* leftovers in the cgroup go too */
	maybe_stopped(u);
}

static void flush_output(struct unit *u, pid_t pid);
static void read_exec_status(struct unit *u);

bool supervisor_child_exited(pid_t pid, int status)
{
	if (automount_child_exited(pid)) /* automount units: the idle check's child */
		return true;
	for (size_t i = 0; i < sv.count; i++) {
		struct unit *u = &sv.units[i];
		/* Its exec status first: a command that ran and ended within one turn of the
		 * loop has both ready at once, and a simple service must be ready (it ran)
		 * before its exit is judged (ExitType=cgroup, RemainAfterExit=). The process
		 * is gone: the pipe holds the failure or its end. */
		if ((pid == u->control_pid || pid == u->main_pid) && u->exec_fd >= 0)
			read_exec_status(u);
		if (pid == u->control_pid) {
			flush_output(u, pid);
			spawn_process_ended(u, pid, status);
			control_exited(u, status);
			return true;
		}
		if (pid == u->main_pid) {
			flush_output(u, pid);
			spawn_process_ended(u, pid, status);
			main_exited(u, status);
			return true;
		}
		if (pid == u->busname_pid) { /* U4 */
			bus_name_watch_exited(u, status);
			return true;
		}
	}
	return false;
}

static void lifecycle_reload_timed_out(struct unit *u);
static bool idle_must_wait(struct unit *u, long long now, const struct depgraph_set *done);
static void lifecycle_tick(struct unit *u);

static void handle_timeout(struct unit *u)
{
	if (u->restart_pending) {
		set_state(u, UNIT_WAITING);
		u->restart_pending = false;
		u->deadline_ms = -1;
		return;
	}
	switch (u->state) {
	case UNIT_WAITING: /* U2: Type=idle waited long enough; it starts once startable */
		u->idle_waited = true;
		u->deadline_ms = -1;
		return;
	case UNIT_READY: /* U2: a reload that did not finish */
		lifecycle_reload_timed_out(u);
		break;
	case UNIT_STARTING:
	case UNIT_RUNNING:
		u->result = SVC_RESULT_TIMEOUT;
		if (u->svc->kind == UNIT_DEVICE) /* nothing ran: inactive, as systemd's device */
			fail_start_job(u, SVC_RESULT_TIMEOUT, "did not appear within %lus",
				       unit_kind_timeout_ms(u->svc) / 1000);
		else if (unit_kind_passive(u->svc->kind)) /* unit kinds (unit-kinds) */
			fail_unit(u, "did not appear within %lus", unit_kind_timeout_ms(u->svc) / 1000);
		else if (u->pidfile_wait)
			fail_unit(u, "start timed out waiting for PIDFile=%s",
				  service_str(u->svc, u->svc->pid_file));
		else if (u->svc->kind == UNIT_SOCKET) /* socket-exec */
			fail_unit(u, "%s= timed out (TimeoutSec=%lus)", u->phase == PHASE_PRE
				  ? "ExecStartPre" : "ExecStartPost", u->svc->timeout_start_ms / 1000);
		else
			fail_unit(u, "start timed out");
		break;
	case UNIT_PERMANENT: /* ember.failed_retry=: a fresh chance, a fresh start limit */
		log_info("%s: retrying after permanent failure", name_of(u));
		backoff_reset(&u->backoff);
		u->deadline_ms = -1;
		if (rearm_sockets_of(u) > 0 && !u->svc->pulled) {
			u->start_wanted = false;
			set_state(u, UNIT_STOPPED); /* its next client starts it, as at boot */
			break;
		}
		set_state(u, UNIT_WAITING);
		break;
	case UNIT_STOPPING:
	case UNIT_FAILED:
		if (u->phase == PHASE_SWAPOFF) {
			swapoff_timed_out(u);
			break;
		}
		if (!u->killed) {
			kill_everything(u);
		} else {
			log_error("%s: %s; giving up on them", name_of(u),
				  u->svc->send_sigkill && u->svc->kill_mode != KILL_NONE
				  ? "processes survived SIGKILL" : "processes left running");
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
	bool again = true;

	/* A unit may settle at once (a target is reached, a condition skips it): then
	 * what waits for it may start in this same turn (U1). Socket units go first, so
	 * their services find the fds whatever the names' order (U4). */
	while (again) {
		again = false;
		done_set(&done);
		for (int pass = 0; pass < 2; pass++) {
			for (size_t i = 0; i < sv.count; i++) {
				struct unit *u = &sv.units[i];
				if ((u->svc->kind == UNIT_SOCKET) != (pass == 0))
					continue;
				if (u->state != UNIT_WAITING || u->restart_pending || sv.stopping_all)
					continue;
				if (!depgraph_startable(&sv.graph, i, &done) || idle_must_wait(u, now_ms(), &done) ||
				    requirement_restarting(u))
					continue;
				/* socket-exec: a service waits for its sockets' commands, as
				 * under systemd (socket units are ordered before their service) */
				if (sockets_starting(sv.units, sv.count, u))
					continue;
				begin_start(u);
				again |= !unit_in_progress(u);
			}
		}
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
		/* A restart or a retry that was due is off, and so is its deadline: left armed,
		 * it fired as a stop timeout ("killing its whole cgroup") of a unit long gone. */
		if ((u->restart_pending && !unit_up(u)) || u->state == UNIT_PERMANENT)
			u->deadline_ms = -1;
		u->restart_pending = false;
		if (u->stop_wanted || !unit_up(u))
			continue;
		if (depgraph_stoppable(&sv.graph, i, &running))
			begin_stop(u, true);
	}
}

static void runtime_tick(struct unit *u, long long now); /* unit-runtime2 */
static void stop_unneeded(void);

void supervisor_tick(long long now)
{
	timer_units_check_clock(sv.units, sv.count); /* timer units */
	for (size_t i = 0; i < sv.count; i++) {
		struct unit *u = &sv.units[i];
		if (u->deadline_ms >= 0 && now >= u->deadline_ms)
			handle_timeout(u);
		runtime_tick(u, now); /* unit-runtime2 */
		tick_timer(u, now); /* timer units */
		tick_path(u); /* path units */
		tick_automount(u, now); /* automount units */
		if (u->stop_deferred && u->state == UNIT_STOPPING && !bound_after_still_up(u)) {
			u->stop_deferred = false;
			stop_now(u, came_up(u));
		}
		if (u->state == UNIT_STOPPING || (u->state == UNIT_FAILED && u->phase == PHASE_KILL))
			maybe_stopped(u);
		lifecycle_tick(u);
	}
	recheck_passive(); /* unit kinds (unit-kinds) */
	reap_instances(); /* sockets-accept */
	if (sv.stopping_all) {
		stop_what_can_stop();
	} else {
		start_what_can_start();
		stop_unneeded(); /* unit-runtime2: StopWhenUnneeded= */
	}
	/* automount units: after the starts and stops above, so a mount unit that settled in
	 * this turn has its waiters answered now, not at the next wake-up */
	automount_units_settle(sv.units, sv.count);
	check_boot_ready();
}

long long supervisor_next_deadline(void)
{
	long long next = -1;

	for (size_t i = 0; i < sv.count; i++) {
		const struct unit *u = &sv.units[i];
		long long d = u->deadline_ms;
		/* A stopping service's cgroup is polled until it is empty. */
		if (u->state == UNIT_STOPPING || (u->state == UNIT_FAILED && u->phase == PHASE_KILL) ||
		    u->pidfile_wait) {
			long long poll_at = now_ms() + STOP_POLL_MS;
			d = d < 0 || poll_at < d ? poll_at : d;
		}
		if (u->state == UNIT_STARTING && u->svc->kind == UNIT_DEVICE) { /* unit-kinds */
			long long poll_at = now_ms() + UNIT_DEVICE_POLL_MS;
			d = d < 0 || poll_at < d ? poll_at : d;
		}
		/* Only a service can lose its processes: a reached target, a mounted mount, a
		 * waiting timer has none to watch (no wake-up every second for them). */
		if (u->svc->kind == UNIT_SERVICE && u->state == UNIT_READY && u->main_pid <= 0 &&
		    !u->remain) {
			long long poll_at = now_ms() + CGROUP_WATCH_MS; /* U2: see lifecycle_tick */
			d = d < 0 || poll_at < d ? poll_at : d;
		}
		if (runtime_next_deadline(u) >= 0 && (d < 0 || runtime_next_deadline(u) < d))
			d = runtime_next_deadline(u); /* unit-runtime2 */
		if (timer_unit_due(u) >= 0 && (d < 0 || timer_unit_due(u) < d))
			d = timer_unit_due(u); /* timer units */
		if (automount_unit_due(u) >= 0 && (d < 0 || automount_unit_due(u) < d))
			d = automount_unit_due(u); /* automount units: the idle check */
		if (d >= 0 && (next < 0 || d < next))
			next = d;
	}
	return next;
}

/* ---- fds: output and exec status -------------------------------------------------- */

/* unit kinds (unit-kinds): the watch runs while a device, mount or swap unit is up or
 * awaited. */
static size_t passive_pollfds(struct pollfd *fds, size_t max)
{
	unsigned what = 0;

	for (size_t i = 0; i < sv.count; i++) {
		const struct unit *u = &sv.units[i];
		enum unit_kind k = u->svc->kind;
		if (!(u->state == UNIT_STARTING || u->state == UNIT_READY ||
		      (u->state == UNIT_STOPPED && !u->stop_wanted)))
			continue;
		what |= k == UNIT_DEVICE ? UNIT_KINDS_DEVICES : k == UNIT_MOUNT ? UNIT_KINDS_MOUNTS :
			k == UNIT_SWAP ? UNIT_KINDS_SWAPS : 0;
	}
	return unit_kinds_pollfds(what, fds, max);
}

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
	if (n == 3 * sv.count) /* U4: watched sockets after the units' slots */
		n += sockets_pollfds(sv.units, sv.count, fds + n, max - n);
	n += passive_pollfds(fds + n, max - n); /* unit kinds (unit-kinds) */
	n += timer_units_pollfds(sv.units, sv.count, fds + n, max - n); /* timer units */
	n += path_units_pollfds(sv.units, sv.count, fds + n, max - n); /* path units */
	n += automount_units_pollfds(sv.units, sv.count, fds + n, max - n); /* automount units */
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

	if (forwards_to_kmsg(u, s) && u->output)
		kmsg_forward_feed(&u->output->kmsg, s, data, len, now_ms(), &limit, &sink);
	if ((s == KMSG_STDOUT ? u->svc->std_output : u->svc->std_error).also_console)
		execenv_console_copy(data, len); /* U5: journal+console and friends */
}

static void read_output(struct unit *u, int fd, enum kmsg_stream s)
{
	char buf[4096];

	for (int i = 0; i < OUTPUT_READS_PER_TURN; i++) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n <= 0)
			return;
		if (!u->output)
			u->output = unit_output_take();
		if (u->output)
			logbuf_append(&u->output->log, buf, (size_t)n);
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
	if (u->output) /* nothing was fed otherwise */
		kmsg_forward_flush(&u->output->kmsg, now_ms(), &limit, &sink);
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
		/* U2: Type=exec fails its start right here, with the reason. */
		if (u->phase == PHASE_MAIN && u->svc->type == SERVICE_EXEC && u->state == UNIT_RUNNING &&
		    !line_ignores_failure(main_line(u)))
			fail_unit(u, "%s", u->error);
		else
			log_error("%s: %s", name_of(u), u->error);
		return;
	}
	/* End of file: exec succeeded. A simple (exec, idle) service is ready once its program
	 * runs. */
	if (u->phase == PHASE_MAIN && u->state == UNIT_RUNNING &&
	    (u->svc->type == SERVICE_SIMPLE || u->svc->type == SERVICE_EXEC ||
	     u->svc->type == SERVICE_IDLE))
		become_ready(u);
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
	for (size_t k = 3 * sv.count; k < n; k++) { /* U4: watched sockets */
		struct unit *sock = fds[k].revents ? sockets_owner(sv.units, sv.count, fds[k].fd) : NULL;
		if (sock)
			socket_traffic(sock);
	}
	unit_kinds_handle_pollfds(fds, n); /* unit kinds (unit-kinds) */
	timer_units_handle_pollfds(sv.units, sv.count, fds, n); /* timer units */
	path_units_handle_pollfds(sv.units, sv.count, fds, n); /* path units */
	automount_units_handle_pollfds(sv.units, sv.count, fds, n); /* automount units */
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

static void lifecycle_reload_ready(struct unit *u);

void supervisor_notify(struct unit *u, pid_t sender, bool ready, bool stopping,
		       const char *status, pid_t mainpid)
{
	if (status)
		snprintf(u->status_text, sizeof u->status_text, "%s", status);
	if (mainpid > 0 && (mainpid == sender || svc_cgroup_has_pid(u, mainpid)))
		u->main_pid = mainpid;
	if (ready && u->reloading && u->reload_notified) {
		lifecycle_reload_ready(u); /* U2: notify-reload: READY=1 after RELOADING=1 */
		return;
	}
	if (ready && u->state == UNIT_RUNNING && u->phase == PHASE_MAIN &&
	    (u->svc->type == SERVICE_NOTIFY || u->svc->type == SERVICE_NOTIFY_RELOAD))
		become_ready(u);
	if (stopping && u->state != UNIT_STOPPING)
		log_info("%s: stopping (told by the service)", name_of(u));
}

/* ---- requests ------------------------------------------------------------------------- */

const struct unit *supervisor_find(const char *name)
{
	for (size_t i = 0; i < sv.count; i++)
		if (strcmp(sv.units[i].svc->name, name) == 0)
			return &sv.units[i];
	for (size_t i = 0; i < sv.count; i++) /* sockets-accept: by its alias */
		if (sv.units[i].svc->also_named &&
		    strcmp(service_str(sv.units[i].svc, sv.units[i].svc->also_named), name) == 0)
			return &sv.units[i];
	return NULL;
}

static void say(void (*report)(void *, const char *), void *ctx, const char *verb,
		const char *name);

/* Is a unit of this name among those read, not yet loaded: sv.services[first..end)? */
static bool in_batch(size_t first, size_t end, const char *name)
{
	for (size_t i = first; i < end; i++)
		if (strcmp(sv.services[i].name, name) == 0)
			return true;
	return false;
}

/* The first unit s pulls in (or a timer or path unit starts, or it names in Requisite=:
 * *only_loaded, to be loaded and not started) that is neither loaded nor among
 * sv.services[first..end), into missing; false when there is none. */
static bool pulls_missing(const struct service *s, size_t first, size_t end, char *missing,
			  bool *only_loaded)
{
	const struct service_name_list *lists[] = { &s->wants, &s->requires, &s->binds_to,
						    &s->requisite };
	char buf[SERVICE_NAME_MAX];

	for (size_t k = 0; k < sizeof lists / sizeof *lists; k++)
		for (size_t j = 0; j < service_list_count(lists[k]); j++) {
			const char *name = service_list_name(s, lists[k], j, buf);
			*only_loaded = lists[k] == &s->requisite;
			if (strcmp(name, s->name) != 0 && !supervisor_find(name) &&
			    !in_batch(first, end, name))
				return str_copy(missing, SERVICE_NAME_MAX, name) == 0;
		}
	*only_loaded = false;
	if ((s->kind == UNIT_TIMER || s->kind == UNIT_PATH) &&
	    service_trigger_target(s, buf, sizeof buf) && !supervisor_find(buf) &&
	    !in_batch(first, end, buf))
		return str_copy(missing, SERVICE_NAME_MAX, buf) == 0;
	return false;
}

/* Does a loaded unit name alias in a dependency list? A full reload rewrites such names
 * to the unit's own; a unit loaded alone by its alias would leave them dangling. */
static bool named_by_loaded(const char *alias)
{
	for (size_t i = 0; i < sv.count; i++) {
		const struct service *o = sv.units[i].svc;
		const struct service_name_list *lists[] = SERVICE_DEP_LISTS(o);
		for (size_t k = 0; k < sizeof lists / sizeof *lists; k++)
			if (service_lists(o, lists[k], alias))
				return true;
	}
	return false;
}

/* Can s, read for the name asked, join the loaded units without the loader's whole-tree
 * work? Not a socket unit (its service may need the loader's rewriting); an alias (bus
 * activation asks for dbus-org.freedesktop.hostname1.service) only when nothing loaded
 * names it and its unit is not loaded under its own name. */
static bool joins_alone(const struct service *s, const char *asked, bool first)
{
	if (s->kind == UNIT_SOCKET)
		return false;
	if (strcmp(s->name, asked) == 0)
		return true;
	return first && !supervisor_find(s->name) && !named_by_loaded(asked);
}

/* The units read into sv.services[first..end) join the loaded ones, and the graph. */
static void append_batch(size_t first, size_t end)
{
	for (size_t i = first; i < end; i++) {
		log_info("%s: loaded on request", sv.services[i].name);
		check_programs(&sv.services[i]);
	}
	join_loaded(first, end);
	for (size_t i = first; i < end; i++)
		unit_classify(&sv.units[i], sv.svcs, sv.count);
}

/* A unit requested by name is loaded alone, with the few units it pulls in that are not
 * loaded yet (an instance's slice: user-runtime-dir@1000 wants user-1000.slice), when
 * each of them can be: a full reload reads every unit file again, and a booting phone
 * asks for several units that way (bus activation: hostnamed, the NetworkManager
 * dispatcher; logind's user slices and runtime dirs). Anything else (an alias among the
 * pulled units, a socket unit, more than LOAD_ALONE_MAX) takes the full reload. */
#define LOAD_ALONE_MAX 8
static bool load_alone(const char *name)
{
	size_t first = sv.count, end = sv.count;
	char asked[SERVICE_NAME_MAX];
	bool only_loaded = false;

	str_copy(asked, sizeof asked, name);
	for (;;) {
		struct service *s = end - first < LOAD_ALONE_MAX ? load_into_slot(end, asked) : NULL;
		if (!s || !joins_alone(s, asked, end == first)) {
			/* the failed read may have written its slot too */
			size_t touched = end - first + (end < SERVICE_COUNT_MAX);
			pages_release(&sv.services[first], touched * sizeof *s);
			return false;
		}
		s->on_demand = only_loaded; /* a Requisite=: inactive until started by name */
		end++;
		bool more = false;
		for (size_t i = first; i < end && !more; i++)
			more = pulls_missing(&sv.services[i], first, end, asked, &only_loaded);
		if (!more)
			break;
	}
	append_batch(first, end);
	return true;
}

/* A unit started by name that is down again gives up its place among the extras (the
 * next reload may then drop it, as systemd unloads an inactive unit nothing needs): a
 * phone that runs for weeks meets more bus-activated services and users than there are
 * places. */
static void forget_idle_extras(void)
{
	size_t kept = 0;

	for (size_t i = 0; i < sv.nextra; i++) {
		const struct unit *u = supervisor_find(sv.extra[i]);
		if (!u || !(unit_up(u) || unit_in_progress(u)))
			continue;
		if (kept != i)
			str_copy(sv.extra[kept], sizeof sv.extra[0], sv.extra[i]);
		sv.extra_ptr[kept] = sv.extra[kept];
		kept++;
	}
	sv.nextra = kept;
}

/* U1: a unit not loaded yet (an instance of a template, a unit nothing pulls in) is
 * loaded on request, and stays among the loaded ones while it is up (sv.extra: a later
 * reload loads it again). */
static const struct unit *load_on_request(const char *name)
{
	if (!service_name_valid(name) || unit_name_is_template(name))
		return NULL;
	if (sv.nextra >= UNIT_EXTRA_MAX)
		forget_idle_extras();
	if (sv.nextra >= UNIT_EXTRA_MAX) {
		log_error("%s: not loaded: %d units started by name are up already", name,
			  UNIT_EXTRA_MAX);
		return NULL;
	}
	str_copy(sv.extra[sv.nextra], sizeof sv.extra[0], name);
	sv.extra_ptr[sv.nextra] = sv.extra[sv.nextra];
	sv.nextra++;
	if (load_alone(name))
		return supervisor_find(name);
	supervisor_reload(NULL, NULL);
	if (supervisor_find(name))
		return supervisor_find(name);
	sv.nextra--;
	return NULL;
}

/* runtime keys (unit-runtime2): a unit by name, loaded if need be (without starting it). */
const struct unit *supervisor_load(const char *name)
{
	return supervisor_find(name) ? supervisor_find(name) : load_on_request(name);
}

static struct unit *find_mutable(const char *name, char *err, size_t errlen)
{
	const struct unit *u = supervisor_find(name);
	if (!u)
		snprintf(err, errlen, "%s: no such service", name);
	return (struct unit *)u;
}

/* ---- U2: service types and lifecycle ---------------------------------------------------
 * The hooks the state machine above calls for Type=exec/forking/idle/notify-reload,
 * ExecStartPost=, ExecReload=, ExecStopPost=, RemainAfterExit=, OnFailure=/OnSuccess=.
 * The decisions themselves are in svc-lifecycle.c and svc-pidfile.c; docs/supervision.md
 * has the picture. */

static long long mono_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static bool program_executable(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* 9 KiB: static, as PID 1's stack is no place for it; page-aligned, so that
 * check_programs() gives all of it back */
static _Alignas(4096) struct exec_argv check_argv;

static void check_list(const struct service *s, const struct service_exec_list *list,
		       const char *key)
{
	struct exec_argv *a = &check_argv;

	for (unsigned i = 0; i < list->count; i++) {
		const char *line = service_str(s, list->line[i]);
		if (exec_line_split(line, NULL, a) < 0 || a->path[0] == '/' || strchr(a->path, '$'))
			continue; /* errors and variables are for the start to report */
		if (exec_path_resolve(a, program_executable) < 0)
			log_warn("%s: %s=: %s; starting it will fail", s->name, key, a->error);
	}
}

/* Bare program names are looked up when the service is loaded, so a missing one is
 * reported at boot, and again (as the error) when the start fails. A name that appears
 * later (a filesystem mounted after the boot) still works: the start looks again. */
static void check_programs(const struct service *s)
{
	if (s->failed || s->masked)
		return;
	check_list(s, &s->exec_condition, "ExecCondition");
	check_list(s, &s->exec_start_pre, "ExecStartPre");
	check_list(s, &s->exec_start, "ExecStart");
	check_list(s, &s->exec_start_post, "ExecStartPost");
	check_list(s, &s->exec_reload, "ExecReload");
	check_list(s, &s->exec_stop, "ExecStop");
	check_list(s, &s->exec_stop_post, "ExecStopPost");
	check_list(s, &s->sock.exec_stop_pre, "ExecStopPre"); /* socket-exec */
	pages_release(&check_argv, sizeof check_argv);
}

static bool line_ignores_failure(const char *line)
{
	return exec_line_prefixes(line) & EXEC_IGNORE_FAILURE;
}

/* Everything started (and the main process exited, for a oneshot): active. */
static void finish_start(struct unit *u)
{
	const struct service *s = u->svc;

	mark_ready(u);
	if (s->type != SERVICE_ONESHOT || u->main_pid > 0)
		return;
	if (s->remain_after_exit) {
		u->remain = true;
		log_info("%s: finished, remains active (RemainAfterExit=yes)", name_of(u));
		return;
	}
	set_state(u, UNIT_STOPPING);
	maybe_stopped(u);
	if (u->state == UNIT_STOPPING && u->control_pid <= 0)
		begin_stop(u, false);
}

static void run_next_post(struct unit *u)
{
	const struct service *s = u->svc;

	while (u->exec_index < s->exec_start_post.count) {
		const char *line = service_str(s, s->exec_start_post.line[u->exec_index]);
		pid_t pid = spawn_line(u, line);
		if (pid > 0) {
			u->control_pid = pid;
			return;
		}
		if (!line_ignores_failure(line)) {
			fail_unit(u, "ExecStartPost=: %s", u->error);
			return;
		}
		log_warn("%s: ExecStartPost=: %s (ignored: '-')", name_of(u), u->error);
		u->exec_index++;
	}
	if (s->pid_file && s->type != SERVICE_FORKING) {
		u->pidfile_wait = true;
		pidfile_adopt(u);
		return;
	}
	u->phase = PHASE_MAIN;
	finish_start(u);
}

/* The type's readiness condition is met: ExecStartPost= lines first, then active. */
static void become_ready(struct unit *u)
{
	if (u->svc->exec_start_post.count > 0) {
		u->phase = PHASE_START_POST;
		u->exec_index = 0;
		run_next_post(u);
		return;
	}
	finish_start(u);
}

/* Type=oneshot: its ExecStart= lines run one after the other. */
static void start_next_main(struct unit *u)
{
	if (++u->exec_index < u->svc->exec_start.count) {
		start_main(u);
		return;
	}
	become_ready(u);
}

/* PIDFile=: adopt the PID the file names, if it may be believed, then go on where the
 * wait began: Type=forking's readiness, or the end of ExecStartPost= (other types: as
 * systemd, the file names the main process from then on). */
static void pidfile_adopt(struct unit *u)
{
	const char *path = service_str(u->svc, u->svc->pid_file);
	char err[UNIT_ERROR_MAX];
	bool trusted = false, ours;
	pid_t pid = 0;
	int r = svc_pidfile_read(path, &pid, &trusted, err, sizeof err);

	if (r == 0)
		return; /* not there yet: the start timeout bounds the wait */
	u->pidfile_wait = false;
	if (r < 0) {
		fail_unit(u, "%s", err);
		return;
	}
	if (pid == 1 || pid == getpid() || (kill(pid, 0) < 0 && errno == ESRCH)) {
		fail_unit(u, "PIDFile=%s: PID %d is %s", path, (int)pid,
			  pid == 1 || pid == getpid() ? "the init process" : "not running");
		return;
	}
	ours = svc_cgroup_has_pid(u, pid);
	if (!trusted && !ours) {
		fail_unit(u, "PIDFile=%s is not root's and PID %d is not a process of this "
			  "service: refused", path, (int)pid);
		return;
	}
	if (!ours)
		log_warn("%s: PIDFile=%s names PID %d, outside the service", name_of(u), path,
			 (int)pid);
	if (pid != u->main_pid)
		log_info("%s: main process %d (PIDFile=%s)", name_of(u), (int)pid, path);
	u->main_pid = pid;
	if (u->phase == PHASE_START_POST) {
		u->phase = PHASE_MAIN;
		finish_start(u);
		return;
	}
	become_ready(u);
}

/* Type=forking: the started process exited cleanly; the daemon is what it left behind. */
static void forking_parent_exited(struct unit *u)
{
	pid_t pid;

	if (u->svc->pid_file) {
		u->pidfile_wait = true;
		pidfile_adopt(u);
		return;
	}
	pid = svc_guess_main_pid(u->cg_fd, u->control_pid);
	if (pid != 0 && !u->svc->guess_main_pid) {
		/* systemd's rc-local: what rc.local left running is not one daemon whose exit
		 * would fail the unit */
		log_info("%s: GuessMainPID=no: no main process; the service counts as running "
			 "while its processes are%s", name_of(u),
			 u->svc->remain_after_exit ? ", then remains active (RemainAfterExit=yes)" : "");
	} else if (pid > 0) {
		u->main_pid = pid;
		log_info("%s: main process %d (guessed from its cgroup)", name_of(u), (int)pid);
	} else if (pid == 0 && u->svc->remain_after_exit) {
		/* done already (Debian's rpc-statd-notify): nothing to watch, nothing to say */
		u->remain = true;
		log_info("%s: no process left, remains active (RemainAfterExit=yes)", name_of(u));
	} else {
		log_warn("%s: no PIDFile= and %s: main process unknown; the service counts as "
			 "running while its processes are%s", name_of(u),
			 pid == 0 ? "no process left" : svc_cgroup_enabled() ? "several processes left"
			 : "no cgroups",
			 u->svc->remain_after_exit ? ", then remains active (RemainAfterExit=yes)" : "");
	}
	become_ready(u);
}

static void start_listed(struct unit *u, const struct service_name_list *list, const char *key)
{
	char err[UNIT_ERROR_MAX], buf[SERVICE_NAME_MAX];

	if (sv.stopping_all)
		return;
	for (size_t i = 0; i < service_list_count(list); i++) {
		const char *name = service_list_name(u->svc, list, i, buf);
		if (supervisor_start(name, err, sizeof err) < 0)
			log_warn("%s: %s=%s: %s", name_of(u), key, name, err);
		else
			log_info("%s: %s= starts %s", name_of(u), key, name);
	}
}

/* Failed, and nothing is left running: restart, or give up and start OnFailure=. */
static void settle_failed(struct unit *u)
{
	if (should_restart(u)) {
		schedule_restart(u);
	} else {
		start_listed(u, &u->svc->on_failure, "OnFailure");
		if (!sv.stopping_all) /* unit-runtime2 */
			runtime_action(u, u->svc->failure_action, "FailureAction");
	}
}

/* ExecStopPost= after every run that got as far as starting, stopped or failed. True
 * while one of its lines runs. */
static bool run_stop_post(struct unit *u)
{
	const struct service *s = u->svc;

	if (!u->stop_post_due)
		return false;
	if (u->phase != PHASE_STOP_POST) {
		u->phase = PHASE_STOP_POST;
		u->exec_index = 0;
		u->deadline_ms = deadline_after(s->timeout_stop_ms);
	}
	while (u->exec_index < s->exec_stop_post.count) {
		pid_t pid = spawn_line(u, service_str(s, s->exec_stop_post.line[u->exec_index++]));
		if (pid > 0) {
			u->control_pid = pid;
			return true;
		}
		log_warn("%s: ExecStopPost=: %s", name_of(u), u->error);
	}
	u->stop_post_due = false;
	return false;
}

static bool run_next_reload(struct unit *u)
{
	const struct service *s = u->svc;

	while (u->exec_index < s->exec_reload.count) {
		pid_t pid = spawn_line(u, service_str(s, s->exec_reload.line[u->exec_index]));
		if (pid > 0) {
			u->control_pid = pid;
			return true;
		}
		log_error("%s: ExecReload=: %s", name_of(u), u->error);
		u->exec_index++;
	}
	return false;
}

static void reload_done(struct unit *u, bool ok)
{
	u->phase = PHASE_MAIN;
	u->reloading = u->reload_notified = false;
	u->reload_failed = !ok;
	u->deadline_ms = -1;
	if (ok)
		log_info("%s: reloaded", name_of(u));
}

static void lifecycle_control_exited(struct unit *u, int code)
{
	const struct service *s = u->svc;
	const struct service_exec_list *list =
		u->phase == PHASE_START_POST ? &s->exec_start_post : &s->exec_reload;
	const char *line = service_str(s, list->line[u->exec_index]);

	if (code != 0 && !line_ignores_failure(line)) {
		if (u->phase == PHASE_START_POST) {
			fail_unit(u, "ExecStartPost= exited with status %d", code);
		} else {
			log_error("%s: ExecReload= exited with status %d; the service keeps running "
				  "as it was", name_of(u), code);
			reload_done(u, false);
		}
		return;
	}
	u->exec_index++;
	if (u->phase == PHASE_START_POST) {
		if (u->state == UNIT_STARTING || u->state == UNIT_RUNNING)
			run_next_post(u);
		return;
	}
	if (!run_next_reload(u) && !u->reloading)
		reload_done(u, true);
}

static void lifecycle_reload_ready(struct unit *u)
{
	u->reloading = u->reload_notified = false;
	if (u->phase != PHASE_RELOAD || u->control_pid <= 0)
		reload_done(u, true);
}

static void lifecycle_reload_timed_out(struct unit *u)
{
	if (!u->reloading && u->phase != PHASE_RELOAD) {
		u->deadline_ms = -1;
		return;
	}
	log_error("%s: reload timed out; the service keeps running", name_of(u));
	if (u->phase == PHASE_RELOAD && u->control_pid > 0)
		kill(u->control_pid, SIGKILL); /* its exit ends the reload */
	u->reloading = u->reload_notified = false;
	u->deadline_ms = -1;
	if (u->control_pid <= 0)
		reload_done(u, false);
}

/* Is unit i starting, or about to (waiting, with all it is ordered after done)? A unit
 * still waiting for something that has not started either is not: it waits, directly or
 * through others, for a Type=idle unit, as getty.target and multi-user.target wait for
 * the gettys. */
static bool unit_busy_starting(size_t i, const struct depgraph_set *done)
{
	const struct unit *o = &sv.units[i];

	if (o->svc->type == SERVICE_IDLE || o->restart_pending)
		return false;
	if (o->state == UNIT_STARTING || o->state == UNIT_RUNNING)
		return true;
	return o->state == UNIT_WAITING && depgraph_startable(&sv.graph, i, done);
}

/* Type=idle: wait while other services are still starting, at most IDLE_MAX_WAIT_MS.
 * systemd waits for its job queue to empty, in which the idle unit's own job is done at
 * fork: what is ordered after it never holds it back. */
static bool idle_must_wait(struct unit *u, long long now, const struct depgraph_set *done)
{
	bool busy = false;

	if (u->svc->type != SERVICE_IDLE || sv.boot_ready_us >= 0 || u->idle_waited)
		return false;
	for (size_t i = 0; i < sv.count && !busy; i++)
		busy = &sv.units[i] != u && unit_busy_starting(i, done);
	if (!busy)
		return false;
	if (u->deadline_ms < 0)
		u->deadline_ms = now + IDLE_MAX_WAIT_MS; /* handle_timeout() sets idle_waited */
	return true;
}

/* Per tick: a PIDFile= being waited for; a service known only by its processes (forking
 * without a main PID, ExitType=cgroup) ends when the last one has. */
static void lifecycle_tick(struct unit *u)
{
	if (u->pidfile_wait && (u->state == UNIT_RUNNING || u->state == UNIT_STARTING)) {
		pidfile_adopt(u);
		return;
	}
	/* Only services have processes: a listening socket unit (and a reached target) is
	 * ready with none. */
	if (u->svc->kind == UNIT_SERVICE && u->state == UNIT_READY && u->main_pid <= 0 &&
	    !u->remain && u->control_pid <= 0 && svc_cgroup_populated(u) == 0) {
		if (u->svc->remain_after_exit) { /* systemd's "active (exited)" */
			u->remain = true;
			log_info("%s: no process left, remains active (RemainAfterExit=yes)",
				 name_of(u));
			return;
		}
		log_info("%s: no process left", name_of(u));
		u->stopped_us = now_us();
		set_state(u, UNIT_STOPPING);
		maybe_stopped(u);
	}
}

static void propagate_reload(const struct unit *u); /* unit-runtime2 */

int supervisor_reload_unit(const char *name, char *err, size_t errlen)
{
	struct unit *u = find_mutable(name, err, errlen);
	const struct service *s;
	bool by_signal;

	if (!u)
		return -1;
	s = u->svc;
	if (u->state != UNIT_READY) {
		snprintf(err, errlen, "%s: %s, cannot reload", name, state_names[u->state]);
		return -1;
	}
	by_signal = s->type == SERVICE_NOTIFY_RELOAD && u->main_pid > 0;
	if (!by_signal && s->exec_reload.count == 0) {
		snprintf(err, errlen, "%s: cannot reload: no ExecReload= and not Type=notify-reload",
			 name);
		return -1;
	}
	if (u->control_pid > 0 || u->reloading || u->phase != PHASE_MAIN) {
		snprintf(err, errlen, "%s: busy (a reload or another command is running)", name);
		return -1;
	}
	u->deadline_ms = deadline_after(s->timeout_start_ms);
	u->phase = PHASE_RELOAD;
	u->exec_index = 0;
	u->reload_failed = false;
	if (by_signal) {
		u->reloading = true;
		u->reload_notified = false;
		u->reload_started_us = mono_us();
		kill(u->main_pid, s->reload_signal);
	}
	if (!run_next_reload(u) && !by_signal) {
		reload_done(u, false);
		snprintf(err, errlen, "%s: ExecReload=: %s", name, u->error);
		return -1;
	}
	log_info("%s: reloading", name_of(u));
	propagate_reload(u); /* unit-runtime2 */
	return 0;
}

void supervisor_notify_reloading(struct unit *u, unsigned long long monotonic_usec)
{
	if (u->state != UNIT_READY)
		return;
	/* MONOTONIC_USEC= says when the service began this reload; one from before our
	 * signal belongs to an earlier reload. */
	if (u->reloading && monotonic_usec && (long long)monotonic_usec < u->reload_started_us) {
		log_debug("%s: stale RELOADING=1 ignored", name_of(u));
		return;
	}
	if (!u->reloading) { /* the service reloads on its own */
		u->reloading = true;
		u->reload_started_us = mono_us();
		u->deadline_ms = deadline_after(u->svc->timeout_start_ms);
		log_info("%s: reloading (told by the service)", name_of(u));
	}
	u->reload_notified = true;
}

/* As systemd's start job does, a start by name (emberctl start, socket traffic, a D-Bus
 * activation, OnFailure=) starts what the unit wants and requires (Wants=, Requires=,
 * BindsTo=, their .wants/ and .requires/ links) that is down (unit_pull_in_wanted()).
 * The unit is WAITING already, so a cycle back to it ends there. */
static void pull_in(struct unit *u)
{
	const struct service_name_list *lists[] = { &u->svc->wants, &u->svc->requires,
						    &u->svc->binds_to };
	char err[UNIT_ERROR_MAX];

	for (size_t l = 0; l < sizeof lists / sizeof *lists; l++) {
		for (size_t i = 0; i < service_list_count(lists[l]); i++) {
			char buf[SERVICE_NAME_MAX];
			const char *name = service_list_name(u->svc, lists[l], i, buf);
			const struct unit *r = supervisor_find(name);
			/* one still stopping starts again once stopped (supervisor_start) */
			if (!r || (r->state != UNIT_STOPPING && (unit_up(r) || !unit_pull_in_wanted(r))))
				continue;
			if (supervisor_start(name, err, sizeof err) < 0)
				log_warn("%s: %s, wanted by it: %s", name_of(u), name, err);
			else
				log_info("%s: starts %s, which it wants", name_of(u), name);
		}
	}
}

/* Once shutdown has begun nothing starts any more: a start (or restart) asked for then
 * would wait for ever, so it is refused, as systemd refuses the job. */
static bool refused_in_shutdown(const char *name, char *err, size_t errlen)
{
	if (sv.stopping_all)
		snprintf(err, errlen, "%s: the system is shutting down, nothing starts any more",
			 name);
	return sv.stopping_all;
}

int supervisor_start(const char *name, char *err, size_t errlen)
{
	struct unit *u = supervisor_find(name) ? find_mutable(name, err, errlen)
					       : (struct unit *)load_on_request(name);

	if (!u) {
		snprintf(err, errlen, "%s: no such service", name);
		return -1;
	}
	if (u->state == UNIT_MASKED || u->state == UNIT_INVALID) {
		snprintf(err, errlen, "%s: %s, cannot start%s%s", name, state_names[u->state],
			 u->error[0] ? ": " : "", u->error);
		return -1;
	}
	if (u->svc->masked || u->svc->failed) { /* up at a reload that broke its file */
		snprintf(err, errlen, "%s: %s since the last daemon-reload, cannot start%s%s",
			 name, u->svc->masked ? "masked" : "invalid", u->svc->failed ? ": " : "",
			 u->svc->failed ? u->svc->error : "");
		return -1;
	}
	if (unit_in_progress(u) || u->state == UNIT_READY)
		return 0;
	if (refused_in_shutdown(name, err, errlen))
		return -1;
	if (u->state == UNIT_STOPPING) { /* as systemd queues a start after a running stop */
		u->start_after_stop = true;
		return 0;
	}
	u->stop_wanted = false;
	u->start_wanted = true;
	backoff_reset(&u->backoff);
	set_state(u, UNIT_WAITING);
	pull_in(u);
	return 0;
}

/* sessions: what a session's scope requires stays needed until stopped by name. */
void supervisor_hold(const char *name)
{
	struct unit *u = (struct unit *)supervisor_find(name);

	if (u)
		u->held = true;
}

int supervisor_release(const char *name, char *err, size_t errlen)
{
	struct unit *u = find_mutable(name, err, errlen);

	if (!u)
		return -1;
	u->held = false;
	return 0;
}

static void stop_asked(struct unit *u)
{
	if (u->state != UNIT_STOPPING) {
		begin_stop(u, true);
		return;
	}
	u->stop_wanted = true;
	u->restart_pending = false;
}

int supervisor_stop(const char *name, char *err, size_t errlen)
{
	struct unit *u = find_mutable(name, err, errlen);
	struct depgraph_set req;

	if (!u)
		return -1;
	/* A unit stopping already goes on with that stop, as systemd merges stop jobs:
	 * beginning it again killed its running ExecStop= (emberctl stop mgr rt, where rt's
	 * stop had begun mgr's). */
	depgraph_requirers(&sv.graph, index_of(u), &req);
	for (size_t i = 0; i < sv.count; i++)
		if (depgraph_set_has(&req, i) && unit_up(&sv.units[i]))
			stop_asked(&sv.units[i]);
	u->restart_pending = false;
	u->held = false; /* sessions */
	if (unit_up(u))
		stop_asked(u);
	else if (u->state == UNIT_WAITING || u->state == UNIT_FAILED || u->state == UNIT_PERMANENT) {
		set_state(u, UNIT_STOPPED);
		u->deadline_ms = -1; /* no pending retry (starved start, ember.failed_retry=) */
	}
	u->stop_wanted = true;
	return 0;
}

/* A restart is passed on to the units up that require u (Requires=, BindsTo=,
 * Requisite=, and what requires those), as systemd's try-restart jobs: they stop, and
 * start again once u is back (they come after it: done_set()). PartOf= goes with the
 * stop (stop_bound()). */
static void restart_requirers(struct unit *u)
{
	struct depgraph_set req;

	depgraph_requirers(&sv.graph, index_of(u), &req);
	for (size_t i = 0; i < sv.count; i++) {
		struct unit *r = &sv.units[i];
		if (!depgraph_set_has(&req, i) || !unit_up(r) || r->state == UNIT_STOPPING)
			continue;
		log_info("%s: restarted because %s is restarted (Requires=)", name_of(r), name_of(u));
		r->start_after_stop = true;
		begin_stop(r, true);
	}
}

int supervisor_restart(const char *name, char *err, size_t errlen)
{
	struct unit *u = find_mutable(name, err, errlen);

	if (!u)
		return -1;
	if (refused_in_shutdown(name, err, errlen))
		return -1;
	if (!unit_up(u))
		return supervisor_start(name, err, errlen);
	/* The start waits until the stop is complete. Set first: the stop signal depends on
	 * it (RestartKillSignal=). */
	u->start_after_stop = true;
	restart_requirers(u);
	begin_stop(u, true);
	return 0;
}

void supervisor_stop_all(void)
{
	sv.stopping_all = true;
	stop_what_can_stop();
}

/* The units a shutdown waits for, "a, b, c" in buf (", ..." when it is full): those
 * stopping (their stop commands or processes not done), else, if none, those still up
 * (waiting for others to stop first). Returns how many there are. */
size_t supervisor_stopping_list(char *buf, size_t size)
{
	size_t n = 0, used = 0;

	buf[0] = '\0';
	for (int pass = 0; pass < 2 && n == 0; pass++) {
		for (size_t i = 0; i < sv.count; i++) {
			const struct unit *u = &sv.units[i];
			bool stopping = u->state == UNIT_STOPPING ||
					(u->state == UNIT_FAILED && u->phase == PHASE_KILL);
			if (!(pass == 0 ? stopping : unit_up(u)))
				continue;
			n++;
			if (used < size) {
				int w = snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
						 name_of(u));
				used = w < 0 || (size_t)w >= size - used ? size : used + (size_t)w;
			}
		}
	}
	if (used >= size && size >= sizeof ", ...")
		memcpy(buf + size - sizeof ", ...", ", ...", sizeof ", ...");
	return n;
}

bool supervisor_all_stopped(void)
{
	for (size_t i = 0; i < sv.count; i++)
		if (unit_up(&sv.units[i]))
			return false;
	return true;
}

/* ---- reload ------------------------------------------------------------------------- */

/* The new table of a reload; its services are read into sv.services, the loader's
 * scratch (the loaded ones are in the store meanwhile). */
static struct {
	struct service *svcs[SERVICE_COUNT_MAX]; /* svcs[i] = &sv.services[i] */
	struct unit units[SERVICE_COUNT_MAX];
	bool limits_changed[SERVICE_COUNT_MAX]; /* resource keys to write now */
} fresh;

static void say(void (*report)(void *, const char *), void *ctx, const char *verb,
		const char *name)
{
	char line[SERVICE_NAME_MAX + 16];
	snprintf(line, sizeof line, "%s %s", verb, name);
	if (report)
		report(ctx, line);
	log_info("reload: %s", line);
}

/* Did the file change? The dependency graph marks services failed after parsing
 * (cycles, broken requirements): that verdict is not part of the file. */
static struct service changed_x, changed_y; /* scratch of service_changed() */

static bool service_changed(const struct service *a, const struct service *b)
{
	struct service *x = &changed_x, *y = &changed_y;

	service_copy(x, a); /* compact: the used bytes, all that is compared */
	service_copy(y, b);
	x->failed = y->failed = false;
	memset(x->error, 0, sizeof x->error);
	memset(y->error, 0, sizeof y->error);
	/* what the loader decided from the other units, not the file: a unit a timer started
	 * is loaded on demand at boot, and as one that is up at a reload */
	x->pulled = y->pulled = x->conflicted = y->conflicted = false;
	x->on_demand = y->on_demand = x->systemd_view = y->systemd_view = false;
	/* The text store counts only up to text_used: a loader slot reused (U1: units are
	 * kept by reachability) holds old bytes after it. */
	return memcmp(x, y, offsetof(struct service, text)) != 0 ||
	       memcmp(x->text, y->text, x->text_used) != 0;
}

static bool verdict_changed(const struct service *a, const struct service *b)
{
	return a->masked != b->masked || a->failed != b->failed;
}

/* rss-diet: the output slots of the old units that did not make it into the new table
 * (removed, or beyond a full table) go back to the pool. */
static void release_dropped_output(size_t n)
{
	for (size_t i = 0; i < sv.count; i++) {
		bool kept = false;
		for (size_t k = 0; k < n && !kept; k++)
			kept = fresh.units[k].output == sv.units[i].output;
		if (!kept)
			unit_output_release(sv.units[i].output);
	}
}

/* compact: the reload table is scratch once stored: its pages go back; so do the slots
 * of units that left (old_count: the table's size before the reload). */
static void release_reload_scratch(size_t n, size_t old_count)
{
	pages_release(&fresh, sizeof fresh);
	pages_release(sv.services, sizeof sv.services);
	pages_release(&changed_x, sizeof changed_x);
	pages_release(&changed_y, sizeof changed_y);
	if (old_count > n)
		pages_release(&sv.units[n], (old_count - n) * sizeof *sv.units);
}

/* Keep the runtime state of a service that is still there; its new configuration
 * applies from its next start. */
static void carry_over(struct unit *dst, const struct unit *old, struct service *svc)
{
	*dst = *old;
	dst->svc = svc;
}

/* systemd writes the changed cgroup attributes of loaded units at reload: a running
 * service's and an active slice's new limits hold now, not from the next start. Once the
 * new table is in place (sv.count included). */
static void reapply_limits(size_t n)
{
	svc_cgroup_reloaded();
	for (size_t i = 0; i < n; i++)
		if (fresh.limits_changed[i])
			svc_cgroup_limits_reload(&sv.units[i]);
}

void supervisor_daemon_reload(void (*report)(void *ctx, const char *line), void *ctx,
			      bool no_start)
{
	locale_load(""); /* as systemd's daemon-reload: a changed locale applies from now on */
	said.count = 0; /* the files' diagnostics are said again */
	if (sv.cfg.generate)
		sv.cfg.generate();
	sv.reload_no_start = no_start;
	supervisor_reload(report, ctx);
	sv.reload_no_start = false;
}

/* A unit the reload brings in starts as at boot, unless the reload was asked not to
 * start any (daemon-reload --no-start: policy-rc.d said no). */
static void classify_fresh(struct unit *u, size_t n, void (*report)(void *ctx, const char *line),
			   void *ctx)
{
	unit_classify(u, fresh.svcs, n);
	if (sv.reload_no_start && u->state == UNIT_WAITING) {
		u->state = UNIT_INACTIVE;
		u->start_wanted = false;
		say(report, ctx, "not started", u->svc->name);
	}
}

void supervisor_reload(void (*report)(void *ctx, const char *line), void *ctx)
{
	static const char *roots[UNIT_EXTRA_MAX + SERVICE_COUNT_MAX];
	size_t n = 0, kept = 0;

	load_units(sv.services, &n, roots, reload_roots(roots, sizeof roots / sizeof *roots));
	for (size_t i = 0; i < n; i++)
		fresh.svcs[i] = &sv.services[i];
	for (size_t i = 0; i < n; i++) {
		struct service *svc = &sv.services[i];
		const struct unit *old = supervisor_find(svc->name);
		fresh.limits_changed[i] = old && svc_cgroup_limits_differ(old->svc, svc);
		if (old) {
			if (service_changed(old->svc, svc))
				say(report, ctx, "changed", svc->name);
			carry_over(&fresh.units[i], old, svc);
			/* loaded, never started, and now enabled: as if it were added */
			if (old->state == UNIT_INACTIVE && old->svc->on_demand && !svc->on_demand)
				classify_fresh(&fresh.units[i], n, report, ctx);
			/* the verdict is the new file's: an invalid or masked unit that was fixed
			 * or unmasked loads as if added, one that broke says so (a unit up runs
			 * on: its next start is refused) */
			else if (!unit_up(old) && verdict_changed(old->svc, svc)) {
				unit_reset(&fresh.units[i], svc);
				classify_fresh(&fresh.units[i], n, report, ctx);
			}
		} else {
			say(report, ctx, "added", svc->name);
			check_programs(svc);
			unit_reset(&fresh.units[i], svc);
			classify_fresh(&fresh.units[i], n, report, ctx);
		}
	}
	/* sockets-accept: Accept=yes instances are no files' units: they stay as they are. */
	for (size_t i = 0; i < sv.count && n < SERVICE_COUNT_MAX; i++) {
		const struct unit *old = &sv.units[i];
		if (accept_conn_fd(old->svc->name) < 0)
			continue;
		service_copy(&sv.services[n], old->svc);
		carry_over(&fresh.units[n], old, &sv.services[n]);
		fresh.limits_changed[n] = false;
		n++;
	}
	/* Removed services that still run are kept (stopping) until the next reload. */
	for (size_t i = 0; i < sv.count && n < SERVICE_COUNT_MAX; i++) {
		const struct unit *old = &sv.units[i];
		bool found = false;
		for (size_t k = 0; k < n && !found; k++)
			found = strcmp(sv.services[k].name, old->svc->name) == 0;
		if (found)
			continue;
		if (accept_conn_fd(old->svc->name) >= 0)
			continue; /* sockets-accept: a transient instance, carried over above */
		say(report, ctx, "removed", old->svc->name);
		if (!unit_up(old)) {
			fdstore_release(old->svc->name); /* unit-runtime2 */
			continue;
		}
		service_copy(&sv.services[n], old->svc);
		carry_over(&fresh.units[n], old, &sv.services[n]);
		fresh.units[n].stop_wanted = true;
		fresh.limits_changed[n] = false;
		n++;
		kept++;
	}
	release_dropped_output(n);
	size_t old_count = sv.count;
	for (size_t i = 0; i < n; i++)
		sv.units[i] = fresh.units[i]; /* each svc still in sv.services */
	sv.count = n;
	store_pack(0);
	reapply_limits(n); /* before the scratch goes: it says which changed */
	release_reload_scratch(n, old_count);
	graph_rebuild();
	timer_units_recompute_all(); /* timer units: their OnCalendar= may have changed */
	path_units_reloaded(sv.units, sv.count); /* path units: their paths may have */
	/* The graph may fail a unit (a missing Requires=): one still waiting never starts. */
	for (size_t i = 0; i < n; i++)
		if (sv.units[i].state == UNIT_WAITING && sv.svcs[i]->failed)
			unit_classify(&sv.units[i], sv.svcs, sv.count);
	for (size_t i = n - kept; i < n; i++)
		begin_stop(&sv.units[i], true);
}

/* ---- runtime keys (unit-runtime2) ----------------------------------------------------
 * The hooks for WatchdogSec=, JobTimeoutSec=, StopWhenUnneeded= and reload propagation;
 * the decisions are in svc-runtime.c. */

static void runtime_tick(struct unit *u, long long now)
{
	if (runtime_watchdog_expired(u, now)) {
		u->result = SVC_RESULT_WATCHDOG;
		fail_unit(u, "watchdog timeout (limit %llu ms): no WATCHDOG=1 in time, sending "
			  "signal %d", runtime_watchdog_usec(u) / 1000, u->svc->watchdog_signal);
	}
	/* the turn's clock, not one clock_gettime() per unit per turn */
	if (runtime_job_timed_out(u, now * 1000)) {
		fail_start_job(u, SVC_RESULT_TIMEOUT, "start job timed out after %lu ms waiting "
			       "for its dependencies (JobTimeoutSec=)", u->svc->job_timeout_ms);
		runtime_action(u, u->svc->job_timeout_action, "JobTimeoutAction");
	}
	if (runtime_max_reached(u, now * 1000)) {
		u->result = SVC_RESULT_TIMEOUT;
		fail_unit(u, "up longer than RuntimeMaxSec= (%lu ms), stopping",
			  u->svc->runtime_max_ms);
	}
}

static void stop_unneeded(void)
{
	for (size_t i = 0; i < sv.count; i++) {
		struct unit *u = &sv.units[i];
		if (!runtime_unneeded(u))
			continue;
		log_info("%s: no unit needs it any more, stopping (StopWhenUnneeded=yes)", name_of(u));
		begin_stop(u, true);
	}
}

static void propagate_reload(const struct unit *u)
{
	static unsigned depth; /* a cycle of propagations ends here */
	const char *to[RELOAD_PROPAGATE_MAX];
	size_t n = runtime_reload_targets(u, to, RELOAD_PROPAGATE_MAX);
	char err[UNIT_ERROR_MAX];

	if (depth >= 4)
		return;
	depth++;
	for (size_t i = 0; i < n; i++) {
		const struct unit *o = supervisor_find(to[i]);
		if (!o || o->state != UNIT_READY)
			continue;
		log_info("%s: reload propagated to %s", name_of(u), to[i]);
		if (supervisor_reload_unit(to[i], err, sizeof err) < 0)
			log_warn("%s: %s", name_of(u), err);
	}
	depth--;
}

size_t supervisor_count(void) { return sv.count; }
const struct unit *supervisor_unit(size_t i) { return i < sv.count ? &sv.units[i] : NULL; }

bool supervisor_ordered_before(size_t first, size_t then)
{
	return first < sv.graph.count && then < sv.graph.count &&
	       depgraph_set_has(&sv.graph.before[first], then);
}
long long supervisor_ready_us(void) { return sv.boot_ready_us; }
long long supervisor_userspace_start_us(void) { return sv.cfg.userspace_start_us; }
void supervisor_on_boot_ready(void (*cb)(void)) { sv.boot_ready_cb = cb; }
void supervisor_on_essential_failure(void (*cb)(const char *name)) { sv.essential_cb = cb; }
