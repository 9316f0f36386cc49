// sources: init/svc-lifecycle.c init/service.c init/unit-runtime-keys.c init/socket-unit.c init/exec-line.c init/condition.c init/unit-compat.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* U2: the lifecycle keys as parsed, and systemd's decisions on exits and restarts. */
#include "harness.h"
#include "service.h"
#include "svc-lifecycle.h"

#include <signal.h>

static struct service svc;

static int parse(const char *text)
{
	service_init(&svc, "t", "/t.service");
	return service_parse(&svc, text, strlen(text), NULL);
}

static void types(void)
{
	CHECK(parse("[Service]\nType=exec\nExecStart=/bin/a\n") == 0 && svc.type == SERVICE_EXEC);
	CHECK(parse("[Service]\nType=forking\nExecStart=/bin/a\n") == 0 && svc.type == SERVICE_FORKING);
	CHECK(parse("[Service]\nType=idle\nExecStart=/bin/a\n") == 0 && svc.type == SERVICE_IDLE);
	CHECK(parse("[Service]\nType=notify-reload\nExecStart=/bin/a\n") == 0 &&
	      svc.type == SERVICE_NOTIFY_RELOAD);
	CHECK(parse("[Service]\nType=bogus\nExecStart=/bin/a\n") < 0);
	CHECK(strstr(svc.error, "Type=bogus") != NULL);
}

static void defaults(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\n") == 0);
	CHECK(svc.kill_mode == KILL_CONTROL_GROUP && svc.exit_type == EXIT_TYPE_MAIN);
	CHECK(svc.final_kill_signal == SIGKILL && svc.reload_signal == SIGHUP);
	CHECK(svc.restart_kill_signal == 0 && svc.send_sigkill && !svc.send_sighup);
	CHECK(!svc.remain_after_exit && svc.pid_file == 0);
	CHECK(svc_stop_signal(&svc, false) == SIGTERM && svc_stop_signal(&svc, true) == SIGTERM);
}

static void lifecycle_keys(void)
{
	CHECK(parse("[Unit]\nOnFailure=rescue.service other\nOnSuccess=done\n"
		    "[Service]\nType=forking\nExecStart=/bin/a\nPIDFile=a.pid\n"
		    "ExecStartPost=-/bin/post\nExecReload=/bin/kill -HUP $MAINPID\n"
		    "ExecStopPost=/bin/cleanup %n\nRemainAfterExit=yes\nKillMode=mixed\n"
		    "KillSignal=SIGINT\nFinalKillSignal=SIGQUIT\nRestartKillSignal=USR1\n"
		    "ReloadSignal=SIGUSR2\nSendSIGKILL=no\nSendSIGHUP=yes\nExitType=cgroup\n") == 0);
	CHECK_STR(service_str(&svc, svc.pid_file), "/run/a.pid");
	CHECK(svc.on_failure.count == 2 && svc.on_success.count == 1);
	CHECK_STR(service_str(&svc, svc.on_failure.name[0]), "rescue");
	CHECK(svc.exec_start_post.count == 1 && svc.exec_reload.count == 1);
	CHECK_STR(service_str(&svc, svc.exec_stop_post.line[0]), "/bin/cleanup t.service");
	CHECK(svc.remain_after_exit && svc.kill_mode == KILL_MIXED && svc.exit_type == EXIT_TYPE_CGROUP);
	CHECK(svc.final_kill_signal == SIGQUIT && svc.restart_kill_signal == SIGUSR1);
	CHECK(svc.reload_signal == SIGUSR2 && !svc.send_sigkill && svc.send_sighup);
	CHECK(svc_stop_signal(&svc, false) == SIGINT && svc_stop_signal(&svc, true) == SIGUSR1);
	CHECK(svc_kills_leftovers(&svc));
	/* An empty value restores the default. */
	CHECK(parse("[Service]\nExecStart=/bin/a\nSendSIGKILL=no\nSendSIGKILL=\nKillMode=none\n"
		    "ExecStopPost=/bin/x\nExecStopPost=\n") == 0);
	CHECK(svc.send_sigkill && svc.exec_stop_post.count == 0 && !svc_kills_leftovers(&svc));
	CHECK(parse("[Service]\nExecStart=/bin/a\nKillMode=process\n") == 0 && !svc_kills_leftovers(&svc));
}

