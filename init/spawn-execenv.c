/* U5: see spawn-execenv.h. */
#include "spawn-execenv.h"
#include "spawn-execmore.h" /* exec keys (sandbox-more) */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define EXECENV_DIRS_MAX 32
#define EXECENV_DIR_TEXT_MAX 2048
#define EXECENV_SANDBOX_ARGS_MAX 96
#define EXECENV_SANDBOX_TEXT_MAX 4096
#define EXECENV_ENV_LINE_MAX 1024

static struct {
	struct exec_dir dirs[EXECENV_DIRS_MAX];
	char dir_text[EXECENV_DIR_TEXT_MAX];
	char *sandbox_args[EXECENV_SANDBOX_ARGS_MAX + 1];
	char sandbox_text[EXECENV_SANDBOX_TEXT_MAX];
	char *session_args[8];   /* PAMName= */
	char session_text[32];   /* the uid */
	int console_fd; /* for +console copies, opened on first use; -1 */
	bool console_tried;
} ee;

static const char *const dir_bases[SERVICE_DIR_KINDS] = {
	[DIR_RUNTIME] = "/run", [DIR_STATE] = "/var/lib", [DIR_CACHE] = "/var/cache",
	[DIR_LOGS] = "/var/log", [DIR_CONFIGURATION] = "/etc",
};
static const char *const dir_env[SERVICE_DIR_KINDS] = {
	[DIR_RUNTIME] = "RUNTIME_DIRECTORY", [DIR_STATE] = "STATE_DIRECTORY",
	[DIR_CACHE] = "CACHE_DIRECTORY", [DIR_LOGS] = "LOGS_DIRECTORY",
	[DIR_CONFIGURATION] = "CONFIGURATION_DIRECTORY",
};

const char *execenv_dir_base(enum service_dir_kind kind)
{
	return dir_bases[kind];
}

/* Calls each(ctx, kind, word) for every directory entry of s; stops at a non-zero. */
static int for_each_dir(const struct service *s,
			int (*each)(void *ctx, enum service_dir_kind kind, const char *word,
				    size_t len), void *ctx)
{
	for (int k = 0; k < SERVICE_DIR_KINDS; k++) {
		const char *p = service_str(s, s->execenv.dirs[k]);
		while (*p) {
			size_t len = strcspn(p, " \t");
			int r = len ? each(ctx, (enum service_dir_kind)k, p, len) : 0;
			if (r)
				return r;
			p += len;
			p += strspn(p, " \t");
		}
	}
	return 0;
}

/* DynamicUser=: state, cache and logs live in BASE/private (struct exec_dir). */
static bool private_kind(const struct service *s, enum service_dir_kind kind)
{
	return s->execmore.dynamic_user &&
	       (kind == DIR_STATE || kind == DIR_CACHE || kind == DIR_LOGS);
}

struct dirs_fill {
	struct exec_context *c;
	size_t text_used;
	const struct service *s;
};

static int add_dir(void *ctx, enum service_dir_kind kind, const char *word, size_t len)
{
	struct dirs_fill *f = ctx;
	struct exec_context *c = f->c;
	char *text = ee.dir_text + f->text_used;

	if (c->dir_count >= EXECENV_DIRS_MAX || f->text_used + len + 1 > sizeof ee.dir_text)
		return -1;
	memcpy(text, word, len);
	text[len] = '\0';
	f->text_used += len + 1;
	ee.dirs[c->dir_count++] = (struct exec_dir){
		.base = dir_bases[kind], .path = text,
		.mode = f->s->execenv.dir_mode[kind],
		/* As systemd: configuration stays root's, the service only reads it. */
		.owned = kind != DIR_CONFIGURATION,
		.private_dir = private_kind(f->s, kind),
	};
	return 0;
}

