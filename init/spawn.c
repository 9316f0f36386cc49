#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exec-line.h"
#include "io.h"
#include "log.h"
#include "parse.h"
#include "svc-cgroup.h"

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
	"LANG=C.UTF-8",
};

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
	ssize_t n = read_file(path, scratch.file, sizeof scratch.file);

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
	return 0;
}

static int build_env(struct unit *u, const struct spawn_env *env)
{
	char line[512];
	const struct service *s = u->svc;

	scratch.used = scratch.count = 0;
	scratch.vars[0] = NULL;
	for (size_t i = 0; i < sizeof base_env / sizeof *base_env; i++)
		env_add(NULL, base_env[i]);
	if (env->notify_path && s->type == SERVICE_NOTIFY) {
		snprintf(line, sizeof line, "NOTIFY_SOCKET=%s", env->notify_path);
		env_add(NULL, line);
	}
	/* As systemd: EnvironmentFile= is read after Environment=, so the files win. */
	for (unsigned i = 0; i < s->env_count; i++)
		if (env_add(NULL, service_str(s, s->env[i])) < 0) {
			snprintf(u->error, sizeof u->error, "Environment=: too many variables");
			return -1;
		}
	for (unsigned i = 0; i < s->envfile_count; i++)
		if (add_env_file(u, &s->envfile[i]) < 0)
			return -1;
	return 0;
}

int spawn_output_pipe(struct unit *u, int *write_fd)
{
	int p[2];

	if (u->out_fd < 0) {
		if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0)
			return -1;
		u->out_fd = p[0];
		u->out_wfd = p[1];
	}
	*write_fd = u->out_wfd;
	return 0;
}

/* ---- in the child: only async-signal-safe calls from here on ---- */

static void child_fail(int status_fd, const char *step, const char *object)
{
	char msg[256];
	int e = errno;
	int n = snprintf(msg, sizeof msg, "%s %s: %s", step, object, strerror(e));
	if (n > 0)
		write_all(status_fd, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
	_exit(127);
}

static int open_output(const struct service *s, const struct service_output_spec *o,
		       int pipe_fd, int console_fd)
{
	int flags = O_WRONLY | O_CREAT | O_NOCTTY;

	switch (o->kind) {
	case OUTPUT_LOG: return pipe_fd;
	case OUTPUT_CONSOLE: return console_fd >= 0 ? console_fd : open("/dev/console", O_WRONLY | O_NOCTTY);
	case OUTPUT_NULL: return open("/dev/null", O_WRONLY);
	case OUTPUT_APPEND: flags |= O_APPEND; break;
	case OUTPUT_TRUNCATE: flags |= O_TRUNC; break;
	default: break;
	}
	return open(service_str(s, o->path), flags, 0644);
}

static void child_stdio(const struct service *s, int pipe_fd, int console_fd, int status_fd)
{
	int in = open("/dev/null", O_RDONLY);
	int out = open_output(s, &s->std_output, pipe_fd, console_fd);
	int err = s->std_error.kind == OUTPUT_INHERIT ? out
		: open_output(s, &s->std_error, pipe_fd, console_fd);

	if (in < 0 || out < 0 || err < 0)
		child_fail(status_fd, "open", "standard output/error");
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		child_fail(status_fd, "dup2", "stdio");
}

static void child_reset_signals(void)
{
	sigset_t none;
	struct sigaction dfl;

	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	for (int sig = 1; sig < NSIG; sig++)
		sigaction(sig, &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static void child_run(struct unit *u, const struct spawn_env *env, int pipe_fd, int status_fd)
{
	const struct service *s = u->svc;
	const char *dir = service_str(s, s->working_directory);

	child_reset_signals();
	setsid();
	child_stdio(s, pipe_fd, env->console_fd, status_fd);
	if (s->umask_set)
		umask((mode_t)s->umask);
	if (*dir && strcmp(dir, "~") != 0 && chdir(dir) < 0 && !s->working_directory_optional)
		child_fail(status_fd, "chdir", dir);
	execve(scratch.argv.path, scratch.argv.argv, (char *const *)scratch.vars);
	child_fail(status_fd, "execve", scratch.argv.path);
}

/* ---- back in PID 1 ---- */

pid_t spawn_command(struct unit *u, const char *line, const struct spawn_env *env, int *exec_fd)
{
	int status[2], out_w = -1;
	pid_t pid;

	if (build_env(u, env) < 0)
		return -1;
	if (exec_line_split(line, scratch.vars, &scratch.argv) < 0) {
		snprintf(u->error, sizeof u->error, "command line: %s", scratch.argv.error);
		return -1;
	}
	if (spawn_output_pipe(u, &out_w) < 0 || pipe2(status, O_CLOEXEC) < 0) {
		snprintf(u->error, sizeof u->error, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = svc_cgroup_fork(u);
	if (pid < 0) {
		snprintf(u->error, sizeof u->error, "fork: %s", strerror(errno));
		close(status[0]);
		close(status[1]);
		return -1;
	}
	if (pid == 0) {
		close(status[0]);
		child_run(u, env, out_w, status[1]);
	}
	close(status[1]);
	fcntl(status[0], F_SETFL, O_NONBLOCK);
	*exec_fd = status[0];
	return pid;
}
