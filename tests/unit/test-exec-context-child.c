// sources:
/* exec_context_exec() in a forked child, for the steps that need no privilege: stdio,
 * signals, umask, limits, environment, working directory, no_new_privs, and failures.
 * The command is /bin/sh, whose output comes back through a pipe. */
#include "harness.h"
#include "exec-context.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

struct outcome {
	int got_failure;            /* 1: the child reported one */
	struct exec_failure failure;
	int status;
	char out[4096];             /* what the command wrote to stdout */
};

static void read_all(int fd, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;

	while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
}

/* Fork, run script under c with stdout on a pipe, collect everything. */
static void run(struct exec_context *c, const char *script, struct outcome *o)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };
	int out[2], rep[2];
	pid_t pid;

	memset(o, 0, sizeof *o);
	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(rep, O_CLOEXEC) < 0)
		abort();
	c->stdout_fd = out[1];
	c->report_fd = rep[1];
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		struct exec_failure f;
		exec_context_exec(c, "/bin/sh", argv, &f);
		exec_failure_write(rep[1], &f);
		_exit(111);
	}
	close(out[1]);
	close(rep[1]);
	read_all(out[0], o->out, sizeof o->out);
	o->got_failure = exec_failure_read(rep[0], &o->failure);
	waitpid(pid, &o->status, 0);
	close(out[0]);
	close(rep[0]);
}

static void applies_umask_env_and_workdir(void)
{
	char *env[] = { "FOO=bar baz", "PATH=/usr/bin:/bin", NULL };
	struct exec_context c;
	struct outcome o;

	exec_context_init(&c);
	c.umask_set = true;
	c.umask = 027;
	c.envp = env;
	c.workdir = "/proc";
	run(&c, "umask; pwd; echo \"FOO=$FOO\"; echo \"HOME=${HOME-unset}\"", &o);
	CHECK(o.got_failure == 0);
	CHECK(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0);
	CHECK_STR(o.out, "0027\n/proc\nFOO=bar baz\nHOME=unset\n");
}

static void applies_rlimits_and_nice(void)
{
	struct exec_context c;
	struct outcome o;

	exec_context_init(&c);
	c.rlimit_set = 1u << RLIMIT_NOFILE | 1u << RLIMIT_CORE;
	c.rlimit[RLIMIT_NOFILE] = (struct rlimit){ 77, 99 };
	c.rlimit[RLIMIT_CORE] = (struct rlimit){ 0, 0 };
	c.nice_set = true;
	c.nice = 7;
	run(&c, "ulimit -n; ulimit -H -n; ulimit -c; "
		"exec awk '{print $19}' /proc/self/stat", &o);
	CHECK(o.got_failure == 0);
	CHECK_STR(o.out, "77\n99\n0\n7\n");
}

static bool has_sys_resource(void)
{
	char line[128];
	unsigned long long eff = 0;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, "CapEff:", 7) == 0)
			eff = strtoull(line + 7, NULL, 16);
	if (f)
		fclose(f);
	return eff >> 24 & 1; /* CAP_SYS_RESOURCE */
}

/* LimitNOFILE=infinity (Debian's containerd): no open file limit may pass fs.nr_open,
 * so the kernel refuses it; as under systemd the service gets that ceiling instead of a
 * failed start. A limit above the hard one without the privilege to raise it is held to
 * the hard limit the same way. */
static void rlimits_beyond_the_kernel_are_set_closest(void)
{
	struct exec_context c;
	struct outcome o;
	char want[64], buf[32];
	FILE *f = fopen("/proc/sys/fs/nr_open", "r");
	unsigned long nr_open = 0;

	CHECK(f && fgets(buf, sizeof buf, f));
	if (f)
		fclose(f);
	nr_open = strtoul(buf, NULL, 10);
	exec_context_init(&c);
	c.rlimit_set = 1u << RLIMIT_NOFILE;
	c.rlimit[RLIMIT_NOFILE] = (struct rlimit){ RLIM_INFINITY, RLIM_INFINITY };
	run(&c, "ulimit -n; ulimit -H -n", &o);
	CHECK(o.got_failure == 0);
	if (has_sys_resource()) {
		snprintf(want, sizeof want, "%lu\n%lu\n", nr_open, nr_open);
	} else { /* the hard limit the process has (tests/qemu/test-execmore-bpf.sh: nr_open) */
		struct rlimit hard;
		CHECK(getrlimit(RLIMIT_NOFILE, &hard) == 0);
		snprintf(want, sizeof want, "%lu\n%lu\n", (unsigned long)hard.rlim_max,
			 (unsigned long)hard.rlim_max);
	}
	CHECK_STR(o.out, want);
}

