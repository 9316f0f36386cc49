/* ember-sandbox: run a command in a sandbox made of namespaces and mounts, for the
 * sandboxing keys of service files (ember-sandbox(8)). ember-init execs it, as root,
 * only for services that use those keys; it sets the sandbox up and execs the rest of
 * the chain (normally ember-caps, which switches identity). On any failure nothing runs. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "escape.h"
#include "exec-context.h"
#include "exitcode.h"
#include "log.h"
#include "parse.h"
#include "seccomp.h"
#include "setup.h"

enum { EXIT_SETUP = 1, EXIT_EXEC = 127 };

static void usage(void)
{
	printf("usage: ember-sandbox [OPTION...] -- PATH ARGV0 [ARG...]\n"
	       "Run PATH in new namespaces with the given mounts (see ember-sandbox(8)).\n"
	       "  --private-tmp               empty /tmp and /var/tmp of its own\n"
	       "  --private-devices           a minimal /dev (null, zero, random, tty, ptys)\n"
	       "  --private-network           a network namespace with only lo, up\n"
	       "  --private-ipc               an IPC namespace and its own /dev/mqueue\n"
	       "  --systemd-view              /run/systemd/system/ here (sd_booted() true)\n"
	       "  --protect-system=yes|full|strict  /usr,/boot | +/etc | all of / read-only\n"
	       "  --protect-home=yes|read-only|tmpfs  /home, /root, /run/user\n"
	       "  --protect-kernel-tunables   /proc/sys, /sys ... read-only\n"
	       "  --protect-kernel-modules    no module loading, module dirs hidden\n"
	       "  --protect-control-groups    /sys/fs/cgroup read-only\n"
	       "  --read-only=[-]PATH         read-only (with what is below)\n"
	       "  --read-write=[-]PATH        writable even under a read-only parent\n"
	       "  --inaccessible=[-]PATH      hidden behind an empty mode-0000 object\n"
	       "                              (-: a missing PATH is skipped)\n"
	       "  --private-dir=BASE/private/PATH  DynamicUser=: BASE/private becomes a tmpfs\n"
	       "                              holding only these directories, writable\n"
	       "  --bind=[-]SRC[:DST[:rbind|norbind]]  BindPaths=: SRC bound onto DST, writable\n"
	       "  --bind-ro=[-]SRC[:DST[:OPTIONS]]  BindReadOnlyPaths=: the same, read-only\n"
	       "  --no-exec=[-]PATH           NoExecPaths=: nothing below PATH may be executed\n"
	       "  --exec=[-]PATH              ExecPaths=: executable again below a --no-exec\n"
	       "  --system-call-filter=LINE   SystemCallFilter= (repeat; empty resets)\n"
	       "  --system-call-error-number=ERRNO|kill  what a refused call gets\n"
	       "  --system-call-architectures=LINE  native: other ABIs are killed\n"
	       "  --restrict-address-families=LINE  socket() families ([~]AF_... | none)\n"
	       "  --restrict-namespaces=LINE  yes | no | [~]cgroup ipc net mnt pid user uts\n"
	       "  --memory-deny-write-execute --restrict-realtime --lock-personality\n"
	       "  --restrict-suid-sgid --protect-hostname --protect-kernel-logs --protect-clock\n"
	       "  --helper                    the command is ember's own helper: found before\n"
	       "                              the sandbox is set up, --no-exec does not bind it\n"
	       "  --caps-chain                the command is an ember-caps command line: the\n"
	       "                              filters are applied after it, before its command\n"
	       "  --seccomp-only              only the filters; command is PATH ARGV0 [ARG...]\n"
	       "  --protect-proc=noaccess|invisible|ptraceable  a private /proc with hidepid=\n"
	       "  --proc-subset=pid           a private /proc with only the process directories\n"
	       "  --private-mounts            (always: the sandbox has its own mount namespace)\n"
	       "  --private-users=UID:GID     a user namespace mapping root and UID:GID only\n"
	       "  --private-users=identity|full  ... mapping ids 0-65535, or every id\n"
	       "  --report-fd N               write a failure record to fd N (for ember-init)\n"
	       "  -h, --help                  this help\n"
	       "      --version               version\n"
	       "Exit codes: 1 sandbox setup failed, 100 usage (also an unknown name), 127 exec failure\n");
}

static int report_fd = -1;

/* what may hold a unit file's text (a path, an option): escaped, one safe log line. */
static noreturn void refuse(int code, int step, int op, int err, const char *what)
{
	struct exec_failure f = { .step = step, .err = err, .arg = op };
	char shown[1024];

	if (report_fd >= 0)
		exec_failure_write(report_fd, &f);
	die(code, "%s: %s", escape_text(what, shown, sizeof shown), strerror(err));
}

