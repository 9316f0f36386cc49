#ifndef EMBER_ACTIVATOR_H
#define EMBER_ACTIVATOR_H
/* ember-activator's state: its bus connection, the units it started for D-Bus
 * activation and still watches, and the power requests waiting for the bus to say who
 * asked (docs/dbus.md, "Activation"). */
#include <stdbool.h>

#include "ctl.h"
#include "dbus-client.h"

#define WATCH_MAX 32       /* activations watched at once; more are started, not watched */
#define WATCH_MS 25000     /* how long one is watched: dbus-daemon's default timeout */
#define ASKING_MAX 8       /* power requests waiting for GetConnectionUnixUser */

struct watch {
	bool used;
	char name[CTL_NAME_MAX]; /* ember's name for the unit */
	char unit[256];          /* the name the bus asked for, sent back on failure */
	long long until_ms;
};

struct asking {
	bool used;
	uint32_t driver_serial;  /* our GetConnectionUnixUser call */
	uint32_t call_serial;    /* the caller's StartUnit */
	char caller[256];        /* its unique name */
	enum ctl_verb verb;      /* CTL_POWEROFF, CTL_REBOOT or CTL_HALT */
};

struct activator {
	const char *address, *control;
	struct dbus_conn conn;
	struct watch watch[WATCH_MAX];
	struct asking asking[ASKING_MAX];
	long long next_check_ms;
	long long log_window_ms; /* rate limit of the lines about calls it does not implement */
	unsigned logged;
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
/* Properties.Get of a unit's LoadState, ActiveState or SubState on its object path:
 * answered from ember-init's status (true), or false when m asks for something else. */
bool unit_property(struct activator *a, const struct dbus_msg *m);

/* sd_notify READY=1 to $NOTIFY_SOCKET, when there is one. */
void notify_ready(void);
#endif
