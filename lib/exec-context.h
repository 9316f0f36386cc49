#ifndef EMBER_EXEC_CONTEXT_H
#define EMBER_EXEC_CONTEXT_H
/* The execution context a process starts in: identity, limits, umask, priority,
 * working directory, environment, standard fds and capabilities. ember-init starts
 * services with it and the empower launcher starts sessions with it, so both apply the
 * same rules in the same order. See docs/exec-context.md.
 *
 * Use: fill a struct exec_context in the parent (exec_context_init, then set fields;
 * names are resolved beforehand with passwd.h), fork, and in the child call
 * exec_context_exec(). It returns only on failure; the child then sends the struct
 * exec_failure to the parent (exec_failure_write) and _exits. The parent reads it
 * (exec_failure_read: end of file means the exec succeeded) and reports it with
 * exec_failure_format(), e.g. "setgid(33): Operation not permitted".
 *
 * Capabilities need libcap, which PID 1 does not link: when any are requested the child
 * execs ember-caps(8) instead, passing the identity, capability sets, no_new_privs and
 * working directory as arguments; ember-caps applies them and execs the command. Its
 * failures come back through report_fd in the same struct exec_failure.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "exec-more.h" /* exec keys (sandbox-more) */

#define EXEC_GROUPS_MAX 64       /* supplementary groups */
#define EXEC_CAPS_ARGV_MAX 4096  /* ember-caps arguments incl. the command's argv */
#define EXEC_CAPS_TEXT_MAX 2048  /* bytes for the numbers in ember-caps' arguments */
#define EXEC_CAP_MAX 63          /* highest capability number a mask can hold */
#define EXEC_CAPS_ALL (~(uint64_t)0) /* ambient: every capability in bounding ∩ permitted */

/* Where ember-session(8) lives (PAMName=: a logind session). */
#ifndef EXEC_SESSION_HELPER
#define EXEC_SESSION_HELPER "/usr/sbin/ember-session"
#endif

/* U5: where ember-sandbox(8) lives (namespaces for the sandboxing keys). */
#ifndef EXEC_SANDBOX_HELPER
#define EXEC_SANDBOX_HELPER "/usr/sbin/ember-sandbox"
#endif

/* U5: a directory to create before the identity switch (RuntimeDirectory= and friends):
 * base is trusted (root's /run, /var/lib, ...: followed if a symlink); every component of
 * path below it is created with mkdirat and opened with O_NOFOLLOW, so a symlink planted
 * there makes the start fail instead of redirecting a chown. Intermediate directories
 * are root's, mode 0755; the innermost gets mode and, if owned, the context's uid:gid,
 * and so does what is in it when the innermost's owner differs (as systemd: a service's
 * User= changed, or a dynamic user got another id). That walk never follows a symlink
 * and leaves alone regular files with more than one name (a hard link the old owner
 * made to someone else's file) and device nodes. */
struct exec_dir {
	const char *base;
	const char *path;
	mode_t mode;
	bool owned;
	/* DynamicUser=: the directory is base/private/path (base/private is root's, mode
	 * 0700, so a later owner of the same recycled id cannot reach it), and base/path
	 * is a relative symlink to it, as systemd lays them out. An older base/path
	 * directory is moved there; a base/path that is anything else fails the start. */
	bool private_dir;
};

/* U5: terminal flags (exec_context.tty_flags). */
#define EXEC_TTY_STDIN 0x01u       /* the terminal becomes fd 0 and the controlling tty */
#define EXEC_TTY_STDOUT 0x02u
#define EXEC_TTY_STDERR 0x04u
#define EXEC_TTY_FORCE 0x08u       /* take it from another session (tty-force) */
#define EXEC_TTY_FAIL 0x10u        /* fail when another session has it (tty-fail) */
#define EXEC_TTY_RESET 0x20u       /* TTYReset=: sane termios, flushed */
#define EXEC_TTY_VHANGUP 0x40u     /* TTYVHangup=: hang up earlier users first */
#define EXEC_TTY_VT_DISALLOCATE 0x80u /* TTYVTDisallocate=: clear a VT's scrollback */