static void no_new_privs_and_clean_signals(void)
{
	struct exec_context c;
	struct outcome o;
	sigset_t block;

	/* the parent state PID 1 would pass on: everything blocked, SIGINT ignored */
	sigfillset(&block);
	sigprocmask(SIG_SETMASK, &block, NULL);
	signal(SIGINT, SIG_IGN);
	exec_context_init(&c);
	c.no_new_privs = true;
	run(&c, "exec grep -E '^(SigBlk|SigIgn|NoNewPrivs)' /proc/self/status", &o);
	sigemptyset(&block);
	sigprocmask(SIG_SETMASK, &block, NULL);
	signal(SIGINT, SIG_DFL);
	CHECK(o.got_failure == 0);
	CHECK(strstr(o.out, "SigBlk:\t0000000000000000\n") != NULL);
	CHECK(strstr(o.out, "SigIgn:\t0000000000000000\n") != NULL);
	CHECK(strstr(o.out, "NoNewPrivs:\t1\n") != NULL);
}

/* IgnoreSIGPIPE= (systemd's default: yes): SIGPIPE ignored, and nothing else. */
static void ignores_sigpipe_when_asked(void)
{
	struct exec_context c;
	struct outcome o;

	exec_context_init(&c);
	c.ignore_sigpipe = true;
	run(&c, "exec grep '^SigIgn' /proc/self/status", &o);
	CHECK(o.got_failure == 0);
	CHECK_STR(o.out, "SigIgn:\t0000000000001000\n");
}

/* stdout_fd = 2 and stderr_fd = 1: neither dup2 may clobber the other's source. */
static void swaps_stdout_and_stderr(void)
{
	int a[2], b[2];
	char out[64], err[64];
	pid_t pid;
	int status;

	if (pipe(a) < 0 || pipe(b) < 0)
		abort();
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { "sh", "-c", "echo out; echo err >&2", NULL };
		struct exec_context c;
		struct exec_failure f;

		dup2(a[1], 2); /* the swap puts a on 1 */
		dup2(b[1], 1);
		close(a[0]);
		close(b[0]);
		close(a[1]);
		close(b[1]);
		exec_context_init(&c);
		c.stdout_fd = 2;
		c.stderr_fd = 1;
		exec_context_exec(&c, "/bin/sh", argv, &f);
		_exit(111);
	}
	close(a[1]);
	close(b[1]);
	read_all(a[0], out, sizeof out);
	read_all(b[0], err, sizeof err);
	waitpid(pid, &status, 0);
	close(a[0]);
	close(b[0]);
	CHECK_STR(out, "out\n");
	CHECK_STR(err, "err\n");
}

static void missing_workdir_fails_before_exec(void)
{
	struct exec_context c;
	struct outcome o;

	exec_context_init(&c);
	c.workdir = "/nonexistent/ember";
	run(&c, "echo ran", &o);
	CHECK(o.got_failure == 1);
	CHECK(o.failure.step == EXEC_STEP_CHDIR && o.failure.err == ENOENT);
	CHECK_STR(o.out, "");
	CHECK(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 111);

	c.workdir_optional = true; /* "-": go on in the old directory */
	run(&c, "echo ran", &o);
	CHECK(o.got_failure == 0);
	CHECK_STR(o.out, "ran\n");
}

static void workdir_fd_is_entered_and_closed(void)
{
	struct exec_context c;
	struct outcome o;
	char script[128];
	int fd = open("/proc", O_RDONLY | O_DIRECTORY); /* not CLOEXEC on purpose */

	exec_context_init(&c);
	c.workdir_fd = fd;
	snprintf(script, sizeof script, "pwd; [ -e /proc/self/fd/%d ] && echo leaked || echo closed",
		 fd);
	run(&c, script, &o);
	close(fd);
	CHECK(o.got_failure == 0);
	CHECK_STR(o.out, "/proc\nclosed\n");
}

