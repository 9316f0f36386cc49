#include "exec-context.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "escape.h"
#include "io.h"
#include "parse.h"

/* ---- capability names: kernel ABI (linux/capability.h); PID 1 links no libcap ---- */

static const char *const cap_names[] = {
	"cap_chown", "cap_dac_override", "cap_dac_read_search", "cap_fowner", "cap_fsetid",
	"cap_kill", "cap_setgid", "cap_setuid", "cap_setpcap", "cap_linux_immutable",
	"cap_net_bind_service", "cap_net_broadcast", "cap_net_admin", "cap_net_raw",
	"cap_ipc_lock", "cap_ipc_owner", "cap_sys_module", "cap_sys_rawio", "cap_sys_chroot",
	"cap_sys_ptrace", "cap_sys_pacct", "cap_sys_admin", "cap_sys_boot", "cap_sys_nice",
	"cap_sys_resource", "cap_sys_time", "cap_sys_tty_config", "cap_mknod", "cap_lease",
	"cap_audit_write", "cap_audit_control", "cap_setfcap", "cap_mac_override",
	"cap_mac_admin", "cap_syslog", "cap_wake_alarm", "cap_block_suspend", "cap_audit_read",
	"cap_perfmon", "cap_bpf", "cap_checkpoint_restore",
};
#define CAP_NAME_COUNT ((int)(sizeof cap_names / sizeof *cap_names))

const char *exec_cap_name(int cap)
{
	return cap >= 0 && cap < CAP_NAME_COUNT ? cap_names[cap] : NULL;
}

int exec_cap_from_name(const char *name)
{
	unsigned long n;

	if (parse_ulong(name, 0, EXEC_CAP_MAX, &n) == 0)
		return (int)n;
	for (int i = 0; i < CAP_NAME_COUNT; i++)
		if (strcasecmp(name, cap_names[i]) == 0 || strcasecmp(name, cap_names[i] + 4) == 0)
			return i;
	return -1;
}

static int parse_hex_mask(const char *s, uint64_t *mask)
{
	uint64_t v = 0;
	size_t digits = 0;

	for (; *s; s++, digits++) {
		int d = *s >= '0' && *s <= '9' ? *s - '0'
		      : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
		      : *s >= 'A' && *s <= 'F' ? *s - 'A' + 10 : -1;
		if (d < 0 || digits == 16)
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	if (digits == 0)
		return -1;
	*mask = v;
	return 0;
}

static int caps_invalid(const char *item, size_t len, char *bad, size_t bad_size)
{
	if (bad_size > 0) {
		size_t n = len < bad_size - 1 ? len : bad_size - 1;
		memcpy(bad, item, n);
		bad[n] = '\0';
	}
	errno = EINVAL;
	return -1;
}

int exec_caps_parse(const char *s, uint64_t *mask, char *bad, size_t bad_size)
{
	uint64_t m = 0;
	char item[32];

	if (strcmp(s, "all") == 0) {
		*mask = EXEC_CAPS_ALL;
		return 0;
	}
	if (strcmp(s, "none") == 0) {
		*mask = 0;
		return 0;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (parse_hex_mask(s + 2, mask) < 0)
			return caps_invalid(s, strlen(s), bad, bad_size);
		return 0;
	}
	for (const char *p = s;; ) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		int cap;

		if (len == 0 || len >= sizeof item)
			return caps_invalid(p, len, bad, bad_size);
		memcpy(item, p, len);
		item[len] = '\0';
		cap = exec_cap_from_name(item);
		if (cap < 0)
			return caps_invalid(p, len, bad, bad_size);
		m |= (uint64_t)1 << cap;
		if (!comma)
			break;
		p = comma + 1;
	}
	*mask = m;
	return 0;
}

void exec_caps_format(uint64_t mask, char *buf, size_t size)
{
	size_t used = 0;

	if (size == 0)
		return;
	buf[0] = '\0';
	if (mask == 0) {
		snprintf(buf, size, "none");
		return;
	}
	for (int cap = 0; cap <= EXEC_CAP_MAX; cap++) {
		char num[8];
		const char *name = exec_cap_name(cap);
		int n;

		if (!(mask & (uint64_t)1 << cap))
			continue;
		if (!name) {
			snprintf(num, sizeof num, "%d", cap);
			name = num;
		}
		n = snprintf(buf + used, size - used, "%s%s", used ? "," : "", name);
		if (n < 0 || (size_t)n >= size - used) {
			if (size > 4)
				memcpy(buf + size - 4, "...", 4);
			return;
		}
		used += (size_t)n;
	}
}

/* ---- the context ---- */

void exec_context_init(struct exec_context *c)
{
	memset(c, 0, sizeof *c);
	c->workdir_fd = -1;
	c->stdin_fd = c->stdout_fd = c->stderr_fd = -1;
	c->report_fd = -1;
}

