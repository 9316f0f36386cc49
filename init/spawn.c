#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec-context.h"
#include "escape.h"
#include "exec-line.h"
#include "io.h"
#include "journal-stream.h"
#include "locale.h"
#include "rlimits.h"
#include "log.h"
#include "parse.h"
#include "passwd.h"
#include "path-walk.h"
#include "dynamic-user.h"
#include "spawn-execenv.h"
#include "svc-cgroup.h"
#include "spawn-execmore.h" /* exec keys (sandbox-more) */
#include "svc-lifecycle.h"
#include "pages.h"
#include "sockets.h"
#include "svc-runtime.h" /* unit-runtime2 */
#include "utmp.h"

#define ENV_MAX 160
#define ENV_BUF_MAX 16384
#define ENVFILE_MAX 16384

/* Spawning happens one at a time on PID 1's thread: the scratch space is static. */
static struct {
	char buf[ENV_BUF_MAX];
	size_t used;
	const char *vars[ENV_MAX + 1];
	size_t count;
	struct exec_argv argv;
	char file[ENVFILE_MAX];
} scratch;

static const char *const base_env[] = {
	"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
};

/* UtmpIdentifier=: what the child records before exec (utmp_put_start), set in PID 1. */
static struct {
	const char *id; /* NULL: no record */
	const char *line;
	enum utmp_mode mode;
	char user[64];
} utmp_start;

/* Add NAME=value; a later assignment of the same NAME replaces the earlier one. */
static int env_add(void *ctx, const char *assignment)
{
	size_t len = strlen(assignment) + 1;
	size_t name_len = strcspn(assignment, "=");
	(void)ctx;

	if (scratch.used + len > sizeof scratch.buf)
		return -1;
	memcpy(scratch.buf + scratch.used, assignment, len);
	for (size_t i = 0; i < scratch.count; i++) {
		if (strncmp(scratch.vars[i], assignment, name_len + 1) == 0) {
			scratch.vars[i] = scratch.buf + scratch.used;
			scratch.used += len;
			return 0;
		}
	}
	if (scratch.count >= ENV_MAX)
		return -1;
	scratch.vars[scratch.count++] = scratch.buf + scratch.used;
	scratch.vars[scratch.count] = NULL;
	scratch.used += len;
	return 0;
}

static int add_env_file(struct unit *u, const struct service_envfile *f)
{
	const char *path = service_str(u->svc, f->path);
	char err[128];
	ssize_t n = io_read_file(path, scratch.file, sizeof scratch.file);

	if (n < 0) {
		if (f->optional)
			return 0;
		snprintf(u->error, sizeof u->error, "EnvironmentFile=%s: %s", path, strerror(errno));
		return -1;
	}
	if (service_envfile_parse(scratch.file, (size_t)n, env_add, NULL, err, sizeof err) < 0) {
		snprintf(u->error, sizeof u->error, "EnvironmentFile=%s: %s", path, err);
		return -1;
	}
	if (err[0]) {
		char shown[128];
		log_warn("%s: EnvironmentFile=%s: %s", u->svc->name,
			 escape_text(path, shown, sizeof shown), err);
	}
	return 0;
}

/* U4: sd_listen_fds()'s variables, after the unit's own so they win. LISTEN_PID gets a
 * placeholder the child overwrites with its pid (sockets_child_pass). */
#define LISTEN_PID_PLACEHOLDER "LISTEN_PID=0000000000"
static char *listen_pid_field;

static int add_listen_env(struct unit *u, const struct spawn_env *env)
{
	char line[32];

	listen_pid_field = NULL;
	if (!env->listen || env->listen->count == 0)
		return 0;
	snprintf(line, sizeof line, "LISTEN_FDS=%zu", env->listen->count);
	if (env_add(NULL, line) < 0 || env_add(NULL, env->listen->names) < 0 ||
	    env_add(NULL, LISTEN_PID_PLACEHOLDER) < 0) {
		snprintf(u->error, sizeof u->error, "LISTEN_FDS: too many variables");
		return -1;
	}
	if (env->listen->remote_addr[0] && /* sockets-accept: an Accept=yes IP connection */
	    (env_add(NULL, env->listen->remote_addr) < 0 ||
	     env_add(NULL, env->listen->remote_port) < 0)) {
		snprintf(u->error, sizeof u->error, "REMOTE_ADDR: too many variables");
		return -1;
	}
	for (size_t i = 0; i < scratch.count; i++)
		if (str_starts_with(scratch.vars[i], "LISTEN_PID="))
			listen_pid_field = (char *)scratch.vars[i] + strlen("LISTEN_PID=");
	return 0;
}

/* runtime keys (unit-runtime2): WATCHDOG_USEC= and WATCHDOG_PID= for the main process of
 * a service with WatchdogSec=; the child writes its pid over the placeholder. */
#define WATCHDOG_PID_PLACEHOLDER "WATCHDOG_PID=0000000000"
static char *watchdog_pid_field;

