/* Service lifecycle decisions, by systemd.service(5)'s tables. See svc-lifecycle.h. */
#include "svc-lifecycle.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

bool svc_status_in(const struct service_status_set *set, int code, int sig)
{
	if (sig > 0)
		return sig <= 64 && (set->signal >> (sig - 1) & 1u);
	return code >= 0 && code <= 255 && (set->code[code / 8] >> (code % 8) & 1u);
}

bool svc_exit_clean(const struct service *s, int code, int sig)
{
	if (svc_status_in(&s->success_status, code, sig))
		return true;
	if (sig == 0)
		return code == 0;
	if (sig == SIGPIPE)
		return true;
	/* A daemon ends this way when asked to; a command (oneshot) should not. */
	return s->type != SERVICE_ONESHOT && (sig == SIGHUP || sig == SIGINT || sig == SIGTERM);
}

enum svc_result svc_exit_result(const struct service *s, int code, int sig)
{
	if (svc_exit_clean(s, code, sig))
		return SVC_RESULT_SUCCESS;
	return sig ? SVC_RESULT_SIGNAL : SVC_RESULT_EXIT_CODE;
}

bool svc_restart_wanted(const struct service *s, enum svc_result result, int code, int sig)
{
	if (result == SVC_RESULT_DEPENDENCY) /* the next try would fail the same way */
		return false;
	bool has_status = result == SVC_RESULT_SUCCESS || result == SVC_RESULT_EXIT_CODE ||
			  result == SVC_RESULT_SIGNAL;

	/* As systemd: Prevent wins over Force, both win over Restart=. */
	if (has_status && svc_status_in(&s->restart_prevent, code, sig))
		return false;
	if (has_status && svc_status_in(&s->restart_force, code, sig))
		return true;
	switch ((enum service_restart)s->restart) {
	case RESTART_ALWAYS: return true;
	case RESTART_ON_SUCCESS: return result == SVC_RESULT_SUCCESS;
	case RESTART_ON_FAILURE: return result != SVC_RESULT_SUCCESS;
	case RESTART_ON_ABNORMAL:
		return result == SVC_RESULT_SIGNAL || result == SVC_RESULT_TIMEOUT ||
		       result == SVC_RESULT_WATCHDOG;
	case RESTART_ON_ABORT: return result == SVC_RESULT_SIGNAL;
	case RESTART_ON_WATCHDOG: return result == SVC_RESULT_WATCHDOG;
	case RESTART_NO: break;
	}
	return false;
}

int svc_stop_signal(const struct service *s, bool for_restart)
{
	if (for_restart && s->restart_kill_signal)
		return s->restart_kill_signal;
	return s->kill_signal ? s->kill_signal : SIGTERM;
}

bool svc_kills_leftovers(const struct service *s)
{
	return s->kill_mode == KILL_CONTROL_GROUP || s->kill_mode == KILL_MIXED;
}

static const char *signal_name(int sig)
{
	static const struct { int sig; const char *name; } names[] = {
		{ SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" }, { SIGQUIT, "SIGQUIT" },
		{ SIGILL, "SIGILL" }, { SIGTRAP, "SIGTRAP" }, { SIGABRT, "SIGABRT" },
		{ SIGBUS, "SIGBUS" }, { SIGFPE, "SIGFPE" }, { SIGKILL, "SIGKILL" },
		{ SIGUSR1, "SIGUSR1" }, { SIGSEGV, "SIGSEGV" }, { SIGUSR2, "SIGUSR2" },
		{ SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGTERM, "SIGTERM" },
		{ SIGXCPU, "SIGXCPU" }, { SIGSYS, "SIGSYS" },
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (names[i].sig == sig)
			return names[i].name;
	return NULL;
}

void svc_describe_exit(int code, int sig, char *buf, unsigned size)
{
	const char *name = signal_name(sig);

	if (!sig)
		snprintf(buf, size, "main process exited with status %d", code);
	else if (name)
		snprintf(buf, size, "main process killed by %s (status %d)", name, 128 + sig);
	else
		snprintf(buf, size, "main process killed by signal %d (status %d)", sig, 128 + sig);
}

const char *svc_result_name(enum svc_result r)
{
	static const char *const names[] = {
		[SVC_RESULT_SUCCESS] = "success", [SVC_RESULT_EXIT_CODE] = "exit-code",
		[SVC_RESULT_SIGNAL] = "signal", [SVC_RESULT_TIMEOUT] = "timeout",
		[SVC_RESULT_WATCHDOG] = "watchdog", [SVC_RESULT_DEPENDENCY] = "dependency",
	};
	return (unsigned)r < sizeof names / sizeof *names ? names[r] : "unknown";
}
