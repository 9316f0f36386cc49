// sources: init/service.c init/unit-runtime-keys.c init/exec-line.c init/socket-unit.c init/condition.c init/unit-compat.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* socket-exec: the commands of a .socket unit in the parser. ExecStartPre=, ExecStartPost=,
 * ExecStopPre=, ExecStopPost= and TimeoutSec= in [Socket], the exec keys they run with,
 * prefixes kept for the supervisor, and bad lines failing the unit with key and reason,
 * as they fail a service. Running them: tests/integration/test-socket-exec.sh. */
#include "harness.h"
#include "../../init/exec-line.h"
#include "../../init/service.h"
#include "../../init/socket-unit.h"
#include "../../init/unit-compat.h"

#include <stdio.h>
#include <string.h>

static struct service svc;
static int warnings, errors;
static char first_error[512], first_warning[512];

static void record(void *ctx, enum service_severity severity, const char *file, unsigned line,
		   const char *message)
{
	char *dst = severity == SERVICE_WARNING ? first_warning : first_error;
	int *count = severity == SERVICE_WARNING ? &warnings : &errors;

	(void)ctx;
	if (severity == SERVICE_NOTE)
		return;
	if ((*count)++ == 0)
		snprintf(dst, sizeof first_error, "%s:%u: %s", file, line, message);
}

static const struct service_diag diag = { record, NULL, false };

static int parse_socket(const char *text)
{
	warnings = errors = 0;
	first_error[0] = first_warning[0] = '\0';
	service_init(&svc, "demo.socket", "/etc/ember/services/demo.socket");
	svc.kind = UNIT_SOCKET;
	return service_parse(&svc, text, strlen(text), &diag);
}

static const char *line_of(const struct service_exec_list *l, unsigned i)
{
	return i < l->count ? service_str(&svc, l->line[i]) : "(none)";
}

/* Debian's cockpit.socket, as shipped in cockpit-ws. */
static void cockpit_socket_loads_clean(void)
{
	CHECK(parse_socket("[Unit]\nDescription=Cockpit Web Service Socket\n"
			   "Documentation=man:cockpit-ws(8)\nWants=cockpit-motd.service\n\n"
			   "[Socket]\nListenStream=9090\n"
			   "ExecStartPost=-/usr/share/cockpit/motd/update-motd '' localhost\n"
			   "ExecStartPost=-/bin/ln -snf active.motd /run/cockpit/motd\n"
			   "ExecStopPost=-/bin/ln -snf inactive.motd /run/cockpit/motd\n\n"
			   "[Install]\nWantedBy=sockets.target\n") == 0);
	CHECK(errors == 0);
	CHECK(warnings == 0);
	if (warnings)
		printf("      %s\n", first_warning);
	CHECK(svc.exec_start_post.count == 2);
	CHECK_STR(line_of(&svc.exec_start_post, 1), "-/bin/ln -snf active.motd /run/cockpit/motd");
	CHECK(exec_line_prefixes(line_of(&svc.exec_start_post, 0)) & EXEC_IGNORE_FAILURE);
	CHECK(svc.exec_stop_post.count == 1);
	CHECK(svc.exec_start_pre.count == 0 && svc.sock.exec_stop_pre.count == 0);
}