bool exec_context_needs_caps(const struct exec_context *c)
{
	/* SecureBits= with User=: setting them takes CAP_SETPCAP, which a plain uid change
	 * loses with the rest; ember-caps keeps it across (gdnsd: noroot, no-setuid-fixup) */
	return c->cap_ambient != 0 || c->cap_bounding_set || c->session_args ||
	       (c->more.secure_bits && c->set_ids && c->uid != 0);
}

static const char *caps_helper(const struct exec_context *c)
{
	return c && c->caps_helper ? c->caps_helper : EXEC_CAPS_HELPER;
}

/* ---- async-signal-safe number formatting (no snprintf in the child) ---- */

/* Writes v in base 10 or 16 ("0x" prefix) to buf; returns the length, 0 if it does not
 * fit. */
static size_t format_u64(char *buf, size_t size, uint64_t v, unsigned base)
{
	char tmp[24];
	size_t n = 0, len = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (base == 16) {
		tmp[n++] = 'x';
		tmp[n++] = '0';
	}
	if (n + 1 > size)
		return 0;
	while (n)
		buf[len++] = tmp[--n];
	buf[len] = '\0';
	return len;
}

static size_t format_i64(char *buf, size_t size, int64_t v)
{
	size_t len;

	if (v >= 0)
		return format_u64(buf, size, (uint64_t)v, 10);
	if (size < 2)
		return 0;
	buf[0] = '-';
	len = format_u64(buf + 1, size - 1, 0 - (uint64_t)v, 10);
	return len ? len + 1 : 0;
}

/* ---- ember-caps' command line ---- */

struct args_builder {
	struct exec_caps_args *out;
	size_t argc;
	size_t text_used;
	bool overflow;
};

static void arg_add(struct args_builder *b, const char *s)
{
	if (b->argc + 1 >= EXEC_CAPS_ARGV_MAX) {
		b->overflow = true;
		return;
	}
	b->out->argv[b->argc++] = (char *)s;
	b->out->argv[b->argc] = NULL;
}

/* Room for one string in the text buffer; NULL (and overflow) when full. */
static char *text_space(struct args_builder *b, size_t *room)
{
	*room = EXEC_CAPS_TEXT_MAX - b->text_used;
	if (*room < 2) {
		b->overflow = true;
		return NULL;
	}
	return b->out->text + b->text_used;
}

static void text_done(struct args_builder *b, const char *s, size_t len)
{
	if (len == 0) {
		b->overflow = true;
		return;
	}
	b->text_used += len + 1;
	arg_add(b, s);
}

static void arg_number(struct args_builder *b, uint64_t v, unsigned base)
{
	size_t room;
	char *s = text_space(b, &room);

	if (s)
		text_done(b, s, format_u64(s, room, v, base));
}

static void arg_groups(struct args_builder *b, const struct exec_context *c)
{
	size_t room, len = 0;
	char *s = text_space(b, &room);

	if (!s)
		return;
	s[0] = '\0';
	for (size_t i = 0; i < c->group_count; i++) {
		size_t n;
		if (i > 0) {
			if (len + 2 > room) {
				b->overflow = true;
				return;
			}
			s[len++] = ',';
		}
		n = format_u64(s + len, room - len, c->groups[i], 10);
		if (n == 0) {
			b->overflow = true;
			return;
		}
		len += n;
	}
	b->text_used += len + 1;
	arg_add(b, s);
}

int exec_caps_build_argv(const struct exec_context *c, const char *path, char *const argv[],
			 struct exec_caps_args *out)
{
	struct args_builder b = { .out = out };

	out->argv[0] = NULL;
	arg_add(&b, caps_helper(c));
	if (c->report_fd >= 0) {
		arg_add(&b, "--report-fd");
		arg_number(&b, (uint64_t)c->report_fd, 10);
	}
	if (c->set_ids) {
		arg_add(&b, "--uid");
		arg_number(&b, c->uid, 10);
		arg_add(&b, "--gid");
		arg_number(&b, c->gid, 10);
		arg_add(&b, "--groups");
		arg_groups(&b, c);
	}
	if (c->cap_bounding_set) {
		arg_add(&b, "--bounding");
		arg_number(&b, c->cap_bounding, 16);
	}
	if (c->cap_ambient == EXEC_CAPS_ALL) {
		arg_add(&b, "--ambient");
		arg_add(&b, "all");
	} else if (c->cap_ambient) {
		arg_add(&b, "--ambient");
		arg_number(&b, c->cap_ambient, 16);
	}
	if (c->no_new_privs)
		arg_add(&b, "--no-new-privs");
	/* exec keys (sandbox-more): applied by ember-caps, the last link */
	if (c->more.secure_bits) {
		arg_add(&b, "--securebits");
		arg_number(&b, c->more.secure_bits, 10);
	}
	if (c->more.apparmor_profile && *c->more.apparmor_profile) {
		arg_add(&b, "--apparmor-profile");
		arg_add(&b, c->more.apparmor_profile);
	}
	if (c->workdir_fd >= 0) {
		arg_add(&b, "--chdir-fd");
		arg_number(&b, (uint64_t)c->workdir_fd, 10);
	} else if (c->workdir) {
		arg_add(&b, "--chdir");
		arg_add(&b, c->workdir);
	}
	if ((c->workdir_fd >= 0 || c->workdir) && c->workdir_optional)
		arg_add(&b, "--chdir-optional");
	arg_add(&b, "--");
	arg_add(&b, path);
	for (size_t i = 0; argv[i]; i++)
		arg_add(&b, argv[i]);
	if (b.overflow) {
		errno = E2BIG;
		return -1;
	}
	return 0;
}

