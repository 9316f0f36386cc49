/* U4: socket units at run time (sockets.h). */
#include "sockets.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "log.h"
#include "passwd.h"
#include "socket-accept.h"
#include "socket-unit.h"
#include "supervisor.h"

static const char *const listen_key[] = {
	[LISTEN_STREAM] = "ListenStream", [LISTEN_DATAGRAM] = "ListenDatagram",
	[LISTEN_SEQPACKET] = "ListenSequentialPacket", [LISTEN_FIFO] = "ListenFIFO",
	[LISTEN_NETLINK] = "ListenNetlink", [LISTEN_SPECIAL] = "ListenSpecial",
};

struct opening {
	const struct service *s;
	const struct socket_listen *l;
	char *err;
	size_t errlen;
};

static int failed(struct opening *o, const char *what, int fd)
{
	int e = errno;

	snprintf(o->err, o->errlen, "%s=%s: %s: %s", listen_key[o->l->type],
		 service_str(o->s, o->l->address), what, strerror(e));
	if (fd >= 0)
		close(fd);
	errno = e;
	return -1;
}

/* mkdir -p of path's parent directories with DirectoryMode=. */
static int make_parents(const char *path, unsigned mode)
{
	char dir[sizeof ((struct sockaddr_un *)0)->sun_path];

	snprintf(dir, sizeof dir, "%s", path);
	for (char *slash = strchr(dir + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(dir, (mode_t)mode) < 0 && errno != EEXIST)
			return -1;
		*slash = '/';
	}
	return 0;
}

/* SocketUser=, SocketGroup= on a file (a socket or FIFO path). */
static int set_owner(struct opening *o, const char *path)
{
	const struct service *s = o->s;
	const char *user = service_str(s, s->sock.user), *group = service_str(s, s->sock.group);
	struct passwd_user pw;
	struct passwd_group gr;
	uid_t uid = (uid_t)-1;
	gid_t gid = (gid_t)-1;

	if (!*user && !*group)
		return 0;
	if (*user) {
		if (passwd_user_lookup(NULL, user, &pw) < 0) {
			errno = ENOENT;
			return failed(o, "SocketUser= not in /etc/passwd", -1);
		}
		uid = pw.uid;
		gid = pw.gid;
	}
	if (*group) {
		if (passwd_group_lookup(NULL, group, &gr) < 0) {
			errno = ENOENT;
			return failed(o, "SocketGroup= not in /etc/group", -1);
		}
		gid = gr.gid;
	}
	if (chown(path, uid, gid) < 0)
		return failed(o, "chown", -1);
	return 0;
}

