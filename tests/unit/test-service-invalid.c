// sources: init/service.c init/unit-runtime-keys.c init/exec-line.c init/socket-unit.c init/condition.c init/unit-compat.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* Invalid service files: each bad value fails the service with a message naming the
 * file, the line, the key and the reason; syntax errors too. */
#include "harness.h"
#include "../../init/service.h"

#include <stdio.h>
#include <string.h>

static struct service svc;
static int warnings, errors;
static char first_error[512];

static void record(void *ctx, enum service_severity severity, const char *file, unsigned line,
		   const char *message)
{
	if (severity == SERVICE_WARNING) {
		warnings++;
		return;
	}
	if (errors++ == 0)
		snprintf(first_error, sizeof first_error, "%s:%u: %s", file, line, message);
}

static const struct service_diag diag = { record, NULL, false };

static int parse_bytes(const char *text, size_t len)
{
	warnings = errors = 0;
	first_error[0] = '\0';
	service_init(&svc, "bad", "/run/ember/services/bad.service");
	return service_parse(&svc, text, len, &diag);
}

static int parse(const char *text)
{
	return parse_bytes(text, strlen(text));
}

/* One bad [Service] or [Unit] line, the reason expected in the message. */
struct bad_value {
	const char *section;
	const char *line;
	const char *why;
};