/* ---- the steps, run in the child ---- */

static int fail_at(struct exec_failure *f, enum exec_step step, int64_t arg)
{
	f->step = step;
	f->err = errno;
	f->arg = arg;
	return -1;
}

/* Signal dispositions and the mask are inherited through execve: PID 1 blocks
 * everything for its sigwait loop, and a service must not start that way. */
/* libc refuses sigaction for the real-time signals it reserves (musl: 32-34), yet a
 * parent may have left one ignored: reset it with the raw system call. SIG_DFL needs
 * no restorer, so the kernel's struct is plain here. */
static void reset_reserved_signal(int sig)
{
	struct {
		void (*handler)(int);
		unsigned long flags;
		void (*restorer)(void);
		unsigned long mask;
	} dfl = { SIG_DFL, 0, NULL, 0 };
	syscall(SYS_rt_sigaction, sig, &dfl, NULL, sizeof dfl.mask);
}

void exec_signals_default(uint64_t which)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	sigemptyset(&dfl.sa_mask);
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP &&
		    (which == 0 || (sig <= 64 && (which >> (sig - 1)) & 1)) &&
		    sigaction(sig, &dfl, NULL) < 0)
			reset_reserved_signal(sig);
}

static int reset_signals(uint64_t which)
{
	sigset_t none;

	exec_signals_default(which);
	sigemptyset(&none);
	return sigprocmask(SIG_SETMASK, &none, NULL);
}

/* systemd's IgnoreSIGPIPE=yes: a write to a closed pipe or socket fails with EPIPE
 * instead of ending the process. */
static int ignore_sigpipe(void)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };

	sigemptyset(&ign.sa_mask);
	return sigaction(SIGPIPE, &ign, NULL);
}

/* dup2 the wanted fds onto 0..2. Sources below 3 are first moved out of the way so one
 * dup2 cannot clobber another's source (e.g. stdout_fd = 2, stderr_fd = 1). */
static int apply_stdio(const struct exec_context *c, int tty_fd, struct exec_failure *f)
{
	int want[3] = { c->stdin_fd, c->stdout_fd, c->stderr_fd };

	for (int i = 0; i < 3 && tty_fd >= 0; i++) /* U5: the terminal replaces these */
		if (c->tty_flags & (EXEC_TTY_STDIN << i))
			want[i] = tty_fd;

	for (int i = 0; i < 3; i++) {
		if (want[i] >= 0 && want[i] < 3 && want[i] != i) {
			int moved = fcntl(want[i], F_DUPFD_CLOEXEC, 3);
			if (moved < 0)
				return fail_at(f, EXEC_STEP_STDIO, i);
			for (int j = i + 1; j < 3; j++)
				if (want[j] == want[i])
					want[j] = moved;
			want[i] = moved;
		}
	}
	for (int i = 0; i < 3; i++) {
		if (want[i] < 0)
			continue;
		if (want[i] == i ? fcntl(i, F_SETFD, 0) < 0 : dup2(want[i], i) < 0)
			return fail_at(f, EXEC_STEP_STDIO, i);
	}
	return 0;
}

/* procfs wants the value in one write(2). */
static int write_oom_score_adj(int value)
{
	char buf[16];
	size_t len = format_i64(buf, sizeof buf, value);
	int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC | O_NOCTTY);
	ssize_t n;
	int saved;

	if (fd < 0)
		return -1;
	n = write(fd, buf, len);
	saved = errno;
	close(fd);
	errno = saved;
	if (n >= 0 && (size_t)n != len)
		errno = EIO;
	return n >= 0 && (size_t)n == len ? 0 : -1;
}

/* The kernel's ceiling for RLIMIT_NOFILE (fs.nr_open); 0 when unreadable. */
static rlim_t nofile_ceiling(void)
{
	char buf[32];
	ssize_t n = io_read_file("/proc/sys/fs/nr_open", buf, sizeof buf - 1);
	unsigned long v;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return parse_ulong(buf, 1, ~0UL, &v) == 0 ? (rlim_t)v : 0;
}

