#include "backoff.h"

#include <limits.h>

#define BACKOFF_SHIFT_MAX 30

void backoff_reset(struct backoff_state *s)
{
	s->consecutive = 0;
	s->in_window = 0;
	s->window_start_ms = 0;
	s->starved = 0;
}

static long long clamp_ms(unsigned long long d)
{
	return d > (unsigned long long)LLONG_MAX ? LLONG_MAX : (long long)d;
}

/* y with y^n = ratio (ratio >= 1), by bisection: no libm in PID 1. */
static double nth_root(double ratio, unsigned n)
{
	double lo = 1.0, hi = ratio;

	for (int k = 0; k < 64; k++) {
		double mid = (lo + hi) / 2, pow = 1.0;
		for (unsigned j = 0; j < n && pow <= ratio; j++)
			pow *= mid;
		if (pow > ratio)
			hi = mid;
		else
			lo = mid;
	}
	return lo;
}

/* systemd's RestartSteps=: the i-th restart (from 0) waits base * (max/base)^(i/steps),
 * max from the steps-th on; without steps, or without a finite max above base, every
 * restart waits base. */
static long long restart_delay(const struct backoff_policy *p, unsigned consecutive)
{
	unsigned i = consecutive > 0 ? consecutive - 1 : 0;
	double factor = 1.0, step;

	if (p->steps == 0 || i == 0 || p->base_ms == 0 || p->max_ms == ~0UL ||
	    p->max_ms <= p->base_ms)
		return clamp_ms(p->base_ms);
	if (i >= p->steps)
		return clamp_ms(p->max_ms);
	step = nth_root((double)p->max_ms / (double)p->base_ms, p->steps);
	for (unsigned j = 0; j < i; j++)
		factor *= step;
	return clamp_ms((unsigned long long)((double)p->base_ms * factor));
}

/* ember's own doubling, for starts that could not fork (backoff_starved()): 50 ms, 100,
 * 200 ... up to 5 s. */
static long long starved_delay(unsigned n)
{
	unsigned shift = n > 0 ? n - 1 : 0;
	unsigned long long d;

	if (shift > BACKOFF_SHIFT_MAX)
		shift = BACKOFF_SHIFT_MAX;
	d = (unsigned long long)BACKOFF_STARVED_BASE_MS << shift;
	return clamp_ms(d > BACKOFF_STARVED_MAX_MS ? BACKOFF_STARVED_MAX_MS : d);
}

long long backoff_next(const struct backoff_policy *p, struct backoff_state *s,
		       long long now_ms, long long ran_ms)
{
	if (ran_ms >= 0 && (unsigned long long)ran_ms >= p->interval_ms)
		s->consecutive = 0;
	if (s->in_window == 0 || now_ms - s->window_start_ms >= (long long)p->interval_ms) {
		s->window_start_ms = now_ms;
		s->in_window = 0;
	}
	s->in_window++;
	s->consecutive++;
	/* the failed run and the burst-1 before it used up the window's starts; a run
	 * longer than the interval started outside it, leaving the restart its own */
	if (p->burst > 0 && s->in_window >= p->burst &&
	    (ran_ms < 0 || (unsigned long long)ran_ms < p->interval_ms))
		return -1;
	return restart_delay(p, s->consecutive);
}

long long backoff_starved(struct backoff_state *s)
{
	if (s->starved < BACKOFF_SHIFT_MAX + 1)
		s->starved++;
	return starved_delay(s->starved);
}

void backoff_fed(struct backoff_state *s)
{
	s->starved = 0;
}