static int open_fifo(struct opening *o, const char *path)
{
	struct stat st;
	int fd;

	if (make_parents(path, o->s->sock.directory_mode) < 0)
		return failed(o, "mkdir", -1);
	if (mkfifo(path, 0600) < 0 && errno != EEXIST)
		return failed(o, "mkfifo", -1);
	/* O_RDWR: the FIFO never reports end of file when writers come and go. */
	fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0)
		return failed(o, "open", -1);
	if (fstat(fd, &st) < 0 || !S_ISFIFO(st.st_mode)) {
		errno = EEXIST;
		return failed(o, "exists and is not a FIFO", fd);
	}
	if (fchmod(fd, (mode_t)o->s->sock.socket_mode) < 0)
		return failed(o, "chmod", fd);
	if (set_owner(o, path) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* A socket file left at path: a stale one (nobody answers) is removed; a live one or
 * something that is not a socket is an error: ember never takes a path from a server. */
static int clear_path(struct opening *o, const struct socket_address *a)
{
	const char *path = ((const struct sockaddr_un *)&a->u.storage)->sun_path;
	struct stat st;
	int probe, r;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : failed(o, "stat", -1);
	if (!S_ISSOCK(st.st_mode)) {
		errno = EEXIST;
		return failed(o, "exists and is not a socket", -1);
	}
	probe = socket(AF_UNIX, a->type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (probe < 0)
		return failed(o, "socket", -1);
	r = connect(probe, &a->u.sa, a->len);
	close(probe);
	if (r == 0 || errno == EAGAIN || errno == EINPROGRESS) {
		errno = EADDRINUSE;
		return failed(o, "a running server listens there", -1);
	}
	if (unlink(path) < 0 && errno != ENOENT)
		return failed(o, "removing the stale socket", -1);
	return 0;
}

static int set_flag(int fd, int level, int name)
{
	int one = 1;
	return setsockopt(fd, level, name, &one, sizeof one);
}

/* ReceiveBuffer=, SendBuffer=: past the system's maximum where PID 1 may (as systemd);
 * a refusal leaves the default, as on systemd, which only warns. */
static void set_buffer(int fd, int force, int plain, unsigned long long bytes)
{
	int n = (int)bytes;

	if (bytes && setsockopt(fd, SOL_SOCKET, force, &n, sizeof n) < 0)
		(void)setsockopt(fd, SOL_SOCKET, plain, &n, sizeof n);
}

static int socket_options(struct opening *o, const struct socket_address *a, int fd)
{
	const struct socket_spec *sp = &o->s->sock;
	int zero = 0;

	if (a->family == AF_INET || a->family == AF_INET6) {
		if (set_flag(fd, SOL_SOCKET, SO_REUSEADDR) < 0)
			return failed(o, "SO_REUSEADDR", -1);
		if (a->any_v6 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero) < 0)
			return failed(o, "IPV6_V6ONLY", -1);
		if (sp->free_bind && set_flag(fd, IPPROTO_IP, IP_FREEBIND) < 0)
			return failed(o, "FreeBind=", -1);
		if (sp->transparent && set_flag(fd, a->family == AF_INET6 ? IPPROTO_IPV6 : IPPROTO_IP,
						a->family == AF_INET6 ? IPV6_TRANSPARENT
								      : IP_TRANSPARENT) < 0)
			return failed(o, "Transparent=", -1);
	}
	if (a->family == AF_INET6 && sp->bind_ipv6_only > 0) {
		int only = sp->bind_ipv6_only == 2;
		if (setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &only, sizeof only) < 0)
			return failed(o, "BindIPv6Only=", -1);
	}
	set_buffer(fd, SO_RCVBUFFORCE, SO_RCVBUF, sp->receive_buffer);
	set_buffer(fd, SO_SNDBUFFORCE, SO_SNDBUF, sp->send_buffer);
	if (sp->reuse_port && set_flag(fd, SOL_SOCKET, SO_REUSEPORT) < 0)
		return failed(o, "ReusePort=", -1);
	if (sp->pass_credentials && set_flag(fd, SOL_SOCKET, SO_PASSCRED) < 0)
		return failed(o, "PassCredentials=", -1);
	if (sp->pass_security && set_flag(fd, SOL_SOCKET, SO_PASSSEC) < 0)
		return failed(o, "PassSecurity=", -1);
	sockets_apply_options(o->s, fd, a->family);
	return 0;
}


/* ---- sockets-accept: the one-setsockopt keys ----------------------------------------
 * As on systemd, a refusal (an option the kernel or the family lacks) is a warning: the
 * socket still opens with the kernel's default. Accepted connections get them too. */

static void set_int(const struct service *s, int fd, int level, int name, int value,
		    const char *key)
{
	if (setsockopt(fd, level, name, &value, sizeof value) < 0)
		log_warn("%s: %s: %s", s->name, key, strerror(errno));
}

static void apply_ip_options(const struct service *s, int fd, int family)
{
	const struct socket_spec *sp = &s->sock;
	bool v6 = family == AF_INET6;

	if (sp->ip_tos >= 0)
		set_int(s, fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP, v6 ? IPV6_TCLASS : IP_TOS,
			sp->ip_tos, "IPTOS=");
	if (sp->ip_ttl >= 0)
		set_int(s, fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP, v6 ? IPV6_UNICAST_HOPS : IP_TTL,
			sp->ip_ttl, "IPTTL=");
	if (sp->pass_packet_info)
		set_int(s, fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP, v6 ? IPV6_RECVPKTINFO : IP_PKTINFO,
			1, "PassPacketInfo=");
	if (sp->keep_alive_time_s)
		set_int(s, fd, IPPROTO_TCP, TCP_KEEPIDLE, sp->keep_alive_time_s, "KeepAliveTimeSec=");
	if (sp->keep_alive_interval_s)
		set_int(s, fd, IPPROTO_TCP, TCP_KEEPINTVL, sp->keep_alive_interval_s,
			"KeepAliveIntervalSec=");
	if (sp->keep_alive_probes)
		set_int(s, fd, IPPROTO_TCP, TCP_KEEPCNT, sp->keep_alive_probes, "KeepAliveProbes=");
	if (sp->no_delay)
		set_int(s, fd, IPPROTO_TCP, TCP_NODELAY, 1, "NoDelay=");
	if (sp->defer_accept_s)
		set_int(s, fd, IPPROTO_TCP, TCP_DEFER_ACCEPT, sp->defer_accept_s, "DeferAcceptSec=");
}

