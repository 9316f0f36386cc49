/* sockets-accept: Accept=yes connections and their instances (socket-accept.h). */
#include "socket-accept.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "log.h"
#include "parse.h"
#include "socket-unit.h"
#include "sockets.h"

#define ACCEPT_SOCKETS_MAX 32 /* Accept=yes socket units whose connections are counted */

/* Who is on the other end, for MaxConnectionsPerSource=: an IP address (IPv4 as
 * v4-mapped IPv6) or, for unix sockets, the peer's uid. */
struct peer {
	unsigned char addr[16];
	unsigned uid;
	bool unix_peer;
};

struct conn {
	char instance[SERVICE_NAME_MAX];
	char sock[SERVICE_NAME_MAX];
	struct peer peer;
	bool open; /* compact: false (zero) is a free slot, so free slots stay untouched */
	int fd;
};

/* The state PID 1 keeps about accepted connections, in one place. */
static struct {
	struct conn conn[ACCEPT_CONN_MAX];
	struct {
		char sock[SERVICE_NAME_MAX];
		unsigned accepted; /* systemd's N: connections this socket accepted so far */
	} counter[ACCEPT_SOCKETS_MAX];
} acc;

static unsigned *counter_of(const char *sock)
{
	for (size_t i = 0; i < ACCEPT_SOCKETS_MAX; i++) {
		if (!acc.counter[i].sock[0])
			str_copy(acc.counter[i].sock, sizeof acc.counter[i].sock, sock);
		if (strcmp(acc.counter[i].sock, sock) == 0)
			return &acc.counter[i].accepted;
	}
	return &acc.counter[ACCEPT_SOCKETS_MAX - 1].accepted; /* shared past the table */
}

static const unsigned char v4_mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

static void peer_of(int fd, const struct sockaddr_storage *remote, struct peer *p)
{
	struct ucred cred;
	socklen_t len = sizeof cred;

	memset(p, 0, sizeof *p);
	if (remote->ss_family == AF_INET) {
		memcpy(p->addr, v4_mapped, sizeof v4_mapped);
		memcpy(p->addr + 12, &((const struct sockaddr_in *)remote)->sin_addr, 4);
	} else if (remote->ss_family == AF_INET6) {
		memcpy(p->addr, &((const struct sockaddr_in6 *)remote)->sin6_addr, 16);
	} else {
		p->unix_peer = true;
		p->uid = getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 ? cred.uid
										  : (unsigned)-1;
	}
}

static bool same_peer(const struct peer *a, const struct peer *b)
{
	return a->unix_peer == b->unix_peer &&
	       (a->unix_peer ? a->uid == b->uid : memcmp(a->addr, b->addr, 16) == 0);
}

/* "1.2.3.4:80" or "::1:80" (systemd writes IPv6 without brackets here); v4-mapped
 * addresses as IPv4. */
static void print_address(const struct sockaddr_storage *a, char *out, size_t size)
{
	char host[INET6_ADDRSTRLEN] = "?";
	unsigned port = 0;

	if (a->ss_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)a;
		inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
		port = ntohs(in->sin_port);
	} else if (a->ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)a;
		if (memcmp(&in6->sin6_addr, v4_mapped, sizeof v4_mapped) == 0)
			inet_ntop(AF_INET, (const unsigned char *)&in6->sin6_addr + 12, host, sizeof host);
		else
			inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
		port = ntohs(in6->sin6_port);
	}
	snprintf(out, size, "%s:%u", host, port);
}

