#ifndef EMBER_INIT_CONTROL_H
#define EMBER_INIT_CONTROL_H
/* PID 1's side of the control protocol (docs/control-protocol.md): a SOCK_SEQPACKET
 * socket; reads are open to everyone, changes need uid 0 (SO_PEERCRED). PID 1 sends
 * plain records; emberctl formats them. A client that sends garbage, nothing, or does
 * not read its reply is dropped; it can never block PID 1. */
#include <poll.h>
#include <stddef.h>

#include "power.h"

int control_open(const char *path);
/* Called for poweroff/reboot/halt requests. */
void control_on_power(void (*cb)(enum power_action a));
size_t control_pollfds(struct pollfd *fds, size_t max);
void control_handle_pollfds(const struct pollfd *fds, size_t n, long long now_ms);
/* Send new output to `log NAME follow` clients; drop clients that went quiet. */
void control_tick(long long now_ms);
/* Milliseconds until the next client deadline, -1 none. */
long long control_next_deadline(void);
#endif
