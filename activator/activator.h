#ifndef EMBER_ACTIVATOR_H
#define EMBER_ACTIVATOR_H
/* ember-activator's state: its bus connection, the units it started for D-Bus
 * activation and still watches, and the power requests waiting for the bus to say who
 * asked (docs/dbus.md, "Activation"). */
#include <stdbool.h>
#include <string.h>

#include "ctl.h"
#include "dbus-client.h"
#include "scope.h"

#define WATCH_MAX 32       /* activations watched at once; more are started, not watched */
#define WATCH_MS 25000     /* how long one is watched: dbus-daemon's default timeout */
#define ASKING_MAX 8       /* root-only requests waiting for GetConnectionUnixUser */

struct watch {
	bool used;
	char name[CTL_NAME_MAX]; /* ember's name for the unit */
	char unit[256];          /* the name the bus asked for, sent back on failure */
	long long until_ms;
};

/* What a root-only call asks for, carried out once the bus says the caller is root. */
enum ask_kind { ASK_POWER, ASK_SCOPE_START, ASK_SCOPE_STOP, ASK_SCOPE_ABANDON, ASK_UNIT_JOB,
		ASK_UNIT_FILES };

#define UNIT_JOB_MAX 16     /* unit jobs watched until JobRemoved */
#define UNIT_JOB_MS 90000   /* the longest one is watched (systemd's default start timeout) */

/* A start, stop or restart asked for over D-Bus (jobs.c). */
struct unit_job {
	bool used;
	uint32_t id;
	enum ctl_verb verb;
	char unit[SCOPE_NAME_MAX]; /* as the caller named it, for JobRemoved */
	char name[CTL_NAME_MAX];   /* ember's name */
	long long until_ms;
};

struct asking {
	bool used;
	uint32_t driver_serial;  /* our GetConnectionUnixUser call */
	uint32_t call_serial;    /* the caller's call */
	char caller[256];        /* its unique name */
	enum ask_kind kind;
	enum ctl_verb verb;      /* ASK_POWER: CTL_POWEROFF, ...; ASK_UNIT_JOB: CTL_START, ... */
	struct scope_request req; /* ASK_SCOPE_*: req.name is the scope; ASK_UNIT_JOB: the unit;
				   * ASK_UNIT_FILES: req.wants, the unit files */
	int files_op;             /* ASK_UNIT_FILES: enum unit_files_op */
};

struct activator {
	const char *address, *control;
	struct dbus_conn conn;
	struct watch watch[WATCH_MAX];
	struct asking asking[ASKING_MAX];
	long long next_check_ms;
	long long log_window_ms; /* rate limit of the lines about calls it does not implement */
	unsigned logged;
	struct scope scopes[SCOPE_MAX]; /* sessions */
	int scope_events;               /* inotify on the scopes' cgroup.events, or -1 */
	struct scope_release releases[SCOPE_MAX];
	struct unit_job jobs[UNIT_JOB_MAX];
	uint32_t next_job;
};

#define NO_REPLY_EXPECTED 0x1 /* a message's flag: the caller wants no answer */

/* A header field (NULL when absent) is exactly want. */
static inline bool field_is(const char *field, const char *want)
{
	return field && strcmp(field, want) == 0;
}

/* RequestName org.freedesktop.systemd1 (not queued). 0, or -1 logged. */
int activator_claim_name(struct activator *a);
/* Serve the bus until it goes away. Returns the exit status. */
int activator_run(struct activator *a);
/* Answers to a method call m (nothing when it expects none). sig: NULL, or one
 * argument's type ('s', 'o', 'v': a variant holding a string) for arg. */
void reply_error(struct activator *a, const struct dbus_msg *m, const char *name,
		 const char *text);
void reply_return(struct activator *a, const struct dbus_msg *m, const char *sig,
		  const char *arg);
/* org.freedesktop.DBus.Error.UnknownMethod, its text why and the escaped
 * interface.member, which also goes to shown (for a log line). */
void reply_unknown_method(struct activator *a, const struct dbus_msg *m, const char *why,
			  char *shown, size_t size);
/* Send a message (its serial is set here). 0, or -1 when it could not be. */
int bus_send(struct activator *a, struct dbus_out *o);
/* Jobs as systemd names them: JOB_PATH_PREFIX and a number; JobRemoved(id, path, unit,
 * result) is what callers such as logind wait for. */
#define JOB_PATH_PREFIX "/org/freedesktop/systemd1/job/"
void bus_job_removed(struct activator *a, uint32_t job, const char *unit, const char *result);
/* Unit object paths: /org/freedesktop/systemd1/unit/ and the name with every byte
 * outside [A-Za-z0-9] written as _XX. unit_of_path: 0, or -1 when not a unit's. */
int unit_of_path(const char *path, char *out, size_t size);
void unit_path_of(const char *unit, char *out, size_t size);
/* Properties.Get of a unit's LoadState, ActiveState or SubState on its object path:
 * answered from ember-init's status (true), or false when m asks for something else. */
bool unit_property(struct activator *a, const struct dbus_msg *m);

/* Unit jobs over D-Bus (jobs.c): the verb of a Manager method (StartUnit, ...), 0 or -1;
 * whether a unit name may be asked for (0, or -1 with why); carrying out a root caller's
 * call; and the watch until JobRemoved. */
int unit_job_verb(const char *member, enum ctl_verb *verb);
int unit_job_check_name(const char *unit, char *why, size_t size);
void unit_job_start(struct activator *a, const struct dbus_msg *call, enum ctl_verb verb,
		    const char *unit);
void unit_job_tick(struct activator *a);
bool unit_jobs_pending(const struct activator *a);
/* Properties.Get of a job's State on its object path (logind asks whether its job for a
 * user's units is still pending): "running" while ember watches it, else NoSuchJob, as
 * systemd says of a job that is gone (true); false when m asks for something else. */
bool job_property(struct activator *a, const struct dbus_msg *m);

/* Unit files over D-Bus (unitfiles.c): EnableUnitFiles, DisableUnitFiles and Reload of
 * root callers, carried out by emberctl and ember-init; the unit-file state for
 * Properties.GetAll ("enabled", "disabled", "static", ...; "" when emberctl cannot say).
 * unit_files_set_root: emberctl's --root for all of them (--unit-root). */
enum unit_files_op { UNIT_FILES_ENABLE, UNIT_FILES_DISABLE, UNIT_FILES_RELOAD };
int unit_files_op(const char *member); /* enum unit_files_op, or -1 */
void unit_files_set_root(const char *root);
void unit_files_carry_out(struct activator *a, const struct dbus_msg *call, int op,
			  const struct scope_request *req);
void unit_file_state(const char *unit, char *out, size_t size);
/* Properties.GetAll of a unit's org.freedesktop.systemd1.Unit properties (Id, LoadState,
 * ActiveState, SubState, UnitFileState): true when answered (props.c). */
bool unit_properties_all(struct activator *a, const struct dbus_msg *m);

/* sd_notify READY=1 to $NOTIFY_SOCKET, when there is one. */
void notify_ready(void);
#endif
