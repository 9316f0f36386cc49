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

static volatile sig_atomic_t in_emergency, in_crash;
static bool shell_wanted;
static void (*crash_cb)(const char *why);

/* Crash signals processes sent with kill(2) and friends, for the main loop to log: a
 * ring the handler writes (it cannot interrupt itself: its mask blocks every signal)
 * and the main loop reads. */
#define SENT_RING 16
static volatile struct sent { sig_atomic_t sig, pid, uid; } sent[SENT_RING];
static volatile sig_atomic_t sent_count;

static const char *crash_name(int sig)
{
	return sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGILL ? "SIGILL"
	       : sig == SIGFPE ? "SIGFPE" : "SIGABRT";
}

/* si_code <= 0 (SI_USER, SI_QUEUE, SI_TKILL...): another process sent the signal; it says
 * nothing about PID 1's health. A fault the kernel raised has si_code > 0. Our own
 * abort() is SI_TKILL from ourselves: that one is a crash. */
static bool sent_by_a_process(const siginfo_t *si)
{
	return si && si->si_code <= 0 && si->si_pid != getpid();
}

static void crash_handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (sent_by_a_process(si)) {
		volatile struct sent *e = &sent[(unsigned)sent_count % SENT_RING];
		e->sig = sig;
		e->pid = si->si_pid;
		e->uid = (sig_atomic_t)si->si_uid;
		sent_count++;
		return;
	}
	/* A crash while handling a crash (in the re-execution itself): no second try. */
	if (!in_crash && crash_cb) {
		in_crash = 1;
		crash_cb(crash_name(sig));
	}
	emergency(crash_name(sig));
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
	sa.sa_sigaction = crash_handler;
	sa.sa_flags = SA_SIGINFO;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof crash_signals / sizeof *crash_signals; i++)
		sigaction(crash_signals[i], &sa, NULL);
}

void emergency_on_crash(void (*cb)(const char *why)) { crash_cb = cb; }
void emergency_shell_wanted(bool yes) { shell_wanted = yes; }

bool emergency_take_sent_signal(int *sig, int *pid, unsigned *uid)
{
	static sig_atomic_t seen;
	volatile struct sent *e;

	if (sent_count == seen)
		return false;
	if ((unsigned)(sent_count - seen) > SENT_RING)
		seen = sent_count - SENT_RING; /* a flood: the oldest were overwritten */
	e = &sent[(unsigned)seen % SENT_RING];
	*sig = e->sig;
	*pid = e->pid;
	*uid = (unsigned)e->uid;
	seen++;
	return true;
}

noreturn static void reboot_now(void)
{
	sync();
	reboot(RB_AUTOBOOT);
	for (;;)
		pause();
}

void emergency(const char *why)
{
	static char *const shell_argv[] = { "-sh", NULL };
	static char *const shell_envp[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "TERM=linux", NULL };
	pid_t shell;

	/* A second emergency (a crash inside this path) goes straight to reboot. */
	if (in_emergency)
		reboot_now();
	in_emergency = 1;
	if (!shell_wanted) {
		log_error("EMERGENCY: %s; rebooting (ember.crash_shell=1 would open a shell first)", why);
		reboot_now();
	}
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
	reboot_now();
}
