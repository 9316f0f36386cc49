#ifndef EMBER_EMPOWERD_PEER_H
#define EMBER_EMPOWERD_PEER_H
/* What the kernel says about the process at the other end of a connection: its ids and
 * real groups as recorded at connect(2) (SO_PEERCRED, SO_PEERGROUPS), a pidfd for it
 * (SO_PEERPIDFD, else pidfd_open), and whether it is confined (no_new_privs or a
 * seccomp filter). Nothing here comes from the client's messages or from /etc/group. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PEER_GROUPS_MAX 1024

struct peer {
	uid_t uid;
	gid_t gid;
	pid_t pid;
	int pidfd;                         /* -1: none (old kernel) */
	size_t gid_count;
	bool confined;                     /* no_new_privs, seccomp, or unknown */
	uint32_t gids[PEER_GROUPS_MAX + 1]; /* the primary group first; last, as it is large */
};

/* Fill p from the connected socket. 0, or -1/errno (E2BIG: too many groups). */
int peer_read(int conn, struct peer *p);
/* The process that connected still runs (so /proc/PID read just now was its). */
bool peer_alive(const struct peer *p);

/* From /proc/PID/stat: session id, controlling terminal (tty_nr) and start time (clock
 * ticks after boot). 0 or -1. */
int proc_stat(pid_t pid, pid_t *sid, unsigned long *tty_nr, unsigned long long *start);
#endif