int execenv_dirs(const struct service *s, struct exec_context *c, char *err, size_t size)
{
	struct dirs_fill f = { c, 0, s };

	c->dirs = ee.dirs;
	c->dir_count = 0;
	if (for_each_dir(s, add_dir, &f) != 0) {
		snprintf(err, size, "*Directory=: more than %d directories or %d bytes",
			 EXECENV_DIRS_MAX, EXECENV_DIR_TEXT_MAX);
		return -1;
	}
	return 0;
}

struct env_fill {
	char line[EXECENV_ENV_LINE_MAX];
	size_t len;
	enum service_dir_kind kind;
	bool overflow;
};

static int add_env_dir(void *ctx, enum service_dir_kind kind, const char *word, size_t len)
{
	struct env_fill *f = ctx;
	size_t room = sizeof f->line - f->len;
	int n;

	if (kind != f->kind)
		return 0;
	/* NAME=/base/a:/base/b */
	n = snprintf(f->line + f->len, room, "%s%s%s/%.*s", f->len ? "" : dir_env[kind],
		     f->len ? ":" : "=", dir_bases[kind], (int)len, word);
	if (n < 0 || (size_t)n >= room) {
		f->overflow = true;
		return 1;
	}
	f->len += (size_t)n;
	return 0;
}

int execenv_dir_env(const struct service *s, int (*add)(void *ctx, const char *assignment),
		    void *ctx)
{
	struct env_fill f;

	for (int k = 0; k < SERVICE_DIR_KINDS; k++) {
		if (!s->execenv.dirs[k])
			continue;
		f.len = 0;
		f.line[0] = '\0';
		f.kind = (enum service_dir_kind)k;
		f.overflow = false;
		for_each_dir(s, add_env_dir, &f);
		if (f.overflow || (f.len && add(ctx, f.line) < 0))
			return -1;
	}
	return 0;
}

/* ---- terminal ---- */

static bool input_is_tty(enum service_input i)
{
	return i == INPUT_TTY || i == INPUT_TTY_FORCE || i == INPUT_TTY_FAIL;
}

unsigned execenv_tty_flags(const struct service *s)
{
	const struct service_execenv *e = &s->execenv;
	unsigned f = 0;
	bool out_tty = s->std_output.kind == OUTPUT_TTY ||
		       (s->std_output.kind == OUTPUT_INHERIT && input_is_tty(e->std_input));

	if (input_is_tty(e->std_input))
		f |= EXEC_TTY_STDIN;
	if (e->std_input == INPUT_TTY_FORCE)
		f |= EXEC_TTY_FORCE;
	if (e->std_input == INPUT_TTY_FAIL)
		f |= EXEC_TTY_FAIL;
	if (out_tty)
		f |= EXEC_TTY_STDOUT;
	if (s->std_error.kind == OUTPUT_TTY || (s->std_error.kind == OUTPUT_INHERIT && out_tty))
		f |= EXEC_TTY_STDERR;
	if (f == 0)
		return 0;
	if (e->tty_reset)
		f |= EXEC_TTY_RESET;
	if (e->tty_vhangup)
		f |= EXEC_TTY_VHANGUP;
	if (e->tty_vt_disallocate)
		f |= EXEC_TTY_VT_DISALLOCATE;
	return f;
}

const char *execenv_tty_path(const struct service *s)
{
	return s->execenv.tty_path ? service_str(s, s->execenv.tty_path) : "/dev/console";
}

/* ---- sandbox ---- */

struct args_fill {
	size_t argc, text_used;
	bool overflow;
};

static void arg_add(struct args_fill *a, const char *fmt_a, const char *fmt_b, size_t len_b)
{
	char *text = ee.sandbox_text + a->text_used;
	size_t room = sizeof ee.sandbox_text - a->text_used;
	int n = snprintf(text, room, "%s%.*s", fmt_a, (int)len_b, fmt_b ? fmt_b : "");

	if (a->argc >= EXECENV_SANDBOX_ARGS_MAX || n < 0 || (size_t)n >= room) {
		a->overflow = true;
		return;
	}
	a->text_used += (size_t)n + 1;
	ee.sandbox_args[a->argc++] = text;
	ee.sandbox_args[a->argc] = NULL;
}

