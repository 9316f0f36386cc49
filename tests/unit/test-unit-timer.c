// sources: init/service.c init/unit-runtime-keys.c init/exec-line.c init/socket-unit.c init/condition.c init/unit-compat.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* Timer units: Debian's own .timer files parse to what systemd reads from them, the
 * implicit dependencies are there, and bad values fail the timer with a reason. */
#include "harness.h"
#include "../../init/service.h"
#include "../../init/unit-timer.h"

#include <stdio.h>
#include <string.h>

static struct service svc;
static int warnings, errors;
static char last_message[512];

static void record(void *ctx, enum service_severity severity, const char *file, unsigned line,
		   const char *message)
{
	(void)ctx;
	if (severity == SERVICE_WARNING)
		warnings++;
	else
		errors++;
	snprintf(last_message, sizeof last_message, "%s:%u: %s", file, line, message);
}

static const struct service_diag diag = { record, NULL, false };

static int parse_named(const char *name, const char *text)
{
	warnings = errors = 0;
	last_message[0] = '\0';
	service_init(&svc, name, "/usr/lib/systemd/system/x.timer");
	return service_parse(&svc, text, strlen(text), &diag);
}

static bool listed(const struct service_name_list *list, const char *name)
{
	return service_lists(&svc, list, name);
}

static void debian_tmpfiles_clean(void)
{
	char target[SERVICE_NAME_MAX];

	/* systemd-tmpfiles-clean.timer as Debian 12 ships it */
	CHECK(parse_named("systemd-tmpfiles-clean.timer",
			  "[Unit]\nDescription=Daily Cleanup of Temporary Directories\n"
			  "Documentation=man:tmpfiles.d(5) man:systemd-tmpfiles(8)\n"
			  "ConditionPathExists=!/etc/initrd-release\n\n"
			  "[Timer]\nOnBootSec=15min\nOnUnitActiveSec=1d\n") == 0);
	CHECK(!svc.failed && warnings == 0 && errors == 0);
	CHECK(svc.kind == UNIT_TIMER);
	CHECK(svc.timer.mono_count == 2);
	CHECK(svc.timer.mono_base[0] == TIMER_ON_BOOT && svc.timer.mono_ms[0] == 900000);
	CHECK(svc.timer.mono_base[1] == TIMER_ON_UNIT_ACTIVE &&
	      svc.timer.mono_ms[1] == 86400000ULL);
	CHECK(svc.timer.flags == TIMER_KEEP); /* RemainAfterElapse=yes, not persistent */
	CHECK_STR(service_trigger_target(&svc, target, sizeof target), "systemd-tmpfiles-clean");
	CHECK(listed(&svc.before, "systemd-tmpfiles-clean"));
	/* no calendar event: no waiting for the clock */
	CHECK(!listed(&svc.after, "time-set.target"));
}

static void chrony_dnssrv_instance(void)
{
	char target[SERVICE_NAME_MAX];

	CHECK(parse_named("chrony-dnssrv@pool.ntp.example.timer",
			  "[Unit]\nDescription=Periodic DNS SRV lookup of %I for chrony\n"
			  "[Timer]\nOnActiveSec=0\nOnUnitInactiveSec=1h\nRandomizedDelaySec=60\n") == 0);
	CHECK(!svc.failed);
	CHECK(svc.timer.mono_base[0] == TIMER_ON_ACTIVE && svc.timer.mono_ms[0] == 0);
	CHECK(svc.timer.mono_base[1] == TIMER_ON_UNIT_INACTIVE &&
	      svc.timer.mono_ms[1] == 3600000);
	CHECK(svc.timer.random_delay_ms == 60000);
	CHECK_STR(service_trigger_target(&svc, target, sizeof target), "chrony-dnssrv@pool.ntp.example");
}

