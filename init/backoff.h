#ifndef EMBER_INIT_BACKOFF_H
#define EMBER_INIT_BACKOFF_H
/* Restart policy, as systemd's: the same delay before every restart, or one growing in
 * steps up to a cap (RestartSteps=); a permanent failure once the start limit is hit
 * (see docs/services.md for the defaults). */
#include <stdbool.h>

#define BACKOFF_BASE_MS_DEFAULT 100UL      /* RestartSec= */
#define BACKOFF_MAX_MS_DEFAULT (~0UL)      /* RestartMaxDelaySec=: infinity */
#define BACKOFF_BURST_DEFAULT 5u           /* StartLimitBurst= */
#define BACKOFF_INTERVAL_MS_DEFAULT 10000UL /* StartLimitIntervalSec= */

struct backoff_policy {
	unsigned long base_ms, max_ms; /* RestartSec=, RestartMaxDelaySec= (~0UL: infinity) */
	unsigned burst;           /* starts allowed within interval; 0 = no limit */
	unsigned long interval_ms;
	unsigned steps;           /* RestartSteps=: 0, the delay stays base_ms */
};

/* A start that could not fork (EAGAIN, ENOMEM: the process table or memory is full) is
 * not the service's failure: it is retried, from BACKOFF_STARVED_BASE_MS doubling up to
 * BACKOFF_STARVED_MAX_MS, for as long as it takes, and never counts toward the start
 * limit. */
#define BACKOFF_STARVED_BASE_MS 50UL
#define BACKOFF_STARVED_MAX_MS 5000UL

struct backoff_state {
	unsigned consecutive;     /* failures in a row: the step of a growing delay */
	unsigned in_window;       /* failures since window_start_ms */
	long long window_start_ms;
	unsigned starved;         /* starts in a row that could not fork */
};

/* A service failed at now_ms after running for ran_ms. Returns the delay before the
 * next start, or -1 when the service must be given up (permanent failure): as systemd's
 * start limit, at most burst starts within interval, so the burst-th failure in a row
 * there is the last. A run longer than the interval counts as a recovery: a growing
 * delay starts again from base_ms. */
long long backoff_next(const struct backoff_policy *p, struct backoff_state *s,
		       long long now_ms, long long ran_ms);
void backoff_reset(struct backoff_state *s);
/* A start could not fork: the delay before the next attempt (never "give up"). */
long long backoff_starved(struct backoff_state *s);
/* A start got its process: the next fork failure starts from the base delay again. */
void backoff_fed(struct backoff_state *s);
#endif