static int add_path(struct sandbox_list *l, const char *value)
{
	bool optional = value[0] == '-';
	const char *path = optional ? value + 1 : value;

	if (!sandbox_path_clean(path) || l->count >= SANDBOX_PATHS_MAX)
		return -1;
	l->item[l->count++] = (struct sandbox_path){ path, optional };
	return 0;
}

static int parse_choice(const char *value, const char *const names[], int count)
{
	for (int i = 1; i < count; i++)
		if (names[i] && strcmp(value, names[i]) == 0)
			return i;
	return -1;
}

/* One option; -1 when it is not valid. */
static int parse_option(struct sandbox_request *r, const char *arg)
{
	static const char *const systems[] = { NULL, "yes", "full", "strict" };
	static const char *const homes[] = { NULL, "yes", "read-only", "tmpfs" };
	static const struct { const char *name; size_t offset; } flags[] = {
		{ "--private-tmp", offsetof(struct sandbox_request, private_tmp) },
		{ "--private-devices", offsetof(struct sandbox_request, private_devices) },
		{ "--private-network", offsetof(struct sandbox_request, private_network) },
		{ "--private-ipc", offsetof(struct sandbox_request, private_ipc) },
		{ "--systemd-view", offsetof(struct sandbox_request, systemd_view) },
		{ "--nosuid", offsetof(struct sandbox_request, nosuid) },
		{ "--protect-kernel-tunables", offsetof(struct sandbox_request, protect_kernel_tunables) },
		{ "--protect-kernel-modules", offsetof(struct sandbox_request, protect_kernel_modules) },
		{ "--protect-control-groups", offsetof(struct sandbox_request, protect_control_groups) },
	};
	int v;

	for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
		if (strcmp(arg, flags[i].name) == 0) {
			*(bool *)((char *)r + flags[i].offset) = true;
			return 0;
		}
	if (str_starts_with(arg, "--protect-system=")) {
		if ((v = parse_choice(arg + 17, systems, 4)) < 0)
			return -1;
		r->protect_system = (enum sandbox_protect_system)v;
		return 0;
	}
	if (str_starts_with(arg, "--protect-home=")) {
		if ((v = parse_choice(arg + 15, homes, 4)) < 0)
			return -1;
		r->protect_home = (enum sandbox_protect_home)v;
		return 0;
	}
	if (str_starts_with(arg, "--read-only="))
		return add_path(&r->read_only, arg + 12);
	if (str_starts_with(arg, "--read-write="))
		return add_path(&r->read_write, arg + 13);
	if (str_starts_with(arg, "--inaccessible="))
		return add_path(&r->inaccessible, arg + 15);
	if (str_starts_with(arg, "--private-dir="))
		return add_path(&r->private_dirs, arg + 14);
	if (str_starts_with(arg, "--bind="))
		return sandbox_bind_option(&r->binds, arg + 7, false);
	if (str_starts_with(arg, "--bind-ro="))
		return sandbox_bind_option(&r->binds, arg + 10, true);
	if (str_starts_with(arg, "--no-exec="))
		return add_path(&r->no_exec, arg + 10);
	if (str_starts_with(arg, "--exec="))
		return add_path(&r->exec, arg + 7);
	return sandbox_more_option(&r->more, arg) == 0 ? 0 : -1; /* exec keys (sandbox-more) */
}

