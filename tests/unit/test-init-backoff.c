// sources: init/backoff.c
#include "harness.h"
#include "backoff.h"

static const struct backoff_policy def = {
	BACKOFF_BASE_MS_DEFAULT, BACKOFF_MAX_MS_DEFAULT, BACKOFF_BURST_DEFAULT,
	BACKOFF_INTERVAL_MS_DEFAULT, 0,
};

/* As systemd without RestartSteps=: every restart waits RestartSec=, whatever
 * RestartMaxDelaySec= says. */
static void delay_stays_without_steps(void)
{
	struct backoff_policy p = { 100, 1000, 0, 10000, 0 };
	struct backoff_state s = { 0 };
	long long t = 1000;
	for (int i = 0; i < 20; i++)
		CHECK(backoff_next(&p, &s, t += 100, 10) == 100);
	struct backoff_state fresh = { 0 };
	CHECK(backoff_next(&def, &fresh, t += 100, 10) == 100);
}

/* RestartSteps=: from RestartSec= to RestartMaxDelaySec= in that many restarts, each
 * the same factor longer (systemd's formula), the cap from there on. */
static void steps_grow_to_the_cap(void)
{
	struct backoff_policy p = { 100, 1600, 0, 10000, 4 };
	struct backoff_state s = { 0 };
	long long t = 1000, want[] = { 100, 200, 400, 800, 1600, 1600, 1600 };
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		long long d = backoff_next(&p, &s, t += 100, 10);
		CHECK(d >= want[i] - 1 && d <= want[i]); /* the root is found by bisection */
	}
	/* no finite cap (the default): no growth, as systemd */
	struct backoff_policy inf = { 100, BACKOFF_MAX_MS_DEFAULT, 0, 10000, 4 };
	struct backoff_state s2 = { 0 };
	for (int i = 0; i < 6; i++)
		CHECK(backoff_next(&inf, &s2, t += 100, 10) == 100);
}

/* As systemd's start limit: StartLimitBurst= starts within the interval, so a crash
 * loop is given up at its burst-th failure (5 starts by default). */
static void burst_in_window_is_permanent(void)
{
	struct backoff_state s = { 0 };
	long long t = 0;
	for (unsigned i = 1; i < BACKOFF_BURST_DEFAULT; i++)
		CHECK(backoff_next(&def, &s, t += 10, 5) >= 0);
	CHECK(backoff_next(&def, &s, t += 10, 5) == -1);
}

/* A single start allowed per interval: a run longer than the interval still gets its
 * restart (its start lies outside the window), a quick failure does not. */
static void burst_of_one_after_a_long_run(void)
{
	struct backoff_policy p = { 100, BACKOFF_MAX_MS_DEFAULT, 1, 10000, 0 };
	struct backoff_state s = { 0 };
	CHECK(backoff_next(&p, &s, 60000, 50000) == 100);
	CHECK(backoff_next(&p, &s, 60200, 100) == -1);
}

static void failures_spread_out_never_give_up(void)
{
	struct backoff_state s = { 0 };
	long long t = 0;
	for (int i = 0; i < 50; i++)
		CHECK(backoff_next(&def, &s, t += 20000, 5) >= 0);
}

static void a_long_run_resets_the_steps(void)
{
	struct backoff_policy p = { 100, 30000, 0, 10000, 10 };
	struct backoff_state s = { 0 };
	CHECK(backoff_next(&p, &s, 0, 1) == 100);
	CHECK(backoff_next(&p, &s, 100, 1) > 100);
	CHECK(backoff_next(&p, &s, 60000, 50000) == 100);
}

static void no_overflow_with_huge_values(void)
{
	struct backoff_policy p = { ~0UL / 2, ~0UL - 1, 0, 1, 3000 };
	struct backoff_state s = { 0 };
	for (int i = 0; i < 100; i++)
		CHECK(backoff_next(&p, &s, i, 0) > 0);
}

/* Fork failures (a full process table) grow their own delay up to a cap, never give
 * up, and leave the start limit alone. */
static void starved_starts_back_off_and_never_give_up(void)
{
	struct backoff_state s = { 0 };
	long long last = 0;

	CHECK(backoff_starved(&s) == (long long)BACKOFF_STARVED_BASE_MS);
	CHECK(backoff_starved(&s) == 2 * (long long)BACKOFF_STARVED_BASE_MS);
	for (int i = 0; i < 1000; i++) {
		long long d = backoff_starved(&s);
		CHECK(d >= last && d <= (long long)BACKOFF_STARVED_MAX_MS);
		last = d;
	}
	CHECK(last == (long long)BACKOFF_STARVED_MAX_MS);
	CHECK(s.in_window == 0 && s.consecutive == 0);
	backoff_fed(&s);
	CHECK(backoff_starved(&s) == (long long)BACKOFF_STARVED_BASE_MS);
}

/* The start limit still counts real failures after a starved spell. */
static void starved_then_failing_still_hits_the_limit(void)
{
	struct backoff_state s = { 0 };
	long long t = 0;
	for (int i = 0; i < 100; i++)
		backoff_starved(&s);
	for (unsigned i = 1; i < BACKOFF_BURST_DEFAULT; i++)
		CHECK(backoff_next(&def, &s, t += 10, 5) >= 0);
	CHECK(backoff_next(&def, &s, t += 10, 5) == -1);
}

/* Failures measured from the start attempt (not from the last successful start, long
 * ago) keep growing (RestartSteps=): each attempt failed within ms of being made. */
static void failures_right_after_attempts_keep_growing(void)
{
	struct backoff_policy p = { 100, 3200, 0, 10000, 5 };
	struct backoff_state s = { 0 };
	long long t = 100000, d = 0;
	CHECK(backoff_next(&p, &s, t, 90000) == 100); /* after a long run: from the base */
	for (int i = 0; i < 5; i++) {
		long long attempt = t + d;
		t = attempt + 5;
		d = backoff_next(&p, &s, t, t - attempt);
	}
	CHECK(d == 3200);
}

int main(void)
{
	RUN(starved_starts_back_off_and_never_give_up);
	RUN(starved_then_failing_still_hits_the_limit);
	RUN(failures_right_after_attempts_keep_growing);
	RUN(delay_stays_without_steps);
	RUN(steps_grow_to_the_cap);
	RUN(burst_in_window_is_permanent);
	RUN(burst_of_one_after_a_long_run);
	RUN(failures_spread_out_never_give_up);
	RUN(a_long_run_resets_the_steps);
	RUN(no_overflow_with_huge_values);
	return harness_done();
}
