// sources: init/service.c init/unit-runtime-keys.c init/exec-line.c init/socket-unit.c init/condition.c init/unit-compat.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* U5: the execution environment keys parse to what docs/services.md promises: standard
 * input and terminals, the output kinds real units use, directories, sandboxing. */
#include "harness.h"
#include "exec-context.h" /* enum exec_keyring */
#include "replaced-text.h"
#include "../../init/utmp.h"
#include "../../init/service.h"

#include <stdio.h>
#include <string.h>

static struct service svc;
static int warnings, errors;

static void record(void *ctx, enum service_severity severity, const char *file, unsigned line,
		   const char *message)
{
	(void)ctx; (void)file; (void)line; (void)message;
	if (severity == SERVICE_WARNING)
		warnings++;
	else
		errors++;
}

static const struct service_diag diag = { record, NULL, false };

static int parse(const char *text)
{
	warnings = errors = 0;
	service_init(&svc, "serial-getty-ttyS0", "/etc/ember/services/serial-getty-ttyS0.service");
	return service_parse(&svc, text, strlen(text), &diag);
}

#define S(ref) service_str(&svc, (ref))
#define E svc.execenv

static void defaults_change_nothing(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\n") == 0 && warnings == 0);
	CHECK(E.std_input == INPUT_NULL && svc.std_output.kind == OUTPUT_LOG);
	CHECK(svc.std_error.kind == OUTPUT_INHERIT && !svc.std_output.also_console);
	for (int i = 0; i < SERVICE_DIR_KINDS; i++)
		CHECK(E.dirs[i] == 0 && E.dir_mode[i] == 0755);
	CHECK(E.runtime_preserve == PRESERVE_NO && !service_sandboxed(&svc));
	CHECK(E.ignore_sigpipe); /* systemd's IgnoreSIGPIPE= default */
	CHECK(E.keyring_mode == EXEC_KEYRING_PRIVATE); /* systemd's KeyringMode= for services */
	CHECK(parse("[Service]\nExecStart=/bin/a\nKeyringMode=shared\n") == 0);
	CHECK(E.keyring_mode == EXEC_KEYRING_SHARED);
	CHECK(parse("[Service]\nExecStart=/bin/a\nKeyringMode=inherit\n") == 0);
	CHECK(E.keyring_mode == EXEC_KEYRING_INHERIT);
}

/* a mode ember does not know is refused with the unit, not taken for another one */
static void bad_keyring_mode_is_an_error(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nKeyringMode=session\n") < 0 && errors == 1);
	CHECK(parse("[Service]\nExecStart=/bin/a\nKeyringMode=Shared\n") < 0 && errors == 1);
}

/* Debian's serial-getty@.service, keys as shipped, instantiated by hand for ttyS0 (templates
 * and "@" in names come with the unit loader). */
static void serial_getty_keys(void)
{
	CHECK(parse("[Service]\nExecStart=-/sbin/agetty -o '-p -- \\\\u' --keep-baud 115200 - $TERM\n"
		    "Type=simple\nUtmpIdentifier=ttyS0\nStandardInput=tty\nStandardOutput=tty\n"
		    "TTYPath=/dev/ttyS0\nTTYReset=yes\nTTYVHangup=yes\nIgnoreSIGPIPE=no\n") == 0);
	CHECK(E.std_input == INPUT_TTY && svc.std_output.kind == OUTPUT_TTY);
	CHECK_STR(S(E.tty_path), "/dev/ttyS0");
	CHECK(E.tty_reset && E.tty_vhangup && !E.tty_vt_disallocate);
	CHECK(!E.ignore_sigpipe);
	CHECK_STR(S(E.utmp_id), "ttyS0");
	CHECK(E.utmp_mode == UTMP_MODE_INIT);
}

/* Debian's phosh.service: a user's utmp record on tty7 (init/utmp.c writes it). */
static void utmp_keys(void)
{
	CHECK(parse("[Service]\nExecStart=/usr/bin/phosh-session\nUser=1000\nPAMName=login\n"
		    "TTYPath=/dev/tty7\nStandardInput=tty-fail\nUtmpIdentifier=tty7\n"
		    "UtmpMode=user\n") == 0);
	CHECK_STR(S(E.utmp_id), "tty7");
	CHECK(E.utmp_mode == UTMP_MODE_USER);
	CHECK(parse("[Service]\nExecStart=/bin/a\nUtmpIdentifier=%N\nUtmpMode=login\n") == 0);
	CHECK(E.utmp_mode == UTMP_MODE_LOGIN);
	CHECK_STR(S(E.utmp_id), "serial-getty-ttyS0");
	CHECK(parse("[Service]\nExecStart=/bin/a\nUtmpIdentifier=tty7\nUtmpIdentifier=\n") == 0);
	CHECK(E.utmp_id == 0);
	CHECK(parse("[Service]\nExecStart=/bin/a\nUtmpMode=root\n") < 0);
	CHECK(parse("[Service]\nExecStart=/bin/a\nUtmpIdentifier=a b\n") < 0);
	CHECK(parse("[Service]\nExecStart=/bin/a\nUtmpIdentifier=\x1b[2J\n") < 0);
	CHECK(parse("[Service]\nExecStart=/bin/a\n"
		    "UtmpIdentifier=0123456789012345678901234567890123\n") < 0);
}

