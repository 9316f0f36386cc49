// sources: lib/systemd-view.c lib/log.c lib/escape.c
/* The view ember-session gives systemd's per-user manager (lib/systemd-view.c): in a
 * mount namespace of its own, the run directory has system/ (sd_booted()) and every real
 * entry bound in, live both ways; outside, nothing changes, even where the mount holding
 * the directory is shared (as systemd and container hosts make /). Each case runs in a
 * child that first cuts itself off from the host (its own namespace, / a slave), builds
 * a shared tmpfs as the stand-in host there, and forks the "user manager". */
#include "harness.h"
#include "systemd-view.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static char top[] = "/tmp/ember-user-manager-XXXXXX";
static char run[128]; /* top/run/systemd: the stand-in for /run/systemd */

static void put(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", run, rel);
	if ((f = fopen(path, "w"))) {
		fputs(text, f);
		fclose(f);
	}
}

static int listen_at(const char *rel)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (snprintf(sa.sun_path, sizeof sa.sun_path, "%s/%s", run, rel) >= (int)sizeof sa.sun_path)
		return -1;
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(fd, 4) < 0)
		return -1;
	return fd;
}

static bool connects(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool ok;

	if (snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path) >= (int)sizeof sa.sun_path) {
		close(fd);
		return false;
	}
	ok = fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
	if (fd >= 0)
		close(fd);
	return ok;
}

static bool is_dir(const char *rel)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof path, "%s/%s", run, rel);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool has_text(const char *rel, const char *text)
{
	char path[256], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", run, rel);
	if (!(f = fopen(path, "r")))
		return false;
	if (!fgets(buf, sizeof buf, f))
		buf[0] = '\0';
	fclose(f);
	return strcmp(buf, text) == 0;
}

/* Is anything mounted at or below dir, as this process sees it? */
static bool mounted_below(const char *dir)
{
	char line[1024], mp[512];
	size_t n = strlen(dir);
	bool found = false;
	FILE *f = fopen("/proc/self/mountinfo", "r");

	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "%*s %*s %*s %*s %511s", mp) == 1 && strncmp(mp, dir, n) == 0)
			found = true;
	if (f)
		fclose(f);
	return found;
}

static int wait_child(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* The stand-in host: this process's own namespace, the real host's mounts slaves (so
 * nothing made here reaches it), top a shared tmpfs, run the directory with a journal
 * directory with a socket, a socket, a file and a link in it. */
static int make_host(void)
{
	char dir[160];

	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) < 0 ||
	    mount("tmpfs", top, "tmpfs", 0, "mode=0755") < 0 ||
	    mount(NULL, top, NULL, MS_SHARED, NULL) < 0)
		return -1;
	snprintf(dir, sizeof dir, "%s/run", top);
	mkdir(dir, 0755);
	mkdir(run, 0755);
	snprintf(dir, sizeof dir, "%s/journal", run);
	mkdir(dir, 0755);
	put("journal/flushed", "yes");
	put("notify", "file");
	if (symlinkat("journal", AT_FDCWD, strcat(strcpy(dir, run), "/link")) < 0)
		return -1;
	return listen_at("journal/socket") < 0 || listen_at("private") < 0 ? -1 : 0;
}

/* The user manager's side: what it sees, and a file it writes into the real directory. */
static int manager_side(void)
{
	char path[256], target[64] = "";

	harness_case_failed = 0;
	CHECK(systemd_view(run) == 0);
	CHECK(is_dir("system"));
	CHECK(has_text("journal/flushed", "yes"));
	CHECK(has_text("notify", "file"));
	snprintf(path, sizeof path, "%s/link", run);
	CHECK(readlink(path, target, sizeof target - 1) == 7 && strcmp(target, "journal") == 0);
	snprintf(path, sizeof path, "%s/journal/socket", run);
	CHECK(connects(path));
	snprintf(path, sizeof path, "%s/private", run); /* a socket at the top: bound itself */
	CHECK(connects(path));
	put("journal/from-manager", "written");
	put("notify", "rewritten");
	/* as large as the real file system: systemctl --user daemon-reload wants 16 MiB free */
	struct statvfs view, real;
	CHECK(statvfs(run, &view) == 0 && statvfs(top, &real) == 0);
	CHECK(view.f_blocks * view.f_frsize == real.f_blocks * real.f_frsize);
	CHECK((unsigned long long)view.f_bavail * view.f_frsize >= 16ULL << 20);
	fflush(stdout);
	return harness_case_failed;
}

static void host_side(void)
{
	pid_t pid;

	if (make_host() < 0) {
		printf("  stand-in host: %s\n", strerror(errno));
		exit(1);
	}
	harness_case_failed = 0;
	if ((pid = fork()) == 0)
		exit(manager_side());
	CHECK(wait_child(pid) == 0);
	/* outside: no system/, no mount leaked back through the shared tmpfs; what the
	 * manager wrote is the host's own */
	CHECK(!is_dir("system"));
	CHECK(!mounted_below(run));
	CHECK(has_text("journal/from-manager", "written"));
	CHECK(has_text("notify", "rewritten"));
	fflush(stdout);
	exit(harness_case_failed);
}

static void view_has_system_and_leaks_nothing(void)
{
	pid_t pid = fork();

	if (pid == 0)
		host_side();
	CHECK(wait_child(pid) == 0);
}

/* A directory that has system/ already (systemd is PID 1) is left as it is. */
static void existing_system_left_alone(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		char path[256];
		harness_case_failed = 0;
		if (make_host() < 0)
			exit(1);
		snprintf(path, sizeof path, "%s/system", run);
		mkdir(path, 0755);
		CHECK(systemd_view(run) == 0);
		CHECK(!mounted_below(run));
		fflush(stdout);
		exit(harness_case_failed);
	}
	CHECK(wait_child(pid) == 0);
}

/* The mount a path lies on: the longest mount point above it, whole components only. */
static void mount_of_finds_the_nearest(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		char mp[256], path[256];
		harness_case_failed = 0;
		if (make_host() < 0)
			exit(1);
		CHECK(systemd_view_mount_of(run, mp, sizeof mp) == 0);
		CHECK_STR(mp, top);
		CHECK(systemd_view_mount_of(top, mp, sizeof mp) == 0);
		CHECK_STR(mp, top);
		snprintf(path, sizeof path, "%sx/run", top); /* top is a prefix, not a parent */
		CHECK(systemd_view_mount_of(path, mp, sizeof mp) == 0);
		CHECK(strcmp(mp, top) != 0);
		fflush(stdout);
		exit(harness_case_failed);
	}
	CHECK(wait_child(pid) == 0);
}

int main(void)
{
	if (geteuid() != 0) {
		printf("SKIP user-manager: needs root (mount namespaces)\n");
		return 0;
	}
	if (!mkdtemp(top))
		return 1;
	snprintf(run, sizeof run, "%s/run/systemd", top);
	RUN(view_has_system_and_leaks_nothing);
	RUN(existing_system_left_alone);
	RUN(mount_of_finds_the_nearest);
	rmdir(top);
	return harness_done();
}