static void arg_list(struct args_fill *a, const char *option, const char *list)
{
	while (*list) {
		size_t len = strcspn(list, " \t");
		if (len)
			arg_add(a, option, list, len);
		list += len;
		list += strspn(list, " \t");
	}
}

struct writable_fill {
	struct args_fill *a;
	const struct service *s;
};

/* systemd: the service's own directories stay writable under ProtectSystem=strict;
 * DynamicUser='s private ones are the only ones it sees in BASE/private. */
static int writable_dir(void *ctx, enum service_dir_kind kind, const char *word, size_t len)
{
	struct writable_fill *w = ctx;
	bool private = private_kind(w->s, kind);
	char path[EXECENV_ENV_LINE_MAX];

	snprintf(path, sizeof path, "%s%s/%.*s", dir_bases[kind], private ? "/private" : "",
		 (int)len, word);
	arg_add(w->a, private ? "--private-dir=" : "--read-write=", path, strlen(path));
	return 0;
}

/* ---- seccomp keys: each line of a key becomes one option of ember-sandbox ---- */

static void arg_lines(struct args_fill *a, const char *option, const char *lines)
{
	while (*lines) {
		size_t len = strcspn(lines, "\n");
		arg_add(a, option, lines, len);
		lines += len;
		lines += *lines == '\n';
	}
}

static void seccomp_args(const struct service *s, struct args_fill *a)
{
	static const char *const text_options[SECCOMP_TEXT_KINDS] = {
		[SECCOMP_FILTER] = "--system-call-filter=",
		[SECCOMP_ERROR_NUMBER] = "--system-call-error-number=",
		[SECCOMP_ARCHITECTURES] = "--system-call-architectures=",
		[SECCOMP_ADDRESS_FAMILIES] = "--restrict-address-families=",
		[SECCOMP_NAMESPACES] = "--restrict-namespaces=",
	};
	static const struct { unsigned flag; const char *option; } flags[] = {
		{ SECCOMP_FLAG_MEMORY_DENY_WRITE_EXECUTE, "--memory-deny-write-execute" },
		{ SECCOMP_FLAG_RESTRICT_REALTIME, "--restrict-realtime" },
		{ SECCOMP_FLAG_LOCK_PERSONALITY, "--lock-personality" },
		{ SECCOMP_FLAG_RESTRICT_SUID_SGID, "--restrict-suid-sgid" },
		{ SECCOMP_FLAG_PROTECT_HOSTNAME, "--protect-hostname" },
		{ SECCOMP_FLAG_PROTECT_KERNEL_LOGS, "--protect-kernel-logs" },
		{ SECCOMP_FLAG_PROTECT_CLOCK, "--protect-clock" },
	};
	const struct service_execenv *e = &s->execenv;
	size_t before = a->argc;

	for (int k = 0; k < SECCOMP_TEXT_KINDS; k++)
		if (k != SECCOMP_ERROR_NUMBER)
			arg_lines(a, text_options[k], service_str(s, e->seccomp_text[k]));
	for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
		if (e->seccomp_flags & flags[i].flag)
			arg_add(a, flags[i].option, NULL, 0);
	if (e->private_devices) /* systemd's implied SystemCallFilter=~@raw-io */
		arg_add(a, "--deny-raw-io", NULL, 0);
	if (a->argc == before)
		return;
	if (e->seccomp_text[SECCOMP_ERROR_NUMBER])
		arg_lines(a, text_options[SECCOMP_ERROR_NUMBER],
			  service_str(s, e->seccomp_text[SECCOMP_ERROR_NUMBER]));
	/* The chain is ember-sandbox -- ember-caps ... : the filters go after ember-caps. */
	arg_add(a, "--caps-chain", NULL, 0);
}
/* ---- end seccomp keys ---- */

/* exec keys (sandbox-more): ProtectProc=, ProcSubset=, PrivateMounts=, MountFlags=,
 * PrivateUsers=. */
