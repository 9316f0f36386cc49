/* A session, from request to exit status (session.h, docs/empower.md). Runs in its own
 * process: a failure here ends one session, never the daemon. Every refusal sends
 * REFUSED with the reason and runs nothing. */
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "auth.h"
#include "empower/proto.h"
#include "env.h"
#include "exec-context.h"
#include "io.h"
#include "log.h"
#include "parse.h"
#include "passwd.h"
#include "policy.h"

#define LOG_ARGS_MAX 2048 /* bytes of escaped command line in the log */

struct session {
	int conn;
	uid_t peer_uid;
	pid_t peer_pid;
	int sigfd;
	const struct session_config *cfg;
	char buf[EMPOWER_MSG_MAX];
	struct empower_request req;
	int fds[EMPOWER_FDS_MAX];
	size_t nfds;
	int cwd_fd, tty_fd, stdio_fd[3];
	struct passwd_user caller, target;
	gid_t groups[EXEC_GROUPS_MAX];
	size_t group_count;
	char path[PASSWD_PATH_MAX];
	char *argv[EMPOWER_ARGS_MAX + 1];
	struct env_block env;
	struct policy policy;
	const struct policy_rule *rule;
	pid_t child;
};

static struct session S; /* large (policy, buffers): one per process, off the stack */

uint64_t boottime_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void send_msg(uint32_t type, int32_t value, const char *text)
{
	char buf[1024];
	long n = empower_msg_encode(type, value, text, buf, sizeof buf);
	if (n > 0)
		empower_send(S.conn, buf, (size_t)n, NULL, 0);
}

