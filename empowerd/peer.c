/* The connecting process, from the kernel (peer.h). */
#include "peer.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "io.h"

#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS 59
#endif
#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

static int peer_pidfd(int conn, pid_t pid)
{
	int fd = -1;
	socklen_t len = sizeof fd;
	if (getsockopt(conn, SOL_SOCKET, SO_PEERPIDFD, &fd, &len) == 0 && fd >= 0)
		return fd;
	return (int)syscall(SYS_pidfd_open, pid, 0); /* the pid could be reused: second best */
}

/* "NoNewPrivs:\t1" or a seccomp mode other than 0: the caller is sandboxed. Unknown
 * counts as confined. */
static bool read_confined(pid_t pid)
{
	char path[64], text[4096];
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	if (io_read_file(path, text, sizeof text) < 0)
		return true;
	const char *nnp = strstr(text, "\nNoNewPrivs:");
	const char *sec = strstr(text, "\nSeccomp:");
	if (!nnp)
		return true;
	if (atoi(nnp + 12) != 0)
		return true;
	return sec && atoi(sec + 9) != 0;
}

int peer_read(int conn, struct peer *p)
{
	struct ucred cred;
	socklen_t len = sizeof cred;
	gid_t groups[PEER_GROUPS_MAX];
	if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
		return -1;
	p->uid = cred.uid;
	p->gid = cred.gid;
	p->pid = cred.pid;
	p->gids[0] = cred.gid;
	p->gid_count = 1;
	len = sizeof groups;
	if (getsockopt(conn, SOL_SOCKET, SO_PEERGROUPS, groups, &len) < 0)
		return -1; /* ERANGE: more than we hold; never guess the groups */
	for (size_t i = 0; i < len / sizeof groups[0]; i++)
		p->gids[p->gid_count++] = groups[i];
	p->pidfd = peer_pidfd(conn, cred.pid);
	p->confined = read_confined(cred.pid) || !peer_alive(p);
	return 0;
}

bool peer_alive(const struct peer *p)
{
	struct pollfd fd = { .fd = p->pidfd, .events = POLLIN };
	if (p->pidfd < 0)
		return kill(p->pid, 0) == 0 || errno == EPERM;
	return poll(&fd, 1, 0) == 0; /* readable: it exited */
}

int proc_stat(pid_t pid, pid_t *sid, unsigned long *tty_nr, unsigned long long *start)
{
	char path[64], text[1024];
	int ppid, pgrp;
	char state;
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if (io_read_file(path, text, sizeof text) < 0)
		return -1;
	/* Fields after the last ')': a command name may hold spaces and parentheses. */
	char *end = strrchr(text, ')');
	if (!end || sscanf(end + 1, " %c %d %d %d %lu", &state, &ppid, &pgrp, sid, tty_nr) != 5)
		return -1;
	/* starttime is field 22; field 3 (state) is the first after ')'. */
	char *f = end + 2;
	for (int field = 3; field < 22 && f; field++) {
		f = strchr(f, ' ');
		if (f)
			f++;
	}
	if (!f || sscanf(f, "%llu", start) != 1)
		return -1;
	return 0;
}
