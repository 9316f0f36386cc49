/* ember-init: PID 1. Boots the API filesystems and cgroup2, supervises the services,
 * runs the console shell (or, in test mode, one command), reaps every zombie, and turns
 * signals and emberctl requests into reboot/poweroff/halt. See man/ember-init.8.scd. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "apifs.h"
#include "loopback.h"
#include "cli.h"
#include "cmdline.h"
#include "condition.h" /* the facts generators are told */
#include "generators.h"
#include "sysctl.h" /* empower: ember.legacy_tiocsti= */
#include "console.h"
#include "container.h"
#include "control.h"
#include "emergency.h"
#include "exec-context.h"
#include "exitcode.h"
#include "handover.h"
#include "io.h"
#include "journal-log.h"
#include "log.h"
#include "machine-id.h"
#include "measure.h"
#include "notify.h"
#include "parse.h"
#include "passwd.h"
#include "power.h"
#include "sockets.h"
#include "rlimits.h" /* PID 1 raises its own, services get the ones it started with */
#include "supervisor.h"
#include "unit-kinds.h" /* swap units: the swaps still on at the end of a shutdown */
#include "unit-automount.h"
#include "unit-path.h"
#include "watchdog.h"
#include "svc-runtime.h" /* unit-runtime2 */

#define SHUTDOWN_GRACE_MS 3000     /* after services stopped: TERM to KILL for the rest */
#define SHUTDOWN_MAX_MS 180000     /* services' own timeouts bound it; this is the backstop */
#define SHUTDOWN_REPORT_MS 10000   /* how often a slow shutdown says what it waits for */
#define SHELL_RESPAWN_MS 1000
#define HOSTNAME_DEFAULT "ember"
#define RUN_DIR "/run/ember"
#define INIT_CONF "/etc/ember/init.conf"
#define NOTIFY_PATH RUN_DIR "/notify"
#define CONTROL_PATH RUN_DIR "/control"
#define CAPS_HELPER EXEC_CAPS_HELPER
#define BUSNAME_HELPER "/usr/sbin/ember-busname-wait"
#define MEASURE_BIN "/usr/sbin/boot-measure"
#define POLL_MAX (2 + CONTROL_POLLFDS + 3 * SERVICE_COUNT_MAX + SOCKETS_POLL_MAX + \
		  PATH_POLL_MAX + AUTOMOUNT_POLL_MAX) /* output, exec status, stderr; watched
						       * sockets; path and automount units */
#define CRASH_WINDOW_MS 60000      /* crashes closer than this count as a crash loop */
#define CRASH_LOOP_MAX 3           /* re-executions in such a loop before giving up */

/* The state PID 1 keeps, in one place. */
static struct {
	struct boot_options opts;
	bool container;
	int cgroup_options;       /* of /sys/fs/cgroup as mounted (cgroup2.h bits), -1 */
	long long started_us;
	int signal_fd, notify_fd;
	int kmsg_fd;              /* /dev/kmsg for logs and StandardOutput=kmsg; -1: none */
	pid_t shell_pid;          /* console shell, 0 when not running */
	long long shell_due_ms;   /* when to (re)start the shell; -1: never */
	bool rescue;              /* an essential service failed, or ember.rescue */
	pid_t run_pid;            /* ember.run command */
	int run_status;
	enum power_action pending;
	bool immediate;           /* skip the orderly service stop (SIGRTMIN+13..15) */
	bool reexec_requested;    /* SIGRTMIN+25 or emberctl daemon-reexec */
	bool reexecuted;          /* this PID 1 took over from a previous one */
	struct handover_pid1 handed; /* what it took over (or carries to the next) */
	bool shutting_down;
	long long shutdown_deadline_ms;
	long long shutdown_report_ms; /* next "still stopping" line */
	const char *service_dirs[4];
	char cmdline[4096];        /* the kernel command line, as read */
} pid1; /* zero-initialised, so it stays in .bss; main() sets the -1s */

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
		   "Kernel command line: ember.run=PATH ember.shell=PATH|none ember.services=DIR\n"
		   "  ember.generators=DIR[:DIR]|none ember.rescue ember.watchdog=SEC\n"
		   "  ember.measure=0 ember.debug\n"
		   "  ember.ctl_group=GROUP ember.failed_retry=SEC ember.crash_shell=1\n"
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
	power_add_command_signals(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	return signalfd(-1, &all, SFD_CLOEXEC | SFD_NONBLOCK);
}