static struct rlimit rlimit_held_to(const struct rlimit *want, rlim_t limit)
{
	struct rlimit r = { want->rlim_cur > limit ? limit : want->rlim_cur,
			    want->rlim_max > limit ? limit : want->rlim_max };
	return r;
}

/* As systemd: a limit the kernel refuses (EPERM) is set as close as it allows. No open
 * file limit may pass fs.nr_open, so LimitNOFILE=infinity (Debian's containerd, docker)
 * is that ceiling; any other limit is held to the hard limit the process has. */
static int setrlimit_closest(int r, const struct rlimit *want)
{
	struct rlimit got, fixed;
	rlim_t ceiling;

	if (setrlimit(r, want) == 0)
		return 0;
	if (errno != EPERM)
		return -1;
	if (r == RLIMIT_NOFILE && (ceiling = nofile_ceiling()) > 0) {
		fixed = rlimit_held_to(want, ceiling);
		if (setrlimit(r, &fixed) == 0)
			return 0;
	}
	if (getrlimit(r, &got) < 0 || got.rlim_max == RLIM_INFINITY) {
		errno = EPERM;
		return -1;
	}
	fixed = rlimit_held_to(want, got.rlim_max);
	return setrlimit(r, &fixed);
}

/* Privileged steps first, while the process still has root's capabilities: lowering
 * oom_score_adj, a negative nice and raising a hard limit all need them. */
static int apply_privileged(const struct exec_context *c, struct exec_failure *f)
{
	/* As systemd: a refusal for lack of privilege (a container without
	 * CAP_SYS_RESOURCE) is not fatal; the process keeps the inherited value. */
	if (c->oom_score_adj_set && write_oom_score_adj(c->oom_score_adj) < 0 &&
	    errno != EACCES && errno != EPERM)
		return fail_at(f, EXEC_STEP_OOM_SCORE_ADJ, c->oom_score_adj);
	if (c->nice_set && setpriority(PRIO_PROCESS, 0, c->nice) < 0)
		return fail_at(f, EXEC_STEP_NICE, c->nice);
	for (int r = 0; r < RLIM_NLIMITS; r++)
		if ((c->rlimit_set & (1u << r)) && setrlimit_closest(r, &c->rlimit[r]) < 0)
			return fail_at(f, EXEC_STEP_RLIMIT, r);
	/* exec keys (sandbox-more) */
	return exec_more_apply(&c->more, f);
}

/* KeyringMode=: a session keyring of the command's own, made while still root (its
 * possessor may use it whoever owns it); "shared" links the user's keyring into it once
 * the ids are the user's. A kernel without keyrings or a sandbox that refuses keyctl
 * leaves the caller's, as systemd does. */
#define KEYCTL_JOIN_SESSION_KEYRING 1
#define KEYCTL_LINK 8
#define KEY_SPEC_USER_KEYRING (-4)
#define KEY_SPEC_SESSION_KEYRING (-3)

static void join_keyring(const struct exec_context *c)
{
	if (c->keyring != EXEC_KEYRING_INHERIT)
		syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, (char *)NULL);
}

static void link_user_keyring(const struct exec_context *c)
{
	if (c->keyring == EXEC_KEYRING_SHARED)
		syscall(SYS_keyctl, KEYCTL_LINK, KEY_SPEC_USER_KEYRING, KEY_SPEC_SESSION_KEYRING);
}

/* Groups, then gid, then uid: after setuid the process could no longer change the
 * other two. setres*id sets real, effective and saved ids alike. */
static int apply_ids(const struct exec_context *c, struct exec_failure *f)
{
	if (!c->set_ids)
		return 0;
	if (setgroups(c->group_count, c->groups) < 0)
		return fail_at(f, EXEC_STEP_SETGROUPS, (int64_t)c->group_count);
	if (setresgid(c->gid, c->gid, c->gid) < 0)
		return fail_at(f, EXEC_STEP_SETGID, c->gid);
	if (setresuid(c->uid, c->uid, c->uid) < 0)
		return fail_at(f, EXEC_STEP_SETUID, c->uid);
	return 0;
}

static int apply_workdir(const struct exec_context *c, struct exec_failure *f)
{
	int r;

	if (c->workdir_fd >= 0) {
		r = fchdir(c->workdir_fd);
		if (c->workdir_fd > 2)
			close(c->workdir_fd); /* the command must not inherit it */
	} else if (c->workdir) {
		r = chdir(c->workdir);
	} else {
		return 0;
	}
	if (r < 0 && !c->workdir_optional)
		return fail_at(f, EXEC_STEP_CHDIR, c->workdir_fd);
	return 0;
}