static void exec_failures_are_reported(void)
{
	struct exec_context c;
	struct exec_failure f;
	char *argv[] = { NULL };
	char *argv2[] = { "x", NULL };

	exec_context_init(&c);
	/* refused in the parent's own process: nothing is applied before the check */
	CHECK(exec_context_exec(&c, "/bin/sh", argv, &f) < 0);
	CHECK(f.step == EXEC_STEP_EXECVE && f.err == EINVAL);
	CHECK(exec_context_exec(&c, NULL, argv2, &f) < 0 && f.err == EINVAL);
	c.rlimit_set = 1u << RLIMIT_NOFILE;
	c.rlimit[RLIMIT_NOFILE] = (struct rlimit){ 10, 5 }; /* soft > hard: EINVAL */
	{
		struct outcome o;
		run(&c, "echo ran", &o);
		CHECK(o.got_failure == 1 && o.failure.step == EXEC_STEP_RLIMIT);
		CHECK(o.failure.arg == RLIMIT_NOFILE && o.failure.err == EINVAL);
		CHECK_STR(o.out, "");
	}
}

static void missing_caps_helper_is_reported(void)
{
	struct exec_context c;
	struct outcome o;

	exec_context_init(&c);
	c.cap_ambient = 1;
	c.caps_helper = "/nonexistent/ember-caps";
	run(&c, "echo ran", &o);
	CHECK(o.got_failure == 1);
	CHECK(o.failure.step == EXEC_STEP_CAPS_HELPER && o.failure.err == ENOENT);
	CHECK_STR(o.out, "");
}

/* PAMName=: ember-session comes first, then the sandbox, then ember-caps with the
 * identity, then the command; /bin/echo stands in for ember-session and prints the chain
 * it was handed. */
static void session_link_comes_first(void)
{
	char *session[] = { "--uid", "1000", "--service", "login", NULL };
	char *sandbox[] = { "--private-tmp", NULL };
	struct exec_context c;
	struct outcome o;
	char want[512];

	exec_context_init(&c);
	c.set_ids = true;
	c.uid = c.gid = 1000;
	c.session_args = session;
	c.session_helper = "/bin/echo";
	c.caps_helper = "/x/ember-caps";
	run(&c, "echo ran", &o);
	CHECK(o.got_failure == 0);
	snprintf(want, sizeof want, "--uid 1000 --service login --report-fd %d -- /x/ember-caps "
		 "--report-fd %d --uid 1000 --gid 1000 --groups  -- /bin/sh sh -c echo ran\n",
		 c.report_fd, c.report_fd);
	CHECK_STR(o.out, want);
	c.sandbox_args = sandbox;
	c.sandbox_helper = "/x/ember-sandbox";
	run(&c, "echo ran", &o);
	snprintf(want, sizeof want, "--uid 1000 --service login --report-fd %d -- /x/ember-sandbox "
		 "--private-tmp --report-fd %d -- /x/ember-caps --report-fd %d --uid 1000 --gid 1000 "
		 "--groups  -- /bin/sh sh -c echo ran\n", c.report_fd, c.report_fd, c.report_fd);
	CHECK_STR(o.out, want);
	c.session_helper = "/nonexistent/ember-session";
	run(&c, "echo ran", &o);
	CHECK(o.got_failure == 1);
	CHECK(o.failure.step == EXEC_STEP_SESSION_HELPER && o.failure.err == ENOENT);
	CHECK_STR(o.out, "");
}

/* What a child's end looks like to a shell: its exit status, or 128 + the signal. */
static void status_codes_read_as_a_shell_would(void)
{
	pid_t exited = fork(), killed;
	int status;

	if (exited == 0)
		_exit(7);
	waitpid(exited, &status, 0);
	CHECK(exec_status_code(status) == 7);
	killed = fork();
	if (killed == 0) {
		pause();
		_exit(0);
	}
	kill(killed, SIGTERM);
	waitpid(killed, &status, 0);
	CHECK(exec_status_code(status) == 128 + SIGTERM);
}

int main(void)
{
	RUN(applies_umask_env_and_workdir);
	RUN(applies_rlimits_and_nice);
	RUN(rlimits_beyond_the_kernel_are_set_closest);
	RUN(no_new_privs_and_clean_signals);
	RUN(ignores_sigpipe_when_asked);
	RUN(swaps_stdout_and_stderr);
	RUN(missing_workdir_fails_before_exec);
	RUN(workdir_fd_is_entered_and_closed);
	RUN(exec_failures_are_reported);
	RUN(missing_caps_helper_is_reported);
	RUN(session_link_comes_first);
	RUN(status_codes_read_as_a_shell_would);
	return harness_done();
}