static void notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void notice(const char *fmt, ...)
{
	char text[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	send_msg(EMPOWER_NOTICE, 0, text);
}

/* Refuse: log it, tell the client why, end the session. Nothing has run. */
static noreturn void refuse(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static noreturn void refuse(int code, const char *fmt, ...)
{
	char text[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	log_warn("refused uid %u: %s", (unsigned)S.peer_uid, text);
	send_msg(EMPOWER_REFUSED, code, text);
	_exit(0);
}

/* Wait for one message into buf; a timeout is refused, end of file or a bad datagram
 * ends the session. Returns the length. */
static size_t receive(char *buf, size_t size, int timeout_ms, const char *what)
{
	struct pollfd p[2] = { { .fd = S.conn, .events = POLLIN },
			       { .fd = S.sigfd, .events = POLLIN } };
	int r;
	do
		r = poll(p, 2, timeout_ms);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		refuse(EXIT_REFUSED, "timed out waiting for the %s", what);
	if (p[1].revents & POLLIN) {
		struct signalfd_siginfo si;
		if (read(S.sigfd, &si, sizeof si) == sizeof si && si.ssi_signo != SIGCHLD)
			refuse(EXIT_REFUSED, "the daemon is stopping");
	}
	if (!(p[0].revents & (POLLIN | POLLHUP | POLLERR)))
		return receive(buf, size, timeout_ms, what);
	long n = empower_recv(S.conn, buf, size, S.fds, &S.nfds);
	if (n < 0 && errno == EMSGSIZE)
		refuse(EXIT_REFUSED, "malformed %s: too large, or too many file descriptors", what);
	if (n <= 0) {
		log_warn("uid %u: %s: %s", (unsigned)S.peer_uid, what,
			 n == 0 ? "connection closed" : strerror(errno));
		_exit(0);
	}
	return (size_t)n;
}

static void take_fds(void)
{
	size_t i = 0;
	int want = empower_request_fds(S.req.flags);
	if (want < 0 || (size_t)want != S.nfds)
		refuse(EXIT_REFUSED, "malformed request: %zu file descriptors for flags 0x%x",
		       S.nfds, (unsigned)S.req.flags);
	S.cwd_fd = S.fds[i++];
	S.tty_fd = (S.req.flags & EMPOWER_F_TTY) ? S.fds[i++] : -1;
	if (S.req.flags & EMPOWER_F_PIPE) {
		for (int k = 0; k < 3; k++)
			S.stdio_fd[k] = S.fds[i++];
	} else {
		S.stdio_fd[0] = S.stdio_fd[1] = S.stdio_fd[2] = S.fds[i++];
		if (!isatty(S.stdio_fd[0]))
			refuse(EXIT_REFUSED, "malformed request: the PTY fd is not a terminal");
	}
	struct stat st;
	if (fstat(S.cwd_fd, &st) < 0 || !S_ISDIR(st.st_mode))
		refuse(EXIT_REFUSED, "malformed request: the working directory fd is not a directory");
	if (S.tty_fd >= 0 && !isatty(S.tty_fd))
		refuse(EXIT_REFUSED, "malformed request: the terminal fd is not a terminal");
}

static void read_request(void)
{
	size_t n = receive(S.buf, sizeof S.buf, SESSION_REQUEST_TIMEOUT_MS, "request");
	if (empower_request_decode(S.buf, n, &S.req) < 0) {
		for (size_t i = 0; i < S.nfds; i++)
			close(S.fds[i]);
		refuse(EXIT_REFUSED, "malformed request: %s", strerror(errno));
	}
	take_fds();
}

static void find_users(void)
{
	if (passwd_user_by_uid(NULL, S.peer_uid, &S.caller) < 0)
		refuse(EXIT_REFUSED, "uid %u: no such user in /etc/passwd", (unsigned)S.peer_uid);
	if (S.req.user[0] == '\0') {
		S.target = S.caller;
	} else if (passwd_user_lookup(NULL, S.req.user, &S.target) < 0) {
		char name[128];
		text_escape(S.req.user, name, sizeof name);
		refuse(EXIT_REFUSED, "%s: no such user", name);
	}
	if (passwd_user_groups(NULL, S.target.name, S.target.gid, S.groups, EXEC_GROUPS_MAX,
			       &S.group_count) < 0)
		refuse(EXIT_REFUSED, "%s: cannot read the user's groups: %s", S.target.name,
		       strerror(errno));
}

static bool is_executable_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111);
}

/* The command: argv[0] with a '/' as it is (relative ones from the working directory),
 * otherwise searched in the fixed PATH only; no command: the target's shell. */
static void resolve_command(void)
{
	const char *name = S.req.argc ? S.req.argv[0] : S.target.shell;
	char shown[256];
	text_escape(name, shown, sizeof shown);
	if (name[0] == '\0')
		refuse(EXIT_NOT_FOUND, "empty command name");
	if (strchr(name, '/')) {
		if (str_copy(S.path, sizeof S.path, name) < 0)
			refuse(EXIT_NOT_FOUND, "%s: path too long", shown);
	} else {
		char dirs[] = ENV_SAFE_PATH, *save = NULL;
		S.path[0] = '\0';
		for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
			int n = snprintf(S.path, sizeof S.path, "%s/%s", d, name);
			if (n > 0 && (size_t)n < sizeof S.path && is_executable_file(S.path))
				break;
			S.path[0] = '\0';
		}
		if (!S.path[0])
			refuse(EXIT_NOT_FOUND, "%s: command not found in %s", shown, ENV_SAFE_PATH);
	}
	for (size_t i = 0; i < S.req.argc; i++)
		S.argv[i] = (char *)S.req.argv[i];
	if (S.req.argc == 0)
		S.argv[0] = S.target.shell;
	S.argv[S.req.argc ? S.req.argc : 1] = NULL;
}

/* The caller's group names, for :group rules (from /etc/group, not from the client). */
static size_t caller_groups(char names[][PASSWD_NAME_MAX], const char **ptrs, size_t cap)
{
	gid_t gids[EXEC_GROUPS_MAX];
	size_t count = 0, out = 0;
	if (passwd_user_groups(NULL, S.caller.name, S.caller.gid, gids, EXEC_GROUPS_MAX, &count) < 0)
		refuse(EXIT_REFUSED, "%s: cannot read the user's groups: %s", S.caller.name,
		       strerror(errno));
	for (size_t i = 0; i < count && out < cap; i++) {
		struct passwd_group g;
		if (passwd_group_by_gid(NULL, gids[i], &g) == 0) {
			memcpy(names[out], g.name, sizeof g.name);
			ptrs[out] = names[out];
			out++;
		}
	}
	return out;
}

