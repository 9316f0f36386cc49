/* stop-pid1-fork SECONDS: wait up to SECONDS for a child PID 1 forked without exec'ing
 * (same name as PID 1) that stays in PID 1's process group, stop it (SIGSTOP) and print
 * its pid; exit 1 when none came. That is the automount idle check's child (a service
 * calls setsid() first thing), which lives a few milliseconds: a shell loop over /proc
 * is too slow to catch it, and stopped it outlives whatever the test does next (a
 * re-execution of PID 1). */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* From /proc/PID/stat: "pid (comm) state ppid pgrp ...". 0 when unreadable. */
static int stat_of(const char *pid, char *comm, size_t size, int *ppid, int *pgrp)
{
	char path[64], buf[512], *open, *close;
	FILE *f;
	size_t n;

	snprintf(path, sizeof path, "/proc/%s/stat", pid);
	if (!(f = fopen(path, "r")))
		return 0;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	open = strchr(buf, '(');
	close = strrchr(buf, ')');
	if (!open || !close || close < open || (size_t)(close - open) > size)
		return 0;
	snprintf(comm, size, "%.*s", (int)(close - open - 1), open + 1);
	return sscanf(close + 1, " %*c %d %d", ppid, pgrp) == 2;
}

/* The first child of PID 1 with its name and group, 0 none. */
static int find_fork(const char *comm1, int pgrp1)
{
	char comm[64];
	int ppid, pgrp, found = 0;
	DIR *d = opendir("/proc");
	struct dirent *e;

	while (d && !found && (e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		if (stat_of(e->d_name, comm, sizeof comm, &ppid, &pgrp) && ppid == 1 &&
		    pgrp == pgrp1 && strcmp(comm, comm1) == 0)
			found = atoi(e->d_name);
	}
	if (d)
		closedir(d);
	return found;
}

int main(int argc, char **argv)
{
	char comm1[64];
	int ppid1, pgrp1, pid = 0;
	time_t end = time(NULL) + (argc > 1 ? atoi(argv[1]) : 10);

	if (!stat_of("1", comm1, sizeof comm1, &ppid1, &pgrp1))
		return 1;
	while (!(pid = find_fork(comm1, pgrp1)) && time(NULL) < end)
		;
	if (!pid || kill(pid, SIGSTOP) < 0)
		return 1;
	printf("%d\n", pid);
	return 0;
}