/* A unit whose replaced values fill its 8 KiB text store is compacted while it is read:
 * the utmp identifier must survive that (it was once left out of the compaction). */
static void utmp_id_survives_compaction(void)
{
	CHECK(parse(unit_with_replaced_text("[Service]\nExecStart=/bin/a\n"
					    "UtmpIdentifier=tty7\n")) == 0);
	CHECK(service_str(&svc, svc.description)[0] == REPLACED_TEXT_LAST); /* compacted */
	CHECK_STR(S(E.utmp_id), "tty7");
}

/* systemd: stdout follows a terminal or a socket on stdin unless StandardOutput= says
 * otherwise. */
static void tty_input_makes_stdout_inherit(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardInput=tty-force\n") == 0);
	CHECK(E.std_input == INPUT_TTY_FORCE && svc.std_output.kind == OUTPUT_INHERIT);
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardInput=tty-fail\nStandardOutput=null\n") == 0);
	CHECK(E.std_input == INPUT_TTY_FAIL && svc.std_output.kind == OUTPUT_NULL);
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardInput=file:/etc/motd\n") == 0);
	CHECK(E.std_input == INPUT_FILE && svc.std_output.kind == OUTPUT_LOG);
	CHECK_STR(S(E.input_path), "/etc/motd");
	/* a socket too (inetd style: Debian's tinysshd@ names only StandardInput=socket) */
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardInput=socket\n") == 0);
	CHECK(E.std_input == INPUT_SOCKET && svc.std_output.kind == OUTPUT_INHERIT &&
	      svc.std_error.kind == OUTPUT_INHERIT);
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardInput=socket\nStandardOutput=journal\n") == 0);
	CHECK(svc.std_output.kind == OUTPUT_LOG && svc.std_error.kind == OUTPUT_INHERIT);
}

static void output_kinds_of_real_units(void)
{
	static const struct { const char *value; enum service_output kind; bool console; } cases[] = {
		{ "journal", OUTPUT_LOG, false }, { "syslog", OUTPUT_LOG, false },
		{ "journal+console", OUTPUT_LOG, true }, { "syslog+console", OUTPUT_LOG, true },
		{ "kmsg+console", OUTPUT_KMSG, true }, { "tty", OUTPUT_TTY, false },
		{ "inherit", OUTPUT_INHERIT, false }, { "socket", OUTPUT_SOCKET, false },
		{ "null", OUTPUT_NULL, false },
	};
	char text[256];

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		snprintf(text, sizeof text, "[Service]\nExecStart=/bin/a\nStandardOutput=%s\n"
			 "StandardError=%s\n", cases[i].value, cases[i].value);
		CHECK(parse(text) == 0 && warnings == 0);
		CHECK(svc.std_output.kind == cases[i].kind && svc.std_error.kind == cases[i].kind);
		CHECK(svc.std_output.also_console == cases[i].console);
	}
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardOutput=append:/var/log/%n\n") == 0);
	CHECK(svc.std_output.kind == OUTPUT_APPEND);
	CHECK_STR(S(svc.std_output.path), "/var/log/serial-getty-ttyS0.service");
}