/* Hand over to ember-caps, which switches identity keeping the capabilities asked for.
 * The working directory fd and the report pipe must survive this one execve. */
static int exec_caps_helper(const struct exec_context *c, const char *path,
			    char *const argv[], char *const envp[], struct exec_failure *f)
{
	struct exec_caps_args args;

	if (exec_caps_build_argv(c, path, argv, &args) < 0)
		return fail_at(f, EXEC_STEP_CAPS_ARGS, 0);
	if (c->workdir_fd >= 0 && fcntl(c->workdir_fd, F_SETFD, 0) < 0)
		return fail_at(f, EXEC_STEP_CHDIR, c->workdir_fd);
	if (c->report_fd >= 0 && fcntl(c->report_fd, F_SETFD, 0) < 0)
		return fail_at(f, EXEC_STEP_CAPS_HELPER, 0);
	execve(args.argv[0], args.argv, envp);
	fail_at(f, EXEC_STEP_CAPS_HELPER, 0);
	if (c->report_fd >= 0)
		fcntl(c->report_fd, F_SETFD, FD_CLOEXEC);
	return -1;
}

/* ---- U5: the sandbox link of the chain ---- */

static const char *sandbox_helper(const struct exec_context *c)
{
	return c && c->sandbox_helper ? c->sandbox_helper : EXEC_SANDBOX_HELPER;
}

/* A helper's command line: HELPER OPTIONS [--report-fd N] -- NEXT..., into chain from
 * *n on. report holds the number's text. */
static int chain_link(const struct exec_context *c, const char *helper, char *const *options,
		      char *const *next, char **chain, size_t *n, char *report, size_t report_size)
{
	chain[(*n)++] = (char *)helper;
	for (size_t i = 0; options[i] && *n < EXEC_CAPS_ARGV_MAX - 4; i++)
		chain[(*n)++] = options[i];
	if (c->report_fd >= 0 && format_u64(report, report_size, (uint64_t)c->report_fd, 10)) {
		chain[(*n)++] = "--report-fd";
		chain[(*n)++] = report;
	}
	chain[(*n)++] = "--";
	for (size_t i = 0; next[i]; i++) {
		if (*n + 1 >= EXEC_CAPS_ARGV_MAX) {
			errno = E2BIG;
			return -1;
		}
		chain[(*n)++] = next[i];
	}
	chain[*n] = NULL;
	return 0;
}

/* The links' fds must survive their execve. */
static int exec_chain(const struct exec_context *c, char **chain, char *const envp[],
		      enum exec_step step, struct exec_failure *f)
{
	if (c->workdir_fd >= 0 && fcntl(c->workdir_fd, F_SETFD, 0) < 0)
		return fail_at(f, EXEC_STEP_CHDIR, c->workdir_fd);
	if (c->report_fd >= 0 && fcntl(c->report_fd, F_SETFD, 0) < 0)
		return fail_at(f, step, 0);
	execve(chain[0], chain, envp);
	fail_at(f, step, 0);
	if (c->report_fd >= 0)
		fcntl(c->report_fd, F_SETFD, FD_CLOEXEC);
	return -1;
}

/* ember-sandbox OPTIONS [--report-fd N] -- EMBER-CAPS-ARGV: the sandbox needs root, so it
 * comes first; ember-caps (identity, capabilities, working directory) runs inside it. */
static int exec_sandbox_helper(const struct exec_context *c, const char *path,
			       char *const argv[], char *const envp[], struct exec_failure *f)
{
	struct exec_caps_args caps; /* ~34 KiB of the child's stack, as exec_caps_helper */
	char *chain[EXEC_CAPS_ARGV_MAX];
	char report[24];
	size_t n = 0;

	if (exec_caps_build_argv(c, path, argv, &caps) < 0 ||
	    chain_link(c, sandbox_helper(c), c->sandbox_args, caps.argv, chain, &n, report,
		       sizeof report) < 0)
		return fail_at(f, EXEC_STEP_CAPS_ARGS, 0);
	return exec_chain(c, chain, envp, EXEC_STEP_SANDBOX_HELPER, f);
}

/* PAMName=: ember-session OPTIONS [--report-fd N] -- [EMBER-SANDBOX ... --] EMBER-CAPS-ARGV.
 * The session is made as root by the service's own process, before the sandbox and the
 * identity switch. */
static const char *session_helper(const struct exec_context *c)
{
	return c && c->session_helper ? c->session_helper : EXEC_SESSION_HELPER;
}

