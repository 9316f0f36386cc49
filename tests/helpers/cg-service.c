/* cg-service: drive ember's per-service cgroup library (cgroup/service.h) from shell
 * tests. Paths are directories of a cgroup2 mount; SVC is a service name (its cgroup
 * is SUBTREE/SVC.service).
 *   cg-service init ROOT NAME                 cg_subtree_init; prints enabled=, self=
 *   cg-service spawn clone|attach|auto SUBTREE SVC [--wait] CMD...
 *       start CMD in the service's cgroup; the child first prints the cgroup it is in
 *       (child-cgroup=, read before anything else), the parent prints pid= method=
 *   cg-service kill SUBTREE SVC SIGNUM [--procs]     cg_kill (or cg_kill_procs)
 *   cg-service wait-empty SUBTREE SVC [--kill|--kill-procs]
 *       arm a poll on cgroup.events, print "armed", SIGKILL the cgroup if asked (by
 *       cg_kill or the fallback), then poll until populated is 0
 *   cg-service populated|stats|remove SUBTREE SVC
 *   cg-service limits SUBTREE SVC MEMORY_MAX TASKS_MAX CPU_WEIGHT   ("-": unset)
 * Exit: 0 ok, 1 the operation failed, 2 unsupported by this kernel, 100 usage. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "parse.h"
#include "cg-service.h"

#define POLL_GUARD_MS 10000 /* a hang guard, not a timing assertion */

static int usage(void)
{
	fprintf(stderr, "usage: see tests/helpers/cg-service.c\n");
	return 100;
}

/* The "0::/path" line of /proc/self/cgroup with raw syscalls only: the child of a raw
 * clone3 may not use stdio (see cg_clone_into). */
/* One write(2): the parent's pid= line goes to the same pipe meanwhile, and two writes
 * let it land between the label and the path (a cold CI run saw that). */
static void print_cgroup(const char *label)
{
	char buf[4096], out[4200];
	int fd = open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
	char *line;
	int len;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		_exit(127);
	buf[n] = '\0';
	line = strstr(buf, "0::");
	if (!line)
		_exit(127);
	line += 3;
	len = snprintf(out, sizeof out, "%s%.*s\n", label, (int)strcspn(line, "\n"), line);
	if (len < 0 || (size_t)len >= sizeof out || write(1, out, (size_t)len) != len)
		_exit(127);
}

