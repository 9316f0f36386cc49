// sources: init/cmdline.c
#include "harness.h"
#include "cmdline.h"

/* init.conf lines are joined in front of /proc/cmdline: later words win. */
static void command_line_overrides_conf(void)
{
	struct boot_options o;
	cmdline_parse("ember.shell=none ember.watchdog=30 console=ttyS0 ember.watchdog=10", &o);
	CHECK(o.no_shell);
	CHECK(o.watchdog_sec == 10);
	/* init.conf says none, the command line asks for a shell for one boot. */
	cmdline_parse("ember.shell=none console=ttyS0 ember.shell=/bin/sh", &o);
	CHECK(!o.no_shell);
	CHECK_STR(o.shell, "/bin/sh");
}

static void bad_watchdog_ignored(void)
{
	struct boot_options o;
	cmdline_parse("ember.watchdog=30 ember.watchdog=-1 ember.watchdog=999999 ember.watchdog=x", &o);
	CHECK(o.watchdog_sec == 30);
}

static void rescue_and_measure(void)
{
	struct boot_options o;
	cmdline_parse("ember.rescue ember.measure=0", &o);
	CHECK(o.rescue && !o.measure);
	cmdline_parse("ember.rescue=0", &o);
	CHECK(!o.rescue && o.measure);
}

static void services_and_cgroup_paths(void)
{
	struct boot_options o;
	cmdline_parse("ember.services=/x/y ember.cgroup=relative", &o);
	CHECK_STR(o.services, "/x/y");
	CHECK_STR(o.cgroup, "");
}

int main(void)
{
	RUN(command_line_overrides_conf);
	RUN(bad_watchdog_ignored);
	RUN(rescue_and_measure);
	RUN(services_and_cgroup_paths);
	return harness_done();
}