static int exec_session_helper(const struct exec_context *c, const char *path,
			       char *const argv[], char *const envp[], struct exec_failure *f)
{
	struct exec_caps_args caps;
	char *rest[EXEC_CAPS_ARGV_MAX], *chain[EXEC_CAPS_ARGV_MAX];
	char report[2][24];
	size_t n = 0, m = 0;

	if (exec_caps_build_argv(c, path, argv, &caps) < 0)
		return fail_at(f, EXEC_STEP_CAPS_ARGS, 0);
	if (c->sandbox_args && chain_link(c, sandbox_helper(c), c->sandbox_args, caps.argv, rest,
					  &m, report[1], sizeof report[1]) < 0)
		return fail_at(f, EXEC_STEP_CAPS_ARGS, 0);
	if (chain_link(c, session_helper(c), c->session_args, c->sandbox_args ? rest : caps.argv,
		       chain, &n, report[0], sizeof report[0]) < 0)
		return fail_at(f, EXEC_STEP_CAPS_ARGS, 0);
	return exec_chain(c, chain, envp, EXEC_STEP_SESSION_HELPER, f);
}

void exec_context_full_privileges(struct exec_context *c)
{
	c->set_ids = false;
	c->group_count = 0;
	c->cap_ambient = 0;
	c->cap_bounding_set = false;
	c->no_new_privs = false;
	c->sandbox_args = NULL;
	c->session_args = NULL;          /* PAMName=: a "+" line runs as root, no session */
	c->more.secure_bits = 0;         /* exec keys (sandbox-more): privilege restrictions */
	c->more.apparmor_profile = NULL; /* too, as systemd skips them for "+" */
}

static const char *const sandbox_op_names[EXEC_SANDBOX_OP_COUNT] = {
	[EXEC_SANDBOX_UNSHARE] = "new namespaces",
	[EXEC_SANDBOX_PROPAGATION] = "private mount propagation",
	[EXEC_SANDBOX_LOOPBACK] = "loopback up",
	[EXEC_SANDBOX_BIND] = "bind mount",
	[EXEC_SANDBOX_READ_ONLY] = "read-only mount",
	[EXEC_SANDBOX_READ_WRITE] = "read-write mount",
	[EXEC_SANDBOX_INACCESSIBLE] = "inaccessible path",
	[EXEC_SANDBOX_TMP] = "private /tmp",
	[EXEC_SANDBOX_DEV] = "private /dev",
	[EXEC_SANDBOX_HOME] = "ProtectHome",
	[EXEC_SANDBOX_BOUNDING] = "bounding set",
	[EXEC_SANDBOX_PROC] = "private /proc",          /* exec keys (sandbox-more) */
	[EXEC_SANDBOX_USERS] = "private user namespace", /* exec keys (sandbox-more) */
	[EXEC_SANDBOX_NOSUID] = "nosuid (NoNewPrivileges=)",
};

const char *exec_sandbox_op_name(int op)
{
	return op >= 0 && op < EXEC_SANDBOX_OP_COUNT ? sandbox_op_names[op] : "setup";
}

int exec_context_exec(const struct exec_context *c, const char *path, char *const argv[],
		      struct exec_failure *fail)
{
	char *const *envp = c->envp ? c->envp : environ;
	int tty_fd = -1;

