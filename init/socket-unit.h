#ifndef EMBER_INIT_SOCKET_UNIT_H
#define EMBER_INIT_SOCKET_UNIT_H
/* U4: .socket units: the [Socket] keys (pure parsing, no I/O) and listen addresses.
 * Binding and watching the sockets is init/sockets.c's job. See docs/services.md,
 * "Socket units". */
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "service.h"

/* A [Socket] assignment (specifiers already expanded). 0: taken; -1: invalid (svc is
 * failed and the reason reported); 1: not a [Socket] key ember knows. */
int socket_unit_assign(struct service *svc, const struct service_diag *diag, unsigned line,
		       const char *key, const char *value);

/* The index of the one Listen*= entry with a path, which Symlinks= point to; -1 when
 * there is not exactly one. */
int socket_unit_symlink_target(const struct service *svc);

/* Whole-unit checks once the file is parsed: at least one Listen*= entry; Symlinks=
 * only with exactly one path. */
void socket_unit_validate(struct service *svc, const struct service_diag *diag);

/* The canonical name of the service sock activates: Service= or its own name without
 * ".socket" ("dbus" for dbus.socket). */
const char *socket_unit_service(const struct service *sock, char *buf, size_t size);

/* sockets-accept: the template an Accept=yes socket instantiates per connection, canonical
 * ("sshd@" for sshd.socket). */
const char *socket_unit_template(const struct service *sock, char *buf, size_t size);
/* The [Socket] keys ember implements (NULL-terminated), for `emberctl verify --keys`. */
const char *const *socket_unit_keys(void);

/* The name the fds of sock carry in LISTEN_FDNAMES: FileDescriptorName= or the unit's
 * name ("dbus.socket"). */
const char *socket_unit_fdname(const struct service *sock);

/* Where a Listen*= entry listens, ready for socket()/bind(). */
struct socket_address {
	int family, type, protocol;
	socklen_t len;
	union {
		struct sockaddr sa;
		struct sockaddr_storage storage;
	} u;
	bool any_v6; /* a bare port: [::]:port, or 0.0.0.0:port without IPv6 */
};

/* Parse one Listen*= value of the given type (enum socket_listen_type). Stream, datagram,
 * seqpacket: "/abs/path", "@abstract", "port", "a.b.c.d:port", "[v6]:port"; netlink:
 * "family group"; FIFO: "/abs/path" (only the length and form are checked). 0, or -1
 * with a static reason in *why. */
int socket_address_parse(int type, const char *s, struct socket_address *out, const char **why);
#endif