static void directories_lists_and_modes(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nRuntimeDirectory=foo foo/sub\n"
		    "RuntimeDirectory=bar\nStateDirectory=%p\nCacheDirectory=c\nLogsDirectory=l\n"
		    "ConfigurationDirectory=cfg\nRuntimeDirectoryMode=0700\nStateDirectoryMode=750\n"
		    "RuntimeDirectoryPreserve=restart\n") == 0);
	CHECK_STR(S(E.dirs[DIR_RUNTIME]), "foo foo/sub bar");
	CHECK_STR(S(E.dirs[DIR_STATE]), "serial-getty-ttyS0");
	CHECK_STR(S(E.dirs[DIR_CACHE]), "c");
	CHECK_STR(S(E.dirs[DIR_LOGS]), "l");
	CHECK_STR(S(E.dirs[DIR_CONFIGURATION]), "cfg");
	CHECK(E.dir_mode[DIR_RUNTIME] == 0700 && E.dir_mode[DIR_STATE] == 0750);
	CHECK(E.dir_mode[DIR_CACHE] == 0755);
	CHECK(E.runtime_preserve == PRESERVE_RESTART);
	/* an empty assignment resets the list */
	CHECK(parse("[Service]\nExecStart=/bin/a\nStateDirectory=a\nStateDirectory=\n"
		    "StateDirectory=b\nRuntimeDirectoryPreserve=yes\n") == 0);
	CHECK_STR(S(E.dirs[DIR_STATE]), "b");
	CHECK(E.runtime_preserve == PRESERVE_YES);
	/* sockets-accept: simplified as systemd does (irqbalance.service: irqbalance/) */
	CHECK(parse("[Service]\nExecStart=/bin/a\nRuntimeDirectory=irqbalance/ a//b/./c/\n") == 0);
	CHECK_STR(S(E.dirs[DIR_RUNTIME]), "irqbalance a/b/c");
	CHECK(parse("[Service]\nExecStart=/bin/a\nRuntimeDirectory=/abs/\n") < 0);
	CHECK(parse("[Service]\nExecStart=/bin/a\nRuntimeDirectory=./\n") < 0);
}

static void sandboxing_keys(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nPrivateTmp=yes\n") == 0 && service_sandboxed(&svc));
	CHECK(parse("[Service]\nExecStart=/bin/a\nProtectSystem=strict\nProtectHome=read-only\n"
		    "ReadWritePaths=/var/lib/x -/srv/maybe\nReadWritePaths=/data\n"
		    "InaccessiblePaths=-/root\nReadOnlyPaths=/etc\nPrivateDevices=yes\n"
		    "PrivateNetwork=true\nProtectKernelTunables=1\nProtectKernelModules=yes\n"
		    "ProtectControlGroups=on\n") == 0 && warnings == 0);
	CHECK(E.protect_system == PROTECT_SYSTEM_STRICT && E.protect_home == PROTECT_HOME_READ_ONLY);
	CHECK_STR(S(E.paths[PATHS_READ_WRITE]), "/var/lib/x -/srv/maybe /data");
	CHECK_STR(S(E.paths[PATHS_INACCESSIBLE]), "-/root");
	CHECK_STR(S(E.paths[PATHS_READ_ONLY]), "/etc");
	CHECK(E.private_devices && E.private_network && E.protect_kernel_tunables);
	CHECK(E.protect_kernel_modules && E.protect_control_groups);
	CHECK(parse("[Service]\nExecStart=/bin/a\nProtectSystem=yes\nProtectHome=tmpfs\n") == 0);
	CHECK(E.protect_system == PROTECT_SYSTEM_YES && E.protect_home == PROTECT_HOME_TMPFS);
	CHECK(parse("[Service]\nExecStart=/bin/a\nProtectSystem=full\nProtectSystem=no\n"
		    "ProtectHome=yes\nProtectHome=false\n") == 0);
	CHECK(!service_sandboxed(&svc));
}

/* BindPaths= and friends: haproxy's and redis's lines as Debian ships them, and entries
 * that refuse the unit. */
static void bind_and_exec_paths(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\n"
		    "BindReadOnlyPaths=/dev/log:/var/lib/haproxy/dev/log\n") == 0 && warnings == 0);
	CHECK_STR(S(E.paths[PATHS_BIND_RO]), "/dev/log:/var/lib/haproxy/dev/log");
	CHECK(service_sandboxed(&svc));
	CHECK(parse("[Service]\nExecStart=/bin/a\nNoExecPaths=/\n"
		    "ExecPaths=/usr/bin/redis-server /usr/lib /lib\n") == 0 && warnings == 0);
	CHECK_STR(S(E.paths[PATHS_NO_EXEC]), "/");
	CHECK_STR(S(E.paths[PATHS_EXEC]), "/usr/bin/redis-server /usr/lib /lib");
	CHECK(parse("[Service]\nExecStart=/bin/a\nBindPaths=-/srv/a:/b:norbind /c\n"
		    "BindPaths=/d:/e:rbind\n") == 0 && errors == 0);
	CHECK_STR(S(E.paths[PATHS_BIND]), "-/srv/a:/b:norbind /c /d:/e:rbind");
	CHECK(parse("[Service]\nExecStart=/bin/a\nBindPaths=/a\nBindPaths=\n") == 0);
	CHECK(E.paths[PATHS_BIND] == 0 && !service_sandboxed(&svc)); /* reset */
	static const char *const bad[] = {
		"relative", "/a:relative", "/a:/b:bogus", "/a:/b:rbind:x", "/a/../etc:/b",
		"/a:/b/../../etc", ":/b", "-", "/a:", "/a/./b:/c", "/a:/b/.", "/a::/b",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char text[256];
		snprintf(text, sizeof text, "[Service]\nExecStart=/bin/a\nBindPaths=%s\n", bad[i]);
		parse(text);
		if (errors == 0)
			printf("  accepted BindPaths=%s\n", bad[i]);
		CHECK(errors == 1);
	}
}

