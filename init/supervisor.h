#ifndef EMBER_INIT_SUPERVISOR_H
#define EMBER_INIT_SUPERVISOR_H
/* The supervisor: every service's runtime state, starts in dependency order, readiness,
 * restarts with backoff, stops in reverse order. The main loop feeds it events (child
 * exits, notify messages, output, timers); it never blocks. */
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "backoff.h"
#include "depgraph.h"
#include "id128.h"
#include "kmsg-forward.h"
#include "logbuf.h"
#include "unit-log.h"
#include "service.h"

#define UNIT_STATUS_MAX 128
#define UNIT_ERROR_MAX 192

enum unit_state {
	UNIT_INACTIVE,   /* not started (yet) */
	UNIT_WAITING,    /* wants to start, ordering dependencies not done */
	UNIT_STARTING,   /* ExecStartPre= running, or the main process not ready yet */
	UNIT_RUNNING,    /* main process up; Type=notify: before READY=1 */
	UNIT_READY,      /* up and ready (simple: exec succeeded; notify: READY=1) */
	UNIT_STOPPING,
	UNIT_STOPPED,    /* stopped, or a oneshot that finished successfully */
	UNIT_FAILED,     /* failed; a restart may be pending */
	UNIT_PERMANENT,  /* gave up after too many failures */
	UNIT_MASKED,
	UNIT_INVALID,    /* the file was invalid, or a Requires= cannot be met */
	UNIT_CONDITION,  /* ConditionPathExists= not met: skipped */
};

enum unit_phase {
	PHASE_NONE, PHASE_PRE, PHASE_MAIN, PHASE_STOP_CMD, PHASE_KILL,
	/* U2: ExecStartPost=, ExecReload= (or a notify-reload signal), ExecStopPost= */
	PHASE_START_POST, PHASE_RELOAD, PHASE_STOP_POST,
	PHASE_CONDITION, /* ExecCondition= (last: the re-exec handover keeps the numbers) */
	PHASE_SWAPOFF, /* a swap unit's swapoff(2) child (unit-swap.c) */
};

struct unit {
	struct service *svc;
	enum unit_state state;
	enum unit_phase phase;
	unsigned exec_index;        /* which ExecStartPre=/ExecStop= line runs */
	pid_t main_pid;
	pid_t control_pid;          /* ExecStartPre= / ExecStop= process */
	int cg_fd;                  /* the service's cgroup, -1 without cgroups */
	char invocation_id[ID128_HEX_LEN + 1]; /* $INVOCATION_ID of this run, "": none yet */
	int out_fd, out_wfd;        /* the stdout/stderr pipe (PID 1 keeps both ends), -1 */
	int err_fd, err_wfd;        /* stderr's own pipe, for StandardError=kmsg (see spawn.c), -1 */
	int exec_fd;                /* exec status pipe of the last spawn, -1 */
	long long deadline_ms;      /* start/stop timeout or restart time; -1 none */
	pid_t pgid;                 /* session of the last main process (no-cgroup fallback) */
	bool start_wanted, stop_wanted, restart_pending, killed, start_after_stop;
	bool stop_deferred;         /* stopping, after the units bound to it (begin_stop) */
	bool held;                  /* sessions: started with "hold": needed until stopped by name */
	struct backoff_state backoff;
	unsigned restarts;
	int exit_status;            /* last main process status, -1 none */
	long long run_started_ms;
	/* boot timeline, CLOCK_BOOTTIME µs, -1 when unset */
	long long since_us, started_us, ready_us, failed_us, stopped_us;
	char status_text[UNIT_STATUS_MAX];
	char error[UNIT_ERROR_MAX];
	char exec_path[128];        /* program of the last spawn, for failure messages */
	/* rss-diet: the output ring and kmsg forwarding state, in a pool (unit-log.h); NULL
	 * until the unit first writes */
	struct unit_output *output;

