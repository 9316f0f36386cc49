#ifndef EMBER_INIT_SVC_RUNTIME_H
#define EMBER_INIT_SVC_RUNTIME_H
/* unit-runtime2: what PID 1 does with the runtime keys (init/unit-runtime-keys.h) while
 * units run. The supervisor calls these hooks and acts on the answers; docs/supervision.md
 * ("Watchdog, actions, unneeded units") tells the story.
 *
 * The service watchdog is not the hardware one (init/watchdog.c pets /dev/watchdog):
 * here a service with WatchdogSec= must send WATCHDOG=1 in time, or it is stopped with
 * WatchdogSignal= and its result is "watchdog". */
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "notify-msg.h"
#include "power.h"
#include "service.h"

struct unit;
struct listen_pass;

/* ---- sd_notify ---- */
/* NotifyAccess=: may sender's message count for u? (notify.c has checked that sender
 * belongs to u at all.) */
bool runtime_notify_allowed(const struct unit *u, pid_t sender);
/* The watchdog and fd store parts of a message (fds: the SCM_RIGHTS ones, which this
 * takes: stored or closed). */
void runtime_notify(struct unit *u, const struct notify_msg *m, int *fds, size_t nfds);
/* NOTIFY_SOCKET for a service that is not Type=notify: WatchdogSec=,
 * FileDescriptorStoreMax= or NotifyAccess= ask for it, as in systemd. */
bool runtime_wants_notify_socket(const struct service *s);

/* ---- the service watchdog ---- */
/* The main process started: arm WatchdogSec= (a WATCHDOG_USEC= from the last run is
 * forgotten). */
void runtime_watchdog_arm(struct unit *u, long long now_ms);
/* WATCHDOG=1 (or a new WATCHDOG_USEC=): start the countdown again with the current
 * limit. */
void runtime_watchdog_arm_keep(struct unit *u);
/* True once when u's watchdog ran out (or the service sent WATCHDOG=trigger); it is then
 * disarmed. A unit without a running main process is disarmed too. */
bool runtime_watchdog_expired(struct unit *u, long long now_ms);
/* The current limit in µs (WATCHDOG_USEC= wins over WatchdogSec=), 0: off. */
unsigned long long runtime_watchdog_usec(const struct unit *u);
/* "WATCHDOG_USEC=N" for the main process into line: false when it has no watchdog. */
bool runtime_watchdog_env(const struct unit *u, char *line, size_t size);

/* ---- jobs, unneeded units, manual requests ---- */
/* JobTimeoutSec=: u waited (UNIT_WAITING) longer than it may. */
bool runtime_job_timed_out(const struct unit *u, long long now_us);
/* RuntimeMaxSec=: u has been up (ready) longer than it may; never for Type=oneshot, as
 * in systemd. */
bool runtime_max_reached(const struct unit *u, long long now_us);
/* The earliest of u's runtime deadlines (watchdog, job timeout, RuntimeMaxSec=) in ms,
 * -1 none. */
long long runtime_next_deadline(const struct unit *u);
/* StopWhenUnneeded=yes, active, and no unit that is up or starting Wants=, Requires=,
 * Requisite= or BindsTo= it. */
bool runtime_unneeded(const struct unit *u);
/* RefuseManualStart=/RefuseManualStop= for a request from emberctl (verb: "start",
 * "stop", "restart"). -1 with systemctl's message in err when refused. */
int runtime_refuse_manual(const char *name, const char *verb, char *err, size_t errlen);

/* ---- Sockets= ---- */
/* Append the fds of the socket units u's Sockets= names (those that do not activate u
 * already: sockets_collect passed them) to pass. -1 with err when they do not fit. */
int runtime_collect_sockets(const struct unit *units, size_t n, const struct unit *u,
			    struct listen_pass *pass, char *err, size_t errlen);
/* Append one fd and its name to pass ("LISTEN_FDNAMES=..."). -1 when full. */
int runtime_pass_add(struct listen_pass *pass, int fd, const char *name);

/* ---- reload propagation ---- */
/* The units a reload of u passes on to (its PropagatesReloadTo=, and every unit whose
 * ReloadPropagatedFrom= names u) into out; their count. */
size_t runtime_reload_targets(const struct unit *u, const char **out, size_t max);

/* ---- SuccessAction=, FailureAction=, StartLimitAction=, JobTimeoutAction= ---- */
typedef void (*runtime_action_fn)(enum power_action a, bool force, bool immediate);
void runtime_on_action(runtime_action_fn cb);
/* Carry out action (a UNIT_ACTION value) because of u; key names the key for the log. */
void runtime_action(const struct unit *u, unsigned char action, const char *key);
#endif
