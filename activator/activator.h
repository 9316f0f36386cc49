#ifndef EMBER_ACTIVATOR_H
#define EMBER_ACTIVATOR_H
/* ember-activator's state: its bus connection, the units it started for D-Bus
 * activation and still watches, and the power requests waiting for the bus to say who
 * asked (docs/dbus.md, "Activation"). */
#include <stdbool.h>

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
enum ask_kind { ASK_POWER, ASK_SCOPE_START, ASK_SCOPE_STOP, ASK_SCOPE_ABANDON };

struct asking {
	bool used;
	uint32_t driver_serial;  /* our GetConnectionUnixUser call */
	uint32_t call_serial;    /* the caller's call */
	char caller[256];        /* its unique name */
	enum ask_kind kind;
	enum ctl_verb verb;      /* ASK_POWER: CTL_POWEROFF, CTL_REBOOT or CTL_HALT */
	struct scope_request req; /* ASK_SCOPE_*: req.name is the scope */
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
	struct scope_release releases[SCOPE_MAX];
	uint32_t next_job;
};

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
/* Send a message (its serial is set here). 0, or -1 when it could not be. */
int bus_send(struct activator *a, struct dbus_out *o);
/* Unit object paths: /org/freedesktop/systemd1/unit/ and the name with every byte
 * outside [A-Za-z0-9] written as _XX. unit_of_path: 0, or -1 when not a unit's. */
int unit_of_path(const char *path, char *out, size_t size);
void unit_path_of(const char *unit, char *out, size_t size);
/* Properties.Get of a unit's LoadState, ActiveState or SubState on its object path:
 * answered from ember-init's status (true), or false when m asks for something else. */
bool unit_property(struct activator *a, const struct dbus_msg *m);

/* sd_notify READY=1 to $NOTIFY_SOCKET, when there is one. */
void notify_ready(void);
#endif
