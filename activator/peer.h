#ifndef EMBER_ACTIVATOR_PEER_H
#define EMBER_ACTIVATOR_PEER_H
/* systemd's private manager socket, one connection (peer.c, docs/dbus.md). */
#include "activator.h"

/* Serve the peer-to-peer D-Bus connection fd (a unix socket; root's only) until the
 * client closes it or stays idle. Returns the exit status. */
int peer_serve(struct activator *a, int fd);
#endif