static void set_hostname(void)
{
	char name[256];
	ssize_t n = io_read_file("/etc/hostname", name, sizeof name);
	const char *h = HOSTNAME_DEFAULT;

	if (n > 0) {
		name[strcspn(name, "\n")] = '\0';
		if (name[0])
			h = name;
	}
	if (sethostname(h, strlen(h)) < 0)
		log_warn("hostname %s: %m", h);
}

/* Boot options come from /etc/ember/init.conf (the same words, one or more per line,
 * '#' comments), then the kernel command line, which wins; in a container, whose
 * /proc/cmdline is the host's, from ember-init's own arguments instead. A package can
 * install init.conf; only the boot loader can change the command line. */
static size_t read_init_conf(char *buf, size_t size)
{
	char text[2048];
	size_t len = 0;
	ssize_t n = io_read_file(INIT_CONF, text, sizeof text);

	if (n <= 0)
		return 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		int w;
		line[strcspn(line, "#")] = '\0';
		w = snprintf(buf + len, size - len, "%s ", line);
		if (w < 0 || (size_t)w >= size - len)
			break;
		len += (size_t)w;
	}
	return len;
}

static void read_cmdline(int argc, char **argv)
{
	char cmdline[4096] = "";
	size_t len = 0;

	if (!pid1.container) {
		len = read_init_conf(cmdline, sizeof cmdline);
		if (io_read_file("/proc/cmdline", cmdline + len, sizeof cmdline - len) < 0)
			log_warn("/proc/cmdline: %m; using defaults");
		memcpy(pid1.cmdline, cmdline, sizeof cmdline);
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
	/* As with systemd: "quiet" keeps all but warnings and errors off the console (a
	 * serial console at 115200 baud costs ~1 ms per line); dmesg still has them. */
	if (pid1.opts.quiet && !pid1.opts.debug)
		log_set_console_level(LOG_LEVEL_WARN);
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
	/* The kernel rate-limits /dev/kmsg writers (10 lines per 5 s by default): a boot
	 * log would lose lines. PID 1's own output is bounded; lift the limit unless the
	 * command line chose a setting (printk.devkmsg=). */
	if (!strstr(pid1.cmdline, "printk.devkmsg=") &&
	    io_write_file("/proc/sys/kernel/printk_devkmsg", "on\n") < 0)
		log_debug("printk_devkmsg: %m");
	if (io_read_file("/proc/sys/kernel/printk", printk, sizeof printk) > 0) {
		printk[strspn(printk, "0123456789")] = '\0';
		parse_ulong(printk, 0, 15, &console_loglevel);
	}
	log_set_kmsg(fd, (int)console_loglevel);
	pid1.kmsg_fd = fd;
}

/* PID 1's own copy of its messages goes to a console fd of its own, non-blocking: a
 * console stopped by flow control (or a slow serial line) must never stall PID 1. A
 * line that does not fit is dropped from the console (kmsg still has it). */
static void open_console_log(void)
{
	int fd;

	if (pid1.container)
		return; /* the console is the host's: keep writing to our stdio */
	fd = open("/dev/console", O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0)
		log_set_console(fd);
}

/* ---- the console shell and the test command ------------------------------------------ */

static void start_shell(void)
{
	/* A leading '-' makes it a login shell, which reads /etc/profile. */
	char *argv[] = { "-sh", NULL };
	pid_t pid = console_spawn(pid1.opts.shell, argv, base_env,
				  pid1.container ? CONSOLE_INHERIT : CONSOLE_INTERACTIVE);

	if (pid < 0) {
		log_error("console shell %s: cannot fork: %m; retrying", pid1.opts.shell);
		pid1.shell_due_ms = now_ms() + SHELL_RESPAWN_MS;
		return;
	}
	pid1.shell_pid = pid;
	pid1.shell_due_ms = -1;
	log_info("%sconsole shell %s started (pid %d)", pid1.rescue ? "rescue: " : "",
		 pid1.opts.shell, (int)pid);
}

static void start_test_command(void)
{
	char *argv[] = { pid1.opts.run, NULL };
	pid_t pid = console_spawn(pid1.opts.run, argv, base_env,
				  pid1.container ? CONSOLE_INHERIT : CONSOLE_OUTPUT);

	if (pid < 0) {
		log_error("ember.run %s: cannot fork: %m", pid1.opts.run);
		pid1.run_status = EXIT_SYSTEM;
		pid1.pending = POWER_POWEROFF;
		return;
	}
	pid1.run_pid = pid;
	log_info("ember.run: started %s (pid %d)", pid1.opts.run, (int)pid);
}

static void enter_rescue(const char *why)
{
	log_error("rescue: %s; a root shell is on the console", why);
	pid1.rescue = true;
	if (pid1.shell_pid <= 0 && pid1.shell_due_ms < 0)
		pid1.shell_due_ms = now_ms();
}

static void essential_failed(const char *name)
{
	char why[128];
	snprintf(why, sizeof why, "essential service %s failed", name);
	enter_rescue(why);
}

static void boot_ready(void)
{
	log_info("ready: boot took %lld ms in ember-init (%lld ms since kernel start)",
		 now_ms() - pid1.started_us / 1000, now_ms());
	measure_phase("ready");
	if (pid1.opts.run[0])
		start_test_command();
}

static void power_requested(enum power_action a)
{
	if (pid1.pending == POWER_NONE)
		pid1.pending = a;
}

/* unit-runtime2: SuccessAction=, FailureAction=, StartLimitAction=, JobTimeoutAction=.
 * "-force" skips the orderly stop of services (as SIGRTMIN+13..15 do); "-immediate"
 * calls reboot(2) at once, and only if the kernel refuses goes the "-force" way. */
static void unit_action(enum power_action a, bool force, bool immediate)
{
	if (immediate)
		power_reboot(a);
	power_requested(a);
	if (force || immediate)
		pid1.immediate = true;
}

/* ---- children and signals ------------------------------------------------------------ */

static void run_command_exited(int status)
{
	int code = exec_status_code(status);

	pid1.run_pid = 0;
	pid1.run_status = code;
	/* One parseable line for harnesses reading the serial console. */
	log_info("ember.run: %s exited with status %d", pid1.opts.run, code);
	dprintf(2, "EMBER-RUN-EXIT=%d\n", code);
	power_requested(POWER_POWEROFF);
}

/* While every process is being stopped only the run command's status matters: the
 * supervisor must not react (it could start an ExecStop= or ExecStartPre= line). */
static void reaped_in_final_stop(pid_t pid, int status)
{
	if (pid == pid1.run_pid)
		run_command_exited(status);
}

static void child_exited(pid_t pid, int status)
{
	if (supervisor_child_exited(pid, status))
		return;
	if (pid == pid1.run_pid) {
		run_command_exited(status);
	} else if (pid == pid1.shell_pid) {
		pid1.shell_pid = 0;
		if (pid1.shutting_down)
			return;
		log_info("console shell exited (status %d); restarting it", exec_status_code(status));
		pid1.shell_due_ms = now_ms() + SHELL_RESPAWN_MS;
	}
	/* Anything else is an orphan re-parented to PID 1: reaped, nothing more. */
}

static void reap_children(void)
{
	int status;
	pid_t pid;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		child_exited(pid, status);
}

static void signal_received(const struct signalfd_siginfo *si)
{
	struct signal_command c = power_signal_command((int)si->ssi_signo);

	switch (c.what) {
	case SIGCMD_POWER:
	case SIGCMD_POWER_NOW:
		log_info("signal %d from pid %u: %s%s requested", (int)si->ssi_signo, si->ssi_pid,
			 c.what == SIGCMD_POWER_NOW ? "immediate " : "", power_action_name(c.action));
		power_requested(c.action);
		if (c.what == SIGCMD_POWER_NOW)
			pid1.immediate = true;
		break;
	case SIGCMD_LOG_DEBUG:
		log_info("signal %d from pid %u: debug logging on", (int)si->ssi_signo, si->ssi_pid);
		log_set_level(LOG_LEVEL_DEBUG);
		break;
	case SIGCMD_LOG_RESTORE:
		log_set_level(pid1.opts.debug ? LOG_LEVEL_DEBUG : LOG_LEVEL_INFO);
		log_info("signal %d from pid %u: log level restored", (int)si->ssi_signo, si->ssi_pid);
		break;
	case SIGCMD_REEXEC:
		log_info("signal %d from pid %u: re-execute requested", (int)si->ssi_signo, si->ssi_pid);
		pid1.reexec_requested = true;
		break;
	case SIGCMD_NONE:
		if (si->ssi_signo != SIGCHLD)
			log_debug("signal %d from pid %u ignored", (int)si->ssi_signo, si->ssi_pid);
		break;
	}
}

static void drain_signals(void)
{
	struct signalfd_siginfo si;

	while (read(pid1.signal_fd, &si, sizeof si) == (ssize_t)sizeof si)
		signal_received(&si);
	reap_children();
}

/* ---- re-execution (docs/supervision.md) ------------------------------------------- */

static void fill_handover(struct handover_pid1 *h)
{
	h->run_pid = pid1.run_pid;
	h->shell_pid = pid1.shell_pid;
	h->rescue = pid1.rescue;
	h->started_us = pid1.started_us;
	h->boot_ready_us = supervisor_ready_us();
	h->generation = pid1.handed.generation + 1;
	h->crashes = pid1.handed.crashes;
	h->crash_ms = pid1.handed.crash_ms;
	h->notify_fd = pid1.notify_fd;
}

static void reexec_now(void)
{
	struct handover_pid1 h;

	pid1.reexec_requested = false;
	if (pid1.shutting_down) {
		log_warn("re-execution refused: shutting down");
		return;
	}
	fill_handover(&h);
	h.crashes = 0;
	log_info("re-executing ember-init (generation %u), services kept", h.generation);
	rlimits_restore_own();
	handover_exec(&h);
	log_error("re-execution failed: %m; carrying on");
	rlimits_raise_own();
}

/* In the handler of a real crash: hand the services to a fresh ember-init. Returns
 * only when that is not possible, or in a crash loop; emergency() follows. */
static void crashed(const char *why)
{
	struct handover_pid1 h;
	long long now = now_ms();

	if (pid1.opts.crash_shell)
		return;
	fill_handover(&h);
	h.crashes = now - h.crash_ms < CRASH_WINDOW_MS ? h.crashes + 1 : 1;
	h.crash_ms = now;
	if (h.crashes > CRASH_LOOP_MAX) {
		log_error("CRASH: %s, %u times within %d s: not re-executing again", why, h.crashes,
			  CRASH_WINDOW_MS / 1000);
		return;
	}
	log_error("CRASH: %s; re-executing ember-init, the services keep running", why);
	rlimits_restore_own();
	handover_exec(&h);
	rlimits_raise_own();
	log_error("CRASH: re-execution failed: %m");
}

static void report_sent_crash_signals(void)
{
	int sig, pid;
	unsigned uid;

	while (emergency_take_sent_signal(&sig, &pid, &uid))
		log_warn("signal %d (%s) sent by pid %d (uid %u): not a crash, ignored", sig,
			 strsignal(sig), pid, uid);
}

/* ---- shutdown ----------------------------------------------------------------------- */

static void begin_shutdown(void)
{
	pid1.shutting_down = true;
	pid1.shutdown_deadline_ms = now_ms() + SHUTDOWN_MAX_MS;
	pid1.shutdown_report_ms = now_ms() + SHUTDOWN_REPORT_MS;
	pid1.shell_due_ms = -1;
	log_info("shutdown: %s: stopping services", power_action_name(pid1.pending));
	measure_phase("shutdown");
	supervisor_stop_all();
}

/* A shutdown that takes long says which units it waits for, as systemd's "A stop job is
 * running for ..." does: one that waited minutes for a service with TimeoutStopSec=1800
 * said nothing, and nobody could tell what held the poweroff. */
static void report_shutdown_wait(long long now)
{
	char names[256];
	size_t n;

	if (!pid1.shutting_down || now < pid1.shutdown_report_ms)
		return;
	pid1.shutdown_report_ms = now + SHUTDOWN_REPORT_MS;
	n = supervisor_stopping_list(names, sizeof names);
	if (n > 0)
		log_warn("shutdown: still stopping after %lld s (at most %d s): %s",
			 (now - (pid1.shutdown_deadline_ms - SHUTDOWN_MAX_MS)) / 1000,
			 SHUTDOWN_MAX_MS / 1000, names);
}

static bool shutdown_may_finish(long long now)
{
	return pid1.shutting_down && (pid1.immediate || supervisor_all_stopped() ||
				      now >= pid1.shutdown_deadline_ms);
}

static void swaps_off(void)
{
	unit_swaps_off_all(watchdog_pet_now);
}

static void finish_shutdown(void)
{
	enum power_action a = pid1.pending;

	if (!supervisor_all_stopped())
		log_warn("shutdown: services still running after %d ms, going on", SHUTDOWN_MAX_MS);
	measure_phase("final");
	/* An interactive shell ignores SIGTERM; a hangup ends it at once. */
	if (pid1.shell_pid > 0)
		kill(-pid1.shell_pid, SIGHUP);
	power_stop_world(a, SHUTDOWN_GRACE_MS, pid1.container, reaped_in_final_stop,
			 swaps_off);
	if (pid1.run_status >= 0 && pid1.opts.debug_exit)
		power_report_debug_exit(pid1.run_status);
	power_reboot(a);
	emergency("reboot(2) failed during shutdown");
}

/* ---- the main loop ------------------------------------------------------------------ */

static long long earliest(long long a, long long b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a < b ? a : b;
}

static int poll_timeout(void)
{
	long long next = supervisor_next_deadline(), left;

	next = earliest(next, pid1.shell_due_ms);
	next = earliest(next, control_next_deadline());
	next = earliest(next, watchdog_next_ms());
	if (pid1.shutting_down) {
		next = earliest(next, pid1.shutdown_deadline_ms);
		next = earliest(next, pid1.shutdown_report_ms);
	}
	if (next < 0)
		return -1;
	left = next - now_ms();
	return left < 0 ? 0 : left > 60000 ? 60000 : (int)left;
}

static void main_loop(void)
{
	static struct pollfd fds[POLL_MAX];

	for (;;) {
		size_t n = 0, ctl_at, sup_at;
		long long now = now_ms();

		watchdog_pet(now);
		if (pid1.reexec_requested)
			reexec_now();
		if (pid1.pending != POWER_NONE && !pid1.shutting_down)
			begin_shutdown();
		if (shutdown_may_finish(now))
			finish_shutdown();
		supervisor_tick(now);
		control_tick(now);
		/* Again after the tick: units without a process (sockets, targets, mounts)
		 * stop within it, and no child's exit would wake the poll below to notice
		 * that the last of them is gone. */
		if (shutdown_may_finish(now))
			finish_shutdown();
		report_shutdown_wait(now);
		if (!pid1.shutting_down && pid1.shell_due_ms >= 0 && now >= pid1.shell_due_ms)
			start_shell();

		fds[n++] = (struct pollfd){ .fd = pid1.signal_fd, .events = POLLIN };
		fds[n++] = (struct pollfd){ .fd = pid1.notify_fd, .events = POLLIN };
		ctl_at = n;
		n += control_pollfds(fds + n, POLL_MAX - n);
		sup_at = n;
		n += supervisor_pollfds(fds + n, POLL_MAX - n);
		if (poll(fds, n, poll_timeout()) < 0) {
			if (errno != EINTR)
				log_error("poll: %m");
			report_sent_crash_signals();
			continue;
		}
		report_sent_crash_signals();
		if (fds[1].revents & POLLIN)
			notify_handle(pid1.notify_fd);
		control_handle_pollfds(fds + ctl_at, sup_at - ctl_at, now_ms());
		supervisor_handle_pollfds(fds + sup_at, n - sup_at);
		drain_signals();
	}
}

/* ---- boot -------------------------------------------------------------------------- */

/* ember.ctl_group=: its members may change services too (docs/control-protocol.md). */
static void apply_control_group(void)
{
	struct passwd_group g;
	uint32_t gid;

	if (!pid1.opts.ctl_group[0])
		return;
	if (passwd_parse_id(pid1.opts.ctl_group, &gid) == 0) {
		control_set_group((gid_t)gid);
		log_info("control: members of group %u may change services", (unsigned)gid);
		return;
	}
	if (passwd_group_lookup(NULL, pid1.opts.ctl_group, &g) < 0) {
		log_warn("ember.ctl_group=%s: no such group in /etc/group; changes stay root's",
			 pid1.opts.ctl_group);
		return;
	}
	control_set_group(g.gid);
	log_info("control: members of group %s (%u) may change services", g.name, (unsigned)g.gid);
}

static void reexec_requested(void)
{
	pid1.reexec_requested = true;
}

static void open_sockets(void)
{
	if (io_mkdir_p(RUN_DIR, 0755) < 0)
		log_error("%s: %m", RUN_DIR);
	pid1.notify_fd = notify_reopen(pid1.reexecuted ? pid1.handed.notify_fd : -1, NOTIFY_PATH);
	if (pid1.notify_fd < 0)
		log_error("%s: cannot open the notify socket: %m; Type=notify services will time out",
			  NOTIFY_PATH);
	if (control_open(CONTROL_PATH) < 0)
		log_error("%s: cannot open the control socket: %m; emberctl will not work",
			  CONTROL_PATH);
	control_on_power(power_requested);
	runtime_on_action(unit_action); /* unit-runtime2 */
	control_on_reexec(reexec_requested);
	apply_control_group();
}

/* A helper program next to ember-init (a build tree, a test) wins over the installed
 * path. One slot per caller: ember-caps, ember-busname-wait, ember-sandbox, ember-session,
 * boot-measure. */
#define HELPER_SLOTS 5
#define HELPER_PATH_MAX 512
static const char *find_helper(const char *name, const char *installed)
{
	static char paths[HELPER_SLOTS][HELPER_PATH_MAX]; /* small: one resident page, not five */
	static int used;
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	char *slash;

	if (n <= 0 || used >= HELPER_SLOTS)
		return installed;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return installed;
	*slash = '\0';
	if (snprintf(paths[used], sizeof paths[used], "%s/%s", self, name) >= (int)sizeof paths[used] ||
	    access(paths[used], X_OK) < 0)
		return installed;
	return paths[used++];
}

/* After re-execution: the services, the shell and the test command are still running
 * as our children; take them back instead of starting them again. */
static void adopt_handed_over(void)
{
	unsigned n = handover_adopt_units();

	supervisor_restore_boot_ready(pid1.handed.boot_ready_us);
	pid1.run_pid = pid1.handed.run_pid;
	pid1.shell_pid = pid1.handed.shell_pid;
	pid1.rescue = pid1.handed.rescue;
	if (pid1.handed.started_us > 0)
		pid1.started_us = pid1.handed.started_us;
	log_info("re-executed (generation %u): adopted %u service(s)%s", pid1.handed.generation, n,
		 pid1.handed.crashes ? " after a crash" : "");
}

/* systemd's generators: where to look for them, or NULL for none. By default on a
 * system booted with the usual search path; with ember.services= (tests, images of
 * ember's own) only when ember.generators= says where they are. */
static const char *generator_search(void)
{
	if (strcmp(pid1.opts.generators, "none") == 0)
		return NULL;
	if (pid1.opts.generators[0])
		return pid1.opts.generators;
	return pid1.opts.services[0] ? NULL : GENERATOR_SEARCH_DEFAULT;
}

/* What systemd tells its generators about the system (systemd.generator(7)): facts of
 * the boot, taken at the first run and kept. */
static const char *const *generator_env(void)
{
	static char virt[64], arch[64], machine[64];
	static const char *env[6];
	const struct condition_probe *p = &condition_probe_system;
	const char *id, *name;
	bool container;
	size_t n = 0;

	if (env[0])
		return env;
	env[n++] = "SYSTEMD_SCOPE=system";
	env[n++] = access("/etc/initrd-release", F_OK) == 0 ? "SYSTEMD_IN_INITRD=1"
							      : "SYSTEMD_IN_INITRD=0";
	env[n++] = condition_first_boot(p) ? "SYSTEMD_FIRST_BOOT=1" : "SYSTEMD_FIRST_BOOT=0";
	id = condition_detect_virtualization(p, &container);
	if (strcmp(id, "none") != 0 &&
	    snprintf(virt, sizeof virt, "SYSTEMD_VIRTUALIZATION=%s:%s",
		     container ? "container" : "vm", id) < (int)sizeof virt)
		env[n++] = virt;
	name = condition_architecture(p, machine, sizeof machine);
	if (name && snprintf(arch, sizeof arch, "SYSTEMD_ARCHITECTURE=%s", name) < (int)sizeof arch)
		env[n++] = arch;
	return env;
}

static void run_generators(void)
{
	struct generators_result res;

	generators_run(generator_search(), GENERATOR_OUT_BASE, GENERATOR_TIMEOUT_MS,
		       generator_env(), &res);
}

static void start_supervisor(void)
{
	struct supervisor_config cfg = {
		.notify_path = NOTIFY_PATH,
		.caps_helper = find_helper("ember-caps", CAPS_HELPER),
		.busname_helper = find_helper("ember-busname-wait", BUSNAME_HELPER),
		.sandbox_helper = find_helper("ember-sandbox", EXEC_SANDBOX_HELPER),
		.session_helper = find_helper("ember-session", EXEC_SESSION_HELPER),
		.essential_only = pid1.opts.rescue,
		.userspace_start_us = pid1.started_us,
		.kmsg_fd = pid1.kmsg_fd,
		.cgroup_options = -1,
		.failed_retry_ms = (long long)pid1.opts.failed_retry_sec * 1000,
	};

	if (generator_search())
		cfg.generate = run_generators;
	if (pid1.opts.services[0] && cfg.generate) { /* the outputs around the given list */
		pid1.service_dirs[0] = GENERATOR_DIR_EARLY;
		pid1.service_dirs[1] = pid1.opts.services;
		pid1.service_dirs[2] = GENERATOR_DIR_NORMAL;
		pid1.service_dirs[3] = GENERATOR_DIR_LATE;
		cfg.dirs = pid1.service_dirs;
		cfg.ndirs = 4;
	} else if (pid1.opts.services[0]) {
		pid1.service_dirs[0] = pid1.opts.services;
		cfg.dirs = pid1.service_dirs;
		cfg.ndirs = 1;
	}
	if (pid1.opts.cgroup[0]) {
		cfg.cgroup_root = pid1.opts.cgroup;
	} else if (!pid1.container) {
		cfg.cgroup_root = "/sys/fs/cgroup";
		cfg.cgroup_options = pid1.cgroup_options;
	}
	supervisor_on_boot_ready(boot_ready);
	supervisor_on_essential_failure(essential_failed);
	supervisor_init(&cfg);
	if (pid1.reexecuted)
		adopt_handed_over();
}

/* A VM whose firmware UUID is the VM manager's ID for it, which systemd takes for a new
 * machine ID (not on bare metal, where every board of a model may carry the same). */
static bool vm_with_own_uuid(void)
{
	static const char *const vms[] = { "qemu", "kvm", "amazon", "xen" };
	bool container;
	const char *id = condition_detect_virtualization(&condition_probe_system, &container);

	for (size_t i = 0; !container && i < sizeof vms / sizeof vms[0]; i++)
		if (strcmp(id, vms[i]) == 0)
			return true;
	return false;
}

/* systemd's machine ID (machine-id(5)), once per boot, before any unit runs. */
static void setup_machine_id(void)
{
	struct machine_id_sources src = {
		.etc = MACHINE_ID_ETC, .run = MACHINE_ID_RUN, .dbus = MACHINE_ID_DBUS,
		.flag = MACHINE_ID_FIRST_BOOT_FLAG,
		.requested = pid1.opts.machine_id[0] ? pid1.opts.machine_id : NULL,
		.container = pid1.container,
		.container_uuid = pid1.container ? getenv("container_uuid") : NULL,
		.vm = vm_with_own_uuid,
		.product = MACHINE_ID_PRODUCT, .product_dt = MACHINE_ID_PRODUCT_DT,
	};
	char id[40];

	if (!pid1.reexecuted)
		(void)machine_id_setup(&src, id); /* logged; the boot goes on either way */
}

static void boot(int argc, char **argv)
{
	int failed;

	const char *container = container_detect("", getenv("container"));

	pid1.container = container != NULL;
	log_info("ember-init %s %s%s%s%s", EMBER_VERSION,
		 pid1.reexecuted ? "re-executed" : "starting",
		 container ? " (container mode: " : "", container ? container : "",
		 container ? ")" : "");
	/* /dev/kmsg exists once /dev is mounted: open it before the cgroup2 mount so its
	 * outcome reaches the kernel log. */
	failed = apifs_mount_basic(pid1.container);
	read_cmdline(argc, argv);
	open_kmsg();
	open_console_log();
	setup_machine_id();
	if (!pid1.container) {
		sysctl_apply_boot(pid1.cmdline); /* empower: ember.legacy_tiocsti= */
		if (sysctl_raise_dgram_qlen(SYSCTL_DGRAM_QLEN_PATH) < 0)
			log_warn("%s: %s", SYSCTL_DGRAM_QLEN_PATH, strerror(errno));
	}
	if (!pid1.container) {
		pid1.cgroup_options = apifs_mount_cgroup();
		failed += pid1.cgroup_options < 0;
		(void)apifs_share_mounts(); /* logged; the boot goes on either way */
		(void)loopback_up(); /* the same; a container's network is not ours */
	}
	if (failed)
		log_error("%d API file system(s) failed to mount; continuing", failed);
	/* A container's hostname and Ctrl-Alt-Del belong to whoever started it. */
	if (!pid1.container) {
		set_hostname();
		reboot(RB_DISABLE_CAD); /* Ctrl-Alt-Del becomes SIGINT: a clean reboot */
	}
	if (pid1.opts.watchdog_sec)
		watchdog_want(pid1.opts.watchdog_sec);
	/* A container shares the host's TPM: its phases are not the boot's. */
	measure_enable(pid1.opts.measure && !pid1.container, find_helper("boot-measure", MEASURE_BIN));
	if (!pid1.reexecuted)
		measure_phase("sysinit");
	open_sockets();
	emergency_shell_wanted(pid1.opts.crash_shell);
	emergency_on_crash(crashed);
	if (pid1.opts.rescue && !pid1.reexecuted)
		enter_rescue("ember.rescue on the kernel command line");
	start_supervisor();
	if (!pid1.opts.no_shell && !pid1.opts.run[0] && pid1.shell_pid <= 0)
		pid1.shell_due_ms = now_ms();
}

/* The linker's bounds of the zero-initialised data: PID 1's unit tables live there. */
extern char __bss_start[], _end[];

/* PID 1's tables are large and sparse: only the slots of loaded units are ever touched.
 * With transparent huge pages on ("always", Debian's default) the kernel backs every 2 MiB
 * span that has one touched page with a whole huge page, and khugepaged collapses the
 * rest later: on a Debian disk that made 8 MiB of PID 1's 8.7 MiB resident. Opting the
 * tables out keeps only the touched 4 KiB pages. Services are not affected: the flag
 * belongs to this mapping, and execve() gives every service a fresh one. */
static void tables_without_huge_pages(void)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)__bss_start & ~(page - 1);
	uintptr_t end = ((uintptr_t)_end + page - 1) & ~(page - 1);

	if (madvise((void *)start, end - start, MADV_NOHUGEPAGE) != 0 && errno != EINVAL)
		log_warn("tables: cannot opt out of transparent huge pages: %m");
}

