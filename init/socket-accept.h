#ifndef EMBER_INIT_SOCKET_ACCEPT_H
#define EMBER_INIT_SOCKET_ACCEPT_H
/* sockets-accept: Accept=yes socket units. PID 1 accepts each connection itself and
 * starts one transient instance of the socket's template NAME@.service for it, named as
 * systemd names them (NAME@N-LOCAL-REMOTE for IP, NAME@N-PID-UID for unix sockets). The
 * instance gets the connection as fd 3 (LISTEN_FDS=1, LISTEN_FDNAMES=connection), and on
 * stdin/stdout with StandardInput=socket. Its record lives here, in a fixed table, from
 * accept until the instance is gone. See docs/services.md, "Socket units". */
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "service.h"

#define ACCEPT_CONN_MAX 128          /* connections held by all Accept=yes sockets */
#define ACCEPT_MAX_CONNECTIONS 64    /* MaxConnections= default, as systemd */
#define ACCEPT_PER_TURN 16           /* accepts per socket and loop turn: no starvation */

/* Accept one connection on listen_fd of socket unit sock. 1: a connection, recorded, its
 * instance's canonical name in instance; 0: nothing to accept (or it was refused over
 * MaxConnections=/MaxConnectionsPerSource=, logged, closed); -1: accept failed. */
int accept_connection(const struct service *sock, int listen_fd, char *instance,
		      size_t size);
/* The connection fd of an instance, or -1 when name is no Accept=yes instance. */
int accept_conn_fd(const char *instance);
/* REMOTE_ADDR=, REMOTE_PORT= lines for an instance's environment, as systemd sets them
 * for IP connections; both "" otherwise. */
void accept_conn_remote(const char *instance, char *addr, size_t addr_size, char *port,
			size_t port_size);
/* Forget the instance's connection and close PID 1's copy of its fd. */
void accept_conn_release(const char *instance);
/* Connections now held for socket unit sock. */
size_t accept_conn_count(const char *sock);

/* Handover (init/handover.c): slot i of ACCEPT_CONN_MAX, false when it is free. */
bool accept_conn_get(size_t i, const char **instance, const char **sock, int *fd);
/* Re-create a record after re-execution (the fd survived exec). 0 or -1 (table full). */
int accept_conn_restore(const char *instance, const char *sock, int fd);
#endif
