/* ember-init: PID 1. Boots the API filesystems and cgroup2, then runs the console shell
 * (or, in test mode, one command), reaps every zombie, and turns signals into
 * reboot/poweroff/halt. See man/ember-init.8.scd. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "apifs.h"
#include "cli.h"
#include "cmdline.h"
#include "console.h"
#include "emergency.h"
#include "exitcode.h"
#include "io.h"
#include "log.h"
#include "parse.h"
#include "power.h"

#define SHUTDOWN_GRACE_MS 3000
#define SHELL_RESPAWN_MS 1000
#define HOSTNAME_DEFAULT "ember"

/* The state PID 1 keeps, in one place. */
static struct {
	struct boot_options opts;
	bool container;
	int signal_fd;
	pid_t shell_pid;          /* console shell, 0 when not running */
	long long shell_due_ms;   /* when to (re)start the shell; -1: never */
	pid_t run_pid;            /* ember.run command */
	enum power_action pending;
	int run_status;
} pid1 = { .shell_due_ms = -1, .run_status = -1 };

static char *const base_env[] = {
	"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
	"TERM=linux", "HOME=/root", "SHELL=/bin/sh", NULL,
};

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: ember-init [--help | --version]\n"
		   "PID 1 of an ember system. Started by the kernel as /init or via init=.\n"
		   "Kernel command line: ember.run=PATH ember.shell=PATH|none ember.debug\n"
		   "See ember-init(8).\n");
}

static void handle_arguments(int argc, char **argv)
{
	if (argc < 2 || getpid() == 1)
		return; /* the kernel passes unknown boot words as arguments: ignore them */
	if (strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		_exit(0);
	}
	if (strcmp(argv[1], "--version") == 0) {
		print_version("ember-init");
		_exit(0);
	}
	usage(stderr);
	_exit(EXIT_USAGE);
}

static int block_signals(void)
{
	sigset_t all;
	sigfillset(&all);
	/* Crash signals stay deliverable so the emergency handler can run. */
	sigdelset(&all, SIGSEGV);
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGILL);
	sigdelset(&all, SIGFPE);
	sigdelset(&all, SIGABRT);
	sigprocmask(SIG_SETMASK, &all, NULL);
	return signalfd(-1, &all, SFD_CLOEXEC | SFD_NONBLOCK);
}

static void set_hostname(void)
{
	char name[256];
	ssize_t n = read_file("/etc/hostname", name, sizeof name);
	const char *h = HOSTNAME_DEFAULT;

	if (n > 0) {
		name[strcspn(name, "\n")] = '\0';
		if (name[0])
			h = name;
	}
	if (sethostname(h, strlen(h)) < 0)
		log_warn("hostname %s: %m", h);
}

/* Boot options come from the kernel command line; in a container, whose
 * /proc/cmdline is the host's, from ember-init's own arguments. */
static void read_cmdline(int argc, char **argv)
{
	char cmdline[4096] = "";
	size_t len = 0;

	if (!pid1.container) {
		if (read_file("/proc/cmdline", cmdline, sizeof cmdline) < 0)
			log_warn("/proc/cmdline: %m; using defaults");
	} else {
		for (int i = 1; i < argc; i++) {
			int n = snprintf(cmdline + len, sizeof cmdline - len, "%s ", argv[i]);
			if (n < 0 || (size_t)n >= sizeof cmdline - len)
				break;
			len += (size_t)n;
		}
	}
	cmdline_parse(cmdline, &pid1.opts);
	if (pid1.opts.debug)
		log_set_level(LOG_LEVEL_DEBUG);
}

static void open_kmsg(void)
{
	char printk[64];
	unsigned long console_loglevel = 0;
	int fd;

	/* In a container the kmsg ring is the host's: log to our stdio only. */
	if (pid1.container)
		return;
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return;
	if (read_file("/proc/sys/kernel/printk", printk, sizeof printk) > 0) {
		printk[strspn(printk, "0123456789")] = '\0';
		parse_ulong(printk, 0, 15, &console_loglevel);
	}
	log_set_kmsg(fd, (int)console_loglevel);
}

static void start_shell(void)
{
	/* A leading '-' makes it a login shell, which reads /etc/profile. */
	char *argv[] = { "-sh", NULL };
	pid_t pid = console_spawn(pid1.opts.shell, argv, base_env, pid1.container);

	if (pid < 0) {
		log_error("console shell %s: cannot fork: %m; retrying", pid1.opts.shell);
		pid1.shell_due_ms = now_ms() + SHELL_RESPAWN_MS;
		return;
	}
	pid1.shell_pid = pid;
	pid1.shell_due_ms = -1;
	log_info("console shell %s started (pid %d)", pid1.opts.shell, (int)pid);
}