/* Where ember-caps lives; a build may override it, a context may name another. */
#ifndef EXEC_CAPS_HELPER
#define EXEC_CAPS_HELPER "/usr/sbin/ember-caps"
#endif

/* The session keyring of the command: the caller's, a new one of its own, or a new one
 * with the user's keyring linked into it (systemd's KeyringMode=). */
enum exec_keyring { EXEC_KEYRING_INHERIT, EXEC_KEYRING_PRIVATE, EXEC_KEYRING_SHARED };

struct exec_context {
	/* Identity: with set_ids, groups, gid and uid are all applied (the caller's
	 * supplementary groups are never kept). */
	bool set_ids;
	uid_t uid;
	gid_t gid;
	size_t group_count;
	gid_t groups[EXEC_GROUPS_MAX];

	uint32_t rlimit_set;                /* bit r set: rlimit[r] applies */
	struct rlimit rlimit[RLIM_NLIMITS];
	bool umask_set;
	mode_t umask;
	bool nice_set;
	int nice;                           /* -20..19 */
	bool oom_score_adj_set;
	int oom_score_adj;                  /* -1000..1000 */
	bool no_new_privs;
	bool ignore_sigpipe;                /* SIGPIPE ignored (systemd's IgnoreSIGPIPE=) */
	uint8_t keyring;                    /* enum exec_keyring (systemd's KeyringMode=) */

	/* Working directory: workdir_fd (fchdir; closed in the child) if >= 0, else
	 * workdir if not NULL, entered after the user switch so the user's permissions
	 * apply. Optional: a failure to enter it is ignored (systemd's "-"). */
	const char *workdir;
	int workdir_fd;
	bool workdir_optional;

	/* Environment of the command; NULL keeps the caller's environ. */
	char *const *envp;
	/* dup2'd onto 0, 1, 2; -1 leaves that fd alone. */
	int stdin_fd, stdout_fd, stderr_fd;

	/* Capabilities (CAP_* numbers as mask bits). cap_ambient: raised into the
	 * inheritable and ambient sets (EXEC_CAPS_ALL: all of bounding ∩ permitted);
	 * 0: none. With cap_bounding_set, the bounding set keeps only cap_bounding. */
	uint64_t cap_ambient;
	bool cap_bounding_set;
	uint64_t cap_bounding;
	const char *caps_helper;            /* NULL: EXEC_CAPS_HELPER */

	/* Where ember-caps reports its failures (the caller's pipe); -1: nowhere. */
	int report_fd;

	/* Signals whose disposition the child must reset (bit n-1 for signal n); 0: all.
	 * execve resets caught signals by itself, so a caller that ignores none may name
	 * just the ones it catches, sparing ~60 sigaction calls per start. */
	uint64_t signals_to_reset;

	/* ---- U5: execution environment (lib/exec-dirs.c, lib/exec-tty.c) ---- */
	const struct exec_dir *dirs;        /* created as root before the identity switch */
	size_t dir_count;
	/* Whose the directories are when it is not this command's identity: a "+" line of
	 * a service with User= runs as root, its directories stay the service's. */
	bool dir_owner_set;
	uid_t dir_uid;
	gid_t dir_gid;
	const char *tty_path;               /* NULL: no terminal */
	unsigned tty_flags;                 /* EXEC_TTY_* */
	/* ember-sandbox's options (NULL-terminated), NULL: no sandbox. With it, the child
	 * execs ember-sandbox OPTIONS --report-fd N -- EMBER-CAPS-COMMAND-LINE: the sandbox
	 * is set up as root, then ember-caps switches identity and runs the command. */
	char *const *sandbox_args;
	const char *sandbox_helper;         /* NULL: EXEC_SANDBOX_HELPER */
	/* PAMName=: ember-session's options (NULL-terminated), NULL: no session. With them
	 * the chain starts with ember-session OPTIONS --report-fd N -- REST, REST being the
	 * ember-sandbox or ember-caps command line above: the session is made as root, the
	 * identity switch comes after it (exec_context_needs_caps is true). */
	char *const *session_args;
	const char *session_helper;         /* NULL: EXEC_SESSION_HELPER */
	struct exec_more more;              /* exec keys (sandbox-more): lib/exec-more.h */
};