static char policy_text[POLICY_FILE_MAX];

static void load_policy(void)
{
	const char *path = S.cfg->policy_path;
	char err[256];
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		refuse(EXIT_REFUSED, "%s: cannot open the policy: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		refuse(EXIT_REFUSED, "%s: the policy is not a regular file", path);
	if (st.st_uid != 0)
		refuse(EXIT_REFUSED, "%s: the policy is not owned by root", path);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		refuse(EXIT_REFUSED, "%s: the policy is writable by group or others", path);
	size_t n = 0;
	for (ssize_t r; n < sizeof policy_text &&
	     (r = read(fd, policy_text + n, sizeof policy_text - n)) != 0;) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			refuse(EXIT_REFUSED, "%s: %s", path, strerror(errno));
		n += (size_t)r;
	}
	close(fd);
	if (n >= sizeof policy_text)
		refuse(EXIT_REFUSED, "%s: the policy is larger than %d bytes", path, POLICY_FILE_MAX - 1);
	if (policy_parse(policy_text, n, &S.policy, err, sizeof err) < 0)
		refuse(EXIT_REFUSED, "%s: %s", path, err);
}

static void authorise(void)
{
	char names[EXEC_GROUPS_MAX][PASSWD_NAME_MAX];
	const char *ptrs[EXEC_GROUPS_MAX];
	char shown[256];
	struct policy_query q = {
		.user = S.caller.name,
		.groups = ptrs,
		.group_count = caller_groups(names, ptrs, EXEC_GROUPS_MAX),
		.target = S.target.name,
		.cmd = S.path,
		.args = S.req.argc ? S.req.argv + 1 : NULL,
		.argc = S.req.argc ? S.req.argc - 1 : 0,
	};
	load_policy();
	S.rule = policy_match(&S.policy, &q);
	text_escape(S.path, shown, sizeof shown);
	if (!S.rule)
		refuse(EXIT_REFUSED, "%s: not permitted to run %s as %s (no matching rule)",
		       S.caller.name, shown, S.target.name);
	if (!S.rule->permit)
		refuse(EXIT_REFUSED, "%s: denied running %s as %s (%s line %u)", S.caller.name,
		       shown, S.target.name, S.cfg->policy_path, S.rule->line);
	if (S.req.setenvc && S.rule->cmd[0])
		refuse(EXIT_REFUSED, "--setenv is not allowed by a rule restricted to a command "
		       "(%s line %u)", S.cfg->policy_path, S.rule->line);
	for (size_t i = 0; i < S.req.setenvc; i++)
		if (!env_setenv_valid(S.req.setenv[i])) {
			text_escape(S.req.setenv[i], shown, sizeof shown);
			refuse(EXIT_REFUSED, "--setenv %s: not NAME=VALUE with a valid name", shown);
		}
}

/* The session and terminal of the caller's process, from /proc/PID/stat (fields after
 * the last ')': a command name may hold spaces and parentheses). */
static bool peer_session(pid_t *sid, unsigned long *tty_nr)
{
	char path[64], text[1024];
	int ppid, pgrp;
	snprintf(path, sizeof path, "/proc/%d/stat", (int)S.peer_pid);
	if (io_read_file(path, text, sizeof text) < 0)
		return false;
	char *end = strrchr(text, ')');
	char state;
	return end && sscanf(end + 1, " %c %d %d %d %lu", &state, &ppid, &pgrp, sid, tty_nr) == 5;
}

/* Persist key: the uid, the terminal passed by the client, and the session that has it
 * as controlling terminal. The client's process must still be the one that connected
 * (its uid) and sit on that same terminal, or nothing is remembered or reused. */