static int add_watchdog_env(struct unit *u)
{
	char line[48];

	watchdog_pid_field = NULL;
	if (!runtime_watchdog_env(u, line, sizeof line))
		return 0;
	if (env_add(NULL, line) < 0 || env_add(NULL, WATCHDOG_PID_PLACEHOLDER) < 0) {
		snprintf(u->error, sizeof u->error, "WATCHDOG_USEC: too many variables");
		return -1;
	}
	for (size_t i = 0; i < scratch.count; i++)
		if (str_starts_with(scratch.vars[i], "WATCHDOG_PID="))
			watchdog_pid_field = (char *)scratch.vars[i] + strlen("WATCHDOG_PID=");
	return 0;
}

/* systemd's $TERM for a service on a terminal (a tty on stdin or stdout, or TTYPath=):
 * PID 1's own for the console, "linux" for a virtual terminal, else "vt220" (a serial
 * line). Environment= may still say otherwise. */
static void add_term_env(const struct service *s)
{
	const char *tty = execenv_tty_path(s), *name, *term;
	char line[64];

	if (!execenv_tty_flags(s) && !s->execenv.tty_path)
		return;
	name = str_starts_with(tty, "/dev/") ? tty + 5 : tty;
	if (strcmp(name, "console") == 0)
		term = getenv("TERM") ? getenv("TERM") : "linux";
	else if (strncmp(name, "tty", 3) == 0 && name[3] >= '0' && name[3] <= '9' &&
		 strspn(name + 3, "0123456789") == strlen(name + 3))
		term = "linux";
	else
		term = "vt220";
	snprintf(line, sizeof line, "TERM=%s", term);
	env_add(NULL, line);
}

/* systemd's $SYSTEMD_EXEC_PID: the pid of the process that runs the command (programs
 * use it to tell whether they are the process their unit started). The child writes its
 * pid over the placeholder; Environment= and EnvironmentFile= may still set it. */
#define EXEC_PID_PLACEHOLDER "SYSTEMD_EXEC_PID=0000000000"
static char *exec_pid_field;

static void find_exec_pid_field(void)
{
	exec_pid_field = NULL;
	for (size_t i = 0; i < scratch.count; i++)
		if (strcmp(scratch.vars[i], EXEC_PID_PLACEHOLDER) == 0)
			exec_pid_field = (char *)scratch.vars[i] + strlen("SYSTEMD_EXEC_PID=");
}

/* The bus itself, dbus.service (dbus-broker is installed with that alias): as systemd,
 * it gets SYSTEMD_NSS_DYNAMIC_BYPASS=1, so that nss-systemd does not resolve users the
 * bus asks for by asking the service manager back over its own socket. */
static bool is_system_bus(const struct service *s)
{
	return strcmp(s->name, "dbus") == 0 ||
	       (s->also_named && strcmp(service_str(s, s->also_named), "dbus") == 0);
}

static bool fits(int n, size_t size)
{
	return n >= 0 && (size_t)n < size;
}

/* PassEnvironment=: the named variables of PID 1's own environment (what the kernel
 * passed it: TERM, and unknown NAME=VALUE boot options), where set. Environment= and
 * EnvironmentFile= come later and win, as in systemd. */
static int add_pass_env(struct unit *u)
{
	const char *list = service_str(u->svc, u->svc->execmore.pass_env);
	char name[256], line[512];

	while (*list) {
		size_t len = strcspn(list, " ");
		const char *value;

		if (len < sizeof name) {
			memcpy(name, list, len);
			name[len] = '\0';
			value = getenv(name);
			/* a boot option's value is short: a longer one is not passed */
			if (value && fits(snprintf(line, sizeof line, "%s=%s", name, value),
					  sizeof line) && env_add(NULL, line) < 0) {
				snprintf(u->error, sizeof u->error, "PassEnvironment=: too many variables");
				return -1;
			}
		}
		list += len + (list[len] == ' ');
	}
	return 0;
}