void sockets_apply_options(const struct service *s, int fd, int family)
{
	const struct socket_spec *sp = &s->sock;

	if (family == AF_INET || family == AF_INET6)
		apply_ip_options(s, fd, family);
	else if (sp->pass_packet_info && family == AF_NETLINK)
		set_int(s, fd, SOL_NETLINK, NETLINK_PKTINFO, 1, "PassPacketInfo=");
	if (sp->keep_alive)
		set_int(s, fd, SOL_SOCKET, SO_KEEPALIVE, 1, "KeepAlive=");
	if (sp->broadcast)
		set_int(s, fd, SOL_SOCKET, SO_BROADCAST, 1, "Broadcast=");
	if (sp->priority >= 0)
		set_int(s, fd, SOL_SOCKET, SO_PRIORITY, sp->priority, "Priority=");
	if (sp->mark_set)
		set_int(s, fd, SOL_SOCKET, SO_MARK, (int)sp->mark, "Mark=");
	if (sp->timestamping)
		set_int(s, fd, SOL_SOCKET, sp->timestamping == 2 ? SO_TIMESTAMPNS : SO_TIMESTAMP, 1,
			"Timestamping=");
}

/* ListenSpecial=: a character device or a /proc or /sys file, read-only unless
 * Writable=yes; PID 1 watches it for input like a socket. */
static int open_special(struct opening *o, const char *path)
{
	int fd = open(path, (o->s->sock.writable ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NOCTTY |
		      O_NONBLOCK);
	struct stat st;

	if (fd < 0)
		return failed(o, "open", -1);
	if (fstat(fd, &st) < 0 || S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode)) {
		errno = EINVAL;
		return failed(o, "not a special file", fd);
	}
	return fd;
}

/* A bare port listens on [::] for IPv6 and IPv4 alike, or on 0.0.0.0 without IPv6. */
static int make_socket(struct socket_address *a)
{
	int fd = socket(a->family, a->type | SOCK_CLOEXEC, a->protocol);
	struct sockaddr_in *in4 = (struct sockaddr_in *)&a->u.storage;
	unsigned short port;

	if (fd >= 0 || !a->any_v6 || errno != EAFNOSUPPORT)
		return fd;
	port = ((struct sockaddr_in6 *)&a->u.storage)->sin6_port;
	memset(&a->u.storage, 0, sizeof a->u.storage);
	in4->sin_family = AF_INET;
	in4->sin_port = port;
	in4->sin_addr.s_addr = htonl(INADDR_ANY);
	a->family = AF_INET;
	a->len = sizeof *in4;
	a->any_v6 = false;
	return socket(AF_INET, a->type | SOCK_CLOEXEC, 0);
}

static int open_socket(struct opening *o, struct socket_address *a)
{
	const struct socket_spec *sp = &o->s->sock;
	const char *path = ((const struct sockaddr_un *)&a->u.storage)->sun_path;
	bool on_disk = a->family == AF_UNIX && path[0] == '/';
	int fd;

	if (on_disk && (make_parents(path, sp->directory_mode) < 0))
		return failed(o, "mkdir", -1);
	if (on_disk && clear_path(o, a) < 0)
		return -1;
	fd = make_socket(a);
	if (fd < 0)
		return failed(o, "socket", -1);
	if (socket_options(o, a, fd) < 0) {
		close(fd);
		return -1;
	}
	if (bind(fd, &a->u.sa, a->len) < 0)
		return failed(o, "bind", fd);
	if (on_disk && chmod(path, (mode_t)sp->socket_mode) < 0) {
		failed(o, "chmod", fd);
		unlink(path);
		return -1;
	}
	if (on_disk && set_owner(o, path) < 0) {
		close(fd);
		unlink(path);
		return -1;
	}
	if ((a->type == SOCK_STREAM || a->type == SOCK_SEQPACKET) && listen(fd, sp->backlog) < 0)
		return failed(o, "listen", fd);
	return fd;
}

