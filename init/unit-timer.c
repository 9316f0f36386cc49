/* Timer units: the [Timer] keys and the implicit dependencies. Pure: emberctl verify
 * links this alone. See unit-timer.h and docs/timers.md. */
#include "unit-timer.h"

#include <stdio.h>
#include <string.h>

#include "calendar.h"
#include "parse.h"
#include "unit-name.h"

static void warn(struct service *svc, const struct service_diag *diag, unsigned line,
		 const char *fmt, const char *key)
{
	char msg[SERVICE_ERROR_MAX];

	if (!diag || !diag->report)
		return;
	snprintf(msg, sizeof msg, fmt, key);
	diag->report(diag->ctx, SERVICE_WARNING, svc->path, line, msg);
}

static int invalid(struct service *svc, const struct service_diag *diag, unsigned line,
		   const char *key, const char *value, const char *why)
{
	service_fail(svc, diag, line, "%s=%.64s: %s", key, value, why);
	return -1;
}

/* As systemd: an empty On*= assignment forgets every trigger set before it. */
static void reset_triggers(struct service *svc)
{
	svc->timer.mono_count = 0;
	svc->timer.calendar = 0;
}

static int parse_mono(struct service *svc, const struct service_diag *diag, unsigned line,
		      const char *key, const char *value, enum timer_base base)
{
	unsigned long ms;
	struct timer_spec *t = &svc->timer;

	if (!*value) {
		reset_triggers(svc);
		return 0;
	}
	if (parse_duration_ms(value, &ms) < 0 || ms == ~0UL)
		return invalid(svc, diag, line, key, value, "expected a time span (15min, 1d)");
	if (t->mono_count >= TIMER_MONO_MAX)
		return invalid(svc, diag, line, key, value, "more than 8 monotonic triggers");
	t->mono_ms[t->mono_count] = ms;
	t->mono_base[t->mono_count++] = (uint8_t)base;
	return 0;
}

static int parse_calendar(struct service *svc, const struct service_diag *diag, unsigned line,
			  const char *key, const char *value)
{
	struct calendar_spec spec;
	char err[128], joined[SERVICE_LINE_MAX];
	const char *before = service_str(svc, svc->timer.calendar);

	if (!*value) {
		reset_triggers(svc);
		return 0;
	}
	if (calendar_parse(value, &spec, err, sizeof err) < 0)
		return invalid(svc, diag, line, key, value, err);
	if (snprintf(joined, sizeof joined, "%s%s%s", svc->timer.calendar ? before : "",
		     svc->timer.calendar ? "\n" : "", value) >= (int)sizeof joined)
		return invalid(svc, diag, line, key, value, "too many calendar events");
	svc->timer.calendar = service_text_store(svc, joined);
	return svc->timer.calendar ? 0 : invalid(svc, diag, line, key, value,
						 "too much text in this file");
}

static int parse_flag(struct service *svc, const struct service_diag *diag, unsigned line,
		      const char *key, const char *value, unsigned flag, bool empty)
{
	bool b = empty;

	if (*value && parse_bool(value, &b) < 0)
		return invalid(svc, diag, line, key, value, "expected yes or no");
	svc->timer.flags = (uint8_t)(b ? svc->timer.flags | flag : svc->timer.flags & ~flag);
	return 0;
}

/* A yes/no key whose "yes" ember does not do: read, and "yes" is a warning saying so. */
static int parse_not_done(struct service *svc, const struct service_diag *diag, unsigned line,
			  const char *key, const char *value, const char *warning)
{
	bool b = false;

	if (*value && parse_bool(value, &b) < 0)
		return invalid(svc, diag, line, key, value, "expected yes or no");
	if (b)
		warn(svc, diag, line, warning, key);
	return 0;
}

static int parse_span_capped(struct service *svc, const struct service_diag *diag,
			     unsigned line, const char *key, const char *value, uint32_t *out)
{
	unsigned long ms = 0;

	if (*value && parse_duration_ms(value, &ms) < 0)
		return invalid(svc, diag, line, key, value, "expected a time span (1h, 30s)");
	*out = ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
	return 0;
}