static void all_four_keys_in_order(void)
{
	CHECK(parse_socket("[Socket]\nListenStream=/run/demo.sock\n"
			   "ExecStartPre=/bin/mkdir -p /run/demo\nExecStartPre=-/bin/false\n"
			   "ExecStartPost=+/bin/touch /run/demo/up\n"
			   "ExecStopPre=!/bin/rm -f /run/demo/up\nExecStopPre=@/bin/echo echo bye\n"
			   "ExecStopPost=/bin/rmdir /run/demo\nTimeoutSec=7s\n") == 0);
	CHECK(errors == 0 && warnings == 0);
	CHECK(svc.exec_start_pre.count == 2);
	CHECK_STR(line_of(&svc.exec_start_pre, 0), "/bin/mkdir -p /run/demo");
	CHECK(exec_line_prefixes(line_of(&svc.exec_start_pre, 1)) == EXEC_IGNORE_FAILURE);
	CHECK(exec_line_prefixes(line_of(&svc.exec_start_post, 0)) == EXEC_PRIVILEGED);
	CHECK(svc.sock.exec_stop_pre.count == 2);
	CHECK(exec_line_prefixes(line_of(&svc.sock.exec_stop_pre, 0)) == EXEC_NO_SETUID);
	CHECK(exec_line_prefixes(line_of(&svc.sock.exec_stop_pre, 1)) == EXEC_ARGV0);
	CHECK_STR(line_of(&svc.exec_stop_post, 0), "/bin/rmdir /run/demo");
	/* TimeoutSec= bounds every command, the start's and the stop's */
	CHECK(svc.timeout_start_ms == 7000 && svc.timeout_stop_ms == 7000);
	/* a socket has no ExecStop=: ExecStopPre= is its own list */
	CHECK(svc.exec_stop.count == 0);
}

static void empty_assignment_resets(void)
{
	CHECK(parse_socket("[Socket]\nListenStream=80\nExecStartPre=/bin/true\nExecStartPre=\n"
			   "ExecStartPre=/bin/false\nExecStopPre=/bin/true\nExecStopPre=\n") == 0);
	CHECK(svc.exec_start_pre.count == 1);
	CHECK_STR(line_of(&svc.exec_start_pre, 0), "/bin/false");
	CHECK(svc.sock.exec_stop_pre.count == 0);
}

static void timeout_defaults_and_infinity(void)
{
	unsigned long start_default, stop_default;

	CHECK(parse_socket("[Socket]\nListenStream=80\n") == 0);
	start_default = svc.timeout_start_ms;
	stop_default = svc.timeout_stop_ms;
	CHECK(start_default == 90000); /* DefaultTimeoutStartSec= */
	CHECK(parse_socket("[Socket]\nListenStream=80\nTimeoutSec=infinity\n") == 0);
	CHECK(svc.timeout_start_ms == SERVICE_TIMEOUT_INFINITY);
	CHECK(parse_socket("[Socket]\nListenStream=80\nTimeoutSec=5s\nTimeoutSec=\n") == 0);
	CHECK(svc.timeout_start_ms == start_default && svc.timeout_stop_ms == stop_default);
	CHECK(parse_socket("[Socket]\nListenStream=80\nTimeoutSec=soon\n") < 0);
	CHECK(strstr(first_error, "TimeoutSec=soon") != NULL);
}

/* The exec keys systemd.exec(5) gives socket units, for their commands. */
static void exec_environment_keys(void)
{
	CHECK(parse_socket("[Socket]\nListenStream=/run/%N.sock\nUser=nobody\nGroup=nogroup\n"
			   "SupplementaryGroups=adm\nEnvironment=A=1 \"B=two words\"\n"
			   "EnvironmentFile=-/etc/default/%N\nWorkingDirectory=/tmp\nUMask=0027\n"
			   "Nice=5\nOOMScoreAdjust=100\nNoNewPrivileges=yes\n"
			   "StandardOutput=null\nStandardError=journal\nSyslogIdentifier=demo-cmds\n"
			   "KillMode=process\nKillSignal=SIGINT\nSendSIGKILL=no\n"
			   "ExecStartPre=/bin/echo $A\n") == 0);
	CHECK(errors == 0 && warnings == 0);
	if (errors || warnings)
		printf("      %s%s\n", first_error, first_warning);
	CHECK_STR(service_str(&svc, svc.user), "nobody");
	CHECK_STR(service_str(&svc, svc.group), "nogroup");
	CHECK(svc.group_count == 1);
	CHECK(svc.env_count == 2);
	CHECK_STR(service_str(&svc, svc.env[1]), "B=two words");
	CHECK(svc.envfile_count == 1 && svc.envfile[0].optional);
	CHECK_STR(service_str(&svc, svc.envfile[0].path), "/etc/default/demo");
	CHECK_STR(service_str(&svc, svc.working_directory), "/tmp");
	CHECK(svc.umask_set && svc.umask == 027);
	CHECK(svc.nice.set && svc.nice.value == 5);
	CHECK(svc.no_new_privileges);
	CHECK(svc.std_output.kind == OUTPUT_NULL);
	CHECK(svc.kill_mode == KILL_PROCESS && svc.kill_signal == 2 && !svc.send_sigkill);
	/* the socket's own keys are untouched by them */
	CHECK(svc.sock.user == 0 && svc.sock.group == 0);
}

