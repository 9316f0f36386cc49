#include "emergency.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <unistd.h>

#include "console.h"
#include "log.h"

#define EMERGENCY_REBOOT_DELAY 10

static volatile sig_atomic_t in_emergency;

static void crash_handler(int sig)
{
	emergency(sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGILL ? "SIGILL"
		  : sig == SIGFPE ? "SIGFPE" : "SIGABRT");
}

static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };

unsigned long long emergency_caught_signals(void)
{
	unsigned long long mask = 0;
	for (size_t i = 0; i < sizeof crash_signals / sizeof *crash_signals; i++)
		mask |= 1ULL << (crash_signals[i] - 1);
	return mask;
}

void emergency_install_crash_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = crash_handler;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof crash_signals / sizeof *crash_signals; i++)
		sigaction(crash_signals[i], &sa, NULL);
}

void emergency(const char *why)
{
	static char *const shell_argv[] = { "-sh", NULL };
	static char *const shell_envp[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "TERM=linux", NULL };
	pid_t shell;

	/* A second emergency (a crash inside this path) goes straight to reboot. */
	if (in_emergency) {
		sync();
		reboot(RB_AUTOBOOT);
		for (;;)
			pause();
	}
	in_emergency = 1;
	log_error("EMERGENCY: %s; starting an emergency shell, the system reboots when it exits", why);
	sync();
	shell = console_spawn("/bin/sh", shell_argv, shell_envp, CONSOLE_INTERACTIVE);
	if (shell > 0) {
		for (;;) {
			pid_t p = waitpid(-1, NULL, 0);
			if (p == shell || (p < 0 && errno == ECHILD))
				break;
		}
	} else {
		sleep(EMERGENCY_REBOOT_DELAY);
	}
	sync();
	reboot(RB_AUTOBOOT);
	for (;;)
		pause();
}