/* systemd's instance names: N-LOCAL-REMOTE for IP, N-PID-UID (or N-unknown) for unix. */
static int instance_name(const struct service *sock, int fd, unsigned n,
			 const struct sockaddr_storage *remote, char *out, size_t size)
{
	char tmpl[SERVICE_NAME_MAX], local_s[64], remote_s[64];
	struct sockaddr_storage local;
	socklen_t len = sizeof local;
	struct ucred cred;
	int w;

	socket_unit_template(sock, tmpl, sizeof tmpl);
	if (remote->ss_family == AF_INET || remote->ss_family == AF_INET6) {
		if (getsockname(fd, (struct sockaddr *)&local, &len) < 0)
			return -1;
		print_address(&local, local_s, sizeof local_s);
		print_address(remote, remote_s, sizeof remote_s);
		w = snprintf(out, size, "%s%u-%s-%s", tmpl, n, local_s, remote_s);
	} else {
		len = sizeof cred;
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0)
			w = snprintf(out, size, "%s%u-%d-%u", tmpl, n, (int)cred.pid, (unsigned)cred.uid);
		else
			w = snprintf(out, size, "%s%u-unknown", tmpl, n);
	}
	if (w < 0 || (size_t)w >= size || !service_name_valid(out)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

static size_t count_peer(const char *sock, const struct peer *p)
{
	size_t n = 0;

	for (size_t i = 0; i < ACCEPT_CONN_MAX; i++)
		n += acc.conn[i].open && strcmp(acc.conn[i].sock, sock) == 0 &&
		     same_peer(&acc.conn[i].peer, p);
	return n;
}

static struct conn *free_slot(void)
{
	for (size_t i = 0; i < ACCEPT_CONN_MAX; i++)
		if (!acc.conn[i].open)
			return &acc.conn[i];
	return NULL;
}

/* Over a limit: as systemd, the connection is accepted and closed at once. */
static int refuse(const struct service *sock, int fd, const char *why, unsigned limit)
{
	log_warn("%s: %s (%u), dropping a connection", sock->name, why, limit);
	close(fd);
	return 0;
}

int accept_connection(const struct service *sock, int listen_fd, char *instance, size_t size)
{
	const struct socket_spec *sp = &sock->sock;
	unsigned max = sp->max_connections ? sp->max_connections : ACCEPT_MAX_CONNECTIONS;
	unsigned per_source = sp->max_per_source ? sp->max_per_source : max;
	struct sockaddr_storage remote;
	socklen_t len = sizeof remote;
	struct conn *c;
	struct peer peer;
	int fd;

	memset(&remote, 0, sizeof remote);
	fd = accept4(listen_fd, (struct sockaddr *)&remote, &len, SOCK_CLOEXEC);
	if (fd < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED ||
		       errno == EINTR ? 0 : -1;
	if (len == 0 || remote.ss_family == AF_UNSPEC)
		remote.ss_family = AF_UNIX; /* unnamed unix peers give no address */
	if (accept_conn_count(sock->name) >= max)
		return refuse(sock, fd, "too many connections, MaxConnections=", max);
	peer_of(fd, &remote, &peer);
	if (count_peer(sock->name, &peer) >= per_source)
		return refuse(sock, fd, "too many connections from one source, "
			      "MaxConnectionsPerSource=", per_source);
	if (!(c = free_slot()))
		return refuse(sock, fd, "connection table of PID 1 full", ACCEPT_CONN_MAX);
	if (instance_name(sock, fd, (*counter_of(sock->name))++, &remote, instance, size) < 0) {
		log_error("%s: no instance name for a connection: %s", sock->name, strerror(errno));
		close(fd);
		return 0;
	}
	sockets_apply_options(sock, fd, remote.ss_family);
	str_copy(c->instance, sizeof c->instance, instance);
	str_copy(c->sock, sizeof c->sock, sock->name);
	c->peer = peer;
	c->fd = fd;
	c->open = true;
	return 1;
}

static struct conn *find(const char *instance)
{
	for (size_t i = 0; i < ACCEPT_CONN_MAX; i++)
		if (acc.conn[i].open && strcmp(acc.conn[i].instance, instance) == 0)
			return &acc.conn[i];
	return NULL;
}

int accept_conn_fd(const char *instance)
{
	const struct conn *c = find(instance);
	return c ? c->fd : -1;
}

void accept_conn_remote(const char *instance, char *addr, size_t addr_size, char *port,
			size_t port_size)
{
	struct sockaddr_storage remote;
	socklen_t len = sizeof remote;
	char text[64];
	int fd = accept_conn_fd(instance);

	addr[0] = port[0] = '\0';
	memset(&remote, 0, sizeof remote);
	if (fd < 0 || getpeername(fd, (struct sockaddr *)&remote, &len) < 0 ||
	    (remote.ss_family != AF_INET && remote.ss_family != AF_INET6))
		return;
	print_address(&remote, text, sizeof text); /* "host:port" */
	*strrchr(text, ':') = '\0';
	snprintf(addr, addr_size, "REMOTE_ADDR=%s", text);
	snprintf(port, port_size, "REMOTE_PORT=%u", remote.ss_family == AF_INET
		 ? ntohs(((struct sockaddr_in *)&remote)->sin_port)
		 : ntohs(((struct sockaddr_in6 *)&remote)->sin6_port));
}

void accept_conn_release(const char *instance)
{
	struct conn *c = find(instance);

	if (!c)
		return;
	close(c->fd);
	c->fd = -1;
	c->open = false;
}

size_t accept_conn_count(const char *sock)
{
	size_t n = 0;

	for (size_t i = 0; i < ACCEPT_CONN_MAX; i++)
		n += acc.conn[i].open && strcmp(acc.conn[i].sock, sock) == 0;
	return n;
}

bool accept_conn_get(size_t i, const char **instance, const char **sock, int *fd)
{
	if (i >= ACCEPT_CONN_MAX || !acc.conn[i].open)
		return false;
	*instance = acc.conn[i].instance;
	*sock = acc.conn[i].sock;
	*fd = acc.conn[i].fd;
	return true;
}

int accept_conn_restore(const char *instance, const char *sock, int fd)
{
	struct sockaddr_storage remote;
	socklen_t len = sizeof remote;
	const char *at = strchr(instance, '@');
	unsigned *n = counter_of(sock);
	struct conn *c;

	if (!(c = free_slot()))
		return -1;
	memset(&remote, 0, sizeof remote);
	if (getpeername(fd, (struct sockaddr *)&remote, &len) < 0 || len == 0)
		remote.ss_family = AF_UNIX;
	peer_of(fd, &remote, &c->peer);
	str_copy(c->instance, sizeof c->instance, instance);
	str_copy(c->sock, sizeof c->sock, sock);
	c->fd = fd;
	c->open = true;
	/* Go on counting after the highest N seen, so no name is given twice. */
	if (at && at[1] >= '0' && at[1] <= '9' && strtoul(at + 1, NULL, 10) >= *n)
		*n = (unsigned)strtoul(at + 1, NULL, 10) + 1;
	return 0;
}
