#ifndef EMBER_UNIT_AUTOMOUNT_H
#define EMBER_UNIT_AUTOMOUNT_H
/* Automount units: an autofs mount at Where= that starts the mount unit of the same name
 * when something first looks at the path. docs/services.md "Automount units" says what
 * each key does under ember.
 *
 *   unit-kinds.c      the [Automount] keys (pure parsing), implicit dependencies
 *   unit-automount.c  run time: the autofs mount, its packets, READY/FAIL, expiry
 *
 * PID 1 is the automount daemon of every autofs it mounts: the kernel sends it a packet
 * through a pipe when a process looks up the path, and holds that process until PID 1
 * answers. PID 1 never waits on its own automounts: the kernel does not trigger them for
 * the process group named at mount time, PID 1's own (its "oz mode"), so PID 1's
 * mount(2) of the mount unit on top of the autofs, its umount2(2) and its reads of
 * /proc/self/mountinfo go straight through (unit-automount.c says why this way).
 *
 * The pipe's read end and the mount's ioctl fd are kept in the unit's listen_fd[] slots
 * (an automount listens on no socket), so they travel with the unit through a reload
 * and a re-execution. */
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct unit;

#define AUTOMOUNT_PIPE 0  /* listen_fd[] slot: the autofs pipe's read end */
#define AUTOMOUNT_IOCTL 1 /* listen_fd[] slot: the autofs mount's ioctl fd */
#define AUTOMOUNT_WAIT_MAX 16 /* answers owed per automount (the kernel asks once per
			       * path, however many processes wait on it) */

/* Starting: Where= made (DirectoryMode=), autofs mounted on it, its idle timeout set: 0,
 * or -1 with err (the path is a mount point already, no autofs in the kernel). */
int automount_unit_start(struct unit *u, char *err, size_t size);
/* Stopping or failed: whoever waits is answered with an error, the autofs (and what is
 * mounted on it) unmounted, the fds closed. */
void automount_unit_stop(struct unit *u);
/* Every supervisor turn: the idle expiry runs (TimeoutIdleSec=). AUTOMOUNT_LOST: the
 * autofs went away behind PID 1's back (its pipe hung up); the caller fails the unit. */
enum automount_tick { AUTOMOUNT_OK, AUTOMOUNT_LOST };
enum automount_tick automount_unit_tick(struct unit *u, long long now_ms);
/* At the end of every supervisor turn: the waits whose mount unit came up (READY), or
 * failed or stopped (FAIL; an expiry: READY once unmounted) are answered. */
void automount_units_settle(struct unit *units, size_t n);
/* When the next idle expiry is due (the supervisor's clock, as now_ms), -1 none. */
long long automount_unit_due(const struct unit *u);
/* "running" while the mount unit is up, else "waiting". */
const char *automount_unit_sub_state(const struct unit *u);
/* The expiry child exited: true when pid was one. */
bool automount_child_exited(pid_t pid);

/* Re-execution (handover.c): the i-th answer u still owes (false past the last), and in
 * the new PID 1, after u's fds were adopted, the same owed again: answered when its mount
 * unit settles. -1: u is no automount with an autofs to answer through. */
bool automount_owed_at(const struct unit *u, size_t i, uint32_t *token, bool *expire);
int automount_owe_again(struct unit *u, uint32_t token, bool expire);

/* Re-execution, the idle check's child (a fork, which the new PID 1 inherits): its pid
 * (0 none) for the "e" record, and in the new PID 1 adopted again, so it is reaped as
 * that child, killed when u stops, and no second check starts beside it. -1: u has no
 * autofs, or pid is no pid. */
pid_t automount_expire_pid(const struct unit *u);
int automount_adopt_expire(struct unit *u, pid_t pid);

/* The pipes to poll, and the packets back. */
size_t automount_units_pollfds(struct unit *units, size_t n, struct pollfd *fds, size_t max);
void automount_units_handle_pollfds(struct unit *units, size_t n_units,
				    const struct pollfd *fds, size_t n);
#define AUTOMOUNT_POLL_MAX 16 /* poll slots for automount units */
#endif