/* Strings of the new keys survive storage compaction (many replaced values). */
static void strings_survive_compaction(void)
{
	char text[65536];
	size_t n = (size_t)snprintf(text, sizeof text, "[Service]\nExecStart=/bin/a\n"
				    "TTYPath=/dev/tty7\nStateDirectory=keep\n");
	for (int i = 0; i < 400; i++)
		n += (size_t)snprintf(text + n, sizeof text - n,
				      "Description=replaced value number %d padding padding\n", i);
	CHECK(parse(text) == 0);
	CHECK_STR(S(E.tty_path), "/dev/tty7");
	CHECK_STR(S(E.dirs[DIR_STATE]), "keep");
}

/* journal: StandardOutput=journal is the default; the Syslog*= keys fill the stream's header. */
static void journal_is_the_default(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\n") == 0);
	CHECK(svc.std_output.kind == OUTPUT_LOG && svc.std_output.journal);
	CHECK(svc.std_error.kind == OUTPUT_INHERIT);
	CHECK(svc.syslog_priority == (3 << 3 | 6) && svc.syslog_level_prefix);
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardOutput=log\nStandardError=syslog\n") == 0);
	CHECK(!svc.std_output.journal && svc.std_error.journal);
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardOutput=log\nStandardOutput=\n") == 0);
	CHECK(svc.std_output.journal); /* empty: back to the default */
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardOutput=journal+console\n") == 0);
	CHECK(svc.std_output.journal && svc.std_output.also_console);
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardOutput=kmsg\n") == 0);
	CHECK(!svc.std_output.journal);
}

static void syslog_keys(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nSyslogIdentifier=my-%N\nSyslogLevel=warning\n"
		    "SyslogFacility=local7\nSyslogLevelPrefix=no\n") == 0 && warnings == 0);
	CHECK_STR(service_str(&svc, svc.syslog_identifier), "my-serial-getty-ttyS0");
	CHECK(svc.syslog_priority == (23 << 3 | 4) && !svc.syslog_level_prefix);
	/* the level and the facility are independent, in either order */
	CHECK(parse("[Service]\nExecStart=/bin/a\nSyslogFacility=auth\nSyslogLevel=debug\n") == 0);
	CHECK(svc.syslog_priority == (4 << 3 | 7));
	CHECK(parse("[Service]\nExecStart=/bin/a\nSyslogLevel=debug\nSyslogLevel=\n"
		    "SyslogIdentifier=x\nSyslogIdentifier=\n") == 0);
	CHECK(svc.syslog_priority == (3 << 3 | 6) && svc.syslog_identifier == 0);
}

static void bad_syslog_values_are_errors(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nSyslogLevel=loud\n") < 0 && errors > 0);
	CHECK(parse("[Service]\nExecStart=/bin/a\nSyslogFacility=local8\n") < 0 && errors > 0);
	CHECK(parse("[Service]\nExecStart=/bin/a\nSyslogFacility=12\n") < 0 && errors > 0);
	CHECK(parse("[Service]\nExecStart=/bin/a\nSyslogLevelPrefix=maybe\n") < 0 && errors > 0);
}

int main(void)
{
	RUN(defaults_change_nothing);
	RUN(bad_keyring_mode_is_an_error);
	RUN(serial_getty_keys);
	RUN(utmp_keys);
	RUN(utmp_id_survives_compaction);
	RUN(tty_input_makes_stdout_inherit);
	RUN(output_kinds_of_real_units);
	RUN(journal_is_the_default);
	RUN(syslog_keys);
	RUN(bad_syslog_values_are_errors);
	RUN(directories_lists_and_modes);
	RUN(sandboxing_keys);
	RUN(bind_and_exec_paths);
	RUN(strings_survive_compaction);
	return harness_done();
}