static void status_sets(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nSuccessExitStatus=1 2 SIGUSR1\n"
		    "SuccessExitStatus=255 KILL\n") == 0);
	CHECK(svc_status_in(&svc.success_status, 1, 0) && svc_status_in(&svc.success_status, 255, 0));
	CHECK(svc_status_in(&svc.success_status, 0, SIGUSR1) && svc_status_in(&svc.success_status, 0, SIGKILL));
	CHECK(!svc_status_in(&svc.success_status, 3, 0) && !svc_status_in(&svc.success_status, 0, SIGSEGV));
	CHECK(!svc_status_in(&svc.success_status, 0, 0));
	CHECK(parse("[Service]\nExecStart=/bin/a\nSuccessExitStatus=1\nSuccessExitStatus=\n") == 0);
	CHECK(!svc_status_in(&svc.success_status, 1, 0));
	CHECK(parse("[Service]\nExecStart=/bin/a\nSuccessExitStatus=-1\n") < 0);
	/* exit status names (systemd.exec(5)): Debian's systemd-tmpfiles units use DATAERR */
	CHECK(parse("[Service]\nExecStart=/bin/a\nSuccessExitStatus=DATAERR EXIT_FAILURE\n") == 0);
	CHECK(svc_status_in(&svc.success_status, 65, 0) && svc_status_in(&svc.success_status, 1, 0));
	CHECK(parse("[Service]\nExecStart=/bin/a\nRestartForceExitStatus=TEMPFALL\n") < 0);
	CHECK(strstr(svc.error, "exit status names (EXIT_FAILURE, DATAERR)") != NULL);
}

static void clean_exits(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nSuccessExitStatus=3 SIGUSR2\n") == 0);
	CHECK(svc_exit_clean(&svc, 0, 0) && svc_exit_clean(&svc, 3, 0) && !svc_exit_clean(&svc, 1, 0));
	CHECK(svc_exit_clean(&svc, 0, SIGTERM) && svc_exit_clean(&svc, 0, SIGHUP));
	CHECK(svc_exit_clean(&svc, 0, SIGINT) && svc_exit_clean(&svc, 0, SIGPIPE));
	CHECK(svc_exit_clean(&svc, 0, SIGUSR2) && !svc_exit_clean(&svc, 0, SIGKILL));
	CHECK(svc_exit_result(&svc, 1, 0) == SVC_RESULT_EXIT_CODE);
	CHECK(svc_exit_result(&svc, 0, SIGSEGV) == SVC_RESULT_SIGNAL);
	CHECK(svc_exit_result(&svc, 0, SIGTERM) == SVC_RESULT_SUCCESS);
	/* A oneshot is a command: SIGTERM is no clean end for it (SIGPIPE still is). */
	CHECK(parse("[Service]\nType=oneshot\nExecStart=/bin/a\n") == 0);
	CHECK(!svc_exit_clean(&svc, 0, SIGTERM) && svc_exit_clean(&svc, 0, SIGPIPE));
}

