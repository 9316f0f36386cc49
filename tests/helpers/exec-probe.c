/* exec-probe [--bind PORT]: print the execution context this process got, one
 * "key=value" per line, for tests/integration/test-exec-context-*.sh: ids, groups,
 * umask, limits, nice, oom_score_adj, cwd, environment, open fds above 2 and the capability and
 * no_new_privs lines of /proc/self/status. --bind tries a TCP bind to PORT on the
 * loopback address and prints bind=ok or bind=<error>. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io.h"

static void print_ids(void)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg, groups[256];
	int n = getgroups(256, groups);

	getresuid(&ru, &eu, &su);
	getresgid(&rg, &eg, &sg);
	printf("uid=%u,%u,%u\ngid=%u,%u,%u\ngroups=", ru, eu, su, rg, eg, sg);
	for (int i = 0; i < n; i++)
		printf("%s%u", i ? "," : "", groups[i]);
	printf("\n");
}

static void print_limit(const char *name, int resource)
{
	struct rlimit r;

	getrlimit(resource, &r);
	printf("%s=", name);
	if (r.rlim_cur == RLIM_INFINITY)
		printf("infinity:");
	else
		printf("%llu:", (unsigned long long)r.rlim_cur);
	if (r.rlim_max == RLIM_INFINITY)
		printf("infinity\n");
	else
		printf("%llu\n", (unsigned long long)r.rlim_max);
}

/* The Cap* and NoNewPrivs lines of /proc/self/status, as "CapEff=0000..." */
static void print_status(void)
{
	char buf[8192], *save = NULL;

	if (io_read_file("/proc/self/status", buf, sizeof buf) < 0)
		return;
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');
		if (!colon || (strncmp(line, "Cap", 3) != 0 && strncmp(line, "NoNewPrivs", 10) != 0))
			continue;
		*colon = '\0';
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		printf("%s=%s\n", line, colon);
	}
}

/* Descriptors above 2: the command must inherit none of the starter's. */
static void print_fds(void)
{
	printf("fds=");
	for (int fd = 3, first = 1; fd < 1024; fd++) {
		if (fcntl(fd, F_GETFD) < 0)
			continue;
		printf("%s%d", first ? "" : ",", fd);
		first = 0;
	}
	printf("\n");
}

static void try_bind(const char *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(port)) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) < 0)
		printf("bind=%s\n", strerror(errno));
	else
		printf("bind=ok\n");
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	extern char **environ;
	char cwd[PATH_MAX], oom[32] = "";
	mode_t mask = umask(0);

	umask(mask);
	print_ids();
	printf("umask=%04o\n", (unsigned)mask);
	print_limit("nofile", RLIMIT_NOFILE);
	print_limit("core", RLIMIT_CORE);
	errno = 0;
	printf("nice=%d\n", getpriority(PRIO_PROCESS, 0));
	io_read_file("/proc/self/oom_score_adj", oom, sizeof oom);
	printf("oom_score_adj=%s", oom);
	printf("cwd=%s\n", getcwd(cwd, sizeof cwd) ? cwd : strerror(errno));
	for (char **e = environ; *e; e++)
		printf("env=%s\n", *e);
	print_status();
	print_fds();
	if (argc == 3 && strcmp(argv[1], "--bind") == 0)
		try_bind(argv[2]);
	return 0;
}
