/* exec-run [OPTION...] -- PATH ARGV0 [ARG...]: fork and start PATH through
 * exec_context_exec(), the way ember-init starts a service, for tests/integration.
 * Prints "exec-run: <step>: <reason>" and exits 3 when the child reports a failure
 * (nothing ran); otherwise exits with the command's status. Options fill the context:
 *   --root DIR  --user NAME|UID  --uid N --gid N --groups N,N  --rlimit RES=SOFT:HARD
 *   --umask OCTAL  --nice N  --oom N  --nnp  --chdir DIR  --chdir-fd DIR
 *   --chdir-optional  --env NAME=VALUE (repeatable: replaces the environment)
 *   --stdout FILE  --ambient MASK  --bounding MASK  --caps-helper PATH */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec-context.h"
#include "parse.h"
#include "passwd.h"

#define ENV_MAX 32

static const struct { const char *name; int resource; } rlimits[] = {
	{ "NOFILE", RLIMIT_NOFILE }, { "CORE", RLIMIT_CORE }, { "NPROC", RLIMIT_NPROC },
	{ "STACK", RLIMIT_STACK }, { "MEMLOCK", RLIMIT_MEMLOCK },
};

static int sys_failed(const char *what)
{
	perror(what);
	return 111;
}

static void bad(const char *opt, const char *value)
{
	fprintf(stderr, "exec-run: %s: %s: invalid\n", opt, value);
	exit(100);
}

static void add_rlimit(struct exec_context *c, char *spec)
{
	char *eq = strchr(spec, '='), *colon = eq ? strchr(eq, ':') : NULL;
	unsigned long long soft, hard;

	if (!eq || !colon)
		bad("--rlimit", spec);
	*eq = *colon = '\0';
	if (parse_size(eq + 1, &soft) < 0 || parse_size(colon + 1, &hard) < 0)
		bad("--rlimit", spec);
	for (size_t i = 0; i < sizeof rlimits / sizeof *rlimits; i++) {
		if (strcmp(spec, rlimits[i].name) == 0) {
			int r = rlimits[i].resource;
			c->rlimit_set |= 1u << r;
			c->rlimit[r].rlim_cur = soft == ~0ULL ? RLIM_INFINITY : soft;
			c->rlimit[r].rlim_max = hard == ~0ULL ? RLIM_INFINITY : hard;
			return;
		}
	}
	bad("--rlimit", spec);
}

static void resolve_user(struct exec_context *c, const char *root, const char *user)
{
	struct passwd_user u;

	if (passwd_user_lookup(root, user, &u) < 0) {
		fprintf(stderr, "exec-run: user %s: %s\n", user,
			errno == ENOENT ? "not found" : strerror(errno));
		exit(2);
	}
	c->set_ids = true;
	c->uid = u.uid;
	c->gid = u.gid;
	if (passwd_user_groups(root, u.name, u.gid, c->groups, EXEC_GROUPS_MAX,
			       &c->group_count) < 0) {
		fprintf(stderr, "exec-run: groups of %s: %s\n", user, strerror(errno));
		exit(2);
	}
}

static void parse_groups(struct exec_context *c, const char *s)
{
	char copy[1024], *save = NULL;

	if (strlen(s) >= sizeof copy)
		bad("--groups", s);
	strcpy(copy, s);
	c->group_count = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		uint32_t id;
		if (passwd_parse_id(t, &id) < 0 || c->group_count == EXEC_GROUPS_MAX)
			bad("--groups", s);
		c->groups[c->group_count++] = id;
	}
}

static uint64_t parse_mask(const char *opt, const char *s)
{
	uint64_t m;
	char item[64];

	if (exec_caps_parse(s, &m, item, sizeof item) < 0)
		bad(opt, item);
	return m;
}

static long number(const char *opt, const char *s, long min, long max)
{
	long v;
	if (parse_long(s, min, max, &v) < 0)
		bad(opt, s);
	return v;
}

