/* ember-caps: start a command with a chosen identity and capability sets (ember-caps(8)).
 * ember-init and empower exec it from their children when a service or session asks
 * for capabilities, because PID 1 links no libcap. Everything is checked and applied
 * before the command runs; on any failure nothing runs. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "apply.h"
#include "args.h"
#include "cli.h"
#include "escape.h"
#include "exec-context.h"
#include "exitcode.h"
#include "log.h"
#include "parse.h"
#include "passwd.h"

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

enum {
	EXIT_CAP_UNAVAILABLE = 1, /* a requested capability is not in bounding ∩ permitted */
	EXIT_NO_USER = 2,         /* --user: no such user, or its groups cannot be read */
	EXIT_EXEC = 127,          /* the command could not be executed */
};

static void usage(void)
{
	printf("usage: ember-caps [OPTION...] -- PATH ARGV0 [ARG...]\n"
	       "Run PATH with the given identity and capabilities (see ember-caps(8)).\n"
	       "  --user NAME|UID      uid, gid and groups from /etc/passwd and /etc/group\n"
	       "  --uid N --gid N      user and group ids (--uid needs --gid or --user)\n"
	       "  --groups N,N,...     supplementary groups (default with --uid/--gid: none)\n"
	       "  --bounding MASK      keep only these capabilities in the bounding set\n"
	       "  --ambient MASK|all   raise these into the inheritable and ambient sets\n"
	       "                       (all: every capability in bounding and permitted)\n"
	       "  --no-new-privs       set no_new_privs\n"
	       "  --securebits N       securebits (SECBIT_* bits), set right before the exec\n"
	       "  --apparmor-profile P AppArmor profile on exec (-P: skipped if unknown)\n"
	       "  --chdir DIR          working directory (entered as the new user)\n"
	       "  --chdir-fd N         working directory as an open directory fd\n"
	       "  --chdir-optional     ignore a failure to enter the working directory\n"
	       "  --report-fd N        write a failure record to fd N (for ember-init)\n"
	       "  -h, --help           this help\n"
	       "      --version        version\n"
	       "MASK: all, none, 0xHEX, or names/numbers such as cap_net_bind_service,cap_kill\n"
	       "Exit codes: 1 capability unavailable, 2 unknown user, 100 usage,\n"
	       "            111 system failure, 127 exec failure\n");
}

static int report_fd = -1;

/* Say why, tell the caller's pipe, and exit without running anything. */
static _Noreturn void refuse(int code, const struct exec_failure *f,
			     const struct caps_request *req)
{
	struct exec_context ctx;
	char msg[768];

	exec_context_init(&ctx);
	ctx.workdir = req->chdir_path;
	ctx.workdir_fd = req->chdir_fd;
	exec_failure_format(f, &ctx, req->path, msg, sizeof msg);
	log_error("%s", msg);
	if (report_fd >= 0)
		exec_failure_write(report_fd, f);
	exit(code);
}

/* --user: ids and groups from the files, unless given explicitly too. */
static void resolve_user(struct caps_request *req)
{
	struct passwd_user u;
	char shown[256];

	if (passwd_user_lookup(NULL, req->user, &u) < 0)
		die(EXIT_NO_USER, "user %s: %s", escape_text(req->user, shown, sizeof shown),
		    errno == ENOENT ? "not found in /etc/passwd" : strerror(errno));
	if (!req->uid_set)
		req->uid = u.uid;
	if (!req->gid_set)
		req->gid = u.gid;
	req->uid_set = req->gid_set = true;
	if (req->groups_set)
		return;
	if (passwd_user_groups(NULL, u.name, req->gid, req->groups, EXEC_GROUPS_MAX,
			       &req->group_count) < 0)
		die(EXIT_NO_USER, "user %s: groups from /etc/group: %s", u.name, strerror(errno));
	req->groups_set = true;
}

/* The report pipe must close when the command starts, and must really be open. */
static void keep_report_fd(int fd)
{
	if (fd < 0)
		return;
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
		die(EXIT_USAGE, "--report-fd %d: %s", fd, strerror(errno));
	report_fd = fd;
}

/* PATH "/proc/self/fd/N" (empowerd's way to say "this open file"): execveat on the fd,
 * close-on-exec so the command does not inherit it. A script needs the fd open (its
 * interpreter reopens /proc/self/fd/N): then, and only then, it stays open. */
static void exec_command(const char *path, char **argv)
{
	unsigned long fd;
	const char *prefix = "/proc/self/fd/";
	if (strncmp(path, prefix, strlen(prefix)) != 0 ||
	    parse_ulong(path + strlen(prefix), 3, 1UL << 20, &fd) < 0) {
		execve(path, argv, environ);
		return;
	}
	if (fcntl((int)fd, F_SETFD, FD_CLOEXEC) == 0) {
		syscall(SYS_execveat, (int)fd, "", argv, environ, AT_EMPTY_PATH);
		if (errno != ENOENT)
			return;
		fcntl((int)fd, F_SETFD, 0); /* ENOENT from an open fd: an interpreter script */
	}
	execve(path, argv, environ);
}

int main(int argc, char **argv)
{
	struct caps_request req;
	struct exec_failure f = { 0 };
	char err[512];

	log_open("ember-caps");
	if (argc < 1 || !argv[0] || !argv[0][0])
		die(EXIT_USAGE, "no program name (argc is 0 or argv[0] is empty): refusing");
	if (caps_parse_args(argc, argv, &req, err, sizeof err) < 0) {
		keep_report_fd(req.report_fd);
		f.step = EXEC_STEP_CAPS_ARGS;
		f.err = EINVAL;
		if (report_fd >= 0)
			exec_failure_write(report_fd, &f);
		die(EXIT_USAGE, "%s (see --help)", err);
	}
	if (req.help) {
		usage();
		return EXIT_OK;
	}
	if (req.version) {
		print_version("ember-caps");
		return EXIT_OK;
	}
	keep_report_fd(req.report_fd);
	if (req.user)
		resolve_user(&req);
	if (caps_apply(&req, &f) < 0)
		refuse(f.step == EXEC_STEP_CAP_UNAVAILABLE ? EXIT_CAP_UNAVAILABLE : EXIT_SYSTEM,
		       &f, &req);
	exec_command(req.path, req.argv);
	f.step = EXEC_STEP_EXECVE;
	f.err = errno;
	f.arg = 0;
	refuse(EXIT_EXEC, &f, &req);
}