static bool persist_key(struct persist_entry *e)
{
	struct stat st, proc;
	pid_t sid;
	unsigned long tty_nr;
	char path[64];
	if (S.tty_fd < 0 || fstat(S.tty_fd, &st) < 0 || !S_ISCHR(st.st_mode) ||
	    !peer_session(&sid, &tty_nr)) {
		log_debug("persist: uid %u: no terminal or session", (unsigned)S.peer_uid);
		return false;
	}
	snprintf(path, sizeof path, "/proc/%d", (int)S.peer_pid);
	if (stat(path, &proc) < 0 || proc.st_uid != S.peer_uid)
		return false;
	unsigned long maj = (tty_nr >> 8) & 0xfff, min = (tty_nr & 0xff) | ((tty_nr >> 12) & 0xfff00);
	/* The client opens /dev/tty (5:0): its controlling terminal when it opened it. */
	bool dev_tty = major(st.st_rdev) == 5 && minor(st.st_rdev) == 0;
	if ((!dev_tty && (maj != major(st.st_rdev) || min != minor(st.st_rdev))) || sid <= 0 ||
	    tty_nr == 0) {
		log_debug("persist: uid %u: terminal %lu:%lu is not the caller's (%lu:%lu)",
			  (unsigned)S.peer_uid, maj, min, (unsigned long)major(st.st_rdev),
			  (unsigned long)minor(st.st_rdev));
		return false;
	}
	e->uid = S.peer_uid;
	e->tty_dev = makedev(maj, min);
	e->tty_sid = sid;
	return true;
}

static bool persisted(void)
{
	struct persist_entry key;
	uint64_t now = boottime_ms();
	if (!S.rule->persist_ms || !persist_key(&key))
		return false;
	for (size_t i = 0; i < S.cfg->persist->count; i++) {
		const struct persist_entry *e = &S.cfg->persist->entry[i];
		if (e->uid == key.uid && e->tty_dev == key.tty_dev && e->tty_sid == key.tty_sid &&
		    e->expires_ms > now)
			return true;
	}
	return false;
}

static void authenticate(void)
{
	char prompt[PASSWD_NAME_MAX + 64], reason[256];
	struct empower_msg m;
	if (S.rule->nopass || persisted())
		return;
	if (S.tty_fd < 0)
		refuse(EXIT_REFUSED, "a password is required and there is no terminal to read it from");
	snprintf(prompt, sizeof prompt, "empower: password for %s: ", S.caller.name);
	send_msg(EMPOWER_ASK, 0, prompt);
	/* Not S.buf: the request's strings live there. */
	static char buf[EMPOWER_MSG_MAX];
	size_t n = receive(buf, sizeof buf, SESSION_AUTH_TIMEOUT_MS, "password");
	for (size_t i = 0; i < S.nfds; i++)
		close(S.fds[i]);
	if (empower_msg_decode(buf, n, &m) < 0 || m.type != EMPOWER_AUTH ||
	    strlen(m.text) > EMPOWER_PASSWORD_MAX)
		refuse(EXIT_REFUSED, "malformed password message");
	int ok = auth_check_password(S.cfg->shadow_path, S.caller.name, m.text, reason,
				     sizeof reason);
	explicit_bzero(buf, sizeof buf);
	if (ok < 0)
		refuse(EXIT_REFUSED, "cannot read the shadow file: %s", strerror(errno));
	if (!ok) {
		sleep(SESSION_FAIL_DELAY_S); /* rate limit guessing */
		refuse(EXIT_REFUSED, "authentication failed: %s", reason);
	}
	struct persist_entry e;
	if (S.rule->persist_ms && persist_key(&e)) {
		e.expires_ms = boottime_ms() + S.rule->persist_ms;
		io_write_all(S.cfg->notify_fd, &e, sizeof e);
	}
}

/* A setuid/setgid or file-capability target drops the ambient set at execve: say so. */
static void warn_privileged_target(void)
{
	struct stat st;
	if (stat(S.path, &st) < 0)
		return;
	bool fcaps = getxattr(S.path, "security.capability", NULL, 0) >= 0;
	if ((st.st_mode & (S_ISUID | S_ISGID)) || fcaps)
		notice("warning: %s is %s: it runs without the ambient capabilities (not empowered)",
		       S.path, fcaps ? "a file with capabilities" : "setuid or setgid");
}