int unit_timer_parse(struct service *svc, const struct service_diag *diag, unsigned line,
		     const char *key, const char *value)
{
	static const struct { const char *key; enum timer_base base; } mono[] = {
		{ "OnActiveSec", TIMER_ON_ACTIVE }, { "OnBootSec", TIMER_ON_BOOT },
		{ "OnStartupSec", TIMER_ON_STARTUP }, { "OnUnitActiveSec", TIMER_ON_UNIT_ACTIVE },
		{ "OnUnitInactiveSec", TIMER_ON_UNIT_INACTIVE },
	};
	uint32_t ignored;

	for (size_t i = 0; i < sizeof mono / sizeof *mono; i++)
		if (strcmp(key, mono[i].key) == 0)
			return parse_mono(svc, diag, line, key, value, mono[i].base);
	if (strcmp(key, "OnCalendar") == 0)
		return parse_calendar(svc, diag, line, key, value);
	if (strcmp(key, "Unit") == 0)
		return service_trigger_unit_parse(svc, diag, line, value, &svc->timer.unit);
	if (strcmp(key, "Persistent") == 0)
		return parse_flag(svc, diag, line, key, value, TIMER_PERSISTENT, false);
	if (strcmp(key, "RemainAfterElapse") == 0)
		return parse_flag(svc, diag, line, key, value, TIMER_KEEP, true);
	if (strcmp(key, "FixedRandomDelay") == 0)
		return parse_flag(svc, diag, line, key, value, TIMER_FIXED_DELAY, false);
	if (strcmp(key, "RandomizedDelaySec") == 0)
		return parse_span_capped(svc, diag, line, key, value, &svc->timer.random_delay_ms);
	/* AccuracySec=: systemd may fire up to this late to batch wake-ups; ember fires on
	 * time, which is inside every window the key allows. */
	if (strcmp(key, "AccuracySec") == 0)
		return parse_span_capped(svc, diag, line, key, value, &ignored);
	/* WakeSystem=: resuming from suspend needs CLOCK_REALTIME_ALARM (CAP_WAKE_ALARM,
	 * an RTC that can wake): not done; the timer elapses when the system is awake. */
	if (strcmp(key, "WakeSystem") == 0)
		return parse_not_done(svc, diag, line, key, value, "%s=yes: ember does not wake "
				      "the system from suspend; the timer elapses once it is awake");
	/* OnClockChange=, OnTimezoneChange=: elapsing when the clock or the zone changes is
	 * not done (the next elapse is computed again, which is what matters most). */
	return parse_not_done(svc, diag, line, key, value, "%s=yes: not done by ember; the "
			      "timer keeps its calendar, computed again for the new clock");
}

/* ---- whole-unit checks and implicit dependencies ------------------------------------ */

static void depend(struct service *svc, const struct service_diag *diag,
		   struct service_name_list *list, const char *name)
{
	if (service_add_name(svc, list, name) < 0)
		warn(svc, diag, 0, "too many dependencies to add %s", name);
}

void unit_timer_validate(struct service *svc, const struct service_diag *diag)
{
	char target[SERVICE_NAME_MAX];

	if (svc->kind != UNIT_TIMER || svc->failed || svc->masked)
		return;
	if (unit_name_is_template(svc->name)) {
		service_fail(svc, diag, 0, "a template: it runs only as an instance");
		return;
	}
	if (svc->timer.mono_count == 0 && !svc->timer.calendar) {
		service_fail(svc, diag, 0, "no trigger: set OnCalendar= or OnActiveSec=, "
			     "OnBootSec=, OnStartupSec=, OnUnitActiveSec=, OnUnitInactiveSec=");
		return;
	}
	service_trigger_target(svc, target, sizeof target);
	if (!unit_name_valid(target) || strcmp(target, svc->name) == 0) {
		service_fail(svc, diag, 0, "no valid unit to start (Unit=)");
		return;
	}
	/* As systemd: the timer is ordered before what it starts; a calendar timer waits for
	 * the clock to be set (where something provides these targets). sysinit.target,
	 * timers.target and shutdown.target are the depgraph's default dependencies. */
	depend(svc, diag, &svc->before, target);
	if (svc->timer.calendar && svc->default_dependencies) {
		depend(svc, diag, &svc->after, "time-set.target");
		depend(svc, diag, &svc->after, "time-sync.target");
	}
}
