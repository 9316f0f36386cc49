// sources:
/* cgroup/service.h's actors on a plain directory dressed up as a cgroup: what they
 * write, which errors they report, and what they refuse to do with hostile files. The
 * real cgroupfs is exercised by tests/integration/test-cgroup-service-host.sh. */
#include "harness.h"
#include "cg-service.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io.h"

static char dir[] = "/tmp/ember-cg-unit-XXXXXX";

static int dirfd_open(void)
{
	return open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static void put(int fd, const char *file, const char *text)
{
	int f = openat(fd, file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	CHECK(f >= 0 && io_write_all(f, text, strlen(text)) == 0);
	if (f >= 0)
		close(f);
}

static const char *get(int fd, const char *file)
{
	static char buf[256];
	if (io_read_file_at(fd, file, buf, sizeof buf) < 0)
		return "(missing)";
	return buf;
}

/* A fresh fake cgroup: <dir>/NAME. */
static int fake_cgroup(const char *name)
{
	int top = dirfd_open(), fd;
	mkdirat(top, name, 0755);
	fd = openat(top, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	close(top);
	return fd;
}

static void limits_written_as_the_kernel_reads_them(void)
{
	int fd = fake_cgroup("limits");
	struct cg_limits l;
	char err[128] = "";
	static const char *const files[] = { "memory.max", "memory.high", "pids.max",
					     "cpu.weight", "io.weight" };

	for (size_t i = 0; i < 5; i++)
		put(fd, files[i], "");
	cg_limits_init(&l);
	l.memory_max = 64ULL << 20;
	l.memory_high = 0;
	l.tasks_max = 12;
	l.cpu_weight = 1;
	l.io_weight = 10000;
	CHECK(cg_apply_limits(fd, &l, err, sizeof err) == 0);
	CHECK_STR(err, "");
	CHECK_STR(get(fd, "memory.max"), "67108864");
	CHECK_STR(get(fd, "memory.high"), "0");
	CHECK_STR(get(fd, "pids.max"), "12");
	CHECK_STR(get(fd, "cpu.weight"), "1");
	CHECK_STR(get(fd, "io.weight"), "10000");
	close(fd);
}

/* memory.min and memory.low (MemoryMin=, MemoryLow=): their default is 0, not "max";
 * infinity is "max". Unset, a missing file is fine (no memory controller). */
static void protection_written_as_the_kernel_reads_it(void)
{
	int fd = fake_cgroup("protection");
	struct cg_limits l;
	char err[128] = "";

	put(fd, "memory.min", "");
	put(fd, "memory.low", "");
	cg_limits_init(&l);
	l.memory_min = 64ULL << 20;
	l.memory_low = CG_UNSET;
	CHECK(cg_apply_limits(fd, &l, err, sizeof err) == 0);
	CHECK_STR(err, "");
	CHECK_STR(get(fd, "memory.min"), "67108864");
	CHECK_STR(get(fd, "memory.low"), "max");
	put(fd, "memory.min", ""); /* a plain file is not truncated by a write, cgroupfs is */
	put(fd, "memory.low", "");
	cg_limits_init(&l);
	CHECK(cg_apply_limits(fd, &l, err, sizeof err) == 0);
	CHECK_STR(get(fd, "memory.min"), "0");
	CHECK_STR(get(fd, "memory.low"), "0");
	close(fd);
	fd = fake_cgroup("protection-nomemory");
	CHECK(cg_apply_limits(fd, &l, err, sizeof err) == 0);
	l.memory_low = 1;
	CHECK(cg_apply_limits(fd, &l, err, sizeof err) == -1);
	CHECK_STR(err, "memory.low: no such file: the memory controller is not enabled for this cgroup");
	close(fd);
}

/* memory.swap.max (MemorySwapMax=): bytes, or "max" when unset; missing (the kernel does
 * not account swap) it is left alone, set or not, as systemd leaves it. */
static void swap_limit_written_where_accounted(void)
{
	int fd = fake_cgroup("swap");
	struct cg_limits l;
	char err[128] = "";

	put(fd, "memory.swap.max", "");
	cg_limits_init(&l);
	l.memory_swap_max = 16ULL << 20;
	CHECK(cg_apply_limits(fd, &l, err, sizeof err) == 0);
	CHECK_STR(get(fd, "memory.swap.max"), "16777216");
	put(fd, "memory.swap.max", "");
	cg_limits_init(&l);
	CHECK(cg_apply_limits(fd, &l, err, sizeof err) == 0);
	CHECK_STR(get(fd, "memory.swap.max"), "max");
	close(fd);
	fd = fake_cgroup("swap-unaccounted");
	l.memory_swap_max = 1;
	CHECK(cg_apply_limits(fd, &l, err, sizeof err) == 0);
	CHECK_STR(err, "");
	close(fd);
}

static void unset_limits_reset_to_defaults(void)
{
	int fd = fake_cgroup("defaults");
	struct cg_limits l;
	char err[128] = "";

	put(fd, "memory.max", "");
	put(fd, "cpu.weight", "");
	cg_limits_init(&l);
	/* memory.high, pids.max, io.weight are missing: unset limits do not need them. */
	CHECK(cg_apply_limits(fd, &l, err, sizeof err) == 0);
	CHECK_STR(get(fd, "memory.max"), "max");
	CHECK_STR(get(fd, "cpu.weight"), "100");
	close(fd);
}

static void missing_controller_file_names_it(void)
{
	int fd = fake_cgroup("nocontrollers");
	struct cg_limits l;
	char err[160] = "";

	cg_limits_init(&l);
	l.tasks_max = 5;
	errno = 0;
	CHECK(cg_apply_limits(fd, &l, err, sizeof err) == -1 && errno == ENOENT);
	CHECK_STR(err, "pids.max: no such file: the pids controller is not enabled for this cgroup");
	l.memory_max = 1;
	l.cpu_weight = 50;
	CHECK(cg_apply_limits(fd, &l, err, sizeof err) == -1);
	CHECK_STR(err, "memory.max: no such file: the memory controller is not enabled for this "
		       "cgroup (and 2 more)");
	/* A too small buffer truncates, never overflows; NULL is allowed. */
	CHECK(cg_apply_limits(fd, &l, err, 8) == -1 && strlen(err) == 7);
	CHECK(cg_apply_limits(fd, &l, NULL, 0) == -1);
	close(fd);
}

static void bad_weight_changes_nothing(void)
{
	int fd = fake_cgroup("badweight");
	struct cg_limits l;
	char err[128] = "";

	put(fd, "memory.max", "untouched");
	cg_limits_init(&l);
	l.memory_max = 4096;
	l.io_weight = 10001;
	errno = 0;
	CHECK(cg_apply_limits(fd, &l, err, sizeof err) == -1 && errno == EINVAL);
	CHECK_STR(err, "io.weight: 10001 is out of range 1..10000");
	CHECK_STR(get(fd, "memory.max"), "untouched");
	close(fd);
}

static void populated_from_events(void)
{
	int fd = fake_cgroup("events");

	errno = 0;
	CHECK(cg_populated(fd) == -1 && errno == ENOENT);
	put(fd, "cgroup.events", "populated 1\nfrozen 0\n");
	CHECK(cg_populated(fd) == 1);
	put(fd, "cgroup.events", "populated 0\nfrozen 1\n");
	CHECK(cg_populated(fd) == 0);
	put(fd, "cgroup.events", "frozen 1\n");
	CHECK(cg_populated(fd) == -1 && errno == EBADMSG);
	put(fd, "cgroup.events", "populated 2\n");
	CHECK(cg_populated(fd) == -1 && errno == EBADMSG);
	put(fd, "cgroup.events", "");
	CHECK(cg_populated(fd) == -1 && errno == EBADMSG);

	put(fd, "cgroup.events", "populated 0\n");
	int efd = cg_events_open(fd);
	CHECK(efd >= 0);
	put(fd, "cgroup.events", "populated 1\n"); /* same inode: the open fd sees it */
	CHECK(cg_events_populated(efd) == 1);
	CHECK(cg_events_populated(efd) == 1); /* re-reads from the start every time */
	close(efd);
	close(fd);
}

static void stats_missing_and_garbage_are_unset(void)
{
	int fd = fake_cgroup("stats");
	struct cg_stats st;

	put(fd, "memory.current", "123456\n");
	put(fd, "memory.peak", "lots\n");
	put(fd, "memory.stat", "anon 1\nhugetlb 4194304\n");
	put(fd, "cpu.stat", "user_usec 1\nusage_usec 99\n");
	put(fd, "pids.current", "123456789012345678901234567890\n");
	CHECK(cg_read_stats(fd, true, &st) == 0);
	CHECK(st.memory_current == 123456);
	CHECK(st.memory_peak == CG_UNSET);
	CHECK(st.hugetlb_bytes == 4194304);
	CHECK(st.pids_current == CG_UNSET);
	CHECK(st.cpu_usage_usec == 99);
	CHECK(cg_read_stats(fd, false, &st) == 0 && st.hugetlb_bytes == CG_UNSET);
	put(fd, "memory.current", "");
	CHECK(cg_read_stats(fd, true, &st) == 0 && st.memory_current == CG_UNSET);
	close(fd);
	CHECK(cg_read_stats(fd, true, &st) == -1 && st.memory_current == CG_UNSET);
}

static void service_names_are_one_safe_component(void)
{
	int top = dirfd_open(), fd = 123;
	char longname[200];

	memset(longname, 'a', sizeof longname - 1);
	longname[sizeof longname - 1] = '\0';
	static const char *const bad[] = { "", ".", "..", ".hidden", "a/b", "../x", "a\nb" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		errno = 0;
		CHECK(cg_service_open(top, bad[i], &fd, NULL) == -1 && errno == EINVAL && fd == -1);
	}
	CHECK(cg_service_open(top, longname, &fd, NULL) == -1 && errno == EINVAL);
	/* The longest name that fits CG_LEAF_NAME_MAX with its suffix and NUL, then one more. */
	size_t longest = CG_LEAF_NAME_MAX - 1 - strlen(CG_SERVICE_SUFFIX);
	longname[longest] = '\0';
	CHECK(cg_service_open(top, longname, &fd, NULL) == 0);
	close(fd);
	CHECK(cg_remove(top, longname) == 0);
	longname[longest] = 'a';
	longname[longest + 1] = '\0';
	CHECK(cg_service_open(top, longname, &fd, NULL) == -1 && errno == EINVAL);
	close(top);
}

/* A unit of another kind has its cgroup by its full name, suffix and all, as on systemd
 * ("dbus.socket"), under the same rules for the name. */
static void unit_cgroups_keep_their_suffix(void)
{
	int top = dirfd_open(), fd = 123;
	struct stat sb;

	static const char *const bad[] = { "", ".", "..", ".hidden.socket", "a/b.socket", "a\nb" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		errno = 0;
		CHECK(cg_unit_open(top, bad[i], &fd, NULL) == -1 && errno == EINVAL && fd == -1);
	}
	CHECK(cg_unit_open(top, "dbus.socket", &fd, NULL) == 0);
	close(fd);
	CHECK(fstatat(top, "dbus.socket", &sb, 0) == 0 && S_ISDIR(sb.st_mode));
	CHECK(fstatat(top, "dbus.socket.service", &sb, 0) == -1);
	CHECK(cg_unit_remove(top, "dbus.socket") == 0);
	CHECK(fstatat(top, "dbus.socket", &sb, 0) == -1 && errno == ENOENT);
	close(top);
}

static void open_twice_and_remove_nested(void)
{
	int top = dirfd_open(), fd, fd2;
	bool created = false;
	struct stat sb;

	CHECK(cg_service_open(top, "sshd", &fd, &created) == 0 && created);
	CHECK(cg_service_open(top, "sshd", &fd2, &created) == 0 && !created); /* EEXIST is fine */
	CHECK(fstatat(top, "sshd.service", &sb, 0) == 0 && S_ISDIR(sb.st_mode));
	CHECK(mkdirat(fd, "a", 0755) == 0 && mkdirat(fd, "b", 0755) == 0);
	CHECK(mkdirat(fd, "a/deeper", 0755) == 0);
	CHECK(cg_remove(top, "sshd") == 0);
	CHECK(fstatat(top, "sshd.service", &sb, 0) == -1 && errno == ENOENT);
	CHECK(cg_remove(top, "sshd") == -1 && errno == ENOENT);
	close(fd);
	close(fd2);
	close(top);
}

static int count_child(void *ctx, int dirfd, const char *name)
{
	(void)dirfd;
	(void)name;
	++*(int *)ctx;
	return 0;
}

static void children_are_directories_only(void)
{
	int fd = fake_cgroup("children"), n = 0;

	put(fd, "cgroup.procs", "");
	mkdirat(fd, "one", 0755);
	mkdirat(fd, "two", 0755);
	CHECK(cg_for_each_child(fd, count_child, &n) == 0 && n == 2);
	close(fd);
}

/* Reap pid; a hang guard, not a timing assertion: after 10 s it is killed and the
 * check fails. */
static bool reap_within(pid_t pid, int *status)
{
	for (int i = 0; i < 1000; i++) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return true;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, status, 0);
	return false;
}

/* cg_kill_procs on hostile cgroup.procs content, in a child in its own process group
 * (so that a kill(0, ...) would take down only that child and show up here). The pid
 * of a sleeping grandchild is listed among garbage, 0, and the caller itself. */
static void kill_procs_signals_only_listed_pids(void)
{
	int fd = fake_cgroup("procs"), status = 0;
	pid_t victim, runner;
	char procs[256];

	put(fd, "cgroup.freeze", "0\n");
	victim = fork();
	if (victim == 0) {
		for (;;)
			pause();
	}
	runner = fork();
	if (runner == 0) {
		setpgid(0, 0);
		snprintf(procs, sizeof procs, "0\n%d\n-1\nabc\n\n4294967297\n%d\n%d\n", (int)getpid(),
			 (int)victim, (int)victim);
		put(fd, "cgroup.procs", procs);
		_exit(cg_kill_procs(fd, SIGUSR2) == 0 ? 0 : 1);
	}
	CHECK(waitpid(runner, &status, 0) == runner && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(reap_within(victim, &status) && WIFSIGNALED(status) && WTERMSIG(status) == SIGUSR2);
	CHECK_STR(get(fd, "cgroup.freeze"), "0\n"); /* frozen for the passes, thawed after */
	close(fd);
}

static void cleanup(void)
{
	char cmd[64];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("  could not remove %s\n", dir);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		printf("FAIL setup: mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	RUN(limits_written_as_the_kernel_reads_them);
	RUN(protection_written_as_the_kernel_reads_it);
	RUN(swap_limit_written_where_accounted);
	RUN(unset_limits_reset_to_defaults);
	RUN(missing_controller_file_names_it);
	RUN(bad_weight_changes_nothing);
	RUN(populated_from_events);
	RUN(stats_missing_and_garbage_are_unset);
	RUN(service_names_are_one_safe_component);
	RUN(unit_cgroups_keep_their_suffix);
	RUN(open_twice_and_remove_nested);
	RUN(children_are_directories_only);
	RUN(kill_procs_signals_only_listed_pids);
	cleanup();
	return harness_done();
}
