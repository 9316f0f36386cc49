#ifndef EMBER_ACTIVATOR_SCOPE_H
#define EMBER_ACTIVATOR_SCOPE_H
/* Session scopes (docs/dbus.md, "Sessions"): systemd-logind asks systemd for a scope per
 * login, session-N.scope in user-UID.slice holding the session's first process. ember-init
 * has no scope units; ember-activator makes the cgroup itself, below ember's subtree, and
 * starts what the scope requires (user-runtime-dir@UID) held through ember-init. */
#include <stdbool.h>
#include <stdint.h>

#include "ctl.h"
#include "dbus-wire.h"

#define SCOPE_MAX 32          /* scopes alive at once */
#define SCOPE_HELD_MAX 4      /* units one scope holds */
#define SCOPE_NAME_MAX 128
#define SCOPE_JOB_MS 25000    /* how long a scope's start waits for what it requires */
/* What the last scope held is stopped this long after it went, as logind keeps a user's
 * units UserStopDelaySec= (10 s) after the last logout: a quick new login keeps its
 * runtime directory. */
#define SCOPE_RELEASE_MS 10000
#define SCOPE_SWEEP_MS 10000  /* empty scopes looked for without a message or an event */

/* A StartTransientUnit, checked and copied while the bus says who sent it. */
struct scope_request {
	char name[SCOPE_NAME_MAX], slice[SCOPE_NAME_MAX];
	uint32_t pids[DBUS_TRANSIENT_PIDS_MAX];
	size_t pid_count;
	char wants[DBUS_TRANSIENT_UNITS_MAX][CTL_NAME_MAX];
	size_t want_count;
};

struct scope {
	bool used, abandoned;
	uint32_t job;                 /* its start job while that is pending, else 0 */
	long long job_until_ms;
	char name[SCOPE_NAME_MAX];
	char dir[640];                /* its cgroup directory */
	char held[SCOPE_HELD_MAX][CTL_NAME_MAX];
	size_t held_count;
};

/* A held unit no scope holds any more, stopped at at_ms unless a scope holds it again. */
struct scope_release {
	char unit[CTL_NAME_MAX];
	long long at_ms;
};

struct activator;

struct dbus_conn;
/* The body of a StartTransientUnit into req: 0, or -1 with why (for InvalidArgs). The
 * processes of PIDFDs= (logind 257) are the pidfds conn received with m, taken from it
 * and closed; conn NULL: none can be read. */
int scope_request_parse(const struct dbus_msg *m, struct dbus_conn *conn,
			struct scope_request *req, char *why, size_t size);
/* Carried out for a root caller (call): the cgroup, the PIDs moved, the reply with the
 * job's path, what it requires started; JobRemoved follows once that is up. */
void scope_start(struct activator *a, const struct dbus_msg *call, const struct scope_request *req);
/* StopUnit of a scope (root): its processes get SIGTERM and SIGHUP, as systemd's scope
 * stop with SendSIGHUP=yes does; the cgroup goes once empty. */
void scope_stop(struct activator *a, const struct dbus_msg *call, const char *name);
/* AbandonScope / Scope.Abandon (root): the session ended, its processes may stay. */
void scope_abandon(struct activator *a, const struct dbus_msg *call, const char *name);
/* A scope's LoadState/ActiveState/SubState for Properties.Get; NULL for none. */
const char *scope_property(struct activator *a, const char *name, const char *property);
/* Pending jobs and empty scopes, every few hundred ms while there are any, and at once
 * when a scope's cgroup.events changed (scope_events_read()). */
void scope_tick(struct activator *a);
/* Told by the kernel when a scope's cgroup empties (cgroup.events changes: inotify), as
 * systemd is, instead of at the next sweep: logind closes a session and stops a user's
 * manager on time. -1 where that cannot be had (the sweep remains). */
int scope_events_open(void);
/* Drain the events: true when a scope's cgroup.events changed. */
bool scope_events_read(const struct activator *a);
bool scope_any(const struct activator *a);
/* At start: scopes an earlier run made, found in ember's subtree. */
void scope_adopt(struct activator *a);
#endif
