#ifndef EMBER_INIT_POWER_H
#define EMBER_INIT_POWER_H
#include <stdbool.h>
#include <sys/types.h>

enum power_action { POWER_NONE, POWER_REBOOT, POWER_POWEROFF, POWER_HALT };

#include <signal.h>

/* systemd, glibc and every shell number the real-time signals from 34; musl's SIGRTMIN
 * is 35. The commands follow systemd's numbering whatever libc ember is built with. */
#define POWER_SIGRTMIN 34

/* What a signal sent to PID 1 asks for (table in ember-init(8)). */
enum signal_what {
	SIGCMD_NONE,
	SIGCMD_POWER,       /* stop services in order, then action */
	SIGCMD_POWER_NOW,   /* skip the orderly service stop */
	SIGCMD_LOG_DEBUG,
	SIGCMD_LOG_RESTORE,
	SIGCMD_REEXEC,
};
struct signal_command {
	int rt_offset;      /* n of SIGRTMIN+n, -1 for the classic signals */
	enum signal_what what;
	enum power_action action;
};

/* Signal -> request mapping (busybox and systemd conventions, see ember-init(8)). */
struct signal_command power_signal_command(int sig);
enum power_action power_action_for_signal(int sig);
/* Add the SIGRTMIN+n command signals, numbered from 34, to set (which sigfillset()
 * leaves out on musl). */
void power_add_command_signals(sigset_t *set);
const char *power_action_name(enum power_action a);

typedef void (*power_reaped_fn)(pid_t pid, int status);

/* Stop the world: TERM everything, wait up to grace_ms reaping (each reaped child is
 * passed to reaped, so a status someone waits for is still reported), KILL what is
 * left, sync, call before_unmount (if any: the swaps still on go off there), unmount (or
 * remount read-only, said in the log) every filesystem. In a container the file systems
 * are left alone: a read-only remount acts on the superblock, which the host shares. */
void power_stop_world(enum power_action a, unsigned grace_ms, bool container,
		      power_reaped_fn reaped, void (*before_unmount)(void));
/* reboot(2) with the action's command. Returns only if the kernel refused. */
void power_reboot(enum power_action a);

/* Tell QEMU's isa-debug-exit device (port 0xf4) the test status; harmless without it. */
void power_report_debug_exit(int status);
#endif
