#include "power.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <sys/io.h>
#endif

#include "escape.h"
#include "log.h"
#include "watchdog.h"

#define DEBUG_EXIT_PORT 0xf4
#define UNMOUNT_PASSES 4
#define MOUNTS_MAX 256
#define REAP_STEP_MS 20
#define CONSOLE_DRAIN_MS 1000

/* The SIGRTMIN+n commands as systemd numbers them (systemd(1), "Signals"). */
static const struct signal_command rt_commands[] = {
	{ 3, SIGCMD_POWER, POWER_HALT },
	{ 4, SIGCMD_POWER, POWER_POWEROFF },
	{ 5, SIGCMD_POWER, POWER_REBOOT },
	{ 13, SIGCMD_POWER_NOW, POWER_HALT },
	{ 14, SIGCMD_POWER_NOW, POWER_POWEROFF },
	{ 15, SIGCMD_POWER_NOW, POWER_REBOOT },
	{ 22, SIGCMD_LOG_DEBUG, POWER_NONE },
	{ 23, SIGCMD_LOG_RESTORE, POWER_NONE },
	{ 25, SIGCMD_REEXEC, POWER_NONE },
};

struct signal_command power_signal_command(int sig)
{
	struct signal_command none = { -1, SIGCMD_NONE, POWER_NONE };

	if (sig == SIGTERM || sig == SIGINT)
		return (struct signal_command){ -1, SIGCMD_POWER, POWER_REBOOT };
	if (sig == SIGUSR2 || sig == SIGPWR)
		return (struct signal_command){ -1, SIGCMD_POWER, POWER_POWEROFF };
	if (sig == SIGUSR1)
		return (struct signal_command){ -1, SIGCMD_POWER, POWER_HALT };
	for (size_t i = 0; i < sizeof rt_commands / sizeof rt_commands[0]; i++)
		if (sig == POWER_SIGRTMIN + rt_commands[i].rt_offset)
			return rt_commands[i];
	return none;
}

enum power_action power_action_for_signal(int sig)
{
	struct signal_command c = power_signal_command(sig);
	return c.what == SIGCMD_POWER || c.what == SIGCMD_POWER_NOW ? c.action : POWER_NONE;
}

/* Set the bit of sig in set directly: musl's sigaddset() refuses 32-34, which it
 * reserves for itself, yet SIGRTMIN+0 in systemd's numbering is 34. Both libcs lay a
 * sigset_t out as the kernel does: an array of unsigned long, bit sig-1. */
static void sigset_add_raw(sigset_t *set, int sig)
{
	enum { BITS = 8 * sizeof(unsigned long) };
	unsigned long words[sizeof(sigset_t) / sizeof(unsigned long)];

	memcpy(words, set, sizeof words);
	words[(sig - 1) / BITS] |= 1UL << ((sig - 1) % BITS);
	memcpy(set, words, sizeof words);
}

void power_add_command_signals(sigset_t *set)
{
	for (size_t i = 0; i < sizeof rt_commands / sizeof rt_commands[0]; i++)
		sigset_add_raw(set, POWER_SIGRTMIN + rt_commands[i].rt_offset);
	sigset_add_raw(set, POWER_SIGRTMIN);
}

const char *power_action_name(enum power_action a)
{
	switch (a) {
	case POWER_REBOOT: return "reboot";
	case POWER_POWEROFF: return "poweroff";
	case POWER_HALT: return "halt";
	default: return "none";
	}
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Reap until no child is left or the grace period ends. Returns true if none is left. */
static bool reap_until_empty(unsigned grace_ms, power_reaped_fn reaped)
{
	for (unsigned waited = 0;; waited += REAP_STEP_MS) {
		int status;
		pid_t p;
		while ((p = waitpid(-1, &status, WNOHANG)) > 0)
			reaped(p, status);
		if (p < 0 && errno == ECHILD)
			return true;
		if (waited >= grace_ms)
			return false;
		watchdog_pet_now(); /* a slow shutdown must not look like a hung PID 1 */
		sleep_ms(REAP_STEP_MS);
	}
}

static void kill_everything(unsigned grace_ms, power_reaped_fn reaped)
{
	/* kill(-1) reaches every process but PID 1 itself. */
	if (kill(-1, SIGTERM) < 0 && errno == ESRCH)
		return;
	kill(-1, SIGCONT);
	if (reap_until_empty(grace_ms, reaped))
		return;
	log_warn("shutdown: processes left after %u ms, sending SIGKILL", grace_ms);
	kill(-1, SIGKILL);
	reap_until_empty(grace_ms, reaped);
}

/* Read mount points from /proc/self/mountinfo, in mount order. */
static int read_mounts(char mounts[][256], int max)
{
	char line[4096];
	int n = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof line, f)) {
		char target[256];
		if (sscanf(line, "%*s %*s %*s %*s %255s", target) == 1)
			memcpy(mounts[n++], target, sizeof target);
	}
	fclose(f);
	return n;
}

static void unmount_all(void)
{
	static char mounts[MOUNTS_MAX][256];
	char shown[4 * 256];

	for (int pass = 0; pass < UNMOUNT_PASSES; pass++) {
		int n = read_mounts(mounts, MOUNTS_MAX), busy = 0;
		if (n <= 1)
			return;
		for (int i = n - 1; i > 0; i--) {
			if (umount2(mounts[i], 0) == 0)
				continue;
			if (errno == EBUSY) {
				busy++;
				if (mount(NULL, mounts[i], NULL, MS_REMOUNT | MS_RDONLY, NULL) == 0 &&
				    pass == UNMOUNT_PASSES - 1)
					log_warn("shutdown: %s is busy: remounted read-only",
						 escape_text(mounts[i], shown, sizeof shown));
			}
		}
		if (busy == 0)
			break;
	}
	/* The root cannot be unmounted; make it read-only where it can be. */
	mount(NULL, "/", NULL, MS_REMOUNT | MS_RDONLY, NULL);
}

void power_report_debug_exit(int status)
{
#if defined(__x86_64__) || defined(__i386__)
	if (ioperm(DEBUG_EXIT_PORT, 1, 1) == 0)
		outb((unsigned char)status, DEBUG_EXIT_PORT);
#else
	(void)status;
#endif
}

void power_stop_world(enum power_action a, unsigned grace_ms, bool container,
		      power_reaped_fn reaped, void (*before_unmount)(void))
{
	log_info("shutdown: %s: stopping every process", power_action_name(a));
	kill_everything(grace_ms, reaped);
	sync();
	if (container)
		return;
	if (before_unmount)
		before_unmount();
	log_info("shutdown: unmounting file systems");
	unmount_all();
	sync();
}

/* Bytes still queued for a serial console would be lost at reset. Wait for them, but
 * never long: a console stopped by flow control must not hang the reboot. */
static void drain_console(void)
{
	for (unsigned waited = 0; waited < CONSOLE_DRAIN_MS; waited += REAP_STEP_MS) {
		int queued = 0;
		if (ioctl(2, TIOCOUTQ, &queued) < 0 || queued <= 0)
			return;
		sleep_ms(REAP_STEP_MS);
	}
}

void power_reboot(enum power_action a)
{
	drain_console();
	static const int cmd[] = {
		[POWER_NONE] = RB_AUTOBOOT, [POWER_REBOOT] = RB_AUTOBOOT,
		[POWER_POWEROFF] = RB_POWER_OFF, [POWER_HALT] = RB_HALT_SYSTEM,
	};
	log_info("shutdown: %s now", power_action_name(a));
	watchdog_pet_now();
	reboot(cmd[a]);
	log_error("shutdown: reboot(2) failed: %m");
}