/* The steps, in the order they run (docs/exec-context.md says why). */
enum exec_step {
	EXEC_STEP_NONE,
	EXEC_STEP_SIGNALS,       /* default dispositions, empty signal mask */
	EXEC_STEP_STDIO,         /* arg: the target fd */
	EXEC_STEP_OOM_SCORE_ADJ, /* arg: the value */
	EXEC_STEP_NICE,          /* arg: the value */
	EXEC_STEP_RLIMIT,        /* arg: the resource */
	EXEC_STEP_CAPS_ARGS,     /* building ember-caps' arguments */
	EXEC_STEP_CAPS_HELPER,   /* execve of ember-caps */
	EXEC_STEP_BOUNDING,      /* ember-caps: arg: the capability */
	EXEC_STEP_SETGROUPS,     /* arg: the number of groups */
	EXEC_STEP_SETGID,        /* arg: the gid */
	EXEC_STEP_SETUID,        /* arg: the uid */
	EXEC_STEP_CAP_UNAVAILABLE, /* ember-caps: arg: a capability not in bounding ∩ permitted */
	EXEC_STEP_AMBIENT,       /* ember-caps: raising inheritable + ambient */
	EXEC_STEP_CHDIR,
	EXEC_STEP_NO_NEW_PRIVS,
	EXEC_STEP_EXECVE,
	/* U5 */
	EXEC_STEP_DIRS,          /* arg: the index in exec_context.dirs */
	EXEC_STEP_TTY,           /* arg: enum exec_tty_op */
	EXEC_STEP_SANDBOX_HELPER, /* execve of ember-sandbox */
	EXEC_STEP_SANDBOX,       /* ember-sandbox: arg: enum exec_sandbox_op */
	/* exec keys (sandbox-more) */
	EXEC_STEP_IOPRIO,        /* arg: the ioprio value */
	EXEC_STEP_SCHED,         /* arg: the policy */
	EXEC_STEP_AFFINITY,
	EXEC_STEP_CREDENTIALS,   /* /run/credentials/UNIT */
	EXEC_STEP_SECUREBITS,    /* arg: the bits */
	EXEC_STEP_APPARMOR,      /* the exec profile */
	/* PAMName= */
	EXEC_STEP_SESSION_HELPER, /* execve of ember-session */
	EXEC_STEP_SESSION,       /* ember-session: arg: enum exec_session_op */
	EXEC_STEP_COUNT
};

/* What failed: the step, its errno and the step's argument (see enum exec_step). A fixed
 * layout, written to a pipe in one write(2). */
struct exec_failure {
	int32_t step;
	int32_t err;
	int64_t arg;
};

/* U5: what EXEC_STEP_TTY and EXEC_STEP_SANDBOX failed at. */
enum exec_tty_op { EXEC_TTY_OPEN, EXEC_TTY_CONTROLLING, EXEC_TTY_BUSY };
enum exec_sandbox_op {
	EXEC_SANDBOX_UNSHARE, EXEC_SANDBOX_PROPAGATION, EXEC_SANDBOX_LOOPBACK,
	EXEC_SANDBOX_BIND, EXEC_SANDBOX_READ_ONLY, EXEC_SANDBOX_READ_WRITE,
	EXEC_SANDBOX_INACCESSIBLE, EXEC_SANDBOX_TMP, EXEC_SANDBOX_DEV, EXEC_SANDBOX_HOME,
	EXEC_SANDBOX_BOUNDING,
	EXEC_SANDBOX_PROC, EXEC_SANDBOX_USERS, /* exec keys (sandbox-more) */
	EXEC_SANDBOX_NOSUID,
	EXEC_SANDBOX_OP_COUNT
};
const char *exec_sandbox_op_name(int op);
/* What EXEC_STEP_SESSION failed at. */
enum exec_session_op { EXEC_SESSION_LOGINUID, EXEC_SESSION_EXEC, EXEC_SESSION_LIMITS };

/* U5: lines with systemd's "+" prefix run with full privileges: no identity switch, no
 * capability changes, no no_new_privs and no sandbox. Directories and stdio stay. */
void exec_context_full_privileges(struct exec_context *c);

