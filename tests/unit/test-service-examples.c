// sources: init/service-load.c init/pages.c init/unit-targets.c init/service.c init/unit-runtime-keys.c init/exec-line.c init/depgraph.c init/socket-unit.c init/condition.c init/unit-compat.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/unit-kinds-run.c init/unit-mount.c init/unit-swap.c init/unit-device.c init/dynamic-user.c init/rlimits.c
/* The example service files in etc/services/ load without a warning and start in the
 * order their comments promise. Finds the tree through $TOP (set by tests/run). */
#include "harness.h"
#include "../../init/depgraph.h"
#include "../../init/exec-line.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct service svcs[16];
static struct depgraph g;
static size_t count;
static int problems;

static void record(void *ctx, enum service_severity severity, const char *file, unsigned line,
		   const char *message)
{
	printf("  %s:%u: %s\n", file, line, message);
	problems++;
}

static const struct service_diag diag = { record, NULL, false };

static const struct service *named(const char *name)
{
	for (size_t i = 0; i < count; i++)
		if (strcmp(svcs[i].name, name) == 0)
			return &svcs[i];
	return NULL;
}

static void examples_load_cleanly(void)
{
	char dir[512];
	const char *top = getenv("TOP");
	const char *dirs[1] = { dir };

	snprintf(dir, sizeof dir, "%s/etc/services", top ? top : ".");
	CHECK(service_load(dirs, 1, svcs, 16, &count, &diag) == 0);
	if (count == 0)
		printf("  no service files in %s (run from the source tree or set TOP)\n", dir);
	CHECK(count == 6);
	CHECK(problems == 0);
	for (size_t i = 0; i < count; i++)
		CHECK(!svcs[i].failed && !svcs[i].masked);
}

static void examples_cover_each_type(void)
{
	CHECK(named("hwclock") && named("hwclock")->type == SERVICE_ONESHOT);
	CHECK(named("syslogd") && named("syslogd")->type == SERVICE_SIMPLE);
	CHECK(named("sshd") && named("sshd")->type == SERVICE_NOTIFY);
	CHECK(named("mount-data") && named("mount-data")->essential);
}

static void example_command_lines_split(void)
{
	static struct exec_argv out;
	const char *env[] = { "NTP_SERVER=time.example", NULL };
	const struct service *s = named("ntpd");

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK(exec_line_split(service_str(s, s->exec_start.line[0]), env, &out) == 0);
	CHECK(out.argc == 4);
	CHECK_STR(out.argv[3], "time.example");
	s = named("sshd");
	CHECK(exec_line_split(service_str(s, s->exec_start.line[0]), NULL, &out) == 0);
	CHECK(out.argc == 3); /* $SSHD_OPTS unset: no word */
}

static void examples_start_in_documented_order(void)
{
	char order[256] = "";

	depgraph_from_services(&g, svcs, count, &diag);
	CHECK(problems == 0);
	for (size_t i = 0; i < g.order_count; i++) {
		size_t n = strlen(order);
		snprintf(order + n, sizeof order - n, "%s%u:%s", i ? " " : "",
			 (unsigned)g.wave[g.order[i]], g.name[g.order[i]]);
	}
	CHECK_STR(order, "0:empowerd 0:hwclock 0:mount-data 1:syslogd 2:ntpd 2:sshd");
}

int main(void)
{
	RUN(examples_load_cleanly);
	RUN(examples_cover_each_type);
	RUN(example_command_lines_split);
	RUN(examples_start_in_documented_order);
	return harness_done();
}
