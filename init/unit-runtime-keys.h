#ifndef EMBER_UNIT_RUNTIME_KEYS_H
#define EMBER_UNIT_RUNTIME_KEYS_H
/* unit-runtime2: the runtime keys of systemd.unit(5) and systemd.service(5) that change
 * what PID 1 does while a unit runs: RefuseManualStart=/Stop=, StopWhenUnneeded=,
 * WatchdogSec=/WatchdogSignal=, SuccessAction=/FailureAction=/StartLimitAction=,
 * JobTimeoutSec=/JobTimeoutAction=, StartLimitInterval=, NotifyAccess=,
 * FileDescriptorStoreMax=/FileDescriptorStorePreserve=, ReloadPropagatedFrom=/
 * PropagatesReloadTo=, Sockets=. This file only parses them into struct service
 * (init/service.h); init/svc-runtime.c and init/fdstore.c act on them. */
#include <stddef.h>

#include "service.h"

/* NotifyAccess=. UNSET is ember's default: any process of the service counts (a superset
 * of systemd's "main": every unit that works under systemd works the same here). */
enum notify_access {
	NOTIFY_ACCESS_UNSET, NOTIFY_ACCESS_NONE, NOTIFY_ACCESS_MAIN, NOTIFY_ACCESS_EXEC,
	NOTIFY_ACCESS_ALL,
};

/* SuccessAction= and friends: what (low nibble) and how (high nibble). */
enum unit_action_what {
	UNIT_ACTION_NONE, UNIT_ACTION_EXIT, UNIT_ACTION_REBOOT, UNIT_ACTION_POWEROFF,
	UNIT_ACTION_HALT,
};
enum unit_action_how {
	UNIT_ACTION_ORDERLY,   /* stop every service in order first */
	UNIT_ACTION_FORCE,     /* "-force": no orderly stop, processes are killed */
	UNIT_ACTION_IMMEDIATE, /* "-immediate": reboot(2) at once, no killing, no unmounting */
};
#define UNIT_ACTION(what, how) ((uint8_t)((what) | (how) << 4))
#define UNIT_ACTION_WHAT(a) ((enum unit_action_what)((a) & 0xf))
#define UNIT_ACTION_HOW(a) ((enum unit_action_how)((a) >> 4))

#define WATCHDOG_SIGNAL_DEFAULT 6 /* SIGABRT, as systemd */
#define FDSTORE_MAX_PER_UNIT 65535 /* FileDescriptorStoreMax= ceiling; fdstore.h's total
                                   * FDSTORE_TOTAL_MAX is the real bound */

/* Defaults of the keys above (service_init calls it). */
void runtime_keys_defaults(struct service *svc);

/* Parse key=value into svc. 0, or -1 with the reason in why. key is the name as in the
 * parser's table ("WatchdogSec"). */
int runtime_key_parse(struct service *svc, const char *key, const char *value, char *why,
		      size_t why_size);

/* "poweroff-force" for an action value; "none" for 0. */
const char *unit_action_name(uint8_t action, char *buf, size_t size);
const char *notify_access_name(uint8_t access);

/* Does list (a space-separated string of canonical names, as Sockets= keeps them) hold
 * name? */
bool runtime_name_listed(const char *list, const char *name);
#endif