	fail->step = EXEC_STEP_NONE;
	fail->err = 0;
	fail->arg = 0;
	if (!path || !argv || !argv[0]) { /* argc == 0 confuses programs (PwnKit) */
		errno = EINVAL;
		return fail_at(fail, EXEC_STEP_EXECVE, 0);
	}
	if (reset_signals(c->signals_to_reset) < 0 || (c->ignore_sigpipe && ignore_sigpipe() < 0))
		return fail_at(fail, EXEC_STEP_SIGNALS, 0);
	if (c->tty_path && (tty_fd = exec_tty_acquire(c, fail)) < 0)
		return -1;
	if (apply_stdio(c, tty_fd, fail) < 0 || apply_privileged(c, fail) < 0)
		return -1;
	if (c->dir_count > 0 && exec_dirs_create(c, fail) < 0)
		return -1;
	if (c->umask_set)
		umask(c->umask);
	if (c->session_args)
		return exec_session_helper(c, path, argv, envp, fail);
	if (c->sandbox_args)
		return exec_sandbox_helper(c, path, argv, envp, fail);
	if (exec_context_needs_caps(c))
		return exec_caps_helper(c, path, argv, envp, fail);
	join_keyring(c);
	if (apply_ids(c, fail) < 0 || apply_workdir(c, fail) < 0)
		return -1;
	link_user_keyring(c);
	if (c->no_new_privs && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return fail_at(fail, EXEC_STEP_NO_NEW_PRIVS, 0);
	if (exec_final_apply(c->more.secure_bits, c->more.apparmor_profile, fail) < 0)
		return -1; /* exec keys (sandbox-more) */
	execve(path, argv, envp);
	return fail_at(fail, EXEC_STEP_EXECVE, 0);
}

/* ---- reporting failures ---- */

int exec_status_code(int wait_status)
{
	return WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : 128 + WTERMSIG(wait_status);
}

int exec_failure_write(int fd, const struct exec_failure *f)
{
	ssize_t n;

	do
		n = write(fd, f, sizeof *f);
	while (n < 0 && errno == EINTR);
	if (n >= 0 && (size_t)n != sizeof *f) {
		errno = EIO;
		return -1;
	}
	return n < 0 ? -1 : 0;
}

int exec_failure_read(int fd, struct exec_failure *f)
{
	ssize_t got = io_read_full(fd, f, sizeof *f);

	if (got <= 0)
		return (int)got;
	if (got != (ssize_t)sizeof *f || f->step <= EXEC_STEP_NONE || f->step >= EXEC_STEP_COUNT) {
		errno = EIO;
		return -1;
	}
	return 1;
}

static const char *const step_names[EXEC_STEP_COUNT] = {
	[EXEC_STEP_NONE] = "none",
	[EXEC_STEP_SIGNALS] = "signals",
	[EXEC_STEP_STDIO] = "stdio",
	[EXEC_STEP_OOM_SCORE_ADJ] = "oom_score_adj",
	[EXEC_STEP_NICE] = "nice",
	[EXEC_STEP_RLIMIT] = "setrlimit",
	[EXEC_STEP_CAPS_ARGS] = "ember-caps arguments",
	[EXEC_STEP_CAPS_HELPER] = "ember-caps",
	[EXEC_STEP_BOUNDING] = "bounding set",
	[EXEC_STEP_SETGROUPS] = "setgroups",
	[EXEC_STEP_SETGID] = "setgid",
	[EXEC_STEP_SETUID] = "setuid",
	[EXEC_STEP_CAP_UNAVAILABLE] = "capability unavailable",
	[EXEC_STEP_AMBIENT] = "ambient capabilities",
	[EXEC_STEP_CHDIR] = "chdir",
	[EXEC_STEP_NO_NEW_PRIVS] = "no_new_privs",
	[EXEC_STEP_EXECVE] = "execve",
	[EXEC_STEP_DIRS] = "directory",
	[EXEC_STEP_TTY] = "terminal",
	[EXEC_STEP_SANDBOX_HELPER] = "ember-sandbox",
	[EXEC_STEP_SANDBOX] = "sandbox",
	[EXEC_STEP_IOPRIO] = "ioprio_set",                /* exec keys (sandbox-more) */
	[EXEC_STEP_SCHED] = "sched_setscheduler",         /* exec keys (sandbox-more) */
	[EXEC_STEP_AFFINITY] = "sched_setaffinity",       /* exec keys (sandbox-more) */
	[EXEC_STEP_CREDENTIALS] = "credentials",          /* exec keys (sandbox-more) */
	[EXEC_STEP_SECUREBITS] = "securebits",            /* exec keys (sandbox-more) */
	[EXEC_STEP_APPARMOR] = "AppArmor profile",        /* exec keys (sandbox-more) */
	[EXEC_STEP_SESSION_HELPER] = "ember-session",     /* PAMName= */
	[EXEC_STEP_SESSION] = "session",
};

const char *exec_step_name(enum exec_step step)
{
	return (int)step >= 0 && (int)step < EXEC_STEP_COUNT ? step_names[step] : "unknown step";
}

static const char *const rlimit_names[] = {
	[RLIMIT_CPU] = "RLIMIT_CPU", [RLIMIT_FSIZE] = "RLIMIT_FSIZE",
	[RLIMIT_DATA] = "RLIMIT_DATA", [RLIMIT_STACK] = "RLIMIT_STACK",
	[RLIMIT_CORE] = "RLIMIT_CORE", [RLIMIT_RSS] = "RLIMIT_RSS",
	[RLIMIT_NPROC] = "RLIMIT_NPROC", [RLIMIT_NOFILE] = "RLIMIT_NOFILE",
	[RLIMIT_MEMLOCK] = "RLIMIT_MEMLOCK", [RLIMIT_AS] = "RLIMIT_AS",
	[RLIMIT_LOCKS] = "RLIMIT_LOCKS", [RLIMIT_SIGPENDING] = "RLIMIT_SIGPENDING",
	[RLIMIT_MSGQUEUE] = "RLIMIT_MSGQUEUE", [RLIMIT_NICE] = "RLIMIT_NICE",
	[RLIMIT_RTPRIO] = "RLIMIT_RTPRIO", [RLIMIT_RTTIME] = "RLIMIT_RTTIME",
};

static const char *rlimit_name(int64_t r)
{
	size_t n = sizeof rlimit_names / sizeof *rlimit_names;
	return r >= 0 && (size_t)r < n && rlimit_names[r] ? rlimit_names[r] : "?";
}

static const char *cap_label(int64_t cap, char *buf, size_t size)
{
	const char *name = exec_cap_name((int)cap);
	if (name)
		return name;
	snprintf(buf, size, "capability %lld", (long long)cap);
	return buf;
}

/* What the step acted on, e.g. "setgid(33)". */
static void describe_step(const struct exec_failure *f, const struct exec_context *c,
			  const char *path, char *buf, size_t size)
{
	static const char *const stdio_names[] = { "stdin", "stdout", "stderr" };
	long long arg = (long long)f->arg;
	char cap[32], shown[256];

	switch (f->step) {
	case EXEC_STEP_STDIO:
		snprintf(buf, size, "dup2(%s)", arg >= 0 && arg < 3 ? stdio_names[arg] : "?");
		break;
	case EXEC_STEP_OOM_SCORE_ADJ:
		snprintf(buf, size, "oom_score_adj(%lld)", arg);
		break;
	case EXEC_STEP_NICE:
		snprintf(buf, size, "setpriority(%lld)", arg);
		break;
	case EXEC_STEP_RLIMIT:
		snprintf(buf, size, "setrlimit(%s)", rlimit_name(f->arg));
		break;
	case EXEC_STEP_CAPS_HELPER:
		snprintf(buf, size, "execve(%s)", escape_text(caps_helper(c), shown, sizeof shown));
		break;
	case EXEC_STEP_BOUNDING:
		snprintf(buf, size, "drop %s from the bounding set", cap_label(arg, cap, sizeof cap));
		break;
	case EXEC_STEP_SETGROUPS:
		snprintf(buf, size, "setgroups(%lld groups)", arg);
		break;
	case EXEC_STEP_SETGID:
		snprintf(buf, size, "setgid(%lld)", arg);
		break;
	case EXEC_STEP_SETUID:
		snprintf(buf, size, "setuid(%lld)", arg);
		break;
	case EXEC_STEP_CAP_UNAVAILABLE:
		snprintf(buf, size, "ambient %s", cap_label(arg, cap, sizeof cap));
		break;
	case EXEC_STEP_AMBIENT:
		snprintf(buf, size, "raise ambient capabilities");
		break;
	case EXEC_STEP_CHDIR:
		if (c && c->workdir_fd < 0 && c->workdir)
			snprintf(buf, size, "chdir(%s)", escape_text(c->workdir, shown, sizeof shown));
		else
			snprintf(buf, size, "fchdir(fd %lld)", arg);
		break;
	case EXEC_STEP_NO_NEW_PRIVS:
		snprintf(buf, size, "prctl(PR_SET_NO_NEW_PRIVS)");
		break;
	case EXEC_STEP_EXECVE:
		snprintf(buf, size, "execve(%s)", path ? escape_text(path, shown, sizeof shown) : "command");
		break;
	/* U5 */
	case EXEC_STEP_DIRS:
		if (c && arg >= 0 && (size_t)arg < c->dir_count)
			snprintf(buf, size, "directory %s/%s", c->dirs[arg].base, c->dirs[arg].path);
		else
			snprintf(buf, size, "directory");
		break;
	case EXEC_STEP_TTY:
		snprintf(buf, size, "%s %s", arg == EXEC_TTY_OPEN ? "open terminal"
					     : arg == EXEC_TTY_BUSY ? "terminal in use:"
					     : "controlling terminal",
			 c && c->tty_path ? c->tty_path : "");
		break;
	case EXEC_STEP_SANDBOX_HELPER:
		snprintf(buf, size, "execve(%s)", sandbox_helper(c));
		break;
	case EXEC_STEP_SANDBOX:
		snprintf(buf, size, "sandbox: %s", exec_sandbox_op_name((int)arg));
		break;
	case EXEC_STEP_SESSION_HELPER: /* PAMName= */
		snprintf(buf, size, "execve(%s)", session_helper(c));
		break;
	case EXEC_STEP_SESSION:
		snprintf(buf, size, "ember-session: %s",
			 arg == EXEC_SESSION_LOGINUID ? "set the login uid (/proc/self/loginuid)"
			 : arg == EXEC_SESSION_LIMITS ? "set pam_limits' limits"
						      : "exec the next link");
		break;
	default:
		snprintf(buf, size, "%s", exec_step_name(f->step));
		break;
	}
}

void exec_failure_format(const struct exec_failure *f, const struct exec_context *c,
			 const char *path, char *buf, size_t size)
{
	char what[512];

	describe_step(f, c, path, what, sizeof what);
	if (f->step == EXEC_STEP_CAP_UNAVAILABLE)
		snprintf(buf, size, "%s: not in the bounding and permitted sets", what);
	else if (f->step == EXEC_STEP_DIRS && f->err == ELOOP) /* U5 */
		snprintf(buf, size, "%s: a symlink is in the way (refused, nothing changed)", what);
	else
		snprintf(buf, size, "%s: %s", what, strerror(f->err));
}
