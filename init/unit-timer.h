#ifndef EMBER_UNIT_TIMER_H
#define EMBER_UNIT_TIMER_H
/* Timer units: a .timer starts a unit (by default the service of the same name) when
 * one of its triggers elapses. docs/timers.md says what each key does under ember.
 *
 *   unit-timer.c      the [Timer] keys (pure parsing), implicit dependencies
 *   unit-timer-run.c  run time: the next elapse, triggering, Persistent= stamps, the
 *                     clock-change watch
 *
 * Monotonic triggers (OnBootSec= ...) count on CLOCK_BOOTTIME, as every deadline of the
 * supervisor; calendar events (OnCalendar=, lib/calendar.h) on the wall clock, watched
 * by a timerfd that fires at the wall-clock time itself (also after a suspend) and
 * reports a clock that was set (NTP stepping the clock on a phone) so the next elapse
 * is computed again. */
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>

#include "service.h"

struct unit;

/* struct timer_spec.mono_base[]: what a monotonic trigger counts from */
enum timer_base {
	TIMER_ON_ACTIVE,        /* OnActiveSec=: the timer's own start */
	TIMER_ON_BOOT,          /* OnBootSec=: the kernel's start */
	TIMER_ON_STARTUP,       /* OnStartupSec=: PID 1's start */
	TIMER_ON_UNIT_ACTIVE,   /* OnUnitActiveSec=: the triggered unit's last start */
	TIMER_ON_UNIT_INACTIVE, /* OnUnitInactiveSec=: the triggered unit's last stop */
};

/* struct timer_spec.flags */
#define TIMER_PERSISTENT 0x1u   /* Persistent=yes */
#define TIMER_KEEP 0x2u         /* RemainAfterElapse=yes (the default) */
#define TIMER_FIXED_DELAY 0x4u  /* FixedRandomDelay=yes */

/* Where Persistent= timers keep the time they last elapsed: systemd's directory, so a
 * disk booted by either init keeps one record. "stamp-NAME.timer"'s mtime is the time. */
#define TIMER_STAMP_DIR "/var/lib/systemd/timers"

/* ---- parsing (unit-timer.c; pure) ---- */

/* One [Timer] key: 0, or -1 when the value is invalid (svc is then failed through diag). */
int unit_timer_parse(struct service *svc, const struct service_diag *diag, unsigned line,
		     const char *key, const char *value);
/* Whole-unit checks: a trigger is set, the unit to start is a valid name; implicit
 * dependencies (Before= that unit; time-set/time-sync for calendar events). */
void unit_timer_validate(struct service *svc, const struct service_diag *diag);


/* ---- run time (unit-timer-run.c, called by the supervisor) ---- */

/* PID 1's start (CLOCK_BOOTTIME ms), what OnStartupSec= counts from. */
void timer_units_set_startup(long long startup_ms);
/* Starting a timer: 0 (it is active, waiting), or -1 with err (nothing to trigger). */
int timer_unit_start(struct unit *u, char *err, size_t size);
/* A timer adopted over daemon-reexec: its RandomizedDelaySec= delay was handed over
 * (carried), or is drawn now (from a PID 1 that did not hand it over, or one that no
 * longer fits a changed RandomizedDelaySec=). Without this the coming elapse would lose
 * its delay, and every device upgraded at once would elapse at the same moment. */
void timer_unit_adopted(struct unit *u, bool carried);
/* Every supervisor turn: elapses what is due (starts its unit). TIMER_DONE: nothing
 * left to wait for and RemainAfterElapse=no, the caller stops it; TIMER_LIMIT: it
 * elapsed more than TIMER_TRIGGER_BURST times within TIMER_TRIGGER_WINDOW_MS (as
 * OnUnitInactiveSec=0 on a job that ends at once would, for ever), the caller fails it. */
enum timer_tick { TIMER_WAIT, TIMER_DONE, TIMER_LIMIT };
#define TIMER_TRIGGER_BURST 20        /* systemd's TriggerLimitBurst= default (sockets) */
#define TIMER_TRIGGER_WINDOW_MS 2000  /* and TriggerLimitIntervalSec= */
enum timer_tick timer_unit_tick(struct unit *u, long long now_ms);
/* A unit changed state: the monotonic elapses (OnUnitActiveSec= ...) are computed again
 * on the next turn. Cheap: the calendar searches are not redone for this. */
void timer_units_changed(void);
/* The units were reloaded (an OnCalendar= may have changed): everything is computed
 * again, the calendar searches too. */
void timer_units_recompute_all(void);
/* The earliest elapse of an active timer (CLOCK_BOOTTIME ms), -1 none. */
long long timer_unit_due(const struct unit *u);
/* The next elapse on the wall clock (seconds since the epoch) and the last one, -1
 * when none; for status. */
long long timer_unit_next_wall(const struct unit *u);
long long timer_unit_last_wall(const struct unit *u);

/* The clock watch: one fd while a calendar timer is active. */
size_t timer_units_pollfds(const struct unit *units, size_t n, struct pollfd *fds, size_t max);
/* The clock watch, read before the turn's timers are ticked (see unit-timer-run.c). */
void timer_units_check_clock(struct unit *units, size_t n);
void timer_units_handle_pollfds(struct unit *units, size_t n_units, const struct pollfd *fds,
				size_t n);
#endif