static void set_report_fd(const char *value)
{
	unsigned long n;

	if (parse_ulong(value, 0, 1 << 20, &n) < 0 || fcntl((int)n, F_GETFD) < 0)
		die(EXIT_USAGE, "--report-fd %s: not an open file descriptor", value);
	report_fd = (int)n; /* left open: the next link (ember-caps) reports through it too */
}

/* ---- seccomp keys: sandbox/seccomp*.c, ember-sandbox(8) "SECCOMP" ---- */
#define SECCOMP_ARGS_MAX 128
static struct seccomp_request sec;
static const char *sec_args[SECCOMP_ARGS_MAX]; /* as given, for the second stage */
static size_t sec_arg_count;
static bool caps_chain, seccomp_only;

/* 1 when arg was a seccomp option (kept for the second stage), 0 when it is not. */
static int take_seccomp_option(const char *arg)
{
	char err[256];
	int r;

	if (strcmp(arg, "--caps-chain") == 0)
		return caps_chain = true;
	if (strcmp(arg, "--seccomp-only") == 0)
		return seccomp_only = true;
	r = seccomp_option(&sec, arg, err, sizeof err);
	if (r < 0 || (r > 0 && sec_arg_count >= SECCOMP_ARGS_MAX)) {
		char what[512];
		snprintf(what, sizeof what, "%s: %s", arg, r < 0 ? err : "too many options");
		refuse(EXIT_USAGE, EXEC_STEP_SANDBOX_HELPER, 0, EINVAL, what);
	}
	if (r > 0)
		sec_args[sec_arg_count++] = arg;
	return r;
}

/* The next program: through the descriptor --helper opened before the sandbox was set
 * up, when there is one, so NoExecPaths= and the mounts bind what it runs, not it. */
static noreturn void exec_next(int fd, char **argv)
{
	if (fd >= 0)
		fexecve(fd, argv, environ);
	else
		execv(argv[0], argv);
	refuse(EXIT_EXEC, EXEC_STEP_EXECVE, 0, errno, argv[0]);
}

/* --helper: the command is ember's own helper (ember-caps, as ember-init runs it), found
 * now, before any mount or NoExecPaths=/ (Debian's redis-server.service) could hide it
 * or make it not executable. */
static int open_helper(const char *path)
{
	int fd = open(path, O_PATH | O_CLOEXEC);

	if (fd < 0)
		refuse(EXIT_EXEC, EXEC_STEP_EXECVE, 0, errno, path);
	return fd;
}

static void install_filters(void)
{
	char err[256];

	if (sec.any && seccomp_install(&sec, true, err, sizeof err) < 0)
		refuse(EXIT_SETUP, EXEC_STEP_SANDBOX_HELPER, 0, errno, err);
}

/* ember-caps switches identity, so the filters come after it (systemd installs them
 * last too): its command becomes this program again, --seccomp-only, run from an fd of
 * our own binary opened before any mount could hide it. */
static noreturn void exec_caps_chain(char **rest, int self_fd, int helper_fd)
{
	char **next, fd_path[32];
	size_t n = 0, k, count = 0;

	for (k = 1; rest[k] && strcmp(rest[k], "--") != 0; k++)
		;
	if (!rest[k] || !rest[k + 1])
		refuse(EXIT_USAGE, EXEC_STEP_SANDBOX_HELPER, 0, EINVAL,
		       "--caps-chain: no -- PATH ARGV0 in the ember-caps command line");
	while (rest[count])
		count++;
	next = calloc(count + sec_arg_count + 6, sizeof *next);
	if (!next)
		refuse(EXIT_SETUP, EXEC_STEP_SANDBOX_HELPER, 0, errno, "memory");
	snprintf(fd_path, sizeof fd_path, "/proc/self/fd/%d", self_fd);
	for (size_t j = 0; j <= k; j++) /* ember-caps and its options, "--" */
		next[n++] = rest[j];
	next[n++] = fd_path;
	next[n++] = "ember-sandbox";
	next[n++] = "--seccomp-only";
	for (size_t j = 0; j < sec_arg_count; j++)
		next[n++] = (char *)sec_args[j];
	next[n++] = "--";
	for (size_t j = k + 1; rest[j]; j++) /* PATH ARGV0 ARG... */
		next[n++] = rest[j];
	next[n] = NULL;
	exec_next(helper_fd, next);
}