static int build_env(struct unit *u, const struct spawn_env *env)
{
	char line[512];
	const char *invocation;
	const struct service *s = u->svc;

	scratch.used = scratch.count = 0;
	scratch.vars[0] = NULL;
	for (size_t i = 0; i < sizeof base_env / sizeof *base_env; i++)
		env_add(NULL, base_env[i]);
	locale_env(env_add, NULL);
	env_add(NULL, EXEC_PID_PLACEHOLDER);
	add_term_env(s);
	if ((invocation = svc_invocation_id(u))) {
		snprintf(line, sizeof line, "INVOCATION_ID=%s", invocation);
		env_add(NULL, line);
	}
	if (is_system_bus(s))
		env_add(NULL, "SYSTEMD_NSS_DYNAMIC_BYPASS=1");
	if (env->notify_path && (s->type == SERVICE_NOTIFY || s->type == SERVICE_NOTIFY_RELOAD ||
				 runtime_wants_notify_socket(s))) { /* unit-runtime2 */
		snprintf(line, sizeof line, "NOTIFY_SOCKET=%s", env->notify_path);
		env_add(NULL, line);
	}
	/* U2: ExecReload=/bin/kill -HUP $MAINPID and friends, as in systemd. A main process
	 * that runs while we spawn means this is a control process. */
	if (u->main_pid > 0) {
		snprintf(line, sizeof line, "MAINPID=%d", (int)u->main_pid);
		env_add(NULL, line);
	}
	/* As systemd: where PIDFile= is set, the daemon may write it there itself. */
	if (s->pid_file) {
		snprintf(line, sizeof line, "PIDFILE=%s", service_str(s, s->pid_file));
		env_add(NULL, line);
	}
	/* U2: ExecStopPost= learns how the run ended, as in systemd. */
	if (u->phase == PHASE_STOP_POST) {
		snprintf(line, sizeof line, "SERVICE_RESULT=%s",
			 svc_result_name((enum svc_result)u->result));
		env_add(NULL, line);
		if (u->exit_status >= 0) {
			env_add(NULL, u->exit_signal ? "EXIT_CODE=killed" : "EXIT_CODE=exited");
			snprintf(line, sizeof line, "EXIT_STATUS=%d",
				 u->exit_signal ? u->exit_signal : u->exit_status);
			env_add(NULL, line);
		}
	}
	if (add_pass_env(u) < 0)
		return -1;
	/* As systemd: EnvironmentFile= is read after Environment=, so the files win. */
	for (unsigned i = 0; i < s->env_count; i++)
		if (env_add(NULL, service_str(s, s->env[i])) < 0) {
			snprintf(u->error, sizeof u->error, "Environment=: too many variables");
			return -1;
		}
	for (unsigned i = 0; i < s->envfile_count; i++)
		if (add_env_file(u, &s->envfile[i]) < 0)
			return -1;
	if (execenv_dir_env(s, env_add, NULL) < 0) { /* U5: RUNTIME_DIRECTORY= ... */
		snprintf(u->error, sizeof u->error, "*Directory=: environment too large");
		return -1;
	}
	if (add_watchdog_env(u) < 0) /* unit-runtime2 */
		return -1;
	/* exec keys (sandbox-more): $CREDENTIALS_DIRECTORY, then UnsetEnvironment= */
	if (execmore_env(s, env_add, NULL) < 0) {
		snprintf(u->error, sizeof u->error, "CREDENTIALS_DIRECTORY: environment too large");
		return -1;
	}
	execmore_unset_env(s, scratch.vars, &scratch.count);
	find_exec_pid_field();
	return add_listen_env(u, env);
}

static const char *env_value(const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < scratch.count; i++)
		if (strncmp(scratch.vars[i], name, len) == 0 && scratch.vars[i][len] == '=')
			return scratch.vars[i] + len + 1;
	return NULL;
}

/* The record's line is TTYPath= without "/dev/" (none without it), its user the
 * service's ($USER, root without User=), as systemd writes them. */
static void prepare_utmp(const struct service *s)
{
	const char *tty = s->execenv.tty_path ? service_str(s, s->execenv.tty_path) : NULL;
	const char *user = env_value("USER");

	utmp_start.id = s->execenv.utmp_id && utmp_supported()
			? service_str(s, s->execenv.utmp_id) : NULL;
	utmp_start.line = tty && str_starts_with(tty, "/dev/") ? tty + 5 : tty;
	utmp_start.mode = (enum utmp_mode)s->execenv.utmp_mode;
	snprintf(utmp_start.user, sizeof utmp_start.user, "%s", user ? user : "root");
}

void spawn_process_ended(const struct unit *u, pid_t pid, int status)
{
	const struct service *s = u->svc;
	int code = WIFEXITED(status) ? CLD_EXITED : WCOREDUMP(status) ? CLD_DUMPED : CLD_KILLED;

	if (!s || !s->execenv.utmp_id || !utmp_supported())
		return;
	if (utmp_put_dead(NULL, service_str(s, s->execenv.utmp_id), pid, code,
			  WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status)) < 0)
		log_warn("%s: utmp: %s: %s", u->svc->name, UTMP_PATH, strerror(errno));
}

/* Only PID 1's read end is non-blocking: a service writing faster than PID 1 reads
 * waits for room, as with any pipe, instead of failing with EAGAIN. */
static int output_pipe(int *read_fd, int *write_fd)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	if (fcntl(p[0], F_SETFL, O_NONBLOCK) < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	*read_fd = p[0];
	*write_fd = p[1];
	return 0;
}

int spawn_output_pipe(struct unit *u, int *write_fd)
{
	if (u->out_fd < 0 && output_pipe(&u->out_fd, &u->out_wfd) < 0)
		return -1;
	*write_fd = u->out_wfd;
	return 0;
}

/* stderr gets a pipe of its own when its lines must be told from stdout's: its lines go
 * to kmsg at their own priority, or stdout's go there and its must not. */
