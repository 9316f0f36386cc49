/* ember-sandbox: PrivateUsers= (systemd.exec(5)): a new user namespace in which root and
 * the service's own user and group map to themselves and every other id is the
 * overflow id ("nobody"), or (identity, full) more ids map to themselves. A process may only write its own namespace's maps with a single
 * line, so a child left in the parent namespace, where it still has CAP_SETUID and
 * CAP_SETGID, writes them once the parent has unshared. */
#include "more.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec-context.h"
#include "setup.h"

/* identity: the first 65536 ids, as systemd. full: every id, in two extents, as systemd,
 * so that the map still differs from the host's "0 0 4294967295" that tells a process it
 * runs in no user namespace (ConditionVirtualization=private-users). */
static int format_map(char *map, size_t size, const struct sandbox_more *m, unsigned id)
{
	switch (m->private_users) {
	case SANDBOX_USERS_IDENTITY:
		return snprintf(map, size, "0 0 65536\n");
	case SANDBOX_USERS_FULL:
		return snprintf(map, size, "0 0 1\n1 1 4294967294\n");
	default:
		return id ? snprintf(map, size, "0 0 1\n%u %u 1\n", id, id)
			  : snprintf(map, size, "0 0 1\n");
	}
}

static int write_map(pid_t pid, const char *file, const struct sandbox_more *m, unsigned id)
{
	char path[64], map[64];
	int fd, n, ok;

	snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, file);
	n = format_map(map, sizeof map, m, id);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ok = write(fd, map, (size_t)n) == n;
	close(fd);
	return ok ? 0 : -1;
}

/* The child: wait for the parent's unshare, write both maps, report by exit status. */
static void map_writer(pid_t parent, int ready_fd, const struct sandbox_more *m)
{
	char c;

	if (read(ready_fd, &c, 1) != 1)
		_exit(2);
	if (write_map(parent, "uid_map", m, m->uid) < 0)
		_exit(3);
	if (write_map(parent, "gid_map", m, m->gid) < 0)
		_exit(4);
	_exit(0);
}

int sandbox_more_users(const struct sandbox_more *m, struct sandbox_error *e)
{
	int p[2], status, err = 0;
	pid_t parent = getpid(), child;

	if (!m->private_users)
		return 0;
	if (pipe2(p, O_CLOEXEC) < 0)
		goto failed;
	child = fork();
	if (child < 0) {
		err = errno;
		close(p[0]);
		close(p[1]);
		errno = err;
		goto failed;
	}
	if (child == 0) {
		close(p[1]);
		map_writer(parent, p[0], m);
	}
	close(p[0]);
	if (unshare(CLONE_NEWUSER) < 0)
		err = errno;
	else if (write(p[1], "x", 1) != 1)
		err = errno;
	close(p[1]); /* without the byte, the child gives up */
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	if (!err && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		err = EPERM; /* the maps could not be written */
	if (!err)
		return 0;
	errno = err;
failed:
	e->op = EXEC_SANDBOX_USERS;
	e->err = errno;
	e->path = NULL;
	return -1;
}
