/* A session, from request to exit status (session.h, docs/empower.md). Runs in its own
 * process: a failure here ends one session, never the daemon. Every refusal sends
 * REFUSED with the reason and runs nothing. */
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "auth.h"
#include "empower/proto.h"
#include "env.h"
#include "escape.h"
#include "exec-context.h"
#include "io.h"
#include "log.h"
#include "parse.h"
#include "passwd.h"
#include "peer.h"
#include "policy.h"
#include "target.h"

#define LOG_ARGS_MAX 2048 /* bytes of escaped command line in the log */
#define START_REPORT_TIMEOUT_MS 30000 /* the child to exec or fail */
/* The child's stack until it execs: exec_context_exec builds ember-caps' argv there
 * (struct exec_caps_args, about 34 KiB). */
#define EXEC_CHILD_STACK (96 * 1024)
#define TIOCSTI_SYSCTL "/proc/sys/dev/tty/legacy_tiocsti"

struct session {
	/* The small fields first, then the large buffers: the session writes only the pages
	 * it touches, and each page is a fault in a freshly forked process. */
	int conn;
	uid_t peer_uid;
	pid_t peer_pid;
	int sigfd;
	const struct session_config *cfg;
	size_t nfds;
	int cwd_fd, tty_fd, stdio_fd[3];
	int workdir_fd; /* --chdir opened as the caller, or cwd_fd */
	int exec_fd;    /* the command, O_PATH, opened as the caller */
	size_t group_count;
	const struct policy_rule *rule;
	pid_t child;
	int fds[EMPOWER_FDS_MAX];
	struct peer peer;
	struct passwd_user caller, target;
	gid_t groups[EXEC_GROUPS_MAX];
	char path[PASSWD_PATH_MAX];
	char *argv[EMPOWER_ARGS_MAX + 1];
	struct empower_request req;
	char buf[EMPOWER_MSG_MAX];
	struct env_block env;
	struct policy policy;
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
	uint64_t deadline = boottime_ms() + (uint64_t)timeout_ms; /* signals do not extend it */
	struct pollfd p[2] = { { .fd = S.conn, .events = POLLIN },
			       { .fd = S.sigfd, .events = POLLIN } };
	for (;;) {
		uint64_t now = boottime_ms();
		int r = now >= deadline ? 0 : poll(p, 2, (int)(deadline - now));
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			refuse(EXIT_REFUSED, "timed out waiting for the %s", what);
		if (p[1].revents & POLLIN) {
			struct signalfd_siginfo si;
			if (read(S.sigfd, &si, sizeof si) == sizeof si && si.ssi_signo != SIGCHLD)
				refuse(EXIT_REFUSED, "the daemon is stopping");
		}
		if (p[0].revents & (POLLIN | POLLHUP | POLLERR))
			break;
	}
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
		escape_text(S.req.user, name, sizeof name);
		refuse(EXIT_REFUSED, "%s: no such user", name);
	}
	if (passwd_user_groups(NULL, S.target.name, S.target.gid, S.groups, EXEC_GROUPS_MAX,
			       &S.group_count) < 0)
		refuse(EXIT_REFUSED, "%s: cannot read the user's groups: %s", S.target.name,
		       strerror(errno));
}

/* --chdir DIR: opened as the caller (relative to its working directory), entered by
 * the command as the target user. */
