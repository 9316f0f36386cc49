#ifndef EMBER_INIT_CONTROL_H
#define EMBER_INIT_CONTROL_H
/* PID 1's side of the control protocol (docs/control-protocol.md): a SOCK_SEQPACKET
 * socket; reads are open to everyone, changes need uid 0 or the control group
 * (SO_PEERCRED). Per-uid limits keep slots for root (docs/control-protocol.md). PID 1 sends
 * plain records; emberctl formats them. A client that sends garbage, nothing, or does
 * not read its reply is dropped; it can never block PID 1. */
#include <poll.h>
#include <stddef.h>
#include <sys/types.h>

#include "power.h"

#define CONTROL_CLIENTS_MAX 24
#define CONTROL_POLLFDS (1 + CONTROL_CLIENTS_MAX) /* what control_pollfds() needs */

int control_open(const char *path);
/* Listen on an inherited, already listening socket (after re-execution). */
void control_adopt(int fd);
int control_listen_fd(void);
/* Called for poweroff/reboot/halt requests. */
void control_on_power(void (*cb)(enum power_action a));
/* Called (after the reply went out) for daemon-reexec. */
void control_on_reexec(void (*cb)(void));
/* Members of gid (primary or supplementary, SO_PEERGROUPS) may change services and
 * power off, as root may (ember.ctl_group=). daemon-reexec stays root's. */
void control_set_group(gid_t gid);
size_t control_pollfds(struct pollfd *fds, size_t max);
void control_handle_pollfds(const struct pollfd *fds, size_t n, long long now_ms);
/* Send new output to `log NAME follow` clients; drop clients that went quiet. */
void control_tick(long long now_ms);
/* Milliseconds until the next client deadline, -1 none. */
long long control_next_deadline(void);
#endif