/* systemd.service(5)'s table: rows Restart=, columns how the run ended. */
static void restart_table(void)
{
	static const struct {
		const char *mode;
		bool clean, code, sig, timeout, watchdog;
	} rows[] = {
		{ "no", 0, 0, 0, 0, 0 },          { "always", 1, 1, 1, 1, 1 },
		{ "on-success", 1, 0, 0, 0, 0 },  { "on-failure", 0, 1, 1, 1, 1 },
		{ "on-abnormal", 0, 0, 1, 1, 1 }, { "on-abort", 0, 0, 1, 0, 0 },
		{ "on-watchdog", 0, 0, 0, 0, 1 },
	};
	char text[128];

	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		snprintf(text, sizeof text, "[Service]\nExecStart=/bin/a\nRestart=%s\n", rows[i].mode);
		CHECK(parse(text) == 0);
		if (svc_restart_wanted(&svc, SVC_RESULT_SUCCESS, 0, 0) != rows[i].clean ||
		    svc_restart_wanted(&svc, SVC_RESULT_EXIT_CODE, 1, 0) != rows[i].code ||
		    svc_restart_wanted(&svc, SVC_RESULT_SIGNAL, 0, SIGSEGV) != rows[i].sig ||
		    svc_restart_wanted(&svc, SVC_RESULT_TIMEOUT, -1, 0) != rows[i].timeout ||
		    svc_restart_wanted(&svc, SVC_RESULT_WATCHDOG, -1, 0) != rows[i].watchdog ||
		    svc_restart_wanted(&svc, SVC_RESULT_DEPENDENCY, -1, 0)) { /* never: systemd */
			printf("  Restart=%s: wrong row\n", rows[i].mode);
			CHECK(0);
		}
	}
}

static void prevent_and_force(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nRestart=on-failure\nRestartPreventExitStatus=2 SIGABRT\n"
		    "RestartForceExitStatus=0 7\n") == 0);
	CHECK(!svc_restart_wanted(&svc, SVC_RESULT_EXIT_CODE, 2, 0));
	CHECK(!svc_restart_wanted(&svc, SVC_RESULT_SIGNAL, 0, SIGABRT));
	CHECK(svc_restart_wanted(&svc, SVC_RESULT_EXIT_CODE, 1, 0));
	CHECK(svc_restart_wanted(&svc, SVC_RESULT_SUCCESS, 0, 0)); /* forced */
	CHECK(parse("[Service]\nExecStart=/bin/a\nRestartPreventExitStatus=5\nRestartForceExitStatus=5\n") == 0);
	CHECK(!svc_restart_wanted(&svc, SVC_RESULT_EXIT_CODE, 5, 0)); /* prevent wins */
	CHECK(parse("[Service]\nExecStart=/bin/a\nRestartForceExitStatus=SIGHUP\n") == 0);
	CHECK(svc_restart_wanted(&svc, SVC_RESULT_SUCCESS, 0, SIGHUP)); /* Restart=no, forced */
	CHECK(!svc_restart_wanted(&svc, SVC_RESULT_SUCCESS, 0, 0));
}

static void descriptions(void)
{
	char buf[96];
	svc_describe_exit(3, 0, buf, sizeof buf);
	CHECK_STR(buf, "main process exited with status 3");
	svc_describe_exit(139, SIGSEGV, buf, sizeof buf);
	CHECK_STR(buf, "main process killed by SIGSEGV (status 139)");
	CHECK_STR(svc_result_name(SVC_RESULT_TIMEOUT), "timeout");
}

static void validation(void)
{
	CHECK(parse("[Service]\nType=oneshot\nExecStart=/bin/a\nExecStart=/bin/b\nRemainAfterExit=yes\n") == 0);
	CHECK(parse("[Service]\nType=notify-reload\nExecStart=/bin/a\nExecStart=/bin/b\n") < 0);
	CHECK(parse("[Service]\nType=oneshot\nExecStart=/bin/a\nRestart=on-success\n") < 0);
	CHECK(parse("[Service]\nType=oneshot\nExecStart=/bin/a\nRestart=on-abort\n") == 0);
	CHECK(parse("[Service]\nExecStart=/bin/a\nPIDFile=/run/../etc/x\n") < 0);
	CHECK(parse("[Service]\nExecStart=sshd -D\nExecReload=kill -HUP $MAINPID\n") == 0);
}

int main(void)
{
	RUN(types);
	RUN(defaults);
	RUN(lifecycle_keys);
	RUN(status_sets);
	RUN(clean_exits);
	RUN(restart_table);
	RUN(prevent_and_force);
	RUN(descriptions);
	RUN(validation);
	return harness_done();
}
