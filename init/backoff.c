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

static long long delay_for(const struct backoff_policy *p, unsigned consecutive)
{
	unsigned shift = consecutive > 0 ? consecutive - 1 : 0;
	unsigned long long d;

	if (shift > BACKOFF_SHIFT_MAX)
		shift = BACKOFF_SHIFT_MAX;
	d = (unsigned long long)p->base_ms << shift;
	if (p->base_ms && d >> shift != p->base_ms) /* overflow */
		d = p->max_ms;
	if (d > p->max_ms)
		d = p->max_ms;
	if (d > (unsigned long long)LLONG_MAX)
		d = (unsigned long long)LLONG_MAX;
	return (long long)d;
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
	if (p->burst > 0 && s->in_window > p->burst)
		return -1;
	return delay_for(p, s->consecutive);
}

long long backoff_starved(struct backoff_state *s)
{
	const struct backoff_policy p = { BACKOFF_STARVED_BASE_MS, BACKOFF_STARVED_MAX_MS, 0, 0 };

	if (s->starved < BACKOFF_SHIFT_MAX + 1)
		s->starved++;
	return delay_for(&p, s->starved);
}

void backoff_fed(struct backoff_state *s)
{
	s->starved = 0;
}