static const struct bad_value bad_values[] = {
	{ "Unit", "After=a/b", "not a valid unit name" },
	{ "Unit", "Before=.hidden", "not a valid unit name" },
	{ "Unit", "Requires=x y@.socket.service", "not a valid unit name" },
	{ "Unit", "Wants=-dash", "not a valid unit name" },
	{ "Unit", "BindsTo=a%z", "unknown specifier %z" },
	{ "Unit", "Conflicts=@x", "not a valid unit name" },
	{ "Unit", "DefaultDependencies=maybe", "expected" },
	{ "Install", "WantedBy=multi/user.target", "not a valid unit name" },
	{ "Install", "DefaultInstance=a/b", "not a valid instance name" },
	{ "Unit", "ConditionPathExists=relative/path", "expected an absolute path" },
	{ "Unit", "ConditionPathExists=!", "expected an absolute path" },
	{ "Unit", "ConditionPathExists=/a/../b", "expected an absolute path" },
	{ "Unit", "Description=100%d", "specifier %d is not supported" },
	{ "Service", "Type=Simple", "expected simple, exec, forking, oneshot, notify, notify-reload, dbus or idle" },
	{ "Service", "ExecStartPre=rel/ative", "neither an absolute path nor a bare name" },
	{ "Service", "ExecStartPost=|/bin/true", "prefix '|'" },
	{ "Service", "ExecReload=+!/bin/true", "exclude each other" },
	{ "Service", "KillMode=group", "expected control-group, mixed, process or none" },
	{ "Service", "SuccessExitStatus=256", "an exit code is 0 to 255" },
	{ "Service", "RestartPreventExitStatus=SIGNOPE", "signal names" },
	{ "Service", "FinalKillSignal=SIGBOGUS", "expected a signal name" },
	{ "Service", "ExitType=process", "expected main or cgroup" },
	{ "Service", "PIDFile=../x.pid", "expected a clean path" },
	{ "Service", "ExecStop=/bin/echo \"open", "unterminated \" quote" },
	{ "Service", "ExecStart=!+/bin/true", "exclude each other" },
	{ "Service", "Restart=on-succes", "expected no, always, on-success, on-failure, on-abnormal, on-abort or on-watchdog" },
	{ "Service", "Restart=yes", "expected no, always, on-success, on-failure, on-abnormal, on-abort or on-watchdog" },
	{ "Service", "RestartSec=soon", "expected a time span" },
	{ "Service", "RestartSec=-1", "expected a time span" },
	{ "Service", "RestartSec=infinity", "expected a time span" },
	{ "Service", "RestartSec=1.5.5s", "expected a time span" }, /* 1.5s is valid */
	{ "Service", "RestartSec=5 fortnights", "expected a time span" },
	{ "Service", "TimeoutStartSec=5x", "expected a time span" },
	{ "Service", "TimeoutStopSec=s", "expected a time span" },
	{ "Service", "TimeoutSec=1fortnight", "expected a time span" },
	{ "Service", "KillSignal=SIGFOO", "expected a signal name" },
	{ "Service", "KillSignal=0", "expected a signal name" },
	{ "Service", "KillSignal=65", "expected a signal name" },
	{ "Service", "KillSignal=sigterm", "expected a signal name" },
	{ "Service", "User=bad user", "not a valid user or group name" },
	{ "Service", "User=-x", "not a valid user or group name" },
	{ "Service", "User=4294967295", "not a valid user or group name" },
	{ "Service", "User=averyveryveryveryverylongusername", "not a valid user or group name" },
	{ "Service", "Group=a/b", "not a valid user or group name" },
	{ "Service", "SupplementaryGroups=audio v:deo", "not a valid group name" },
	{ "Service", "WorkingDirectory=var/lib", "expected an absolute path or ~" },
	{ "Service", "WorkingDirectory=~/sub", "expected an absolute path or ~" },
	{ "Service", "Environment=1A=x", "expected NAME=value" },
	{ "Service", "Environment=NOEQUALS", "expected NAME=value" },
	{ "Service", "Environment=A-B=1", "expected NAME=value" },
	{ "Service", "Environment=\"A=unterminated", "unterminated \" quote" },
	{ "Service", "EnvironmentFile=relative", "expected an absolute path" },
	{ "Service", "EnvironmentFile=-", "expected an absolute path" },
	{ "Service", "UMask=0778", "expected an octal mode" },
	{ "Service", "UMask=01000", "expected an octal mode" },
	{ "Service", "UMask=rwx", "expected an octal mode" },
	{ "Service", "LimitNOFILE=lots", "expected a limit" },
	{ "Service", "LimitNOFILE=10:5", "soft limit is above the hard limit" },
	{ "Service", "LimitNOFILE=1:2:3", "expected a limit" },
	{ "Service", "LimitCORE=5Q", "expected a limit" },
	{ "Service", "LimitNICE=41", "expected a limit" },
	{ "Service", "LimitNICE=+20", "expected a limit" },
	{ "Service", "LimitCPU=-1", "expected a limit" },
	{ "Service", "Nice=20", "expected an integer from -20 to 19" },
	{ "Service", "Nice=-21", "expected an integer from -20 to 19" },
	{ "Service", "Nice=low", "expected an integer from -20 to 19" },
	{ "Service", "OOMScoreAdjust=1001", "expected an integer from -1000 to 1000" },
	{ "Service", "NoNewPrivileges=maybe", "expected yes or no" },
	{ "Service", "Essential=2", "expected yes or no" },
	{ "Service", "AmbientCapabilities=CAP_FLY", "unknown capability" },
	{ "Service", "CapabilityBoundingSet=~SYS_ADMIN", "unknown capability" },
	{ "Service", "MemoryMax=150%", "expected a percentage from 0% to 100%" },
	{ "Service", "MemoryMax=5.555%", "expected a percentage from 0% to 100%" },
	{ "Service", "MemoryHigh=-1", "expected bytes" },
	{ "Service", "TasksMax=0", "expected a positive number, a percentage or infinity" },
	{ "Service", "TasksMax=%", "expected a percentage from 0% to 100%" },
	{ "Service", "TasksMax=10%%", "expected a percentage from 0% to 100%" },
	{ "Service", "TasksMax=-5%", "expected a percentage from 0% to 100%" },
	{ "Service", "OOMPolicy=sometimes", "expected continue, stop or kill" },
	{ "Service", "CPUWeight=0", "expected a weight from 1 to 10000" },
	{ "Service", "IOWeight=10001", "expected a weight from 1 to 10000" },
	{ "Service", "StandardOutput=syslog+kmsg", "expected inherit, null, tty, journal" },
	{ "Service", "StandardOutput=file:relative", "the file must be an absolute path" },
	{ "Service", "StandardError=KMSG", "expected inherit, null, tty, journal, syslog, kmsg" },
	/* U5: execution environment */
	{ "Service", "StandardInput=data", "data is not supported" },
	{ "Service", "StandardInput=file:rel", "the file must be an absolute path" },
	{ "Service", "TTYPath=/etc/passwd", "expected a terminal under /dev/" },
	{ "Service", "TTYReset=sometimes", "expected yes or no" },
	{ "Service", "RuntimeDirectory=/run/x", "must be relative" },
	{ "Service", "StateDirectory=a/../../etc", "no empty, \".\" or \"..\" components" },
	{ "Service", "CacheDirectory=../b", "no empty" },
	{ "Service", "LogsDirectory=a/../b", "no empty, \".\" or \"..\" components" },
	{ "Service", "ConfigurationDirectory=a:b", "PATH:SYMLINK form is not supported" },
	{ "Service", "RuntimeDirectoryMode=0788", "expected an octal mode" },
	{ "Service", "StateDirectoryMode=u+rwx", "expected an octal mode" },
	{ "Service", "RuntimeDirectoryPreserve=later", "expected yes, no or restart" },
	{ "Service", "ProtectSystem=very", "expected yes, no, full or strict" },
	{ "Service", "ProtectHome=hidden", "expected yes, no, read-only or tmpfs" },
	{ "Service", "ReadOnlyPaths=etc", "expected an absolute path" },
	{ "Service", "ReadWritePaths=/a/../b", "expected an absolute path" },
	{ "Service", "InaccessiblePaths=-/a/./b", "expected an absolute path" },
	{ "Service", "NoExecPaths=/a/.", "expected an absolute path" },
	{ "Service", "InaccessiblePaths=+/x", "the + prefix" },
	{ "Service", "PrivateTmp=perhaps", "expected yes or no" },
	{ "Service", "LogRateLimitBurst=-1", "expected a number up to 1000000 (0: no limit)" },
	{ "Service", "LogRateLimitBurst=1000001", "expected a number up to 1000000" },
	{ "Service", "LogRateLimitIntervalSec=2h", "such as 5s, 500ms or 1min, up to 3600s" },
	{ "Service", "LogRateLimitIntervalSec=soon", "expected a time span such as 5s" },
	{ "Unit", "StartLimitBurst=1000001", "expected a number up to 1000000" },
};

