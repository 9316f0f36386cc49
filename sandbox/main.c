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
#include "exec-context.h"
#include "exitcode.h"
#include "log.h"
#include "parse.h"
#include "setup.h"

enum { EXIT_SETUP = 1, EXIT_EXEC = 127 };

static void usage(void)
{
	printf("usage: ember-sandbox [OPTION...] -- PATH ARGV0 [ARG...]\n"
	       "Run PATH in new namespaces with the given mounts (see ember-sandbox(8)).\n"
	       "  --private-tmp               empty /tmp and /var/tmp of its own\n"
	       "  --private-devices           a minimal /dev (null, zero, random, tty, ptys)\n"
	       "  --private-network           a network namespace with only lo, up\n"
	       "  --protect-system=yes|full|strict  /usr,/boot | +/etc | all of / read-only\n"
	       "  --protect-home=yes|read-only|tmpfs  /home, /root, /run/user\n"
	       "  --protect-kernel-tunables   /proc/sys, /sys ... read-only\n"
	       "  --protect-kernel-modules    no module loading, module dirs hidden\n"
	       "  --protect-control-groups    /sys/fs/cgroup read-only\n"
	       "  --read-only=[-]PATH         read-only (with what is below)\n"
	       "  --read-write=[-]PATH        writable even under a read-only parent\n"
	       "  --inaccessible=[-]PATH      hidden behind an empty mode-0000 object\n"
	       "                              (-: a missing PATH is skipped)\n"
	       "  --protect-proc=noaccess|invisible|ptraceable  a private /proc with hidepid=\n"
	       "  --proc-subset=pid           a private /proc with only the process directories\n"
	       "  --private-mounts            (always: the sandbox has its own mount namespace)\n"
	       "  --private-users=UID:GID     a user namespace mapping root and UID:GID only\n"
	       "  --report-fd N               write a failure record to fd N (for ember-init)\n"
	       "  -h, --help                  this help\n"
	       "      --version               version\n"
	       "Exit codes: 1 sandbox setup failed, 100 usage, 127 exec failure\n");
}

static int report_fd = -1;

static noreturn void refuse(int code, int step, int op, int err, const char *what)
{
	struct exec_failure f = { .step = step, .err = err, .arg = op };

	if (report_fd >= 0)
		exec_failure_write(report_fd, &f);
	die(code, "%s: %s", what, strerror(err));
}

static int add_path(struct sandbox_list *l, const char *value)
{
	bool optional = value[0] == '-';
	const char *path = optional ? value + 1 : value;

	if (path[0] != '/' || l->count >= SANDBOX_PATHS_MAX)
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
	return sandbox_more_option(&r->more, arg) == 0 ? 0 : -1; /* exec keys (sandbox-more) */
}

static void set_report_fd(const char *value)
{
	unsigned long n;

	if (parse_ulong(value, 0, 1 << 20, &n) < 0 || fcntl((int)n, F_GETFD) < 0)
		die(EXIT_USAGE, "--report-fd %s: not an open file descriptor", value);
	report_fd = (int)n; /* left open: the next link (ember-caps) reports through it too */
}

int main(int argc, char **argv)
{
	static struct sandbox_request req;
	struct sandbox_error e = { 0 };
	int i;

	log_open("ember-sandbox");
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
		if (parse_option(&req, argv[i]) < 0)
			refuse(EXIT_USAGE, EXEC_STEP_SANDBOX_HELPER, 0, EINVAL, argv[i]);
	}
	if (i + 1 >= argc)
		refuse(EXIT_USAGE, EXEC_STEP_SANDBOX_HELPER, 0, EINVAL, "no command after --");
	if (sandbox_setup(&req, &e) < 0) {
		char what[512];
		snprintf(what, sizeof what, "%s%s%s", exec_sandbox_op_name(e.op), e.path ? " " : "",
			 e.path ? e.path : "");
		refuse(EXIT_SETUP, EXEC_STEP_SANDBOX, e.op, e.err, what);
	}
	execv(argv[i + 1], argv + i + 1);
	refuse(EXIT_EXEC, EXEC_STEP_EXECVE, 0, errno, argv[i + 1]);
}
