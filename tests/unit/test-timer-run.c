// sources: init/unit-timer-run.c
/* Timer units at run time (init/unit-timer-run.c): when a monotonic trigger is due. The
 * supervisor is stubbed; the clocks are the real ones, and the unit's start and stop
 * times are set around them to the microsecond. */
#include <string.h>
#include <time.h>

#include "harness.h"
#include "supervisor.h"
#include "unit-timer.h"

static struct service timer_svc, job_svc;
static struct unit timer, job;
static int starts;

/* ---- stubs ---------------------------------------------------------------------------- */

const char *service_str(const struct service *svc, strref ref) { (void)svc, (void)ref; return ""; }
const char *service_trigger_target(const struct service *svc, char *out, size_t size)
{
	(void)svc;
	snprintf(out, size, "job.service");
	return out;
}
const char *unit_state_name(enum unit_state state) { (void)state; return "?"; }
const struct unit *supervisor_find(const char *name)
{
	return strcmp(name, "job.service") == 0 ? &job : NULL;
}
int supervisor_start(const char *name, char *err, size_t size)
{
	(void)name, (void)err, (void)size;
	starts++;
	return 0;
}

/* ---- helpers -------------------------------------------------------------------------- */

static long long boot_clock_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* A ready timer with OnUnitInactiveSec=0 on job.service, which is stopped. */
static void set_up(void)
{
	memset(&timer, 0, sizeof timer);
	memset(&job, 0, sizeof job);
	snprintf(timer_svc.name, sizeof timer_svc.name, "job.timer");
	snprintf(job_svc.name, sizeof job_svc.name, "job.service");
	timer_svc.kind = UNIT_TIMER;
	timer_svc.timer.mono_count = 1;
	timer_svc.timer.mono_base[0] = TIMER_ON_UNIT_INACTIVE;
	timer_svc.timer.mono_ms[0] = 0;
	timer.svc = &timer_svc;
	job.svc = &job_svc;
	timer.state = UNIT_READY;
	job.state = UNIT_STOPPED;
	timer.started_us = job.started_us = job.failed_us = -1;
	timer.timer_last_us = timer.timer_last_wall = timer.timer_start_wall = -1;
	timer.timer_next_wall = timer.trigger_window_ms = -1;
	job.stopped_us = boot_clock_us() - 5000;
	starts = 0;
	timer_units_recompute_all();
}

/* One turn of the supervisor, once the boot clock is past the millisecond of `after_us`
 * (the supervisor's clock is in ms: a turn within that millisecond is not yet due). */
static long long tick_after(long long after_us)
{
	while (boot_clock_us() / 1000 <= after_us / 1000 + 1)
		;
	timer_unit_tick(&timer, boot_clock_us() / 1000);
	return starts;
}

static long long tick(void) { return tick_after(0); }

/* ---- cases ---------------------------------------------------------------------------- */

/* The job ran and stopped again within the millisecond the timer elapsed in: that stop
 * is after the elapse, so OnUnitInactiveSec=0 is due again (on the old code, kept in ms,
 * the timer never elapsed again). */
static void inactive_zero_after_stop_in_same_ms(void)
{
	set_up();
	CHECK(tick() == 1);
	CHECK(timer.timer_last_us >= job.stopped_us);
	job.stopped_us = timer.timer_last_us + 1; /* stopped 1 us after the elapse */
	timer_units_changed();
	CHECK(tick_after(job.stopped_us) == 2);
}

/* A stop before the last elapse gives nothing new to count from. */
static void stop_before_elapse_not_again(void)
{
	set_up();
	CHECK(tick() == 1);
	job.stopped_us = timer.timer_last_us - 1;
	timer_units_changed();
	CHECK(tick_after(timer.timer_last_us) == 1);
	CHECK(timer_unit_due(&timer) < 0);
}

/* OnUnitInactiveSec=2s counts from the stop: not due at once. */
static void inactive_span_waits(void)
{
	set_up();
	timer_svc.timer.mono_ms[0] = 2000;
	timer_units_changed();
	CHECK(tick() == 0);
	CHECK(timer_unit_due(&timer) >= job.stopped_us / 1000 + 2000);
}

int main(void)
{
	RUN(inactive_zero_after_stop_in_same_ms);
	RUN(stop_before_elapse_not_again);
	RUN(inactive_span_waits);
	return harness_done();
}
