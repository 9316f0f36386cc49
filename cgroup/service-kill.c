/* Stopping a service's whole process tree, and knowing when it is gone. */
#include "cg-service.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "io.h"

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_CLOEXEC)

static void close_keep_errno(int fd)
{
	int saved = errno;
	close(fd);
	errno = saved;
}

int cg_kill(int fd, int sig)
{
	if (sig == SIGKILL) {
		if (io_write_file_at(fd, "cgroup.kill", "1") == 0)
			return 0;
		if (errno != ENOENT) /* ENOENT: before 5.14 */
			return -1;
	}
	return cg_kill_procs(fd, sig);
}

/* ---- the fallback: freeze, signal pid by pid in passes, thaw ---- */

struct kill_run {
	int sig;
	pid_t self;
	unsigned fresh; /* pids signalled for the first time in this pass */
	size_t seen_count;
	pid_t seen[CG_KILL_SEEN_MAX];
};

static bool seen_before(struct kill_run *k, pid_t pid)
{
	for (size_t i = 0; i < k->seen_count; i++)
		if (k->seen[i] == pid)
			return true;
	if (k->seen_count < CG_KILL_SEEN_MAX)
		k->seen[k->seen_count++] = pid;
	return false;
}

static int kill_pid_line(void *ctx, char *line, size_t len)
{
	struct kill_run *k = ctx;
	unsigned long long v;
	pid_t pid;

	/* Only a well-formed positive pid: kill(0) or kill(-1) would hit the caller's
	 * process group or every process. */
	if (cg_parse_u64(line, len, &v) < 0 || v == 0 || v > 0x7fffffff)
		return 0;
	pid = (pid_t)v;
	if (pid == k->self || seen_before(k, pid))
		return 0;
	k->fresh++;
	if (kill(pid, k->sig) < 0 && errno != ESRCH)
		return -1;
	return 0;
}

static int kill_tree(int dirfd, struct kill_run *k, unsigned depth);

struct kill_walk {
	struct kill_run *run;
	unsigned depth;
};

static int kill_tree_child(void *ctx, int dirfd, const char *name)
{
	struct kill_walk *w = ctx;
	int fd = openat(dirfd, name, DIR_FLAGS);
	int r;

	if (fd < 0)
		return errno == ENOENT ? 0 : -1; /* removed meanwhile */
	r = kill_tree(fd, w->run, w->depth + 1);
	close_keep_errno(fd);
	return r;
}

static int kill_tree(int dirfd, struct kill_run *k, unsigned depth)
{
	char buf[64];
	struct kill_walk walk = { k, depth };
	int fd = openat(dirfd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
	int r;

	if (fd < 0) /* a cgroup below that went away meanwhile is not an error */
		return depth > 0 && (errno == ENOENT || errno == ENODEV) ? 0 : -1;
	r = cg_read_lines(fd, buf, sizeof buf, kill_pid_line, k);
	close_keep_errno(fd);
	if (r < 0)
		return -1;
	if (depth >= CG_TREE_DEPTH_MAX)
		return 0;
	return cg_for_each_child(dirfd, kill_tree_child, &walk);
}

/* 1 when this call froze the cgroup (and must thaw it), 0 when it did not: no freezer
 * (before 5.2), or frozen already by someone who wants it so. */
static int freeze(int fd)
{
	char state[8];

	if (io_read_file_at(fd, "cgroup.freeze", state, sizeof state) < 0 || state[0] != '0')
		return 0;
	return io_write_file_at(fd, "cgroup.freeze", "1") == 0;
}

int cg_kill_procs(int fd, int sig)
{
	struct kill_run k = { .sig = sig, .self = getpid() };
	int frozen = freeze(fd), r = 0;

	for (unsigned pass = 0; pass < CG_KILL_PASSES; pass++) {
		k.fresh = 0;
		r = kill_tree(fd, &k, 0);
		if (r < 0 || k.fresh == 0)
			break;
	}
	if (frozen) {
		int saved = errno;
		io_write_file_at(fd, "cgroup.freeze", "0");
		errno = saved;
	}
	return r;
}

/* ---- populated ---- */

static int populated_from(int events_fd)
{
	unsigned long long v;
	int r = cg_kv_read(events_fd, "populated", &v);

	if (r < 0)
		return -1;
	if (r == 0 || v > 1) {
		errno = EBADMSG;
		return -1;
	}
	return (int)v;
}

int cg_populated(int fd)
{
	int efd = openat(fd, "cgroup.events", O_RDONLY | O_CLOEXEC);
	int r;

	if (efd < 0)
		return -1;
	r = populated_from(efd);
	close_keep_errno(efd);
	return r;
}

int cg_events_open(int fd)
{
	int efd = openat(fd, "cgroup.events", O_RDONLY | O_CLOEXEC);

	if (efd < 0)
		return -1;
	/* kernfs reports a change to a poller that has not read the file since it
	 * changed; reading once now arms it. */
	if (cg_events_populated(efd) < 0) {
		close_keep_errno(efd);
		return -1;
	}
	return efd;
}

int cg_events_populated(int events_fd)
{
	if (lseek(events_fd, 0, SEEK_SET) < 0)
		return -1;
	return populated_from(events_fd);
}