static int open_service(const char *subtree, const char *svc, int *fd)
{
	int sub = open(subtree, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int r;

	if (sub < 0) {
		fprintf(stderr, "cg-service: %s: %s\n", subtree, strerror(errno));
		return -1;
	}
	r = cg_service_open(sub, svc, fd, NULL);
	if (r < 0)
		fprintf(stderr, "cg-service: %s/%s.service: %s\n", subtree, svc, strerror(errno));
	close(sub);
	return r;
}

static void print_controllers(unsigned bits)
{
	const char *sep = "";

	printf("enabled=");
	for (unsigned bit = 1; bit & CG_CTRL_WANTED; bit <<= 1)
		if (bits & bit) {
			printf("%s%s", sep, cg_controller_name(bit));
			sep = ",";
		}
	printf("\n");
}

static int cmd_init(char **argv)
{
	unsigned enabled;
	int fd;

	if (cg_subtree_init(argv[0], argv[1], CG_CTRL_WANTED, &fd, &enabled) < 0) {
		fprintf(stderr, "cg-service: %s/%s: %s\n", argv[0], argv[1], strerror(errno));
		return 1;
	}
	print_controllers(enabled);
	fflush(stdout);
	print_cgroup("self=");
	close(fd);
	return 0;
}

/* Returns the child's pid, 0 in the child (now in the cgroup), -1 on failure with
 * *rc set: 2 when clone3 into a cgroup is unsupported and mode forbids the fallback. */
static pid_t start_child(const char *mode, int fd, const char **method, int *rc)
{
	pid_t pid = -1;

	*rc = 1;
	if (strcmp(mode, "attach") != 0) {
		*method = "clone3";
		pid = cg_clone_into(fd);
		if (pid >= 0 || !cg_clone_unsupported(errno))
			return pid;
		if (strcmp(mode, "clone") == 0) {
			*rc = 2;
			return -1;
		}
	}
	*method = "fork";
	pid = fork();
	if (pid == 0 && cg_attach_self(fd) < 0)
		_exit(126);
	return pid;
}

static int cmd_spawn(int argc, char **argv)
{
	const char *mode = argv[0], *method;
	bool wait_child = argc > 3 && strcmp(argv[3], "--wait") == 0;
	char **cmd = argv + (wait_child ? 4 : 3);
	int fd, rc, status;
	pid_t pid;

	if (!*cmd || open_service(argv[1], argv[2], &fd) < 0)
		return !*cmd ? usage() : 1;
	fflush(stdout);
	pid = start_child(mode, fd, &method, &rc);
	if (pid == 0) {
		print_cgroup("child-cgroup=");
		execvp(cmd[0], cmd);
		_exit(127);
	}
	if (pid < 0) {
		fprintf(stderr, "cg-service: %s into %s/%s.service: %s\n", mode, argv[1], argv[2],
			strerror(errno));
		return rc;
	}
	close(fd);
	printf("pid=%d method=%s\n", (int)pid, method);
	fflush(stdout);
	if (!wait_child)
		return 0;
	if (waitpid(pid, &status, 0) < 0)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int cmd_kill(int argc, char **argv)
{
	bool procs = argc > 3 && strcmp(argv[3], "--procs") == 0;
	long sig;
	int fd, r;

	if (parse_long(argv[2], 0, 64, &sig) < 0)
		return usage();
	if (open_service(argv[0], argv[1], &fd) < 0)
		return 1;
	r = procs ? cg_kill_procs(fd, (int)sig) : cg_kill(fd, (int)sig);
	if (r < 0)
		fprintf(stderr, "cg-service: kill %s: %s\n", argv[1], strerror(errno));
	close(fd);
	return r < 0;
}

/* Poll first, then read, until populated is 0: every change after the arming read
 * must show up as POLLPRI. Counts the wake-ups; -1 when poll timed out. */
static int wait_empty(int efd, unsigned *wakeups)
{
	struct pollfd p = { .fd = efd, .events = POLLPRI };
	int populated = 1;

	while (populated == 1) {
		int n = poll(&p, 1, POLL_GUARD_MS);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		if (p.revents & POLLPRI)
			++*wakeups;
		populated = cg_events_populated(efd);
	}
	return populated;
}

static int kill_as_asked(int fd, const char *how)
{
	if (!how)
		return 0;
	if (strcmp(how, "--kill") == 0)
		return cg_kill(fd, SIGKILL);
	if (strcmp(how, "--kill-procs") == 0)
		return cg_kill_procs(fd, SIGKILL);
	errno = EINVAL;
	return -1;
}

/* Arm a poll on cgroup.events while the cgroup is populated, say "armed", SIGKILL it
 * if asked (else someone else empties it), and wait for populated 0. */
static int cmd_wait_empty(int argc, char **argv)
{
	unsigned wakeups = 0;
	int fd, efd, after;

	if (open_service(argv[0], argv[1], &fd) < 0)
		return 1;
	efd = cg_events_open(fd);
	if (efd < 0 || cg_events_populated(efd) != 1) {
		fprintf(stderr, "cg-service: %s: not populated (%s)\n", argv[1], strerror(errno));
		return 1;
	}
	printf("armed\n");
	fflush(stdout);
	if (kill_as_asked(fd, argc > 2 ? argv[2] : NULL) < 0) {
		fprintf(stderr, "cg-service: kill %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	after = wait_empty(efd, &wakeups);
	printf("populated=%d wakeups=%u\n", after, wakeups);
	close(efd);
	close(fd);
	return after == 0 ? 0 : 1;
}

static int cmd_populated(char **argv)
{
	int fd, r;

	if (open_service(argv[0], argv[1], &fd) < 0)
		return 1;
	r = cg_populated(fd);
	close(fd);
	if (r < 0) {
		fprintf(stderr, "cg-service: %s: populated: %s\n", argv[1], strerror(errno));
		return 1;
	}
	printf("%d\n", r);
	return 0;
}

static void print_figure(const char *name, unsigned long long v)
{
	if (v == CG_UNSET)
		printf("%s=unset\n", name);
	else
		printf("%s=%llu\n", name, v);
}

static int cmd_stats(char **argv)
{
	struct cg_stats st;
	int fd;

	if (open_service(argv[0], argv[1], &fd) < 0)
		return 1;
	if (cg_read_stats(fd, true, &st) < 0) {
		fprintf(stderr, "cg-service: %s: stats: %s\n", argv[1], strerror(errno));
		return 1;
	}
	close(fd);
	print_figure("memory_current", st.memory_current);
	print_figure("memory_peak", st.memory_peak);
	print_figure("hugetlb_bytes", st.hugetlb_bytes);
	print_figure("pids_current", st.pids_current);
	print_figure("cpu_usage_usec", st.cpu_usage_usec);
	return 0;
}

static int parse_limit(const char *s, unsigned long long *v)
{
	if (strcmp(s, "-") == 0) {
		*v = CG_UNSET;
		return 0;
	}
	return parse_size(s, v);
}

static int cmd_limits(char **argv)
{
	struct cg_limits l;
	unsigned long long weight;
	char err[256] = "";
	int fd, r;

	cg_limits_init(&l);
	if (parse_limit(argv[2], &l.memory_max) < 0 || parse_limit(argv[3], &l.tasks_max) < 0 ||
	    parse_limit(argv[4], &weight) < 0)
		return usage();
	l.cpu_weight = weight == CG_UNSET ? 0 : (unsigned)weight;
	if (open_service(argv[0], argv[1], &fd) < 0)
		return 1;
	r = cg_apply_limits(fd, &l, err, sizeof err);
	close(fd);
	if (r < 0) {
		printf("error: %s\n", err);
		return 1;
	}
	return 0;
}

static int cmd_remove(char **argv)
{
	int sub = open(argv[0], O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (sub < 0 || cg_remove(sub, argv[1]) < 0) {
		fprintf(stderr, "cg-service: remove %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	close(sub);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	int n = argc - 2;
	char **args = argv + 2;

	if (strcmp(cmd, "init") == 0 && n == 2)
		return cmd_init(args);
	if (strcmp(cmd, "spawn") == 0 && n >= 4)
		return cmd_spawn(n, args);
	if (strcmp(cmd, "kill") == 0 && n >= 3)
		return cmd_kill(n, args);
	if (strcmp(cmd, "wait-empty") == 0 && n >= 2)
		return cmd_wait_empty(n, args);
	if (strcmp(cmd, "populated") == 0 && n == 2)
		return cmd_populated(args);
	if (strcmp(cmd, "stats") == 0 && n == 2)
		return cmd_stats(args);
	if (strcmp(cmd, "limits") == 0 && n == 5)
		return cmd_limits(args);
	if (strcmp(cmd, "remove") == 0 && n == 2)
		return cmd_remove(args);
	return usage();
}