static int open_listen(struct opening *o)
{
	struct socket_address a;
	const char *why;

	if (socket_address_parse(o->l->type, service_str(o->s, o->l->address), &a, &why) < 0) {
		snprintf(o->err, o->errlen, "%s=%s: %s", listen_key[o->l->type],
			 service_str(o->s, o->l->address), why);
		return -1;
	}
	if (o->l->type == LISTEN_FIFO)
		return open_fifo(o, service_str(o->s, o->l->address));
	if (o->l->type == LISTEN_SPECIAL) /* sockets-accept */
		return open_special(o, service_str(o->s, o->l->address));
	return open_socket(o, &a);
}

/* Symlinks= to the unit's one path; an existing symlink is replaced, anything else at
 * a link's place is left alone and fails the unit. */
static int make_symlinks(const struct service *s, char *err, size_t errlen)
{
	int target = socket_unit_symlink_target(s);
	const char *path;
	struct stat st;

	if (target < 0)
		return 0;
	path = service_str(s, s->sock.listen[target].address);
	for (size_t i = 0; i < s->sock.symlink_count; i++) {
		const char *link = service_str(s, s->sock.symlink[i]);
		if (lstat(link, &st) == 0 && S_ISLNK(st.st_mode))
			unlink(link);
		if (make_parents(link, s->sock.directory_mode) < 0 || symlink(path, link) < 0) {
			snprintf(err, errlen, "Symlinks=%s: %s", link, strerror(errno));
			return -1;
		}
	}
	return 0;
}

static void remove_symlinks(const struct service *s)
{
	struct stat st;

	for (size_t i = 0; i < s->sock.symlink_count; i++) {
		const char *link = service_str(s, s->sock.symlink[i]);
		if (lstat(link, &st) == 0 && S_ISLNK(st.st_mode))
			unlink(link);
	}
}

int sockets_listen(struct unit *u, char *err, size_t errlen)
{
	const struct service *s = u->svc;

	for (size_t i = 0; i < s->sock.listen_count; i++) {
		struct opening o = { s, &s->sock.listen[i], err, errlen };
		int fd = open_listen(&o);
		if (fd < 0) {
			sockets_close(u);
			return -1;
		}
		u->listen_fd[i] = fd;
		/* sockets-accept: PID 1 accepts by itself, and must never block in accept() */
		if (s->sock.accept && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0) {
			snprintf(err, errlen, "%s: O_NONBLOCK: %s", service_str(s, s->sock.listen[i].address),
				 strerror(errno));
			sockets_close(u);
			return -1;
		}
	}
	if (make_symlinks(s, err, errlen) < 0) {
		sockets_close(u);
		return -1;
	}
	return 0;
}

void sockets_close(struct unit *u)
{
	const struct service *s = u->svc;

	if (s->sock.remove_on_stop && u->listen_fd[0] >= 0)
		remove_symlinks(s);

	for (size_t i = 0; i < SOCKET_LISTEN_MAX; i++) {
		const char *addr;
		if (u->listen_fd[i] < 0)
			continue;
		close(u->listen_fd[i]);
		u->listen_fd[i] = -1;
		if (i >= s->sock.listen_count || !s->sock.remove_on_stop)
			continue;
		addr = service_str(s, s->sock.listen[i].address);
		if (addr[0] == '/')
			unlink(addr);
	}
}

bool sockets_open(const struct unit *u)
{
	return u->svc->kind == UNIT_SOCKET && u->listen_fd[0] >= 0;
}

/* ---- which service, and when to watch ---------------------------------------------- */