static bool error_pipe_needed(const struct service *s)
{
	return s->std_error.kind == OUTPUT_KMSG ||
	       (s->std_error.kind == OUTPUT_LOG && s->std_output.kind == OUTPUT_KMSG);
}

static int error_pipe(struct unit *u, int *write_fd)
{
	if (u->err_fd < 0 && output_pipe(&u->err_fd, &u->err_wfd) < 0)
		return -1;
	*write_fd = u->err_wfd;
	return 0;
}

/* ---- the execution context, resolved in PID 1 before the fork ---------------------- */

/* A login shell that is none ("this account does not log in"): systemd sets no $SHELL. */
static bool placeholder_shell(const char *shell)
{
	static const char *const none[] = { "/sbin/nologin", "/usr/sbin/nologin", "/bin/false",
					    "/usr/bin/false", "/bin/true", "/usr/bin/true" };

	for (size_t i = 0; i < sizeof none / sizeof *none; i++)
		if (strcmp(shell, none[i]) == 0)
			return true;
	return false;
}

/* As systemd, a service with User= (or DynamicUser=) learns who it runs as: $USER,
 * $LOGNAME, $HOME (not when it is "/", a dynamic user's), $SHELL (not when it is a
 * placeholder such as nologin). Environment= and EnvironmentFile= still win. */
static void identity_env(const char *user, const char *home, const char *shell)
{
	const char *const names[] = { "USER", "LOGNAME", "HOME", "SHELL" };
	const char *const values[] = { user, user, strcmp(home, "/") == 0 ? "" : home,
				       placeholder_shell(shell) ? "" : shell };
	char line[PASSWD_PATH_MAX + 16];

	for (size_t i = 0; i < 4; i++) {
		size_t len = strlen(names[i]);
		bool set = false;
		for (size_t k = 0; k < scratch.count && !set; k++)
			set = strncmp(scratch.vars[k], names[i], len) == 0 &&
			      scratch.vars[k][len] == '=';
		if (!set && *values[i]) {
			snprintf(line, sizeof line, "%s=%s", names[i], values[i]);
			env_add(NULL, line);
		}
	}
}

/* The ids and environment of a passwd entry (pw outlives the call: *home); its groups
 * come once Group= is applied (user_groups). */
static void use_passwd_entry(struct exec_context *c, const struct passwd_user *pw,
			     const char **home)
{
	c->uid = pw->uid;
	c->gid = pw->gid;
	*home = pw->home;
	identity_env(pw->name, pw->home, pw->shell);
}

/* As systemd's initgroups(user, gid) with the gid the service runs as (Group= applied):
 * the user's groups in /etc/group, and that gid. None for gid 0, which systemd does not
 * look up (User=root: only SupplementaryGroups=). */
static int user_groups(struct unit *u, struct exec_context *c, const char *name)
{
	c->group_count = 0;
	if (c->gid == 0)
		return 0;
	if (passwd_user_groups(NULL, name, c->gid, c->groups, EXEC_GROUPS_MAX,
			       &c->group_count) < 0) {
		snprintf(u->error, sizeof u->error, "User=%.64s: groups: %s", name,
			 strerror(errno));
		return -1;
	}
	return 0;
}

static struct passwd_user user_entry; /* *home points into it */

static int resolve_user(struct unit *u, struct exec_context *c, const char *user,
			const char **home)
{
	if (passwd_user_lookup(NULL, user, &user_entry) < 0) {
		snprintf(u->error, sizeof u->error, "User=%s: %s", user,
			 errno == ENOENT ? "no such user in /etc/passwd" : strerror(errno));
		return -1;
	}
	use_passwd_entry(c, &user_entry, home);
	return 1;
}

/* DynamicUser=: the ids other starting or running units hold, then the pick. */
static int pick_dynamic_id(struct unit *u, const char *name)
{
	static struct dynamic_held held[SERVICE_COUNT_MAX];
	static char names[SERVICE_COUNT_MAX][DYNAMIC_USER_NAME_MAX];
	size_t n = 0;
	uint32_t id;

	for (size_t i = 0; i < supervisor_count() && n < SERVICE_COUNT_MAX; i++) {
		const struct unit *v = supervisor_unit(i);
		if (v == u || !v->dynamic_uid || v->state < UNIT_STARTING ||
		    v->state > UNIT_STOPPING || dynamic_user_name(v->svc, names[n]) < 0)
			continue;
		held[n].name = names[n];
		held[n].uid = v->dynamic_uid;
		n++;
	}
	if (dynamic_user_pick(NULL, name, held, n, &id) < 0) {
		snprintf(u->error, sizeof u->error, "DynamicUser=: %s", errno == EUSERS
			 ? "no free user id in 61184..65519" : strerror(errno));
		return -1;
	}
	u->dynamic_uid = id;
	return 0;
}

/* A static user of that name wins (as systemd): 1; else a dynamic id and its own group
 * (its only one, as nss-systemd answers initgroups for it): 0. */
