// sources: init/service.c init/unit-runtime-keys.c init/exec-line.c init/socket-unit.c init/condition.c init/unit-compat.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
#include "harness.h"
#include "service.h"

static struct service svc;

static int parse(const char *text)
{
	service_init(&svc, "t", "/t.service");
	return service_parse(&svc, text, strlen(text), NULL);
}

static void defaults(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/true\n") == 0);
	CHECK(svc.restart_max_delay_ms == RESTART_MAX_DELAY_DEFAULT_MS);
	CHECK(svc.restart_steps == 0); /* as systemd: the delay does not grow */
	CHECK(svc.start_limit_burst == START_LIMIT_BURST_DEFAULT);
	CHECK(svc.start_limit_interval_ms == START_LIMIT_INTERVAL_DEFAULT_MS);
}

static void values(void)
{
	CHECK(parse("[Unit]\nStartLimitBurst=0\nStartLimitIntervalSec=1min\n"
		    "[Service]\nExecStart=/bin/true\nRestartMaxDelaySec=250ms\n") == 0);
	CHECK(svc.start_limit_burst == 0);
	CHECK(svc.start_limit_interval_ms == 60000);
	CHECK(svc.restart_max_delay_ms == 250);
	CHECK(parse("[Service]\nExecStart=/bin/true\nRestartSteps=4\nRestartMaxDelaySec=2s\n") == 0);
	CHECK(svc.restart_steps == 4 && svc.restart_max_delay_ms == 2000);
	CHECK(parse("[Service]\nExecStart=/bin/true\nRestartMaxDelaySec=infinity\n") == 0);
	CHECK(svc.restart_max_delay_ms == SERVICE_TIMEOUT_INFINITY);
}

static void empty_resets(void)
{
	CHECK(parse("[Unit]\nStartLimitBurst=9\nStartLimitBurst=\n[Service]\nExecStart=/bin/true\n") == 0);
	CHECK(svc.start_limit_burst == START_LIMIT_BURST_DEFAULT);
}

static void bad_values_fail(void)
{
	CHECK(parse("[Unit]\nStartLimitBurst=-1\n[Service]\nExecStart=/bin/true\n") < 0);
	CHECK(parse("[Unit]\nStartLimitBurst=lots\n[Service]\nExecStart=/bin/true\n") < 0);
	CHECK(parse("[Unit]\nStartLimitIntervalSec=soon\n[Service]\nExecStart=/bin/true\n") < 0);
	CHECK(parse("[Service]\nExecStart=/bin/true\nRestartMaxDelaySec=5 parsecs\n") < 0);
	CHECK(strstr(svc.error, "RestartMaxDelaySec") != NULL);
	CHECK(parse("[Service]\nExecStart=/bin/true\nRestartSteps=few\n") < 0);
	CHECK(parse("[Service]\nExecStart=/bin/true\nRestartSteps=3001\n") < 0);
	CHECK(strstr(svc.error, "RestartSteps") != NULL);
}

int main(void)
{
	RUN(defaults);
	RUN(values);
	RUN(empty_resets);
	RUN(bad_values_fail);
	return harness_done();
}