static void log_session(void)
{
	char line[LOG_ARGS_MAX], arg[512];
	size_t used = 0;
	line[0] = '\0';
	for (size_t i = 0; S.argv[i] && used + 4 < sizeof line; i++) {
		text_escape(S.argv[i], arg, sizeof arg);
		int n = snprintf(line + used, sizeof line - used, "%s'%s'", i ? " " : "", arg);
		if (n < 0)
			break;
		used += (size_t)n < sizeof line - used ? (size_t)n : sizeof line - used - 1;
	}
	text_escape(S.path, arg, sizeof arg);
	log_info("session %d: user %s (%u) as %s (%u): %s: %s", (int)getpid(), S.caller.name,
		 (unsigned)S.caller.uid, S.target.name, (unsigned)S.target.uid, arg, line);
}

static void build_context(struct exec_context *c, int report_fd)
{
	if (env_build(&S.env, S.req.env, S.req.envc, &S.target, S.req.setenv, S.req.setenvc) < 0)
		refuse(EXIT_REFUSED, "the environment is too large");
	exec_context_init(c);
	c->set_ids = true;
	c->uid = S.target.uid;
	c->gid = S.target.gid;
	c->group_count = S.group_count;
	memcpy(c->groups, S.groups, S.group_count * sizeof S.groups[0]);
	c->envp = S.env.envp;
	c->stdin_fd = S.stdio_fd[0];
	c->stdout_fd = S.stdio_fd[1];
	c->stderr_fd = S.stdio_fd[2];
	c->cap_ambient = EXEC_CAPS_ALL;
	c->caps_helper = S.cfg->caps_helper;
	c->report_fd = report_fd;
	c->umask_set = true;
	c->umask = 022;
	if (S.req.chdir[0])
		c->workdir = S.req.chdir; /* entered as the target user */
	else
		c->workdir_fd = S.cwd_fd;
}