static int resolve_dynamic(struct unit *u, struct exec_context *c, const char **home)
{
	const struct service *s = u->svc;
	char name[DYNAMIC_USER_NAME_MAX];

	if (dynamic_user_name(s, name) < 0) {
		snprintf(u->error, sizeof u->error, "DynamicUser=: User=%s is not a valid user name",
			 service_str(s, s->user));
		return -1;
	}
	if (passwd_user_by_name(NULL, name, &user_entry) == 0) {
		use_passwd_entry(c, &user_entry, home);
		return 1;
	}
	if (errno != ENOENT) {
		snprintf(u->error, sizeof u->error, "DynamicUser=: /etc/passwd: %s", strerror(errno));
		return -1;
	}
	if (pick_dynamic_id(u, name) < 0)
		return -1;
	c->uid = c->gid = u->dynamic_uid;
	identity_env(name, "/", "/usr/sbin/nologin");
	return 0;
}

static int resolve_identity(struct unit *u, struct exec_context *c, const char **home)
{
	const struct service *s = u->svc;
	const char *user = service_str(s, s->user), *group = service_str(s, s->group);
	struct passwd_group gr;
	int from_passwd = 0;

	*home = "/";
	if (!*user && !*group && s->group_count == 0 && !s->execmore.dynamic_user)
		return 0;
	c->set_ids = true;
	c->uid = 0;
	c->gid = 0;
	c->group_count = 0;
	if (s->execmore.dynamic_user)
		from_passwd = resolve_dynamic(u, c, home);
	else if (*user)
		from_passwd = resolve_user(u, c, user, home);
	if (from_passwd < 0)
		return -1;
	if (*group) {
		if (passwd_group_lookup(NULL, group, &gr) == 0)
			c->gid = gr.gid;
		else if (!u->dynamic_uid || errno != ENOENT) { /* dynamic: its own group */
			snprintf(u->error, sizeof u->error, "Group=%s: no such group in /etc/group", group);
			return -1;
		}
	}
	if (from_passwd && user_groups(u, c, user_entry.name) < 0)
		return -1;
	if (!from_passwd && s->execmore.dynamic_user) {
		c->groups[0] = c->gid;
		c->group_count = 1;
	}
	for (unsigned i = 0; i < s->group_count && c->group_count < EXEC_GROUPS_MAX; i++) {
		const char *g = service_str(s, s->supplementary_group[i]);
		if (passwd_group_lookup(NULL, g, &gr) < 0) {
			snprintf(u->error, sizeof u->error, "SupplementaryGroups=%s: no such group", g);
			return -1;
		}
		c->groups[c->group_count++] = gr.gid;
	}
	return 0;
}

/* U5: StandardInput=/StandardOutput=socket use the socket the .socket unit passes
 * (sockets-accept: the connection of an Accept=yes instance, see sockets.c). */
static int stdio_socket_fd(const struct unit *u)
{
	return sockets_stdio_fd(u);
}

/* U5: standard input. A terminal is opened by the child (see open_output). */
static int open_input(const struct unit *u)
{
	const struct service *s = u->svc;

	switch (s->execenv.std_input) {
	case INPUT_FILE: /* in a directory the service's user may own: see path-walk.h */
		return path_walk_open_file(service_str(s, s->execenv.input_path), O_RDONLY, 0);
	case INPUT_SOCKET:
		return stdio_socket_fd(u);
	default:
		return open("/dev/null", O_RDONLY | O_CLOEXEC);
	}
}

static int open_output(const struct unit *u, const struct service_output_spec *o,
		       int pipe_fd, int console_fd)
{
	const struct service *s = u->svc;
	int flags = O_WRONLY | O_CREAT;

	switch (o->kind) {
	case OUTPUT_KMSG: /* PID 1 reads the pipe and forwards the lines */
	case OUTPUT_LOG: return fcntl(pipe_fd, F_DUPFD_CLOEXEC, 3);
	case OUTPUT_CONSOLE:
		return console_fd >= 0 ? fcntl(console_fd, F_DUPFD_CLOEXEC, 3)
				       : open("/dev/console", O_WRONLY | O_NOCTTY | O_CLOEXEC);
	case OUTPUT_NULL: return open("/dev/null", O_WRONLY | O_CLOEXEC);
	/* U5: a terminal is opened by the child (exec_tty_acquire), after setsid; stdout's
	 * "inherit" (a copy of stdin) is resolved by open_stdio. Until then: /dev/null. */
	case OUTPUT_TTY:
	case OUTPUT_INHERIT: return open("/dev/null", O_WRONLY | O_CLOEXEC);
	case OUTPUT_SOCKET: return stdio_socket_fd(u);
	case OUTPUT_APPEND: flags |= O_APPEND; break;
	case OUTPUT_TRUNCATE: flags |= O_TRUNC; break;
	default: break;
	}
	/* often in the service's LogsDirectory=, which its user owns: a link planted there
	 * (to /etc/passwd) must not get the service's output, nor a FIFO hang PID 1 */
	return path_walk_open_file(service_str(s, o->path), flags, 0644);
}

