// sources: init/service.c init/unit-runtime-keys.c init/exec-line.c init/socket-unit.c init/condition.c init/unit-compat.c init/notify-msg.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* unit-runtime2: parsing the runtime keys into struct service, and the sd_notify
 * variables that go with them (WATCHDOG=, WATCHDOG_USEC=, FDSTORE=, FDNAME=). */
#include <signal.h>

#include "harness.h"
#include "notify-msg.h"
#include "service.h"
#include "unit-runtime-keys.h"

static struct service svc;

static int parse(const char *text)
{
	service_init(&svc, "t", "/t.service");
	return service_parse(&svc, text, strlen(text), NULL);
}

#define EXEC "[Service]\nExecStart=/bin/true\n"

static void defaults(void)
{
	CHECK(parse(EXEC) == 0);
	CHECK(!svc.refuse_manual_start && !svc.refuse_manual_stop && !svc.stop_when_unneeded);
	CHECK(svc.watchdog_ms == 0);
	CHECK(svc.watchdog_signal == SIGABRT);
	CHECK(svc.job_timeout_ms == SERVICE_TIMEOUT_INFINITY);
	CHECK(svc.notify_access == NOTIFY_ACCESS_UNSET);
	CHECK(svc.fdstore_max == 0 && svc.fdstore_preserve == PRESERVE_RESTART);
	CHECK(svc.success_action == 0 && svc.failure_action == 0);
}

static void unit_keys(void)
{
	char buf[32];

	CHECK(parse("[Unit]\nRefuseManualStart=yes\nRefuseManualStop=true\nStopWhenUnneeded=1\n"
		    "SuccessAction=poweroff-force\nFailureAction=reboot-immediate\n"
		    "JobTimeoutSec=1min 30s\nJobTimeoutAction=halt\nStartLimitAction=exit\n"
		    "StartLimitInterval=20s\n" EXEC) == 0);
	CHECK(svc.refuse_manual_start && svc.refuse_manual_stop && svc.stop_when_unneeded);
	CHECK_STR(unit_action_name(svc.success_action, buf, sizeof buf), "poweroff-force");
	CHECK_STR(unit_action_name(svc.failure_action, buf, sizeof buf), "reboot-immediate");
	CHECK_STR(unit_action_name(svc.job_timeout_action, buf, sizeof buf), "halt");
	CHECK_STR(unit_action_name(svc.start_limit_action, buf, sizeof buf), "exit");
	CHECK(svc.job_timeout_ms == 90000);
	CHECK(svc.start_limit_interval_ms == 20000);
}

/* systemd still reads these in [Service], where they used to be. */
static void legacy_service_section(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/true\nStartLimitInterval=5s\nStartLimitBurst=3\n"
		    "FailureAction=reboot\nStartLimitAction=poweroff\n") == 0);
	CHECK(svc.start_limit_interval_ms == 5000 && svc.start_limit_burst == 3);
	CHECK(UNIT_ACTION_WHAT(svc.failure_action) == UNIT_ACTION_REBOOT);
	CHECK(UNIT_ACTION_WHAT(svc.start_limit_action) == UNIT_ACTION_POWEROFF);
}

static void service_keys(void)
{
	CHECK(parse("[Unit]\nReloadPropagatedFrom=a.service b\nPropagatesReloadTo=x.target\n"
		    "[Service]\nExecStart=/bin/true\nWatchdogSec=3min\nWatchdogSignal=SIGUSR2\n"
		    "NotifyAccess=exec\nFileDescriptorStoreMax=8\nFileDescriptorStorePreserve=yes\n"
		    "Sockets=one.socket two.socket\nSockets=one.socket\n") == 0);
	CHECK(svc.watchdog_ms == 180000);
	CHECK(svc.watchdog_signal == SIGUSR2);
	CHECK(svc.notify_access == NOTIFY_ACCESS_EXEC);
	CHECK(svc.fdstore_max == 8 && svc.fdstore_preserve == PRESERVE_YES);
	CHECK_STR(service_str(&svc, svc.reload_from), "a b");
	CHECK_STR(service_str(&svc, svc.reload_to), "x.target");
	CHECK_STR(service_str(&svc, svc.sockets), "one.socket two.socket");
	CHECK(runtime_name_listed(service_str(&svc, svc.sockets), "two.socket"));
	CHECK(!runtime_name_listed(service_str(&svc, svc.sockets), "two"));
	/* Sockets= implies Wants= and After= */
	CHECK(svc.wants.count == 2 && svc.after.count == 2);
}