/* A bad command line fails the unit, naming key and reason, as for a service. */
static void bad_lines_fail_the_unit(void)
{
	static const struct { const char *line, *want; } bad[] = {
		{ "ExecStartPre=bin/true", "ExecStartPre=bin/true" },
		{ "ExecStartPost=./run.sh", "ExecStartPost=./run.sh" },
		{ "ExecStopPre=/bin/echo 'open", "ExecStopPre=" },
		{ "ExecStopPost=--/bin/true", "ExecStopPost=--/bin/true" },
		{ "ExecStartPre=-", "ExecStartPre=-" },
		{ "ExecStartPre=*/bin/true", "ExecStartPre=*/bin/true" },
		{ "User=no body", "User=no body" },
	};
	char text[256];

	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		snprintf(text, sizeof text, "[Socket]\nListenStream=80\n%s\n", bad[i].line);
		int r = parse_socket(text);
		if (r == 0 || !strstr(first_error, bad[i].want))
			printf("      %s: %s\n", bad[i].line, r == 0 ? "accepted" : first_error);
		CHECK(r < 0);
		CHECK(strstr(first_error, bad[i].want) != NULL);
		CHECK(strstr(first_error, "demo.socket:3:") != NULL);
	}
}

static void more_than_eight_lines_refused(void)
{
	char text[1024] = "[Socket]\nListenStream=80\n";

	for (int i = 0; i < 9; i++)
		strcat(text, "ExecStopPre=/bin/true\n");
	CHECK(parse_socket(text) < 0);
	CHECK(strstr(first_error, "more than 8 command lines") != NULL);
}

/* The keys left the compat table: nothing says they are ignored any more. */
static void keys_are_implemented(void)
{
	static const char *const keys[] = { "ExecStartPre", "ExecStartPost", "ExecStopPre",
					     "ExecStopPost", "TimeoutSec", NULL };
	const char *section, *key;

	for (size_t k = 0; keys[k]; k++) {
		bool listed = false;
		CHECK(unit_compat_find("Socket", keys[k]) == NULL);
		for (size_t i = 0; (key = service_key_at(i, &section)); i++)
			listed |= strcmp(section, "Socket") == 0 && strcmp(key, keys[k]) == 0;
		CHECK(listed);
	}
}

/* Exec keys a socket unit does not take stay what they were: warned about, ignored. */
static void service_only_keys_still_warned(void)
{
	CHECK(parse_socket("[Socket]\nListenStream=80\nExecStart=/bin/true\n") == 0);
	CHECK(warnings == 1 && strstr(first_warning, "ExecStart: unknown key in [Socket]"));
	CHECK(svc.exec_start.count == 0);
}

int main(void)
{
	RUN(cockpit_socket_loads_clean);
	RUN(all_four_keys_in_order);
	RUN(empty_assignment_resets);
	RUN(timeout_defaults_and_infinity);
	RUN(exec_environment_keys);
	RUN(bad_lines_fail_the_unit);
	RUN(more_than_eight_lines_refused);
	RUN(keys_are_implemented);
	RUN(service_only_keys_still_warned);
	return harness_done();
}