	/* U2: types and lifecycle (svc-lifecycle.h). Plain bools, not bitfields: the
	 * re-execution handover (branch pid1) addresses each field with offsetof. */
	uint8_t result;             /* enum svc_result of the current or last run */
	uint8_t exit_signal;        /* the signal that ended the main process, 0: it exited */
	bool stop_post_due;     /* a start was attempted: ExecStopPost= runs at the end */
	bool remain;            /* RemainAfterExit=: active with no process */
	bool pidfile_wait;      /* Type=forking: waiting for PIDFile= to appear */
	bool reloading;         /* notify-reload: signal sent, READY=1 not yet back */
	bool reload_notified;   /* RELOADING=1 arrived for this reload */
	bool reload_failed;     /* the last reload failed (emberctl reload waits, then says so) */
	bool idle_waited;       /* Type=idle: its 5 s are over, it may start */
	long long reload_started_us; /* CLOCK_MONOTONIC, to spot a stale RELOADING=1 */
	/* U4: socket units (init/sockets.c) and Type=dbus (init/busname-watch.c) */
	int listen_fd[SOCKET_LISTEN_MAX]; /* a socket unit's fds while it listens, else -1 */
	unsigned triggers;          /* activations in the current trigger-limit window */
	long long trigger_window_ms; /* when that window began, -1 */
	unsigned failures;          /* activations of a failed service in the current window */
	long long failure_window_ms; /* when that window began, -1 */
	pid_t busname_pid;          /* Type=dbus: the ember-busname-wait process */
	/* runtime keys (unit-runtime2): init/svc-runtime.c */
	long long watchdog_deadline_ms;   /* next WATCHDOG=1 due (CLOCK_BOOTTIME), -1: off */
	long long watchdog_usec_override; /* WATCHDOG_USEC= from the service, -1: none */
	bool watchdog_fired;              /* this stop sends WatchdogSignal= */
	/* timer units (init/unit-timer-run.c); the times carry over a re-exec */
	long long timer_due_ms;      /* next elapse (CLOCK_BOOTTIME ms), -1 none */
	long long timer_last_us;     /* last elapse (CLOCK_BOOTTIME us), -1 never */
	long long timer_last_wall;   /* last elapse, seconds since the epoch (Persistent=), -1 */
	long long timer_start_wall;  /* when the timer started, seconds since the epoch */
	long long timer_next_wall;   /* next calendar elapse, seconds since the epoch, -1 */
	unsigned timer_random_ms;    /* RandomizedDelaySec= drawn for the coming elapse */
	unsigned timer_gen;          /* the generation timer_due_ms was computed in */
	unsigned timer_wall_gen;     /* the clock generation timer_next_wall was computed in */
	unsigned dynamic_uid;        /* DynamicUser=: the id of the current run, 0: none */
};

struct supervisor_config {
	const char *const *dirs;    /* service directories, NULL: the defaults */
	size_t ndirs;
	const char *cgroup_root;    /* cgroup2 mount to put ember's subtree in, NULL: none */
	int cgroup_options;         /* its options (cgroup2.h bits) if known, else -1 */
	const char *notify_path;    /* NOTIFY_SOCKET path */
	const char *caps_helper;    /* ember-caps, for services with capabilities */
	const char *busname_helper; /* U4: ember-busname-wait, for Type=dbus */
	const char *sandbox_helper; /* U5: ember-sandbox, for services with sandboxing keys */
	const char *session_helper; /* ember-session, for services with PAMName= */
	bool essential_only;        /* rescue mode: Essential=yes services only */
	int kmsg_fd;                /* PID 1's /dev/kmsg, for StandardOutput=kmsg; -1 (a container,
				     * whose kernel log is the host's): kmsg acts as log */
	long long userspace_start_us; /* when PID 1 started (CLOCK_BOOTTIME) */
	long long failed_retry_ms;  /* retry a permanent failure after this long; 0 never */
	void (*generate)(void);     /* before the first load and each daemon-reload: systemd's
				     * generators (generators.h); NULL: none */
};

const char *unit_state_name(enum unit_state s);

/* Load the services and decide what starts; never fails as a whole. */
void supervisor_init(const struct supervisor_config *cfg);
/* emberctl daemon-reload: the generators run again, then supervisor_reload(). A reload
 * PID 1 makes itself (a unit started by name) does not run them, as systemd's does not.
 * no_start: the units it newly loads that would start stay stopped, each reported as
 * "not started NAME". */
