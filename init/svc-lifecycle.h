#ifndef EMBER_INIT_SVC_LIFECYCLE_H
#define EMBER_INIT_SVC_LIFECYCLE_H
/* The decisions of systemd's service state machine that need no process: how a main
 * process's end counts (SuccessExitStatus=), whether it restarts (Restart=,
 * RestartPreventExitStatus=, RestartForceExitStatus=), which signal a stop sends. The
 * supervisor (supervisor.c, "U2" section) acts on them; docs/supervision.md draws the
 * states. Pure functions: the unit tests call them directly. */
#include <stdbool.h>

#include "service.h"

/* Why the last run ended, as systemd's Result= (a subset). */
enum svc_result {
	SVC_RESULT_SUCCESS,   /* clean exit, or stopped on request */
	SVC_RESULT_EXIT_CODE, /* an unclean exit code, or a start that could not run */
	SVC_RESULT_SIGNAL,    /* killed by a signal that does not count as clean */
	SVC_RESULT_TIMEOUT,   /* a start, stop or reload timed out */
	SVC_RESULT_WATCHDOG,  /* WatchdogSec= ran out (unit-runtime2: svc-runtime.c) */
	SVC_RESULT_DEPENDENCY, /* a unit it requires failed: never restarted, as systemd */
};

/* sig: the signal that killed the process, or 0 when it exited with code. */
bool svc_status_in(const struct service_status_set *set, int code, int sig);

/* systemd's "clean exit": code 0, SuccessExitStatus=, SIGPIPE; for anything but a
 * oneshot also SIGHUP, SIGINT and SIGTERM. */
bool svc_exit_clean(const struct service *s, int code, int sig);

/* How a main process's end counts (SUCCESS, EXIT_CODE or SIGNAL). */
enum svc_result svc_exit_result(const struct service *s, int code, int sig);

/* Whether a run that ended with result (and code/sig, for the status sets) restarts. An
 * explicit stop never does; the caller checks that. */
bool svc_restart_wanted(const struct service *s, enum svc_result result, int code, int sig);

/* Signal for a stop: RestartKillSignal= when the stop is part of a restart and the key is
 * set, else KillSignal=. */
int svc_stop_signal(const struct service *s, bool for_restart);

/* KillMode= control-group and mixed wait for (and kill) every process of the service;
 * process and none leave the rest alone. */
bool svc_kills_leftovers(const struct service *s);

/* "main process exited with status 3" / "main process killed by SIGSEGV". */
void svc_describe_exit(int code, int sig, char *buf, unsigned size);

const char *svc_result_name(enum svc_result r);
#endif