static void execmore_sandbox_args(const struct service *s, const struct exec_context *c,
				  struct args_fill *a)
{
	static const char *const hide[] = { NULL, "noaccess", "invisible", "ptraceable" };
	static const char *const propagation[] = { NULL, "shared", "slave", "private" };
	const struct service_exec_more *m = &s->execmore;
	char ids[32];

	if (m->protect_proc != PROTECT_PROC_DEFAULT)
		arg_add(a, "--protect-proc=", hide[m->protect_proc], strlen(hide[m->protect_proc]));
	if (m->proc_subset_pid)
		arg_add(a, "--proc-subset=pid", NULL, 0);
	if (m->private_mounts)
		arg_add(a, "--private-mounts", NULL, 0);
	if (m->mount_propagation != MOUNT_PROPAGATION_UNSET)
		arg_add(a, "--mount-propagation=", propagation[m->mount_propagation],
			strlen(propagation[m->mount_propagation]));
	if (m->private_users == PRIVATE_USERS_IDENTITY)
		arg_add(a, "--private-users=", "identity", 8);
	else if (m->private_users == PRIVATE_USERS_FULL)
		arg_add(a, "--private-users=", "full", 4);
	else if (m->private_users) {
		/* the ids this start switches to; without User= root's */
		snprintf(ids, sizeof ids, "%u:%u", c->set_ids ? (unsigned)c->uid : 0u,
			 c->set_ids ? (unsigned)c->gid : 0u);
		arg_add(a, "--private-users=", ids, strlen(ids));
	}
}

int execenv_sandbox(const struct service *s, struct exec_context *c, const char *helper,
		    char *err, size_t size)
{
	static const char *const systems[] = { NULL, "yes", "full", "strict" };
	static const char *const homes[] = { NULL, "yes", "read-only", "tmpfs" };
	const struct service_execenv *e = &s->execenv;
	struct args_fill a = { 0 };

	if (!service_sandboxed(s))
		return 0;
	if (e->private_tmp)
		arg_add(&a, "--private-tmp", NULL, 0);
	if (e->private_devices)
		arg_add(&a, "--private-devices", NULL, 0);
	if (e->private_ipc)
		arg_add(&a, "--private-ipc", NULL, 0);
	if (e->private_network)
		arg_add(&a, "--private-network", NULL, 0);
	if (s->systemd_view)
		arg_add(&a, "--systemd-view", NULL, 0);
	if (s->no_new_privileges && service_mount_namespace(s))
		arg_add(&a, "--nosuid", NULL, 0);
	if (e->protect_kernel_tunables)
		arg_add(&a, "--protect-kernel-tunables", NULL, 0);
	if (e->protect_kernel_modules)
		arg_add(&a, "--protect-kernel-modules", NULL, 0);
	if (e->protect_control_groups)
		arg_add(&a, "--protect-control-groups", NULL, 0);
	if (e->protect_system != PROTECT_SYSTEM_NO)
		arg_add(&a, "--protect-system=", systems[e->protect_system],
			strlen(systems[e->protect_system]));
	if (e->protect_home != PROTECT_HOME_NO)
		arg_add(&a, "--protect-home=", homes[e->protect_home], strlen(homes[e->protect_home]));
	arg_list(&a, "--read-only=", service_str(s, e->paths[PATHS_READ_ONLY]));
	arg_list(&a, "--read-write=", service_str(s, e->paths[PATHS_READ_WRITE]));
	for_each_dir(s, writable_dir, &(struct writable_fill){ &a, s });
	arg_list(&a, "--inaccessible=", service_str(s, e->paths[PATHS_INACCESSIBLE]));
	arg_list(&a, "--bind=", service_str(s, e->paths[PATHS_BIND]));
	arg_list(&a, "--bind-ro=", service_str(s, e->paths[PATHS_BIND_RO]));
	arg_list(&a, "--no-exec=", service_str(s, e->paths[PATHS_NO_EXEC]));
	arg_list(&a, "--exec=", service_str(s, e->paths[PATHS_EXEC]));
	seccomp_args(s, &a); /* seccomp keys */
	execmore_sandbox_args(s, c, &a); /* exec keys (sandbox-more) */
	/* ember-caps comes next: NoExecPaths=/ must not bind it (ember-sandbox(8)) */
	arg_add(&a, "--helper", NULL, 0);
	if (a.overflow) {
		snprintf(err, size, "sandboxing keys: more than %d paths or %d bytes",
			 EXECENV_SANDBOX_ARGS_MAX, EXECENV_SANDBOX_TEXT_MAX);
		return -1;
	}
	c->sandbox_args = ee.sandbox_args;
	c->sandbox_helper = helper;
	return 0;
}