bool sockets_activate(struct service *const *services, size_t n, const char *name)
{
	char target[SERVICE_NAME_MAX];

	for (size_t i = 0; i < n; i++)
		if (services[i]->kind == UNIT_SOCKET && !services[i]->masked &&
		    strcmp(socket_unit_service(services[i], target, sizeof target), name) == 0)
			return true;
	return false;
}

struct unit *sockets_target(struct unit *units, size_t n, const struct unit *sock)
{
	char target[SERVICE_NAME_MAX];

	socket_unit_service(sock->svc, target, sizeof target);
	for (size_t i = 0; i < n; i++)
		if (units[i].svc->kind == UNIT_SERVICE && strcmp(units[i].svc->name, target) == 0)
			return &units[i];
	return NULL;
}

bool sockets_starting(struct unit *units, size_t n, const struct unit *svc)
{
	char target[SERVICE_NAME_MAX];

	if (svc->svc->kind != UNIT_SERVICE)
		return false;
	for (size_t i = 0; i < n; i++)
		if (units[i].svc->kind == UNIT_SOCKET && units[i].state == UNIT_STARTING &&
		    strcmp(socket_unit_service(units[i].svc, target, sizeof target),
			   svc->svc->name) == 0)
			return true;
	return false;
}

/* Down and startable: never started, stopped, or failed with no restart coming. */
static bool service_down(const struct unit *svc)
{
	if (svc->main_pid > 0 || svc->control_pid > 0 || svc->restart_pending)
		return false;
	return svc->state == UNIT_INACTIVE || svc->state == UNIT_STOPPED ||
	       (svc->state == UNIT_FAILED && svc->phase != PHASE_KILL &&
		svc->phase != PHASE_STOP_CMD) ||
	       svc->state == UNIT_CONDITION;
}

bool sockets_watched(struct unit *units, size_t n, const struct unit *sock)
{
	const struct unit *svc;

	if (!sockets_open(sock) || sock->state != UNIT_READY)
		return false;
	if (sock->svc->sock.accept) /* sockets-accept: every connection, while listening */
		return true;
	svc = sockets_target(units, n, sock);
	return svc && service_down(svc);
}

size_t sockets_pollfds(struct unit *units, size_t n, struct pollfd *fds, size_t max)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		struct unit *u = &units[i];
		if (u->svc->kind != UNIT_SOCKET || !sockets_watched(units, n, u))
			continue;
		for (size_t j = 0; j < u->svc->sock.listen_count && k < max; j++)
			fds[k++] = (struct pollfd){ .fd = u->listen_fd[j], .events = POLLIN };
	}
	return k;
}

struct unit *sockets_owner(struct unit *units, size_t n, int fd)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; units[i].svc->kind == UNIT_SOCKET && j < SOCKET_LISTEN_MAX; j++)
			if (units[i].listen_fd[j] == fd)
				return &units[i];
	return NULL;
}

/* Count one event in a window that starts with the first one: false once more than
 * burst happened within interval_ms. burst 0: no limit. */
static bool within_limit(unsigned *count, long long *window_ms, long long now_ms,
			 unsigned burst, unsigned long interval_ms)
{
	if (*window_ms < 0 || now_ms - *window_ms > (long long)interval_ms) {
		*window_ms = now_ms;
		*count = 0;
	}
	return burst == 0 || ++*count <= burst;
}

bool sockets_trigger_allowed(struct unit *sock, long long now_ms)
{
	return within_limit(&sock->triggers, &sock->trigger_window_ms, now_ms,
			    TRIGGER_LIMIT_BURST, TRIGGER_LIMIT_INTERVAL_MS);
}

bool sockets_failure_allowed(struct unit *sock, const struct unit *svc, long long now_ms)
{
	if (svc->state != UNIT_FAILED) {
		sock->failures = 0;
		sock->failure_window_ms = -1;
		return true;
	}
	return within_limit(&sock->failures, &sock->failure_window_ms, now_ms,
			    svc->svc->start_limit_burst, svc->svc->start_limit_interval_ms);
}

/* ---- passing the fds --------------------------------------------------------------- */