static void start_test_command(void)
{
	char *argv[] = { pid1.opts.run, NULL };
	pid_t pid = console_spawn(pid1.opts.run, argv, base_env, pid1.container);

	if (pid < 0) {
		log_error("ember.run %s: cannot fork: %m", pid1.opts.run);
		pid1.run_status = 111;
		pid1.pending = POWER_POWEROFF;
		return;
	}
	pid1.run_pid = pid;
	log_info("ember.run: started %s (pid %d)", pid1.opts.run, (int)pid);
}

static void child_exited(pid_t pid, int status)
{
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

	if (pid == pid1.run_pid) {
		pid1.run_pid = 0;
		pid1.run_status = code;
		/* One parseable line for harnesses reading the serial console. */
		log_info("ember.run: %s exited with status %d", pid1.opts.run, code);
		dprintf(2, "EMBER-RUN-EXIT=%d\n", code);
		pid1.pending = POWER_POWEROFF;
	} else if (pid == pid1.shell_pid) {
		pid1.shell_pid = 0;
		log_info("console shell exited (status %d); restarting it", code);
		pid1.shell_due_ms = now_ms() + SHELL_RESPAWN_MS;
	}
}

static void reap_children(void)
{
	int status;
	pid_t pid;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		child_exited(pid, status);
}

static void drain_signals(void)
{
	struct signalfd_siginfo si;

	while (read(pid1.signal_fd, &si, sizeof si) == (ssize_t)sizeof si) {
		enum power_action a = power_action_for_signal((int)si.ssi_signo);
		if (si.ssi_signo == SIGCHLD)
			continue;
		if (a != POWER_NONE && pid1.pending == POWER_NONE) {
			log_info("signal %d from pid %u: %s requested", (int)si.ssi_signo,
				 si.ssi_pid, power_action_name(a));
			pid1.pending = a;
		}
	}
	reap_children();
}

static int poll_timeout(void)
{
	long long left;
	if (pid1.shell_due_ms < 0)
		return -1;
	left = pid1.shell_due_ms - now_ms();
	return left < 0 ? 0 : (int)left;
}

static void shut_down(void)
{
	enum power_action a = pid1.pending;

	/* An interactive shell ignores SIGTERM; a hangup ends it at once. */
	if (pid1.shell_pid > 0)
		kill(-pid1.shell_pid, SIGHUP);
	power_stop_world(a, SHUTDOWN_GRACE_MS, pid1.container);
	if (pid1.run_status >= 0 && pid1.opts.debug_exit)
		power_report_debug_exit(pid1.run_status);
	power_reboot(a);
	emergency("reboot(2) failed during shutdown");
}

static void main_loop(void)
{
	struct pollfd pfd = { .fd = pid1.signal_fd, .events = POLLIN };

	for (;;) {
		if (pid1.pending != POWER_NONE)
			shut_down();
		if (pid1.shell_due_ms >= 0 && now_ms() >= pid1.shell_due_ms)
			start_shell();
		if (poll(&pfd, 1, poll_timeout()) < 0 && errno != EINTR)
			log_error("poll: %m");
		drain_signals();
	}
}

static void boot(int argc, char **argv)
{
	long long started = now_ms();
	int failed;

	pid1.container = getenv("container") != NULL;
	log_info("ember-init %s starting%s", EMBER_VERSION, pid1.container ? " (container mode)" : "");
	/* /dev/kmsg exists once /dev is mounted: open it before the cgroup2 mount so its
	 * outcome reaches the kernel log. */
	failed = apifs_mount_basic(pid1.container);
	open_kmsg();
	read_cmdline(argc, argv);
	if (!pid1.container && apifs_mount_cgroup() < 0)
		failed++;
	if (failed)
		log_error("%d API file system(s) failed to mount; continuing", failed);
	/* A container's hostname and Ctrl-Alt-Del belong to whoever started it. */
	if (!pid1.container) {
		set_hostname();
		reboot(RB_DISABLE_CAD); /* Ctrl-Alt-Del becomes SIGINT: a clean reboot */
	}
	if (pid1.opts.run[0])
		start_test_command();
	else if (!pid1.opts.no_shell)
		start_shell();
	log_info("ready: boot took %lld ms in ember-init (%lld ms since kernel start)",
		 now_ms() - started, now_ms());
}

int main(int argc, char **argv)
{
	log_open("ember-init");
	handle_arguments(argc, argv);
	if (getpid() != 1)
		die(EXIT_USAGE, "must run as PID 1 (this is pid %d); see ember-init(8)", (int)getpid());
	console_setup();
	emergency_install_crash_handlers();
	pid1.signal_fd = block_signals();
	if (pid1.signal_fd < 0)
		emergency("signalfd failed");
	boot(argc, argv);
	main_loop();
}