/* U5 (lib/exec-dirs.c): create c->dirs; in the child, before the identity switch. 0, or
 * -1 with *fail (EXEC_STEP_DIRS, errno ELOOP/ENOTDIR for a planted symlink). */
int exec_dirs_create(const struct exec_context *c, struct exec_failure *fail);
/* U5 (lib/exec-dirs.c): remove base/path and everything below it without following
 * symlinks (RuntimeDirectory= on stop). Depth-limited; 0 or -1/errno. */
int exec_dirs_remove(const char *base, const char *path);
/* The cheap half of a removal, for PID 1: base/path, a directory, is renamed next to
 * itself (".ember-removed.LEAF.N"), so the next run can create it again at once while
 * a child removes the renamed one; aside gets that path below base ("" when there was
 * no directory to move). 0 or -1/errno. */
int exec_dirs_set_aside(const char *base, const char *path, char *aside, size_t size);

/* U5 (lib/exec-tty.c): in the child after setsid: reset/hang up/disallocate as asked,
 * open c->tty_path and make it the controlling terminal when EXEC_TTY_STDIN. Returns the
 * fd (close-on-exec), or -1 with *fail. */
int exec_tty_acquire(const struct exec_context *c, struct exec_failure *fail);

/* Defaults: nothing changes (no fds, no ids, no limits); caps_helper NULL. */
void exec_context_init(struct exec_context *c);
/* The signals in which (bit n-1 for signal n; 0: all) back to their default action,
 * the reserved real-time ones included; the mask is left as it is. */
void exec_signals_default(uint64_t which);

/* True when exec_context_exec() will go through ember-caps. */
bool exec_context_needs_caps(const struct exec_context *c);

/* In the freshly forked child: apply c and execve(path, argv, envp). No PATH search.
 * Calls only async-signal-safe functions and plain syscall wrappers, and allocates
 * nothing, so it is safe after fork() in a multi-threaded or signal-handling parent.
 * Returns only on failure: -1 with errno and *fail filled. */
int exec_context_exec(const struct exec_context *c, const char *path, char *const argv[],
		      struct exec_failure *fail);

/* ember-caps' command line for c, path and argv (exec_context_exec builds it in the
 * child; exposed for tests). Pure: reads only its arguments. */
struct exec_caps_args {
	char *argv[EXEC_CAPS_ARGV_MAX];
	char text[EXEC_CAPS_TEXT_MAX];
};
int exec_caps_build_argv(const struct exec_context *c, const char *path, char *const argv[],
			 struct exec_caps_args *out);

/* A waitpid() status as a shell shows it: the exit status, or 128 + the signal. */
int exec_status_code(int wait_status);

/* Report a failure to fd with one write(2) (async-signal-safe). 0 or -1/errno. */
int exec_failure_write(int fd, const struct exec_failure *f);
/* Read one report: 1 = got one, 0 = end of file (the exec succeeded), -1/errno (EIO on
 * a short or malformed record). */
int exec_failure_read(int fd, struct exec_failure *f);
/* "setgid(33): Operation not permitted", "chdir(/srv/www): No such file or directory". c
 * and path (the command) may be NULL; they only add detail. */
void exec_failure_format(const struct exec_failure *f, const struct exec_context *c,
			 const char *path, char *buf, size_t size);
const char *exec_step_name(enum exec_step step);

/* Capability masks, as ember-caps and service files write them: "all", "none", a hex
 * number "0x..." or a comma-separated list of names ("CAP_NET_RAW", any case, the CAP_
 * prefix optional) and decimal numbers 0..63. Returns 0, or -1/errno EINVAL with the
 * offending list item copied to bad (if bad_size > 0). "all" gives EXEC_CAPS_ALL. */
int exec_caps_parse(const char *s, uint64_t *mask, char *bad, size_t bad_size);
/* "cap_net_bind_service" for 10; NULL past the names this build knows. */
const char *exec_cap_name(int cap);
/* -1 when unknown. */
int exec_cap_from_name(const char *name);
/* "cap_chown,cap_net_raw" (or "none"), numbers for caps without a name; truncated with
 * "..." when it does not fit. */
void exec_caps_format(uint64_t mask, char *buf, size_t size);
#endif