/* ---- PAMName= ---- */

void execenv_session(const struct service *s, struct exec_context *c, const char *helper)
{
	size_t n = 0;

	if (!s->execenv.pam_name || !c->set_ids)
		return; /* as systemd: no session without a user to open it for */
	snprintf(ee.session_text, sizeof ee.session_text, "%u", (unsigned)c->uid);
	ee.session_args[n++] = "--uid";
	ee.session_args[n++] = ee.session_text;
	ee.session_args[n++] = "--service";
	ee.session_args[n++] = (char *)service_str(s, s->execenv.pam_name);
	if (s->execenv.tty_path) {
		ee.session_args[n++] = "--tty";
		ee.session_args[n++] = (char *)service_str(s, s->execenv.tty_path);
	}
	ee.session_args[n] = NULL;
	c->session_args = ee.session_args;
	c->session_helper = helper;
}

/* ---- stop ---- */

/* Stop: the runtime directories are renamed aside at once (a start right after the stop,
 * a restart, must find the name free and not race with the removal), then a child removes
 * the renamed trees: a deep or huge tree must not hold PID 1. */
struct aside_fill {
	char paths[EXECENV_DIRS_MAX][EXECENV_ENV_LINE_MAX];
	size_t count;
};

static int set_runtime_dir_aside(void *ctx, enum service_dir_kind kind, const char *word,
				 size_t len)
{
	struct aside_fill *f = ctx;
	char path[EXECENV_ENV_LINE_MAX];

	if (kind != DIR_RUNTIME || f->count >= EXECENV_DIRS_MAX)
		return 0;
	snprintf(path, sizeof path, "%.*s", (int)len, word);
	if (exec_dirs_set_aside(dir_bases[DIR_RUNTIME], path, f->paths[f->count],
				sizeof f->paths[f->count]) < 0) /* a mount point, say: by its name */
		snprintf(f->paths[f->count], sizeof f->paths[f->count], "%s", path);
	if (f->paths[f->count][0])
		f->count++;
	return 0;
}

void execenv_stopped(const struct service *s, bool restarting, uid_t dynamic_uid)
{
	static struct aside_fill aside;
	enum service_preserve p = s->execenv.runtime_preserve;

	execmore_stopped(s, dynamic_uid); /* exec keys (sandbox-more): credentials, IPC */
	if (!s->execenv.dirs[DIR_RUNTIME] || p == PRESERVE_YES ||
	    (p == PRESERVE_RESTART && restarting))
		return;
	aside.count = 0;
	for_each_dir(s, set_runtime_dir_aside, &aside);
	if (aside.count && fork() == 0) {
		for (size_t i = 0; i < aside.count; i++)
			exec_dirs_remove(dir_bases[DIR_RUNTIME], aside.paths[i]);
		_exit(0);
	}
}

void execenv_console_copy(const char *data, size_t len)
{
	if (!ee.console_tried) {
		ee.console_tried = true;
		ee.console_fd = open("/dev/console", O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	}
	if (ee.console_fd >= 0 && write(ee.console_fd, data, len) < 0)
		return; /* a full or gone console loses the copy, nothing else */
}