/* Session cgroup "session-PID" below the configured directory; -1 when there is none. */
static int open_cgroup(char *name, size_t size)
{
	snprintf(name, size, "session-%d", (int)getpid());
	if (S.cfg->cgroup_fd < 0)
		return -1;
	if (mkdirat(S.cfg->cgroup_fd, name, 0755) < 0 && errno != EEXIST) {
		log_warn("cgroup %s: %s (the session runs in the daemon's cgroup)", name,
			 strerror(errno));
		return -1;
	}
	int fd = openat(S.cfg->cgroup_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		log_warn("cgroup %s: %s", name, strerror(errno));
	return fd;
}

/* The forked child: its own session (and the PTY as controlling terminal), then the
 * shared execution-context code. */
static noreturn void child_start(const struct exec_context *c, int cgroup_fd, int report_fd)
{
	struct exec_failure f;
	if (cgroup_fd >= 0)
		io_write_file_at(cgroup_fd, "cgroup.procs", "0");
	if (setsid() < 0 || ((S.req.flags & EMPOWER_F_PTY) && ioctl(S.stdio_fd[0], TIOCSCTTY, 0) < 0)) {
		f.step = EXEC_STEP_STDIO;
		f.err = errno;
		f.arg = 0;
		exec_failure_write(report_fd, &f);
		_exit(EXIT_CANNOT_RUN);
	}
	exec_context_exec(c, S.path, S.argv, &f);
	exec_failure_write(report_fd, &f);
	_exit(EXIT_CANNOT_RUN);
}

static void start(void)
{
	struct exec_context c;
	struct exec_failure f;
	char cg_name[64], why[512];
	int report[2];
	if (pipe2(report, O_CLOEXEC) < 0)
		refuse(EXIT_CANNOT_RUN, "pipe: %s", strerror(errno));
	build_context(&c, report[1]);
	int cg = open_cgroup(cg_name, sizeof cg_name);
	S.child = fork();
	if (S.child < 0)
		refuse(EXIT_CANNOT_RUN, "fork: %s", strerror(errno));
	if (S.child == 0)
		child_start(&c, cg, report[1]);
	close(report[1]);
	if (cg >= 0)
		close(cg);
	int r = exec_failure_read(report[0], &f);
	close(report[0]);
	if (r != 0) {
		waitpid(S.child, NULL, 0);
		if (S.cfg->cgroup_fd >= 0)
			unlinkat(S.cfg->cgroup_fd, cg_name, AT_REMOVEDIR);
		if (r < 0)
			refuse(EXIT_CANNOT_RUN, "reading the start report: %s", strerror(errno));
		exec_failure_format(&f, &c, S.path, why, sizeof why);
		refuse(f.step == EXEC_STEP_EXECVE && f.err == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN,
		       "%s", why);
	}
	log_session();
	/* The command has its own copies: drop ours so the PTY and pipes close with it. */
	for (int k = 0; k < 3; k++)
		if (S.stdio_fd[k] >= 0 && (k == 0 || S.stdio_fd[k] != S.stdio_fd[0]))
			close(S.stdio_fd[k]);
	close(S.cwd_fd);
}

static bool relayable(int sig)
{
	return sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGQUIT || sig == SIGWINCH;
}

static void client_message(bool *connected)
{
	static char buf[EMPOWER_MSG_MAX];
	struct empower_msg m;
	long n = empower_recv(S.conn, buf, sizeof buf, S.fds, &S.nfds);
	for (size_t i = 0; n >= 0 && i < S.nfds; i++)
		close(S.fds[i]);
	if (n <= 0) { /* the client is gone: hang up on the command */
		*connected = false;
		kill(-S.child, SIGHUP);
		return;
	}
	if (empower_msg_decode(buf, (size_t)n, &m) == 0 && m.type == EMPOWER_SIGNAL &&
	    relayable(m.value))
		kill(-S.child, m.value);
}

/* Relay signals until the command exits; SIGTERM to this process (the daemon stopping)
 * stops the command, with SIGKILL after a grace period. */
static int wait_command(int sigfd)
{
	bool connected = true;
	uint64_t kill_at = 0;
	for (;;) {
		struct pollfd p[2] = { { .fd = sigfd, .events = POLLIN },
				       { .fd = connected ? S.conn : -1, .events = POLLIN } };
		int status;
		pid_t w = waitpid(S.child, &status, WNOHANG);
		if (w == S.child)
			return status;
		int timeout = -1;
		if (kill_at) {
			uint64_t now = boottime_ms();
			if (now >= kill_at) {
				kill(-S.child, SIGKILL);
				kill(S.child, SIGKILL);
				kill_at = 0;
				continue;
			}
			timeout = (int)(kill_at - now);
		}
		if (poll(p, 2, timeout) < 0 && errno != EINTR)
			return -1;
		if (p[0].revents & POLLIN) {
			struct signalfd_siginfo si;
			if (read(sigfd, &si, sizeof si) == sizeof si && si.ssi_signo != SIGCHLD &&
			    !kill_at) {
				kill(-S.child, SIGTERM);
				kill(S.child, SIGTERM);
				kill_at = boottime_ms() + SESSION_STOP_GRACE_MS;
			}
		}
		if (p[1].revents & (POLLIN | POLLHUP | POLLERR))
			client_message(&connected);
	}
}

int empowerd_signal_fd(void)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

void session_serve(int conn, uid_t peer_uid, pid_t peer_pid, const struct session_config *cfg)
{
	S.conn = conn;
	S.peer_uid = peer_uid;
	S.peer_pid = peer_pid;
	S.cfg = cfg;
	S.child = -1;
	int sigfd = S.sigfd = empowerd_signal_fd();
	if (sigfd < 0)
		refuse(EXIT_CANNOT_RUN, "signalfd: %s", strerror(errno));
	read_request();
	find_users();
	resolve_command();
	authorise();
	authenticate();
	warn_privileged_target();
	start();
	int status = wait_command(sigfd);
	char cg_name[64];
	snprintf(cg_name, sizeof cg_name, "session-%d", (int)getpid());
	if (cfg->cgroup_fd >= 0)
		unlinkat(cfg->cgroup_fd, cg_name, AT_REMOVEDIR);
	int32_t value = status < 0 ? EXIT_CANNOT_RUN
			: WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
	log_info("session %d: exited %s%d (peer pid %d)", (int)getpid(),
		 value < 0 ? "on signal " : "", value < 0 ? -value : value, (int)peer_pid);
	send_msg(EMPOWER_EXIT, value, "");
	_exit(0);
}