static void every_key_rejects_bad_values(void)
{
	for (size_t i = 0; i < sizeof bad_values / sizeof *bad_values; i++) {
		const struct bad_value *b = &bad_values[i];
		char text[512];
		snprintf(text, sizeof text, "[Service]\nExecStart=/bin/true\n[%s]\n%s\n", b->section,
			 b->line);
		if (parse(text) == 0 || !svc.failed || errors < 1 || !strstr(first_error, b->why) ||
		    !strstr(first_error, "/run/ember/services/bad.service:4: ")) {
			printf("  %s: accepted or wrong message: \"%s\"\n", b->line, first_error);
			CHECK(0);
		}
	}
}

static void message_names_key_value_and_line(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/true\nRestart=sometimes\n") < 0);
	CHECK_STR(first_error, "/run/ember/services/bad.service:3: Restart=sometimes: expected no, "
			       "always, on-success, on-failure, on-abnormal, on-abort or on-watchdog");
	CHECK_STR(svc.error, "line 3: Restart=sometimes: expected no, always, on-success, "
			     "on-failure, on-abnormal, on-abort or on-watchdog");
}

static void long_values_are_cut_in_messages(void)
{
	char text[1024];

	snprintf(text, sizeof text, "[Service]\nExecStart=/bin/true\nType=%0300d\n", 7);
	CHECK(parse(text) < 0);
	CHECK(strlen(first_error) < 200);
	CHECK(strstr(first_error, "...: expected simple") != NULL);
}

static void all_errors_are_reported_not_just_the_first(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/true\nNice=99\nUMask=9\nUser=a b\n") < 0);
	CHECK(errors == 3);
}

static void missing_exec_start(void)
{
	CHECK(parse("[Service]\nType=simple\n") < 0);
	CHECK(strstr(first_error, "no ExecStart=") != NULL);
	CHECK(strstr(first_error, ":0: ") != NULL);
	CHECK(parse("[Unit]\nDescription=nothing\n") < 0);
	CHECK(parse("") < 0);
	/* sockets-accept: as systemd, no Type= and no ExecStart= is a oneshot when ExecStop=
	 * or SuccessAction= is there (systemd-reboot.service) */
	CHECK(parse("[Unit]\nSuccessAction=reboot-force\n") == 0);
	CHECK(svc.type == SERVICE_ONESHOT);
	CHECK(parse("[Service]\nExecStop=/bin/true\n") == 0);
	CHECK(parse("[Unit]\nSuccessAction=none\n") < 0);
	CHECK(parse("[Unit]\nSuccessAction=reboot\n[Service]\nType=simple\n") < 0);
	/* BusName= with no Type= is Type=dbus */
	CHECK(parse("[Service]\nExecStart=/bin/a\nBusName=org.example.A\n") == 0);
	CHECK(svc.type == SERVICE_DBUS);
	/* User=%i: expanded per instance, not checked as written */
	CHECK(parse("[Service]\nExecStart=/bin/a\nUser=%n\n") == 0);
}

static void several_exec_start_need_oneshot(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nExecStart=/bin/b\n") < 0);
	CHECK(strstr(first_error, "several ExecStart=") != NULL);
	CHECK(parse("[Service]\nType=notify\nExecStart=/bin/a\nExecStart=/bin/b\n") < 0);
}