static void unit_key_and_flags(void)
{
	char target[SERVICE_NAME_MAX];

	CHECK(parse_named("nightly.timer", "[Timer]\nOnActiveSec=5s\nUnit=backup.target\n"
			  "Persistent=yes\nRemainAfterElapse=no\nFixedRandomDelay=yes\n"
			  "RandomizedDelaySec=12h\nAccuracySec=1h\n") == 0);
	CHECK(!svc.failed && warnings == 0);
	CHECK_STR(service_trigger_target(&svc, target, sizeof target), "backup.target");
	CHECK(svc.timer.flags == (TIMER_PERSISTENT | TIMER_FIXED_DELAY));
	CHECK(svc.timer.random_delay_ms == 43200000);
	CHECK(listed(&svc.before, "backup.target"));
	/* "Unit=x" is the service x, as systemd reads it */
	CHECK(parse_named("n.timer", "[Timer]\nOnActiveSec=1\nUnit=job.service\n") == 0);
	CHECK_STR(service_trigger_target(&svc, target, sizeof target), "job");
}

static void empty_assignment_resets_triggers(void)
{
	/* A drop-in that empties OnBootSec= and sets its own: only its trigger remains. */
	CHECK(parse_named("t.timer", "[Timer]\nOnBootSec=15min\nOnUnitActiveSec=1d\n"
			  "OnBootSec=\nOnActiveSec=30s\n") == 0);
	CHECK(svc.timer.mono_count == 1 && svc.timer.mono_base[0] == TIMER_ON_ACTIVE &&
	      svc.timer.mono_ms[0] == 30000);
}

static void warned_not_failed(void)
{
	CHECK(parse_named("w.timer", "[Timer]\nOnActiveSec=1h\nWakeSystem=yes\n") == 0);
	CHECK(!svc.failed && warnings == 1);
	CHECK(strstr(last_message, "does not wake the system") != NULL);
	CHECK(parse_named("w.timer", "[Timer]\nOnActiveSec=1h\nOnClockChange=yes\n") == 0);
	CHECK(!svc.failed && warnings == 1);
}

static void refused(const char *name, const char *text, const char *why)
{
	if (parse_named(name, text) == 0 || !svc.failed || !strstr(last_message, why)) {
		printf("  %s: accepted or wrong message: \"%s\"\n", text, last_message);
		CHECK(0);
	}
}

static void bad_timers_fail_with_a_reason(void)
{
	refused("a.timer", "[Unit]\nDescription=nothing set\n[Timer]\nPersistent=yes\n",
		"no trigger");
	refused("a.timer", "[Timer]\nOnBootSec=soon\n", "expected a time span");
	refused("a.timer", "[Timer]\nOnBootSec=infinity\n", "expected a time span");
	refused("a.timer", "[Timer]\nOnBootSec=-5s\n", "expected a time span");
	refused("a.timer", "[Timer]\nOnBootSec=1\nUnit=other.timer\n", "not a timer");
	refused("a.timer", "[Timer]\nOnBootSec=1\nUnit=../../etc/passwd\n", "expected the name");
	refused("a.timer", "[Timer]\nOnBootSec=1\nUnit=getty@.service\n", "not a template");
	refused("a.timer", "[Timer]\nOnBootSec=1\nPersistent=maybe\n", "expected yes or no");
	refused("a.timer", "[Timer]\nOnBootSec=1\nRandomizedDelaySec=lots\n", "time span");
	refused("a.timer", "[Timer]\nOnBootSec=1\nOnBootSec=2\nOnBootSec=3\nOnBootSec=4\n"
		"OnBootSec=5\nOnBootSec=6\nOnBootSec=7\nOnBootSec=8\nOnBootSec=9\n",
		"more than 8 monotonic triggers");
	refused("a.timer", "[Timer]\nOnCalendar=Someday 25:61\n", "OnCalendar=");
	refused("x@.timer", "[Timer]\nOnBootSec=1\n", "a template");
}

static void timer_section_only_in_timers(void)
{
	/* [Timer] in a service is an unknown section (its keys ignored), as on systemd */
	CHECK(parse_named("svc", "[Service]\nExecStart=/bin/true\n[Timer]\nOnBootSec=1\n") == 0);
	CHECK(!svc.failed && warnings == 1 && svc.timer.mono_count == 0);
}

int main(void)
{
	RUN(debian_tmpfiles_clean);
	RUN(chrony_dnssrv_instance);
	RUN(unit_key_and_flags);
	RUN(empty_assignment_resets_triggers);
	RUN(warned_not_failed);
	RUN(bad_timers_fail_with_a_reason);
	RUN(timer_section_only_in_timers);
	return harness_done();
}