static int add_name(struct listen_pass *pass, const char *name)
{
	size_t used = strlen(pass->names), len = strlen(name);

	if (used + len + 2 > sizeof pass->names)
		return -1;
	if (pass->count > 0)
		pass->names[used++] = ':';
	memcpy(pass->names + used, name, len + 1);
	return 0;
}

int sockets_collect(struct unit *units, size_t n, const struct unit *svc,
		    struct listen_pass *pass, char *err, size_t errlen)
{
	char target[SERVICE_NAME_MAX];

	pass->count = 0;
	snprintf(pass->names, sizeof pass->names, "LISTEN_FDNAMES=");
	pass->non_blocking = svc->svc->non_blocking;
	pass->remote_addr[0] = pass->remote_port[0] = '\0';
	if (accept_conn_fd(svc->svc->name) >= 0) { /* sockets-accept: its one connection */
		pass->fd[pass->count++] = accept_conn_fd(svc->svc->name);
		snprintf(pass->names, sizeof pass->names, "LISTEN_FDNAMES=connection");
		accept_conn_remote(svc->svc->name, pass->remote_addr, sizeof pass->remote_addr,
				   pass->remote_port, sizeof pass->remote_port);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		const struct unit *u = &units[i];
		if (!sockets_open(u) ||
		    strcmp(socket_unit_service(u->svc, target, sizeof target), svc->svc->name) != 0)
			continue;
		for (size_t j = 0; j < u->svc->sock.listen_count; j++) {
			if (pass->count >= LISTEN_PASS_MAX ||
			    add_name(pass, socket_unit_fdname(u->svc)) < 0) {
				snprintf(err, errlen, "more than %d socket fds or names for one service",
					 LISTEN_PASS_MAX);
				pass->count = 0;
				return -1;
			}
			pass->fd[pass->count++] = u->listen_fd[j];
		}
	}
	return 0;
}

void sockets_write_pid(char *field, pid_t pid)
{
	char digits[16];
	size_t n = 0;
	unsigned long v = (unsigned long)pid;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v && n < 10);
	for (size_t i = 0; i < n; i++)
		field[i] = digits[n - 1 - i];
	field[n] = '\0';
}

int sockets_child_pass(const struct listen_pass *pass, int *const moved[], size_t nmoved,
		       char *pid_field)
{
	int top = 3 + (int)pass->count, tmp[LISTEN_PASS_MAX];

	for (size_t i = 0; i < nmoved; i++) {
		if (*moved[i] < 3 || *moved[i] >= top)
			continue;
		if ((*moved[i] = fcntl(*moved[i], F_DUPFD_CLOEXEC, top)) < 0)
			return -1;
	}
	/* Copies above the target range first: a source may itself sit in 3..top. */
	for (size_t i = 0; i < pass->count; i++)
		if ((tmp[i] = fcntl(pass->fd[i], F_DUPFD_CLOEXEC, top)) < 0)
			return -1;
	for (size_t i = 0; i < pass->count; i++) {
		if (dup2(tmp[i], 3 + (int)i) < 0) /* the new fd is not close-on-exec */
			return -1;
		if (pass->non_blocking && fcntl(3 + (int)i, F_SETFL,
						fcntl(3 + (int)i, F_GETFL) | O_NONBLOCK) < 0)
			return -1;
		close(tmp[i]);
	}
	sockets_write_pid(pid_field, getpid());
	return 0;
}

/* sockets-accept: StandardInput=/StandardOutput=socket: a copy of the instance's
 * connection (Accept=yes), or of the one fd a socket unit passes (Accept=no, as systemd
 * allows with exactly one). -1/ENOTSOCK otherwise. */
int sockets_stdio_fd(const struct unit *svc)
{
	static struct listen_pass pass;
	/* The supervisor's table, read only (sockets_collect changes nothing in it). */
	struct unit *units = (struct unit *)supervisor_unit(0);
	char err[64];
	int fd = accept_conn_fd(svc->svc->name);

	if (fd < 0 && units &&
	    sockets_collect(units, supervisor_count(), svc, &pass, err, sizeof err) == 0 &&
	    pass.count == 1)
		fd = pass.fd[0];
	if (fd < 0) {
		errno = ENOTSOCK;
		return -1;
	}
	return fcntl(fd, F_DUPFD_CLOEXEC, 3);
}