static void open_workdir(void)
{
	char shown[256];
	S.workdir_fd = S.cwd_fd;
	if (!S.req.chdir[0])
		return;
	escape_text(S.req.chdir, shown, sizeof shown);
	if (caller_fs_enter(&S.peer) < 0)
		refuse(EXIT_CANNOT_RUN, "cannot take the caller's identity: %s", strerror(errno));
	S.workdir_fd = openat(S.cwd_fd, S.req.chdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	int err = errno;
	caller_fs_leave();
	if (S.workdir_fd < 0)
		refuse(EXIT_CANNOT_RUN, "chdir(%s): %s", shown, strerror(err));
}

/* The command: argv[0] with a '/' as it is (relative ones from the working directory),
 * otherwise searched in the fixed PATH only; no command: the target's shell. Opened as
 * the caller and kept as an fd: the file checked is the file executed. */
static void resolve_command(void)
{
	const char *name = S.req.argc ? S.req.argv[0] : S.target.shell;
	char shown[256];
	escape_text(name, shown, sizeof shown);
	if (name[0] == '\0')
		refuse(EXIT_NOT_FOUND, "empty command name");
	open_workdir();
	if (caller_fs_enter(&S.peer) < 0)
		refuse(EXIT_CANNOT_RUN, "cannot take the caller's identity: %s", strerror(errno));
	S.exec_fd = target_open(S.workdir_fd, name, S.path, sizeof S.path);
	int err = errno;
	caller_fs_leave();
	if (S.exec_fd < 0 && err == ENOENT)
		refuse(EXIT_NOT_FOUND, "%s: command not found%s%s", shown,
		       strchr(name, '/') ? "" : " in ", strchr(name, '/') ? "" : ENV_SAFE_PATH);
	if (S.exec_fd < 0)
		refuse(EXIT_CANNOT_RUN, "%s: %s", shown, strerror(err));
	for (size_t i = 0; i < S.req.argc; i++)
		S.argv[i] = (char *)S.req.argv[i];
	if (S.req.argc == 0)
		S.argv[0] = S.target.shell;
	S.argv[S.req.argc ? S.req.argc : 1] = NULL;
}

static int user_id(const char *name, uint32_t *id)
{
	struct passwd_user u;
	if (passwd_user_lookup(NULL, name, &u) < 0)
		return -1;
	*id = u.uid;
	return 0;
}

static int group_id(const char *name, uint32_t *id)
{
	struct passwd_group g;
	if (passwd_group_lookup(NULL, name, &g) < 0)
		return -1;
	*id = g.gid;
	return 0;
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
	policy_resolve(&S.policy, user_id, group_id);
}

static void authorise(void)
{
	char shown[256], why[512];
	struct policy_query q = {
		.uid = S.peer.uid,
		.gids = S.peer.gids,
		.gid_count = S.peer.gid_count,
		.target_uid = S.target.uid,
		.cmd = S.path,
		.args = S.req.argc ? S.req.argv + 1 : NULL,
		.argc = S.req.argc ? S.req.argc - 1 : 0,
	};
	load_policy();
	S.rule = policy_match(&S.policy, &q);
	escape_text(S.path, shown, sizeof shown);
	if (!S.rule)
		refuse(EXIT_REFUSED, "%s: not permitted to run %s as %s (no matching rule)",
		       S.caller.name, shown, S.target.name);
	if (!S.rule->permit)
		refuse(EXIT_REFUSED, "%s: denied running %s as %s (%s line %u)", S.caller.name,
		       shown, S.target.name, S.cfg->policy_path, S.rule->line);
	if (S.peer.confined && !S.rule->allow_nnp)
		refuse(EXIT_REFUSED, "the caller runs under no_new_privs or seccomp (a sandbox); "
		       "no allow-nnp on %s line %u", S.cfg->policy_path, S.rule->line);
	if (S.rule->cmd[0] && !target_path_trusted(S.exec_fd, S.path, why, sizeof why))
		refuse(EXIT_REFUSED, "%s: a rule restricted to a command needs a path only root "
		       "can change: %s (%s line %u)", shown, why, S.cfg->policy_path, S.rule->line);
	if (S.req.setenvc && S.rule->cmd[0])
		refuse(EXIT_REFUSED, "--setenv is not allowed by a rule restricted to a command "
		       "(%s line %u)", S.cfg->policy_path, S.rule->line);
	for (size_t i = 0; i < S.req.setenvc; i++)
		if (!env_setenv_valid(S.req.setenv[i])) {
			escape_text(S.req.setenv[i], shown, sizeof shown);
			refuse(EXIT_REFUSED, "--setenv %s: not NAME=VALUE with a valid name", shown);
		}
}

/* When the terminal is a pseudo-terminal, when it was made: a new PTY that got the old
 * number is another terminal. 0 for other terminals (their sessions end with the
 * session leader). */
static uint64_t pty_birth(unsigned long maj, unsigned long min)
{
	char path[64];
	struct stat st;
	if (maj < 136 || maj > 143)
		return 0;
	snprintf(path, sizeof path, "/dev/pts/%lu", (maj - 136) * 256 + min);
	if (stat(path, &st) < 0 || !S_ISCHR(st.st_mode) || major(st.st_rdev) != maj ||
	    minor(st.st_rdev) != min)
		return UINT64_MAX; /* never matches a recorded birth */
	return (uint64_t)st.st_ctim.tv_sec * 1000000000u + (uint64_t)st.st_ctim.tv_nsec;
}

/* Persist key: the uid, the caller's controlling terminal, its session, the session
 * leader's start time and the PTY's birth: identifiers that do not come back when the
 * terminal closes or a pid is reused. The connecting process must still be the one
 * that connected (pidfd) and the fd it passed must be that terminal (or /dev/tty), or
 * nothing is remembered or reused. */
static bool persist_key(struct persist_entry *e)
{
	struct stat st;
	pid_t sid, leader_sid;
	unsigned long tty_nr, leader_tty;
	unsigned long long start, leader_start;
	if (S.tty_fd < 0 || fstat(S.tty_fd, &st) < 0 || !S_ISCHR(st.st_mode) ||
	    proc_stat(S.peer.pid, &sid, &tty_nr, &start) < 0 || !peer_alive(&S.peer)) {
		log_debug("persist: uid %u: no terminal or session", (unsigned)S.peer_uid);
		return false;
	}
	unsigned long maj = (tty_nr >> 8) & 0xfff, min = (tty_nr & 0xff) | ((tty_nr >> 12) & 0xfff00);
	/* The client opens /dev/tty (5:0): its controlling terminal when it opened it. */
	bool dev_tty = major(st.st_rdev) == 5 && minor(st.st_rdev) == 0;
	if ((!dev_tty && (maj != major(st.st_rdev) || min != minor(st.st_rdev))) || sid <= 0 ||
	    tty_nr == 0) {
		log_debug("persist: uid %u: terminal %lu:%lu is not the caller's", (unsigned)S.peer_uid,
			  maj, min);
		return false;
	}
	/* The session leader still holds that terminal. */
	if (proc_stat(sid, &leader_sid, &leader_tty, &leader_start) < 0 || leader_sid != sid ||
	    leader_tty != tty_nr)
		return false;
	e->uid = S.peer_uid;
	e->tty_dev = makedev(maj, min);
	e->tty_sid = sid;
	e->leader_start = leader_start;
	e->tty_birth = pty_birth(maj, min);
	return e->tty_birth != UINT64_MAX;
}

static bool same_key(const struct persist_entry *a, const struct persist_entry *b)
{
	return a->uid == b->uid && a->tty_dev == b->tty_dev && a->tty_sid == b->tty_sid &&
	       a->leader_start == b->leader_start && a->tty_birth == b->tty_birth;
}

static bool persisted(void)
{
	struct persist_entry key;
	uint64_t now = boottime_ms();
	if (!S.rule->persist_ms || !persist_key(&key))
		return false;
	for (size_t i = 0; i < S.cfg->persist->count; i++) {
		const struct persist_entry *e = &S.cfg->persist->entry[i];
		if (same_key(e, &key) && e->expires_ms > now)
			return true;
	}
	return false;
}

static uint64_t backoff_delay_ms(uint32_t failures)
{
	uint64_t ms = 1000;
	for (uint32_t i = 1; i < failures && ms < BACKOFF_MAX_MS; i++)
		ms *= 2;
	return ms < BACKOFF_MAX_MS ? ms : BACKOFF_MAX_MS;
}

/* Take this uid's next attempt time and wait for it. The attempt counts as a failure
 * until it succeeds, so attempts already under way space out the ones that follow. */
static void wait_turn(void)
{
	struct backoff_slot *b = &S.cfg->backoff->slot[S.peer_uid % BACKOFF_SLOTS];
	uint64_t now = boottime_ms(), at, old = atomic_load(&b->next_ms);
	uint32_t n = atomic_load(&b->failures) + 1;
	do {
		at = old > now ? old : now;
		if (at - now > SESSION_AUTH_TIMEOUT_MS)
			refuse(EXIT_REFUSED, "too many failed passwords for %s: try again in %llu s",
			       S.caller.name, (unsigned long long)((at - now) / 1000 + 1));
	} while (!atomic_compare_exchange_weak(&b->next_ms, &old, at + backoff_delay_ms(n)));
	atomic_fetch_add(&b->failures, 1);
	if (at > now) {
		log_info("uid %u: password attempt waits %llu ms (earlier failures)",
			 (unsigned)S.peer_uid, (unsigned long long)(at - now));
		struct timespec ts = { .tv_sec = (time_t)((at - now) / 1000),
				       .tv_nsec = (long)((at - now) % 1000) * 1000000 };
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
	}
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
	wait_turn();
	int ok = auth_check_password(S.cfg->shadow_path, S.caller.name, m.text, reason,
				     sizeof reason);
	explicit_bzero(buf, sizeof buf);
	if (ok < 0)
		refuse(EXIT_REFUSED, "cannot read the shadow file: %s", strerror(errno));
	if (!ok) {
		sleep(SESSION_FAIL_DELAY_S); /* rate limit guessing */
		refuse(EXIT_REFUSED, "authentication failed: %s", reason);
	}
	struct backoff_slot *b = &S.cfg->backoff->slot[S.peer_uid % BACKOFF_SLOTS];
	atomic_store(&b->failures, 0);
	atomic_store(&b->next_ms, 0);
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
	char fdpath[64], shown[256];
	if (fstat(S.exec_fd, &st) < 0)
		return;
	snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", S.exec_fd);
	bool fcaps = getxattr(fdpath, "security.capability", NULL, 0) >= 0;
	if ((st.st_mode & (S_ISUID | S_ISGID)) || fcaps)
		notice("warning: %s is %s: it runs without the ambient capabilities (not empowered)",
		       escape_text(S.path, shown, sizeof shown),
		       fcaps ? "a file with capabilities" : "setuid or setgid");
}

/* The grant is bounding ∩ permitted of the daemon (sessions inherit it, and it never
 * grows): name what is missing from the full set of this kernel, once at start, so a
 * smaller grant is never silent. */
void session_grant_warning(char *out, size_t size)
{
	char text[4096], num[16], names[400];
	unsigned long last = 0;
	size_t used = 0, missing = 0;
	out[0] = '\0';
	if (io_read_file("/proc/sys/kernel/cap_last_cap", num, sizeof num) < 0 ||
	    (num[strcspn(num, "\n")] = '\0', parse_ulong(num, 0, 63, &last) < 0) ||
	    io_read_file("/proc/self/status", text, sizeof text) < 0)
		return;
	const char *bnd = strstr(text, "CapBnd:"), *prm = strstr(text, "CapPrm:");
	if (!bnd || !prm)
		return;
	uint64_t have = strtoull(bnd + 7, NULL, 16) & strtoull(prm + 7, NULL, 16);
	names[0] = '\0';
	for (unsigned long c = 0; c <= last; c++) {
		if (have & ((uint64_t)1 << c))
			continue;
		const char *name = exec_cap_name((int)c);
		int n = snprintf(names + used, sizeof names - used, "%s%s", missing ? "," : "",
				 name ? name : "?");
		if (n > 0 && used + (size_t)n < sizeof names)
			used += (size_t)n;
		missing++;
	}
	if (missing)
		snprintf(out, size, "warning: reduced grant: %zu of %lu capabilities are not in the "
			 "daemon's bounding or permitted set: %s", missing, last + 1, names);
}

/* The kernel's struct (libc refuses its reserved real-time signals): only the handler
 * is read. Resetting only these spares the child about 60 sigaction calls per launch. */
uint64_t session_signals_to_reset(void)
{
	struct {
		void (*handler)(int);
		unsigned long flags;
		void (*restorer)(void);
		unsigned long mask;
	} old;
	uint64_t which = 0;
	for (int sig = 1; sig <= 64; sig++)
		if (syscall(SYS_rt_sigaction, sig, NULL, &old, sizeof old.mask) < 0 ||
		    old.handler != SIG_DFL)
			which |= (uint64_t)1 << (sig - 1);
	return which;
}

/* An interactive session (the command reads a terminal) on a kernel where any process
 * of the caller's terminal may push input into it with TIOCSTI (dev.tty.legacy_tiocsti
 * is 1, or older than 6.2 without the setting): refused unless the daemon was told to
 * warn (docs/empower.md, "Threat model"). */
static void check_tiocsti(void)
{
	char v[8];
	if (!isatty(S.stdio_fd[0])) /* the password prompt alone reads nothing for the command */
		return;
	if (io_read_file(TIOCSTI_SYSCTL, v, sizeof v) > 0 && v[0] == '0')
		return;
	if (S.cfg->tiocsti_warn) {
		notice("warning: legacy TIOCSTI is on (dev.tty.legacy_tiocsti): other processes on "
		       "your terminal can type into this session");
		return;
	}
	refuse(EXIT_REFUSED, "refusing an interactive session: legacy TIOCSTI is on (set "
	       "dev.tty.legacy_tiocsti=0, e.g. ember.legacy_tiocsti=0 in init.conf), so any "
	       "process on your terminal could type into it");
}

static void log_session(void)
{
	char line[LOG_ARGS_MAX], arg[512];
	size_t used = 0;
	line[0] = '\0';
	for (size_t i = 0; S.argv[i] && used + 4 < sizeof line; i++) {
		escape_text(S.argv[i], arg, sizeof arg);
		int n = snprintf(line + used, sizeof line - used, "%s'%s'", i ? " " : "", arg);
		if (n < 0)
			break;
		used += (size_t)n < sizeof line - used ? (size_t)n : sizeof line - used - 1;
	}
	char link[64], dir[1024], shown_dir[1024];
	snprintf(link, sizeof link, "/proc/self/fd/%d", S.workdir_fd);
	ssize_t n = readlink(link, dir, sizeof dir - 1);
	dir[n > 0 ? n : 0] = '\0';
	escape_text(dir, shown_dir, sizeof shown_dir);
	escape_text(S.path, arg, sizeof arg);
	log_info("session %d: user %s (%u) as %s (%u) in '%s': %s: %s", (int)getpid(),
		 S.caller.name, (unsigned)S.caller.uid, S.target.name, (unsigned)S.target.uid,
		 shown_dir, arg, line);
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
	c->signals_to_reset = S.cfg->signals_to_reset;
	c->umask_set = true;
	c->umask = 022;
	c->workdir_fd = S.workdir_fd; /* entered as the target user */
	/* No core file of a process that holds capabilities (it is dumpable: uid == euid),
	 * and the command cannot raise the limit back without CAP_SYS_RESOURCE use. */
	c->rlimit_set |= 1u << RLIMIT_CORE;
	c->rlimit[RLIMIT_CORE].rlim_cur = c->rlimit[RLIMIT_CORE].rlim_max = 0;
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

/* The child: its own session (and the PTY as controlling terminal), then the shared
 * execution-context code, which execs ember-caps. It shares the session's memory until
 * that execve (clone_child), so it only makes system calls and writes its own stack. */
struct child_args {
	const struct exec_context *context;
	const char *exec_path; /* /proc/self/fd/N of the command */
	int cgroup_fd, report_fd;
};

static noreturn void child_start(const struct child_args *a)
{
	struct exec_failure f;
	if (a->cgroup_fd >= 0)
		io_write_file_at(a->cgroup_fd, "cgroup.procs", "0");
	if (setsid() < 0 || ((S.req.flags & EMPOWER_F_PTY) && ioctl(S.stdio_fd[0], TIOCSCTTY, 0) < 0)) {
		f.step = EXEC_STEP_STDIO;
		f.err = errno;
		f.arg = 0;
		exec_failure_write(a->report_fd, &f);
		_exit(EXIT_CANNOT_RUN);
	}
	/* ember-caps execs /proc/self/fd/N with execveat: the file that was checked. */
	if (fcntl(S.exec_fd, F_SETFD, 0) < 0) {
		f.step = EXEC_STEP_EXECVE;
		f.err = errno;
		f.arg = 0;
		exec_failure_write(a->report_fd, &f);
		_exit(EXIT_CANNOT_RUN);
	}
	exec_context_exec(a->context, a->exec_path, S.argv, &f);
	exec_failure_write(a->report_fd, &f);
	_exit(EXIT_CANNOT_RUN);
}

static int child_entry(void *arg)
{
	child_start(arg);
}

/* As posix_spawn: CLONE_VM | CLONE_VFORK, the session waiting until the child has
 * exec'd (or exited). A fork would copy the session's page tables only for the child to
 * fault its pages back in and throw them away at execve: in a VM each of those page
 * faults costs more than all the child's system calls (docs/benchmarks.md). The child
 * runs on a stack in this frame (the session's own, already mapped) and cannot return
 * into the session: child_start ends in execve or _exit. */
static pid_t clone_child(struct child_args *a)
{
	_Alignas(16) char stack[EXEC_CHILD_STACK];
	return clone(child_entry, stack + sizeof stack, CLONE_VM | CLONE_VFORK | SIGCHLD, a);
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
	char exec_path[64];
	snprintf(exec_path, sizeof exec_path, "/proc/self/fd/%d", S.exec_fd);
	struct child_args a = { &c, exec_path, cg, report[1] };
	S.child = clone_child(&a);
	if (S.child < 0)
		refuse(EXIT_CANNOT_RUN, "clone: %s", strerror(errno));
	close(report[1]);
	if (cg >= 0)
		close(cg);
	struct pollfd p = { .fd = report[0], .events = POLLIN };
	int r = poll(&p, 1, START_REPORT_TIMEOUT_MS) > 0 ? exec_failure_read(report[0], &f) : -1;
	int err = r < 0 && p.revents == 0 ? ETIMEDOUT : errno;
	close(report[0]);
	if (r < 0) {
		kill(S.child, SIGKILL);
		errno = err;
	}
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
	if (S.workdir_fd != S.cwd_fd)
		close(S.workdir_fd);
	close(S.exec_fd);
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
	S.exec_fd = S.workdir_fd = -1;
	if (peer_read(conn, &S.peer) < 0 || S.peer.uid != peer_uid)
		refuse(EXIT_REFUSED, "cannot read the caller's credentials: %s", strerror(errno));
	S.cfg = cfg;
	S.child = -1;
	int sigfd = S.sigfd = empowerd_signal_fd();
	if (sigfd < 0)
		refuse(EXIT_CANNOT_RUN, "signalfd: %s", strerror(errno));
	read_request();
	find_users();
	resolve_command();
	authorise();
	check_tiocsti();
	authenticate();
	warn_privileged_target();
	if (S.cfg->grant_warning[0])
		send_msg(EMPOWER_NOTICE, 0, S.cfg->grant_warning);
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