static void hide_kernel_logs(struct sandbox_request *r)
{
	if (sec.protect_kernel_logs &&
	    (add_path(&r->inaccessible, "-/proc/kmsg") < 0 ||
	     add_path(&r->inaccessible, "-/dev/kmsg") < 0))
		refuse(EXIT_USAGE, EXEC_STEP_SANDBOX_HELPER, 0, EINVAL, "too many paths");
}

static int open_self(void)
{
	int fd = open("/proc/self/exe", O_RDONLY); /* no O_CLOEXEC: ember-caps execs it */

	if (fd < 0)
		refuse(EXIT_SETUP, EXEC_STEP_SANDBOX_HELPER, 0, errno, "/proc/self/exe");
	return fd;
}

static bool seccomp_checked(void)
{
	char err[256];

	if (!sec.any)
		return false;
	if (seccomp_install(&sec, false, err, sizeof err) < 0)
		refuse(EXIT_USAGE, EXEC_STEP_SANDBOX_HELPER, 0, EINVAL, err);
	return true;
}
/* ---- end seccomp keys ---- */

int main(int argc, char **argv)
{
	static struct sandbox_request req;
	struct sandbox_error e = { 0 };
	int i, self_fd = -1, helper_fd = -1;
	bool helper = false;

	log_open("ember-sandbox");
	seccomp_request_init(&sec);
	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage();
			return EXIT_OK;
		}
		if (strcmp(argv[i], "--version") == 0) {
			print_version("ember-sandbox");
			return EXIT_OK;
		}
		if (strcmp(argv[i], "--report-fd") == 0 && i + 1 < argc) {
			set_report_fd(argv[++i]);
			continue;
		}
		if (strcmp(argv[i], "--helper") == 0) {
			helper = true;
			continue;
		}
		if (take_seccomp_option(argv[i]))
			continue;
		if (parse_option(&req, argv[i]) < 0)
			refuse(EXIT_USAGE, EXEC_STEP_SANDBOX_HELPER, 0, EINVAL, argv[i]);
	}
	if (i + 1 >= argc || (seccomp_only && i + 2 >= argc))
		refuse(EXIT_USAGE, EXEC_STEP_SANDBOX_HELPER, 0, EINVAL, "no command after --");
	if (seccomp_checked() && seccomp_only) { /* second stage: as the service's user */
		install_filters();
		execv(argv[i + 1], argv + i + 2);
		refuse(EXIT_EXEC, EXEC_STEP_EXECVE, 0, errno, argv[i + 1]);
	}
	if (helper)
		helper_fd = open_helper(argv[i + 1]);
	if (sec.any && caps_chain)
		self_fd = open_self();
	hide_kernel_logs(&req);
	if (sandbox_setup(&req, &e) < 0) {
		char what[512];
		snprintf(what, sizeof what, "%s%s%s", exec_sandbox_op_name(e.op), e.path ? " " : "",
			 e.path ? e.path : "");
		refuse(EXIT_SETUP, EXEC_STEP_SANDBOX, e.op, e.err, what);
	}
	if (sec.any && seccomp_prepare(&sec) < 0)
		refuse(EXIT_SETUP, EXEC_STEP_SANDBOX, EXEC_SANDBOX_BOUNDING, errno,
		       "ProtectHostname=/ProtectClock=/ProtectKernelLogs=");
	if (self_fd >= 0)
		exec_caps_chain(argv + i + 1, self_fd, helper_fd);
	install_filters();
	exec_next(helper_fd, argv + i + 1);
}