void supervisor_daemon_reload(void (*report)(void *ctx, const char *line), void *ctx,
			      bool no_start);
/* Start, stop, restart one service on request (emberctl). 0, or -1 with a message. */
int supervisor_start(const char *name, char *err, size_t errlen);
/* sessions: the unit counts as needed (StopWhenUnneeded=) until stopped by name. */
void supervisor_hold(const char *name);
/* The hold dropped, nothing stopped: the unit stops at the end of this turn if no other
 * unit needs it (StopWhenUnneeded=). -1 with err for a unit not loaded. */
int supervisor_release(const char *name, char *err, size_t errlen);
int supervisor_stop(const char *name, char *err, size_t errlen);
int supervisor_restart(const char *name, char *err, size_t errlen);
/* U2: reload one running service (systemctl reload NAME): its ExecReload= lines, and for
 * Type=notify-reload ReloadSignal= and the wait for RELOADING=1 ... READY=1. Returns once
 * the reload has begun; 0, or -1 with a message (not running, nothing to reload). */
int supervisor_reload_unit(const char *name, char *err, size_t errlen);
/* U2: RELOADING=1 from a service (monotonic_usec: its MONOTONIC_USEC=, 0 if absent). */
void supervisor_notify_reloading(struct unit *u, unsigned long long monotonic_usec);
/* Re-read the service files; summary of what changed goes to report. */
void supervisor_reload(void (*report)(void *ctx, const char *line), void *ctx);
/* Begin stopping everything in reverse dependency order. */
void supervisor_stop_all(void);
/* True when every service is down (after supervisor_stop_all). */
bool supervisor_all_stopped(void);
/* The units a shutdown still waits for, "a, b" in buf; how many (see supervisor.c). */
size_t supervisor_stopping_list(char *buf, size_t size);

/* Events from the main loop. */
/* The service a process belongs to (main or control process, or in its cgroup). */
struct unit *supervisor_unit_of_pid(pid_t pid);
/* An sd_notify message from sender, already parsed and credential-checked. */
void supervisor_notify(struct unit *u, pid_t sender, bool ready, bool stopping,
		       const char *status, pid_t mainpid);
bool supervisor_child_exited(pid_t pid, int status); /* false: not ours */
void supervisor_tick(long long now_ms);
long long supervisor_next_deadline(void); /* -1: none */
/* Add the supervisor's fds to fds[0..max) and return how many; then, after poll,
 * hand back the same array. */
size_t supervisor_pollfds(struct pollfd *fds, size_t max);
void supervisor_handle_pollfds(const struct pollfd *fds, size_t n);

/* Read access for the control server. */
size_t supervisor_count(void);
const struct unit *supervisor_unit(size_t i);
const struct unit *supervisor_find(const char *name);
/* Is unit first ordered before unit then, by any After=/Before= edge, the implied ones
 * (DefaultDependencies=, a target's on what it pulls in) included? */
bool supervisor_ordered_before(size_t first, size_t then);
/* runtime keys (unit-runtime2): as supervisor_find, loading a unit that is not loaded yet
 * (as a start by name would); NULL when there is no such unit. */
const struct unit *supervisor_load(const char *name);
long long supervisor_ready_us(void); /* when the boot reached "everything started", -1 */
long long supervisor_userspace_start_us(void);
/* State handover across re-execution (init/handover.c, issue 14). */
struct unit *supervisor_unit_for_handover(const char *name);
void supervisor_restore_boot_ready(long long boot_ready_us);
/* sockets-accept: an Accept=yes instance the old PID 1 ran joins the table (its template
 * loaded again); false when it cannot. */
bool supervisor_adopt_instance(const char *name);
/* Called once when every service that starts at boot is up or settled. */
void supervisor_on_boot_ready(void (*cb)(void));
/* An essential service failed for good (rescue mode must take over). */
void supervisor_on_essential_failure(void (*cb)(const char *name));
#endif