static void oneshot_cannot_restart_always(void)
{
	CHECK(parse("[Service]\nType=oneshot\nExecStart=/bin/a\nRestart=always\n") < 0);
	CHECK(strstr(first_error, "Restart=always is not allowed with Type=oneshot") != NULL);
	/* U2: as systemd, on-success neither (it would run the oneshot forever) */
	CHECK(parse("[Service]\nType=oneshot\nExecStart=/bin/a\nRestart=on-success\n") < 0);
	CHECK(strstr(first_error, "Restart=on-success is not allowed with Type=oneshot") != NULL);
	/* U2: several ExecStart= only for a oneshot, for each new type too */
	CHECK(parse("[Service]\nType=forking\nExecStart=/bin/a\nExecStart=/bin/b\n") < 0);
	CHECK(strstr(first_error, "only Type=oneshot may have more than one") != NULL);
	CHECK(parse("[Service]\nType=exec\nExecStart=/bin/a\nExecStart=/bin/b\n") < 0);
}

static void missing_section_header(void)
{
	/* Keys before any header are ignored with a warning; nothing is left to run. */
	CHECK(parse("ExecStart=/bin/true\n") < 0);
	CHECK(warnings == 1);
	CHECK(strstr(first_error, "no ExecStart=") != NULL);
}

static void malformed_section_headers(void)
{
	CHECK(parse("[Service\nExecStart=/bin/true\n") < 0);
	CHECK(strstr(first_error, ":1: invalid section header \"[Service\"") != NULL);
	CHECK(parse("[Service] trailing\nExecStart=/bin/true\n") < 0);
	CHECK(parse("[]\n[Service]\nExecStart=/bin/true\n") < 0);
	CHECK(strstr(first_error, ":1: invalid section header \"[]\"") != NULL);
}

static void line_without_equals(void)
{
	CHECK(parse("[Service]\nExecStart /bin/true\nExecStart=/bin/true\n") < 0);
	CHECK(strstr(first_error, ":2: expected KEY=VALUE or [Section]") != NULL);
}

static void assignment_without_key(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/true\n=value\n") < 0);
	CHECK(strstr(first_error, ":3: an assignment without a key") != NULL);
}

static void nul_byte(void)
{
	static const char text[] = "[Service]\nExecStart=/bin/true\nUser=ro\0ot\n";
	CHECK(parse_bytes(text, sizeof text - 1) < 0);
	CHECK(strstr(first_error, ":3: a NUL byte in the file") != NULL);
}

