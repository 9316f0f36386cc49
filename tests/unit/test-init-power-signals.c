// sources: init/power.c init/watchdog.c
/* Signals sent to PID 1: systemd's SIGRTMIN+n numbering (from 34, whatever libc's
 * SIGRTMIN is), and the classic busybox signals. */
#include "harness.h"
#include "power.h"

#include <signal.h>

static void rt_commands_use_systemd_numbering(void)
{
	CHECK(power_action_for_signal(37) == POWER_HALT);     /* SIGRTMIN+3 */
	CHECK(power_action_for_signal(38) == POWER_POWEROFF); /* SIGRTMIN+4 */
	CHECK(power_action_for_signal(39) == POWER_REBOOT);   /* SIGRTMIN+5 */
	CHECK(power_signal_command(47).what == SIGCMD_POWER_NOW);
	CHECK(power_signal_command(47).action == POWER_HALT);
	CHECK(power_signal_command(48).action == POWER_POWEROFF);
	CHECK(power_signal_command(49).action == POWER_REBOOT);
	CHECK(power_signal_command(56).what == SIGCMD_LOG_DEBUG);
	CHECK(power_signal_command(57).what == SIGCMD_LOG_RESTORE);
	CHECK(power_signal_command(59).what == SIGCMD_REEXEC);
	CHECK(power_action_for_signal(34) == POWER_NONE);
	CHECK(power_action_for_signal(36) == POWER_NONE);
	CHECK(power_action_for_signal(40) == POWER_NONE);
}

static void classic_signals(void)
{
	CHECK(power_action_for_signal(SIGTERM) == POWER_REBOOT);
	CHECK(power_action_for_signal(SIGINT) == POWER_REBOOT);
	CHECK(power_action_for_signal(SIGUSR2) == POWER_POWEROFF);
	CHECK(power_action_for_signal(SIGPWR) == POWER_POWEROFF);
	CHECK(power_action_for_signal(SIGUSR1) == POWER_HALT);
	CHECK(power_action_for_signal(SIGHUP) == POWER_NONE);
	CHECK(power_action_for_signal(SIGCHLD) == POWER_NONE);
}

/* On musl sigfillset() leaves 32-34 out and sigaddset() refuses them: the mask PID 1
 * blocks (and reads through signalfd) must still hold 34 and the command signals. */
static void command_signals_are_blockable(void)
{
	sigset_t set;
	sigemptyset(&set);
	power_add_command_signals(&set);
	CHECK(sigismember(&set, 38) == 1);
	CHECK(sigismember(&set, 37) == 1);
	CHECK(sigismember(&set, 59) == 1);
	CHECK(sigismember(&set, SIGTERM) == 0);
}

int main(void)
{
	RUN(rt_commands_use_systemd_numbering);
	RUN(classic_signals);
	RUN(command_signals_are_blockable);
	return harness_done();
}