/* Fork, exec through the context, and relay the outcome. */
static int run(struct exec_context *c, char *path, char **argv)
{
	struct exec_failure f;
	int pipefd[2], status, got;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return sys_failed("pipe2");
	c->report_fd = pipefd[1];
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return sys_failed("fork");
	if (pid == 0) {
		close(pipefd[0]);
		exec_context_exec(c, path, argv, &f);
		exec_failure_write(pipefd[1], &f);
		_exit(111);
	}
	close(pipefd[1]);
	got = exec_failure_read(pipefd[0], &f);
	if (waitpid(pid, &status, 0) < 0)
		return sys_failed("waitpid");
	if (got < 0)
		return sys_failed("exec-run: reading the report");
	if (got == 1) {
		char msg[768];
		exec_failure_format(&f, c, path, msg, sizeof msg);
		fprintf(stderr, "exec-run: %s\n", msg);
		return 3;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "root", 1, 0, 'R' }, { "user", 1, 0, 'U' }, { "uid", 1, 0, 'u' },
		{ "gid", 1, 0, 'g' }, { "groups", 1, 0, 'G' }, { "rlimit", 1, 0, 'l' },
		{ "umask", 1, 0, 'm' }, { "nice", 1, 0, 'n' }, { "oom", 1, 0, 'o' },
		{ "nnp", 0, 0, 'N' }, { "chdir", 1, 0, 'd' }, { "chdir-fd", 1, 0, 'D' },
		{ "chdir-optional", 0, 0, 'O' }, { "env", 1, 0, 'e' }, { "stdout", 1, 0, 's' },
		{ "ambient", 1, 0, 'a' }, { "bounding", 1, 0, 'b' }, { "caps-helper", 1, 0, 'H' },
		{ 0, 0, 0, 0 },
	};
	static char *env[ENV_MAX + 1];
	struct exec_context c;
	const char *root = NULL, *user = NULL;
	size_t envc = 0;
	uint32_t id;
	int opt;

	exec_context_init(&c);
	while ((opt = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (opt) {
		case 'R': root = optarg; break;
		case 'U': user = optarg; break;
		case 'u':
			if (passwd_parse_id(optarg, &id) < 0)
				bad("--uid", optarg);
			c.set_ids = true;
			c.uid = id;
			break;
		case 'g':
			if (passwd_parse_id(optarg, &id) < 0)
				bad("--gid", optarg);
			c.set_ids = true;
			c.gid = id;
			break;
		case 'G': parse_groups(&c, optarg); break;
		case 'l': add_rlimit(&c, optarg); break;
		case 'm':
			c.umask_set = true;
			c.umask = (mode_t)strtoul(optarg, NULL, 8);
			break;
		case 'n': c.nice_set = true; c.nice = (int)number("--nice", optarg, -20, 19); break;
		case 'o':
			c.oom_score_adj_set = true;
			c.oom_score_adj = (int)number("--oom", optarg, -1000, 1000);
			break;
		case 'N': c.no_new_privs = true; break;
		case 'd': c.workdir = optarg; break;
		case 'D':
			c.workdir_fd = open(optarg, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (c.workdir_fd < 0)
				return sys_failed(optarg);
			break;
		case 'O': c.workdir_optional = true; break;
		case 'e':
			if (envc == ENV_MAX)
				bad("--env", optarg);
			env[envc++] = optarg;
			c.envp = env;
			break;
		case 's':
			c.stdout_fd = open(optarg, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
			if (c.stdout_fd < 0)
				return sys_failed(optarg);
			break;
		case 'a': c.cap_ambient = parse_mask("--ambient", optarg); break;
		case 'b':
			c.cap_bounding_set = true;
			c.cap_bounding = parse_mask("--bounding", optarg);
			break;
		case 'H': c.caps_helper = optarg; break;
		default: return 100;
		}
	}
	if (user)
		resolve_user(&c, root, user);
	if (argc - optind < 2) {
		fprintf(stderr, "usage: exec-run [OPTION...] -- PATH ARGV0 [ARG...]\n");
		return 100;
	}
	return run(&c, argv[optind], argv + optind + 1);
}