int main(int argc, char **argv)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	pid1.started_us = (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
	pid1.shell_due_ms = -1;
	pid1.run_status = -1;
	pid1.notify_fd = -1;
	pid1.kmsg_fd = -1;
	pid1.cgroup_options = -1;
	log_open("ember-init");
	log_set_sink(journal_log_line); /* once journald runs (journal-log.h) */
	tables_without_huge_pages();
	handover_save_invocation(argc, argv, environ);
	handle_arguments(argc, argv);
	if (getpid() != 1)
		die(EXIT_USAGE, "must run as PID 1 (this is pid %d); see ember-init(8)", (int)getpid());
	console_setup();
	/* Services are started with only the signals PID 1 catches reset (exec-context.h):
	 * what a parent (a container's manager, a test harness) left ignored would pass on
	 * to every service. */
	exec_signals_default(0);
	/* First: a re-executed PID 1 starts with its predecessor's fds, perhaps past the
	 * open-files limit it was handed (the original one, rlimits.h). */
	rlimits_raise_own();
	emergency_install_crash_handlers();
	pid1.signal_fd = block_signals();
	if (pid1.signal_fd < 0)
		emergency("signalfd failed");
	pid1.reexecuted = handover_receive(&pid1.handed);
	boot(argc, argv);
	main_loop();
}