static void control_characters(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/true\x1b[31m\n") < 0);
	CHECK(strstr(first_error, ":2: control character 0x1b") != NULL);
	CHECK(parse("[Service]\nExecStart=/bin/true\x7f\n") < 0);
	CHECK(parse("[Service]\nExecStart=/bin/tr\bue\n") < 0);
}

static void overlong_line(void)
{
	static char text[SERVICE_LINE_MAX + 64];
	int n = snprintf(text, sizeof text, "[Service]\nExecStart=/bin/echo ");

	memset(text + n, 'x', SERVICE_LINE_MAX);
	strcpy(text + n + SERVICE_LINE_MAX, "\n");
	CHECK(parse(text) < 0);
	CHECK(strstr(first_error, ":2: line longer than 4095 bytes") != NULL);
}

static void overlong_continued_line(void)
{
	static char text[SERVICE_LINE_MAX * 2];
	size_t n = (size_t)snprintf(text, sizeof text, "[Service]\nExecStart=/bin/echo \\\n");

	for (int i = 0; i < 100; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "%050d \\\n", i);
	strcpy(text + n, "end\nUser=\x01\n");
	CHECK(parse(text) < 0);
	CHECK(strstr(first_error, ":2: line longer than") != NULL);
	CHECK(errors == 2); /* the line after the long one is still read */
}

static void longest_line_that_fits(void)
{
	static char text[SERVICE_LINE_MAX + 64];
	const char *head = "ExecStart=/bin/echo ";
	int n = snprintf(text, sizeof text, "[Service]\n%s", head);
	size_t fill = SERVICE_LINE_MAX - 1 - strlen(head);

	memset(text + n, 'x', fill);
	strcpy(text + n + fill, "\n");
	CHECK(parse(text) == 0);
}

static void file_over_the_size_cap(void)
{
	static char text[SERVICE_FILE_MAX + 2];

	for (size_t i = 0; i < sizeof text; i++)
		text[i] = i % 2 ? '\n' : '#';
	CHECK(parse_bytes(text, SERVICE_FILE_MAX + 1) < 0);
	CHECK(strstr(first_error, "more than the limit of 65536") != NULL);
	CHECK(parse_bytes(text, SERVICE_FILE_MAX) < 0); /* fits, but has no ExecStart= */
	CHECK(strstr(first_error, "no ExecStart=") != NULL);
}

static void ten_thousand_bad_lines_stay_bounded(void)
{
	static char text[SERVICE_FILE_MAX];
	size_t n = (size_t)snprintf(text, sizeof text, "[Service]\nExecStart=/bin/true\n");
	int lines = 2;

	while (n + 8 < sizeof text && lines < 10000) {
		n += (size_t)snprintf(text + n, sizeof text - n, "N=\x01\n");
		lines++;
	}
	CHECK(lines == 10000);
	CHECK(parse_bytes(text, n) < 0);
	CHECK(errors == 9998);
	CHECK_STR(svc.error, "line 3: control character 0x01 in the file");
}

static void too_many_command_lines_any_number_of_names(void)
{
	char text[4096], last[16];
	size_t n = (size_t)snprintf(text, sizeof text, "[Service]\nExecStart=/bin/true\n[Unit]\nAfter=");

	/* A name list has no limit (systemd has none): names past SERVICE_DEPS_MAX count. */
	for (int i = 0; i <= SERVICE_DEPS_MAX; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "s%d ", i);
	CHECK(parse(text) == 0);
	CHECK(service_list_count(&svc.after) == SERVICE_DEPS_MAX + 1);
	snprintf(last, sizeof last, "s%d", SERVICE_DEPS_MAX);
	CHECK(service_lists(&svc, &svc.after, last) && service_lists(&svc, &svc.after, "s0"));
	n = (size_t)snprintf(text, sizeof text, "[Service]\nType=oneshot\n");
	for (int i = 0; i <= SERVICE_EXEC_MAX; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "ExecStart=/bin/%d\n", i);
	CHECK(parse(text) < 0);
	CHECK(strstr(first_error, "more than 8 command lines") != NULL);
}

static void text_storage_exhausted(void)
{
	static char text[SERVICE_FILE_MAX];
	size_t n = (size_t)snprintf(text, sizeof text, "[Service]\nExecStart=/bin/true\n");

	/* 64 live assignments of 200 bytes do not fit in 8 KiB of values. */
	for (int i = 0; i < SERVICE_ENV_MAX; i++) {
		n += (size_t)snprintf(text + n, sizeof text - n, "Environment=V%d=", i);
		memset(text + n, 'v', 200);
		n += 200;
		text[n++] = '\n';
	}
	CHECK(parse_bytes(text, n) < 0);
	CHECK(strstr(first_error, "too much text in this file") != NULL);
}

static void unsupported_specifier_in_exec(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/echo %d\n") < 0);
	CHECK(strstr(first_error, "specifier %d is not supported (credentials directory: use "
			 "$CREDENTIALS_DIRECTORY") != NULL);
	CHECK(parse("[Service]\nExecStart=/bin/echo %z\n") < 0);
	CHECK(strstr(first_error, "unknown specifier %z (write %% for a %)") != NULL);
	CHECK(parse("[Service]\nExecStart=/bin/echo 100%\n") < 0);
}

static void unknown_keys_alone_do_not_fail(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/true\nBogus=1\nAlsoBogus=2\n") == 0);
	CHECK(warnings == 2 && errors == 0);
}

static void null_diag_still_keeps_the_error(void)
{
	service_init(&svc, "bad", "bad.service");
	CHECK(service_parse(&svc, "[Service]\nNice=x\n", 17, NULL) < 0);
	CHECK_STR(svc.error, "line 2: Nice=x: expected an integer from -20 to 19");
}

int main(void)
{
	RUN(every_key_rejects_bad_values);
	RUN(message_names_key_value_and_line);
	RUN(long_values_are_cut_in_messages);
	RUN(all_errors_are_reported_not_just_the_first);
	RUN(missing_exec_start);
	RUN(several_exec_start_need_oneshot);
	RUN(oneshot_cannot_restart_always);
	RUN(missing_section_header);
	RUN(malformed_section_headers);
	RUN(line_without_equals);
	RUN(assignment_without_key);
	RUN(nul_byte);
	RUN(control_characters);
	RUN(overlong_line);
	RUN(overlong_continued_line);
	RUN(longest_line_that_fits);
	RUN(file_over_the_size_cap);
	RUN(ten_thousand_bad_lines_stay_bounded);
	RUN(too_many_command_lines_any_number_of_names);
	RUN(text_storage_exhausted);
	RUN(unsupported_specifier_in_exec);
	RUN(unknown_keys_alone_do_not_fail);
	RUN(null_diag_still_keeps_the_error);
	return harness_done();
}