static void close_stdio(struct exec_context *c)
{
	int fds[3] = { c->stdin_fd, c->stdout_fd, c->stderr_fd };
	for (int i = 0; i < 3; i++)
		if (fds[i] >= 0 && (i == 0 || fds[i] != fds[i - 1]))
			close(fds[i]);
	c->stdin_fd = c->stdout_fd = c->stderr_fd = -1;
}

static bool output_is_file(const struct service_output_spec *o)
{
	return o->kind == OUTPUT_FILE || o->kind == OUTPUT_APPEND || o->kind == OUTPUT_TRUNCATE;
}

/* The first of the three that failed, when it is a file: its path (escaped, the unit's
 * text) goes into the message with errno, taken before anything else could change it. */
static void stdio_failed(struct unit *u, const struct exec_context *c, int err)
{
	const struct service *s = u->svc;
	const char *path = NULL;
	char shown[256];

	if (c->stdin_fd < 0 && s->execenv.std_input == INPUT_FILE)
		path = service_str(s, s->execenv.input_path);
	else if (c->stdout_fd < 0 && output_is_file(&s->std_output))
		path = service_str(s, s->std_output.path);
	else if (c->stderr_fd < 0 && output_is_file(&s->std_error))
		path = service_str(s, s->std_error.path);
	if (path)
		snprintf(u->error, sizeof u->error, "standard input/output/error %s: %s",
			 escape_text(path, shown, sizeof shown), strerror(err));
	else
		snprintf(u->error, sizeof u->error, "standard output/error: %s", strerror(err));
}

static int open_stdio(struct unit *u, struct exec_context *c, int pipe_fd, int console_fd)
{
	const struct service *s = u->svc;
	int err_pipe_fd = pipe_fd, err = 0;

	if (error_pipe_needed(s) && error_pipe(u, &err_pipe_fd) < 0) {
		snprintf(u->error, sizeof u->error, "stderr pipe: %s", strerror(errno));
		return -1;
	}
	c->stdin_fd = open_input(u);
	err = c->stdin_fd < 0 ? errno : 0;
	if (s->std_output.kind == OUTPUT_INHERIT && s->execenv.std_input == INPUT_SOCKET)
		c->stdout_fd = c->stdin_fd >= 0 ? fcntl(c->stdin_fd, F_DUPFD_CLOEXEC, 3) : -1;
	else
		c->stdout_fd = open_output(u, &s->std_output, pipe_fd, console_fd);
	err = err ? err : c->stdout_fd < 0 ? errno : 0;
	c->stderr_fd = s->std_error.kind == OUTPUT_INHERIT ? c->stdout_fd
		       : open_output(u, &s->std_error, err_pipe_fd, console_fd);
	err = err ? err : c->stderr_fd < 0 ? errno : 0;
	if (c->stdin_fd < 0 || c->stdout_fd < 0 || c->stderr_fd < 0) {
		stdio_failed(u, c, err);
		close_stdio(c);
		return -1;
	}
	return 0;
}

/* ---- U2: exec prefixes "+", "!", "!!" ---- */

static bool kernel_has_ambient_caps(void)
{
#ifdef PR_CAP_AMBIENT
	return prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, 0, 0, 0) >= 0;
#else
	return false;
#endif
}

/* "!" always, "!!" only where ambient capabilities are missing (systemd's rule: there the
 * line would otherwise lose the capabilities AmbientCapabilities= was meant to give). */
static bool skips_user_switch(unsigned flags)
{
	return (flags & (EXEC_PRIVILEGED | EXEC_NO_SETUID)) ||
	       ((flags & EXEC_NO_SETUID_AMBIENT) && !kernel_has_ambient_caps());
}

/* "+": none of the privilege restrictions (User=, capabilities, NoNewPrivileges=, and the
 * sandbox, which reads this same flag) apply to this one line. */
static void drop_restrictions(struct exec_context *c)
{
	c->no_new_privs = false;
	c->cap_ambient = 0;
	c->cap_bounding_set = false;
}

static void bare_identity(struct exec_context *c, const char **home)
{
	c->set_ids = false;
	c->group_count = 0;
	*home = "/root";
}

