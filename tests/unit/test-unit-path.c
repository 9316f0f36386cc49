// sources: init/service.c init/unit-runtime-keys.c init/exec-line.c init/socket-unit.c init/condition.c init/unit-compat.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* Path units: Debian's own .path files parse to what systemd reads from them, the
 * implicit dependencies are there, and bad values fail the unit with a reason. */
#include "harness.h"
#include "replaced-text.h"
#include "../../init/service.h"
#include "../../init/unit-path.h"

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
	service_init(&svc, name, "/usr/lib/systemd/system/x.path");
	return service_parse(&svc, text, strlen(text), &diag);
}

static bool listed(const struct service_name_list *list, const char *name)
{
	return service_lists(&svc, list, name);
}

static bool entry_is(size_t i, char kind, const char *path)
{
	char k, p[SERVICE_PATH_MAX];

	return unit_path_entry(&svc, i, &k, p, sizeof p) && k == kind && strcmp(p, path) == 0;
}

static void debian_ask_password_console(void)
{
	char target[SERVICE_NAME_MAX];

	/* systemd-ask-password-console.path as Debian 12 ships it */
	CHECK(parse_named("systemd-ask-password-console.path",
			  "[Unit]\nDescription=Dispatch Password Requests to Console Directory Watch\n"
			  "ConditionPathExists=!/run/plymouth/pid\nDefaultDependencies=no\n"
			  "After=plymouth-start.service\nBefore=paths.target cryptsetup.target\n"
			  "Conflicts=emergency.service\nBefore=emergency.service\n"
			  "Conflicts=shutdown.target\nBefore=shutdown.target\n\n"
			  "[Path]\nDirectoryNotEmpty=/run/systemd/ask-password\nMakeDirectory=yes\n")
	      == 0);
	CHECK(!svc.failed && warnings == 0 && errors == 0);
	CHECK(svc.kind == UNIT_PATH && svc.path_unit.count == 1);
	CHECK(entry_is(0, PATH_DIR_NOT_EMPTY, "/run/systemd/ask-password"));
	CHECK(!entry_is(1, PATH_DIR_NOT_EMPTY, "/run/systemd/ask-password"));
	CHECK(svc.path_unit.flags == PATH_MAKE_DIRECTORY);
	CHECK(strcmp(service_trigger_target(&svc, target, sizeof target),
		     "systemd-ask-password-console") == 0);
	CHECK(listed(&svc.before, "systemd-ask-password-console")); /* implicit */
	CHECK(listed(&svc.before, "paths.target"));
}

/* A path unit whose replaced values fill its 8 KiB text store is compacted while it is
 * read: its watches and Unit= must survive that (they were once left out of it). */
static void watches_survive_compaction(void)
{
	char target[SERVICE_NAME_MAX];

	CHECK(parse_named("x.path", unit_with_replaced_text("[Path]\nPathExists=/run/x\n"
							     "Unit=y.service\n")) == 0);
	CHECK(service_str(&svc, svc.description)[0] == REPLACED_TEXT_LAST); /* compacted */
	CHECK(svc.path_unit.count == 1 && entry_is(0, PATH_EXISTS, "/run/x"));
	CHECK_STR(service_trigger_target(&svc, target, sizeof target), "y");
}