static void off_values(void)
{
	CHECK(parse("[Unit]\nJobTimeoutSec=infinity\n[Service]\nExecStart=/bin/true\n"
		    "WatchdogSec=0\n") == 0);
	CHECK(svc.watchdog_ms == 0 && svc.job_timeout_ms == SERVICE_TIMEOUT_INFINITY);
	CHECK(parse("[Service]\nExecStart=/bin/true\nWatchdogSec=10\nWatchdogSec=\n"
		    "Sockets=a.socket\nSockets=\nNotifyAccess=all\nNotifyAccess=\n") == 0);
	CHECK(svc.watchdog_ms == 0 && svc.sockets == 0 && svc.notify_access == NOTIFY_ACCESS_UNSET);
}

static void bad_values_fail(void)
{
	CHECK(parse("[Unit]\nRefuseManualStart=perhaps\n" EXEC) < 0);
	CHECK(strstr(svc.error, "RefuseManualStart") != NULL);
	CHECK(parse("[Unit]\nSuccessAction=explode\n" EXEC) < 0);
	CHECK(parse("[Unit]\nSuccessAction=none-force\n" EXEC) < 0);
	CHECK(parse("[Unit]\nSuccessAction=exit-immediate\n" EXEC) < 0);
	CHECK(parse("[Service]\nExecStart=/bin/true\nWatchdogSec=soon\n") < 0);
	CHECK(parse("[Service]\nExecStart=/bin/true\nWatchdogSignal=SIGNOPE\n") < 0);
	CHECK(parse("[Service]\nExecStart=/bin/true\nNotifyAccess=everyone\n") < 0);
	CHECK(parse("[Service]\nExecStart=/bin/true\nFileDescriptorStoreMax=100000\n") < 0);
	CHECK(parse("[Service]\nExecStart=/bin/true\nFileDescriptorStoreMax=4224\n") == 0);
	CHECK(svc.fdstore_max == 4224);
	CHECK(parse("[Service]\nExecStart=/bin/true\nFileDescriptorStorePreserve=often\n") < 0);
	CHECK(parse("[Service]\nExecStart=/bin/true\nSockets=dbus.service\n") < 0);
	CHECK(parse("[Service]\nExecStart=/bin/true\nSockets=../x.socket\n") < 0);
	CHECK(parse("[Unit]\nReloadPropagatedFrom=bad/name\n" EXEC) < 0);
	/* SuccessAction= is [Unit] only, as in systemd: an unknown key, not a failure */
	CHECK(parse("[Service]\nExecStart=/bin/true\nSuccessAction=reboot\n") == 0);
	CHECK(svc.success_action == 0);
}

static void notify_variables(void)
{
	struct notify_msg m;
	const char ok[] = "WATCHDOG=1\nWATCHDOG_USEC=2500000\nFDSTORE=1\nFDNAME=conn-7";

	CHECK(notify_parse(ok, strlen(ok), &m) == 0);
	CHECK(m.watchdog_ping && !m.watchdog_trigger);
	CHECK(m.has_watchdog_usec && m.watchdog_usec == 2500000);
	CHECK(m.fdstore && !m.fdstore_remove && !m.fdname_invalid);
	CHECK_STR(m.fdname, "conn-7");
	CHECK(notify_parse("WATCHDOG=trigger", 16, &m) == 0 && m.watchdog_trigger);
	CHECK(notify_parse("FDSTOREREMOVE=1\nFDNAME=x", 24, &m) == 0 && m.fdstore_remove);
	CHECK(notify_parse("FDNAME=a:b", 10, &m) == 0 && m.fdname_invalid && !m.fdname[0]);
	CHECK(notify_parse("FDNAME=a b", 10, &m) == 0 && m.fdname_invalid);
	CHECK(notify_parse("WATCHDOG=2", 10, &m) < 0);
	CHECK(notify_parse("WATCHDOG_USEC=12x", 17, &m) < 0);
	CHECK(notify_parse("WATCHDOG_USEC=", 14, &m) < 0);
	CHECK(notify_parse("FDSTORE=yes", 11, &m) < 0);
}

int main(void)
{
	RUN(defaults);
	RUN(unit_keys);
	RUN(legacy_service_section);
	RUN(service_keys);
	RUN(off_values);
	RUN(bad_values_fail);
	RUN(notify_variables);
	return harness_done();
}