static bool is_executable(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* LimitNOFILE= unset: systemd's default (spawn.h), held to what PID 1 itself may give. */
static void default_nofile(struct exec_context *c)
{
	struct rlimit own;
	rlim_t hard = SPAWN_NOFILE_HARD;

	if ((c->rlimit_set & (1u << RLIMIT_NOFILE)) || getrlimit(RLIMIT_NOFILE, &own) < 0)
		return;
	if (own.rlim_max != RLIM_INFINITY && own.rlim_max < hard)
		hard = own.rlim_max;
	c->rlimit[RLIMIT_NOFILE].rlim_max = hard;
	c->rlimit[RLIMIT_NOFILE].rlim_cur = hard < SPAWN_NOFILE_SOFT ? hard : SPAWN_NOFILE_SOFT;
	c->rlimit_set |= 1u << RLIMIT_NOFILE;
}

/* PID 1 raised its own locked-memory limit (rlimits.h); a service gets the one PID 1
 * was started with unless LimitMEMLOCK= says otherwise, as systemd's services do. */
static void default_memlock(struct exec_context *c)
{
	if (!(c->rlimit_set & (1u << RLIMIT_MEMLOCK)) &&
	    rlimits_original(RLIMIT_MEMLOCK, &c->rlimit[RLIMIT_MEMLOCK]))
		c->rlimit_set |= 1u << RLIMIT_MEMLOCK;
}

static int build_context(struct unit *u, const struct spawn_env *env, int pipe_fd,
			 struct exec_context *c)
{
	const struct service *s = u->svc;
	const char *home, *dir = service_str(s, s->working_directory);
	unsigned flags = scratch.argv.flags;

	exec_context_init(c);
	/* As systemd: the unit's identity is resolved for every line (its directories and
	 * $USER, $HOME are the unit's); "+" and "!" lines then run as root. */
	if (resolve_identity(u, c, &home) < 0)
		return -1;
	c->dir_owner_set = true;
	c->dir_uid = c->set_ids ? c->uid : 0;
	c->dir_gid = c->set_ids ? c->gid : 0;
	if (skips_user_switch(flags))
		bare_identity(c, &home);
	c->rlimit_set = s->rlimit_set;
	memcpy(c->rlimit, s->rlimit, sizeof c->rlimit);
	default_nofile(c);
	default_memlock(c);
	c->umask_set = s->umask_set;
	c->umask = (mode_t)s->umask;
	c->nice_set = s->nice.set;
	c->nice = s->nice.value;
	c->oom_score_adj_set = s->oom_score_adjust.set;
	c->oom_score_adj = s->oom_score_adjust.value;
	c->no_new_privs = s->no_new_privileges;
	c->ignore_sigpipe = s->execenv.ignore_sigpipe;
	/* systemd: private for services, the manager's own for other units' commands */
	c->keyring = s->kind == UNIT_SERVICE ? s->execenv.keyring_mode : EXEC_KEYRING_INHERIT;
	c->workdir = strcmp(dir, "~") == 0 ? home : *dir ? dir : NULL;
	c->workdir_optional = s->working_directory_optional;
	c->envp = (char *const *)scratch.vars;
	c->cap_ambient = s->cap_ambient;
	c->cap_bounding_set = s->cap_bounding_set;
	c->cap_bounding = s->cap_bounding;
	c->caps_helper = env->caps_helper;
	c->signals_to_reset = env->caught_signals;
	/* U5: directories, terminal, sandbox */
	c->tty_flags = execenv_tty_flags(s);
	c->tty_path = c->tty_flags ? execenv_tty_path(s) : NULL;
	if (execenv_dirs(s, c, u->error, sizeof u->error) < 0 ||
	    execenv_sandbox(s, c, env->sandbox_helper, u->error, sizeof u->error) < 0 ||
	    execmore_context(s, c, u->error, sizeof u->error) < 0) /* exec keys (sandbox-more) */
		return -1;
	if (flags & EXEC_PRIVILEGED) { /* U2: "+": full privileges, no sandbox (U5) either */
		drop_restrictions(c);
		exec_context_full_privileges(c);
	}
	execenv_session(s, c, env->session_helper); /* PAMName= */
	prepare_utmp(s);
	return open_stdio(u, c, pipe_fd, env->console_fd);
}

/* U4, in the child: the socket fds onto 3.., out of the way of the fds the context
 * still needs. */
static int pass_listen_fds(const struct listen_pass *pass, struct exec_context *c,
			   struct exec_failure *fail)
{
	int *const moved[] = { &c->stdin_fd, &c->stdout_fd, &c->stderr_fd, &c->report_fd,
			       &c->workdir_fd };

	if (sockets_child_pass(pass, moved, sizeof moved / sizeof *moved, listen_pid_field) == 0)
		return 0;
	fail->step = EXEC_STEP_STDIO;
	fail->err = errno;
	fail->arg = 3;
	return -1;
}

/* journal: in the child, where journald can tell the unit from the sender's cgroup, and
 * before privileges drop (journald takes the unit's name from root's streams only).
 * stdout and stderr share one stream when both go to the journal, as under systemd; a
 * stream that cannot be had leaves the pipe to ember's log in place. */
static int journal_connect(const struct unit *u, const struct service_output_spec *o)
{
	const struct service *s = u->svc;
	const char *ident = service_str(s, s->syslog_identifier);
	const char *slash = strrchr(scratch.argv.path, '/');
	char unit[SERVICE_NAME_MAX + 16];
	struct journal_stream_header h = {
		.identifier = *ident ? ident : slash ? slash + 1 : scratch.argv.path,
		.unit = unit,
		.priority = s->syslog_priority,
		.level_prefix = s->syslog_level_prefix,
		.to_console = o->also_console,
	};

	/* services' canonical names have no suffix ("sshd"), journald wants "sshd.service" */
	snprintf(unit, sizeof unit, "%s%s", s->name, s->kind == UNIT_SERVICE ? ".service" : "");
	return journal_stream_connect(JOURNAL_STREAM_SOCKET, &h);
}

static void attach_journal(const struct unit *u, struct exec_context *c)
{
	const struct service *s = u->svc;
	bool out = s->std_output.kind == OUTPUT_LOG && s->std_output.journal;
	bool err = s->std_error.kind == OUTPUT_LOG && s->std_error.journal;
	bool shared = s->std_error.kind == OUTPUT_INHERIT ||
		      (out && err && s->std_error.also_console == s->std_output.also_console);
	int fd, stream = -1;
	char line[64];

	if (out && (fd = journal_connect(u, &s->std_output)) >= 0) {
		c->stdout_fd = stream = fd;
		if (shared)
			c->stderr_fd = fd;
	}
	if (err && !(out && shared) && (fd = journal_connect(u, &s->std_error)) >= 0)
		c->stderr_fd = stream = fd;
	if (stream >= 0 && journal_stream_env(stream, line, sizeof line) == 0)
		env_add(NULL, line); /* the child's copy of the table */
}

/* ---- back in PID 1 ---- */

pid_t spawn_command(struct unit *u, const char *line, const struct spawn_env *env, int *exec_fd)
{
	static struct exec_context ctx;
	struct exec_failure fail;
	int status[2], out_w = -1;
	pid_t pid;

	if (build_env(u, env) < 0)
		return -1;
	if (exec_line_split(line, scratch.vars, &scratch.argv) < 0) {
		snprintf(u->error, sizeof u->error, "command line: %s", scratch.argv.error);
		return -1;
	}
	if (exec_path_resolve(&scratch.argv, is_executable) < 0) {
		snprintf(u->error, sizeof u->error, "%s", scratch.argv.error);
		return -1;
	}
	/* Non-blocking at both ends: PID 1 polls the read end, and the child's one report
	 * fits an empty pipe. */
	if (spawn_output_pipe(u, &out_w) < 0 || pipe2(status, O_CLOEXEC | O_NONBLOCK) < 0) {
		int e = errno;
		snprintf(u->error, sizeof u->error, "pipe: %s", strerror(e));
		return e == ENFILE || e == ENOMEM ? SPAWN_NO_RESOURCES : -1;
	}
	if (build_context(u, env, out_w, &ctx) < 0) {
		close(status[0]);
		close(status[1]);
		return -1;
	}
	ctx.report_fd = status[1];
	snprintf(u->exec_path, sizeof u->exec_path, "%s", scratch.argv.path);
	pid = svc_cgroup_fork(u);
	if (pid == 0) {
		/* In the child: plain syscalls only (see svc_cgroup_fork). setsid first, so
		 * a stop can reach the whole session where there are no cgroups. */
		setsid();
		if (utmp_start.id) /* a failure costs the record only */
			utmp_put_start(NULL, utmp_start.id, getpid(), getpid(), utmp_start.line,
				       utmp_start.mode, utmp_start.user);
		attach_journal(u, &ctx); /* journal */
		if (exec_pid_field)
			sockets_write_pid(exec_pid_field, getpid());
		if (watchdog_pid_field) /* unit-runtime2 */
			sockets_write_pid(watchdog_pid_field, getpid());
		if (listen_pid_field && pass_listen_fds(env->listen, &ctx, &fail) < 0) {
			exec_failure_write(ctx.report_fd, &fail);
			_exit(127);
		}
		exec_context_exec(&ctx, scratch.argv.path, scratch.argv.argv, &fail);
		exec_failure_write(ctx.report_fd, &fail);
		_exit(127);
	}
	close_stdio(&ctx);
	close(status[1]);
	/* The child has its copy: the scratch goes back, or the pages a spawn with a long
	 * environment or EnvironmentFile= wrote stay resident for good. */
	pages_release(&scratch, sizeof scratch);
	if (pid < 0) {
		int e = errno;
		snprintf(u->error, sizeof u->error, "fork: %s", strerror(e));
		close(status[0]);
		/* A full process table or memory is not the service's fault (supervisor.c) */
		return e == EAGAIN || e == ENOMEM ? SPAWN_NO_RESOURCES : -1;
	}
	*exec_fd = status[0];
	return pid;
}

void spawn_describe_failure(const struct unit *u, const struct exec_failure *f, char *buf,
			    size_t size)
{
	struct exec_context c;
	const struct service *s = u->svc;

	char ignored[64];

	exec_context_init(&c);
	c.workdir = service_str(s, s->working_directory);
	c.tty_path = execenv_tty_path(s);            /* U5: named in terminal failures */
	execenv_dirs(s, &c, ignored, sizeof ignored); /* named in directory failures */
	exec_failure_format(f, &c, u->exec_path, buf, size);
}