static void cups_and_specifiers(void)
{
	char target[SERVICE_NAME_MAX];

	CHECK(parse_named("cups.path", "[Unit]\nDescription=CUPS Scheduler\n"
			  "PartOf=cups.service\n\n[Path]\n"
			  "PathExists=/var/cache/cups/org.cups.cupsd\n\n"
			  "[Install]\nWantedBy=multi-user.target\n") == 0);
	CHECK(!svc.failed && warnings == 0 && entry_is(0, PATH_EXISTS, "/var/cache/cups/org.cups.cupsd"));
	CHECK(strcmp(service_trigger_target(&svc, target, sizeof target), "cups") == 0);
	/* %t expands, paths are tidied as systemd's path_simplify() does, Unit= is kept */
	CHECK(parse_named("spool.path", "[Path]\nPathExistsGlob=//var/spool/./x/*.job/\n"
			  "PathChanged=/etc/%n\nPathModified=/var/log/x.log\nUnit=x.target\n"
			  "DirectoryMode=0700\nTriggerLimitBurst=5\nTriggerLimitIntervalSec=1min\n") == 0);
	CHECK(!svc.failed && svc.path_unit.count == 3);
	CHECK(entry_is(0, PATH_EXISTS_GLOB, "/var/spool/x/*.job"));
	CHECK(entry_is(1, PATH_CHANGED, "/etc/spool.path"));
	CHECK(entry_is(2, PATH_MODIFIED, "/var/log/x.log"));
	CHECK(strcmp(service_trigger_target(&svc, target, sizeof target), "x.target") == 0);
	CHECK(svc.path_unit.directory_mode == 0700 && svc.path_unit.limit_burst == 5 &&
	      svc.path_unit.limit_interval_ms == 60000);
	CHECK(svc.path_unit.flags == (PATH_LIMIT_BURST_SET | PATH_LIMIT_INTERVAL_SET));
}

static void empty_assignment_resets(void)
{
	CHECK(parse_named("a.path", "[Path]\nPathExists=/a\nPathChanged=/b\nPathExists=\n"
			  "DirectoryNotEmpty=/c\n") == 0);
	CHECK(!svc.failed && svc.path_unit.count == 1 && entry_is(0, PATH_DIR_NOT_EMPTY, "/c"));
}

static void refused(const char *name, const char *text, const char *why)
{
	parse_named(name, text);
	CHECK(svc.failed);
	CHECK(strstr(svc.error, why) != NULL);
	if (!strstr(svc.error, why))
		fprintf(stderr, "  %s: %s\n", name, svc.error);
}

static void bad_path_units_fail_with_a_reason(void)
{
	refused("a.path", "[Path]\nUnit=b.service\n", "nothing to watch");
	refused("a.path", "[Path]\nPathExists=relative\n", "expected an absolute path");
	refused("a.path", "[Path]\nPathExists=/var/../etc/shadow\n", "without \"..\"");
	refused("a.path", "[Path]\nPathExists=/a\nUnit=b.path\n", "not a path unit");
	refused("a.path", "[Path]\nPathExists=/a\nUnit=getty@.service\n", "not a template");
	refused("a.path", "[Path]\nPathExists=/a\nUnit=a.path\n", "not a path unit");
	refused("a.path", "[Path]\nPathExists=/a\nMakeDirectory=perhaps\n", "expected yes or no");
	refused("a.path", "[Path]\nPathExists=/a\nDirectoryMode=rwx\n", "octal mode");
	refused("a.path", "[Path]\nPathExists=/a\nTriggerLimitBurst=many\n", "expected a number");
	refused("a.path", "[Path]\nPathExists=/a\nTriggerLimitIntervalSec=soon\n", "time span");
	refused("a.path", "[Path]\nPathExists=/1\nPathExists=/2\nPathExists=/3\nPathExists=/4\n"
		"PathExists=/5\nPathExists=/6\nPathExists=/7\nPathExists=/8\nPathExists=/9\n",
		"more than 8 paths");
	refused("x@.path", "[Path]\nPathExists=/a\n", "a template");
}

static void path_section_only_in_path_units(void)
{
	/* [Path] in a service is an unknown section (its keys ignored), as on systemd */
	CHECK(parse_named("svc", "[Service]\nExecStart=/bin/true\n[Path]\nPathExists=/a\n") == 0);
	CHECK(!svc.failed && warnings == 1 && svc.path_unit.count == 0);
}

int main(void)
{
	RUN(debian_ask_password_console);
	RUN(watches_survive_compaction);
	RUN(cups_and_specifiers);
	RUN(empty_assignment_resets);
	RUN(bad_path_units_fail_with_a_reason);
	RUN(path_section_only_in_path_units);
	return harness_done();
}
