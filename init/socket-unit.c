/* U4: the [Socket] section of .socket units, and listen addresses. Pure: no I/O, no
 * allocation; strings go to the unit's own text storage through service_text_store().
 * Syntax and meanings: docs/services.md, "Socket units". */
#include "socket-unit.h"

#include <arpa/inet.h>
#include <limits.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/un.h>

#include "parse.h"

#define FDNAME_MAX 255 /* as sd_listen_fds_with_names() allows */

static int fail(struct service *svc, const struct service_diag *diag, unsigned line,
		const char *key, const char *value, const char *why)
{
	service_fail(svc, diag, line, "%s=%.64s%s: %s", key, value,
		     strlen(value) > 64 ? "..." : "", why);
	return -1;
}

static int store(struct service *svc, const struct service_diag *diag, unsigned line,
		 const char *key, const char *value, strref *ref)
{
	*ref = 0;
	*ref = service_text_store(svc, value);
	if (!*ref)
		return fail(svc, diag, line, key, value, "too much text in this file");
	return 0;
}

/* ---- addresses ------------------------------------------------------------------------ */

static const struct {
	const char *name;
	int protocol;
} netlink_families[] = {
	{ "route", NETLINK_ROUTE }, { "usersock", NETLINK_USERSOCK },
	{ "firewall", NETLINK_FIREWALL }, { "sock_diag", NETLINK_SOCK_DIAG },
	{ "inet-diag", NETLINK_INET_DIAG }, { "nflog", NETLINK_NFLOG },
	{ "xfrm", NETLINK_XFRM }, { "selinux", NETLINK_SELINUX },
	{ "iscsi", NETLINK_ISCSI }, { "audit", NETLINK_AUDIT },
	{ "fib_lookup", NETLINK_FIB_LOOKUP }, { "connector", NETLINK_CONNECTOR },
	{ "netfilter", NETLINK_NETFILTER }, { "ip6-fw", NETLINK_IP6_FW },
	{ "dnrtmsg", NETLINK_DNRTMSG }, { "kobject-uevent", NETLINK_KOBJECT_UEVENT },
	{ "generic", NETLINK_GENERIC }, { "scsitransport", NETLINK_SCSITRANSPORT },
	{ "ecryptfs", NETLINK_ECRYPTFS }, { "rdma", NETLINK_RDMA },
	{ "crypto", NETLINK_CRYPTO },
};

static int parse_netlink(const char *s, struct socket_address *out, const char **why)
{
	char family[32];
	size_t n = strcspn(s, " \t");
	const char *rest = s + n;
	unsigned long group = 0;
	struct sockaddr_nl *nl = (struct sockaddr_nl *)&out->u.storage;

	*why = "expected a netlink family (route, kobject-uevent, audit, ...) and a group number";
	if (n == 0 || n >= sizeof family)
		return -1;
	memcpy(family, s, n);
	family[n] = '\0';
	while (*rest == ' ' || *rest == '\t')
		rest++;
	if (*rest && parse_ulong(rest, 0, 0xffffffffUL, &group) < 0)
		return -1;
	for (size_t i = 0; i < sizeof netlink_families / sizeof *netlink_families; i++) {
		if (strcmp(family, netlink_families[i].name) != 0)
			continue;
		out->family = AF_NETLINK;
		out->type = SOCK_RAW;
		out->protocol = netlink_families[i].protocol;
		nl->nl_family = AF_NETLINK;
		nl->nl_groups = (unsigned)group;
		out->len = sizeof *nl;
		return 0;
	}
	*why = "unknown netlink family";
	return -1;
}

static int parse_unix(const char *s, struct socket_address *out, const char **why)
{
	struct sockaddr_un *un = (struct sockaddr_un *)&out->u.storage;
	size_t len = strlen(s);

	if (len >= sizeof un->sun_path) {
		*why = "a socket path must be shorter than 108 bytes";
		return -1;
	}
	if (s[0] == '/' && (strstr(s, "/../") || strstr(s, "//") ||
			    (len >= 3 && strcmp(s + len - 3, "/..") == 0))) {
		*why = "expected a clean absolute path (no // or /../)";
		return -1;
	}
	if (s[0] == '@' && len < 2) {
		*why = "an abstract socket needs a name after @";
		return -1;
	}
	out->family = AF_UNIX;
	un->sun_family = AF_UNIX;
	memcpy(un->sun_path, s, len);
	if (s[0] == '@') /* abstract: no NUL at the end, the length says where it stops */
		un->sun_path[0] = '\0';
	out->len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len + (s[0] == '/'));
	return 0;
}

static int parse_port(const char *s, unsigned short *port)
{
	unsigned long n;

	if (parse_ulong(s, 1, 65535, &n) < 0)
		return -1;
	*port = (unsigned short)n;
	return 0;
}

static int parse_inet(const char *s, struct socket_address *out, const char **why)
{
	struct sockaddr_in *in4 = (struct sockaddr_in *)&out->u.storage;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&out->u.storage;
	char host[64];
	const char *colon;
	unsigned short port;
	size_t n;

	*why = "expected an absolute path, @abstract name, port, IPv4:port or [IPv6]:port";
	if (!strchr(s, ':')) { /* a bare port: every address, IPv6 and IPv4 alike */
		if (parse_port(s, &port) < 0)
			return -1;
		out->family = AF_INET6;
		out->any_v6 = true;
		in6->sin6_family = AF_INET6;
		in6->sin6_addr = in6addr_any;
		in6->sin6_port = htons(port);
		out->len = sizeof *in6;
		return 0;
	}
	if (s[0] == '[') {
		const char *close = strchr(s, ']');
		if (!close || close[1] != ':' || (n = (size_t)(close - s - 1)) >= sizeof host)
			return -1;
		memcpy(host, s + 1, n);
		host[n] = '\0';
		if (strchr(host, '%')) {
			*why = "IPv6 scope ids (%interface) are not supported";
			return -1;
		}
		if (inet_pton(AF_INET6, host, &in6->sin6_addr) != 1 || parse_port(close + 2, &port) < 0)
			return -1;
		out->family = AF_INET6;
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		out->len = sizeof *in6;
		return 0;
	}
	colon = strrchr(s, ':');
	n = (size_t)(colon - s);
	if (n >= sizeof host)
		return -1;
	memcpy(host, s, n);
	host[n] = '\0';
	if (inet_pton(AF_INET, host, &in4->sin_addr) != 1 || parse_port(colon + 1, &port) < 0)
		return -1;
	out->family = AF_INET;
	in4->sin_family = AF_INET;
	in4->sin_port = htons(port);
	out->len = sizeof *in4;
	return 0;
}

int socket_address_parse(int type, const char *s, struct socket_address *out, const char **why)
{
	memset(out, 0, sizeof *out);
	switch (type) {
	case LISTEN_NETLINK:
		return parse_netlink(s, out, why);
	case LISTEN_SPECIAL: /* sockets-accept: a file ember opens, checked like a FIFO's path */
	case LISTEN_FIFO:
		if (s[0] != '/') {
			*why = "expected an absolute path";
			return -1;
		}
		return parse_unix(s, out, why);
	case LISTEN_DATAGRAM: out->type = SOCK_DGRAM; break;
	case LISTEN_SEQPACKET: out->type = SOCK_SEQPACKET; break;
	default: out->type = SOCK_STREAM; break;
	}
	if (strncmp(s, "vsock:", 6) == 0) {
		*why = "vsock addresses are not supported";
		return -1;
	}
	if (s[0] == '/' || s[0] == '@')
		return parse_unix(s, out, why);
	if (type == LISTEN_SEQPACKET) {
		*why = "ListenSequentialPacket= takes a path or an @abstract name";
		return -1;
	}
	return parse_inet(s, out, why);
}

/* ---- keys ----------------------------------------------------------------------------- */

struct ctx {
	struct service *svc;
	const struct service_diag *diag;
	unsigned line;
	const char *key;
};

static int bad(struct ctx *c, const char *value, const char *why)
{
	return fail(c->svc, c->diag, c->line, c->key, value, why);
}

static int add_listen(struct ctx *c, int type, const char *value)
{
	struct socket_spec *s = &c->svc->sock;
	struct socket_address addr;
	const char *why;

	if (!*value) { /* an empty assignment resets the list, as in systemd */
		s->listen_count = 0;
		return 0;
	}
	if (socket_address_parse(type, value, &addr, &why) < 0)
		return bad(c, value, why);
	if (s->listen_count >= SOCKET_LISTEN_MAX)
		return bad(c, value, "more than 8 Listen*= entries");
	s->listen[s->listen_count].type = (uint8_t)type;
	if (store(c->svc, c->diag, c->line, c->key, value, &s->listen[s->listen_count].address) < 0)
		return -1;
	s->listen_count++;
	return 0;
}

static int set_bool(struct ctx *c, const char *value, bool *out)
{
	if (!*value) {
		*out = false;
		return 0;
	}
	if (parse_bool(value, out) < 0)
		return bad(c, value, "expected yes or no");
	return 0;
}

static int set_mode(struct ctx *c, const char *value, unsigned *out, unsigned dflt)
{
	unsigned long mode = 0;

	if (!*value) {
		*out = dflt;
		return 0;
	}
	for (const char *p = value; *p; p++) {
		if (*p < '0' || *p > '7' || mode > 07777)
			return bad(c, value, "expected an octal mode such as 0660");
		mode = mode * 8 + (unsigned long)(*p - '0');
	}
	if (mode > 07777)
		return bad(c, value, "expected an octal mode such as 0660");
	*out = (unsigned)mode;
	return 0;
}

static bool fdname_valid(const char *s)
{
	size_t len = strlen(s);

	if (len == 0 || len > FDNAME_MAX)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s < 0x21 || (unsigned char)*s > 0x7e || *s == ':')
			return false;
	return true;
}

static int set_service(struct ctx *c, const char *value)
{
	char name[SERVICE_NAME_MAX + sizeof SERVICE_SUFFIX];
	size_t len = strlen(value), suffix = strlen(SERVICE_SUFFIX);

	if (!*value) {
		c->svc->sock.service = 0;
		return 0;
	}
	if (len <= suffix || strcmp(value + len - suffix, SERVICE_SUFFIX) != 0 ||
	    len - suffix >= SERVICE_NAME_MAX)
		return bad(c, value, "expected a service name ending in .service");
	snprintf(name, sizeof name, "%.*s", (int)(len - suffix), value);
	if (!service_name_valid(name))
		return bad(c, value, "not a valid service name");
	return store(c->svc, c->diag, c->line, c->key, name, &c->svc->sock.service);
}

static int set_account(struct ctx *c, const char *value, strref *ref)
{
	if (!*value) {
		*ref = 0;
		return 0;
	}
	if (!service_account_name_valid(value))
		return bad(c, value, "not a valid user or group name or id");
	return store(c->svc, c->diag, c->line, c->key, value, ref);
}

static int set_backlog(struct ctx *c, const char *value)
{
	unsigned long n;

	if (!*value) {
		c->svc->sock.backlog = SOCKET_BACKLOG_DEFAULT;
		return 0;
	}
	if (parse_ulong(value, 1, INT_MAX, &n) < 0)
		return bad(c, value, "expected a positive number");
	c->svc->sock.backlog = (int)n;
	return 0;
}

static int set_buffer(struct ctx *c, const char *value, unsigned long long *out)
{
	if (!*value) {
		*out = 0;
		return 0;
	}
	if (parse_size(value, out) < 0 || *out == ~0ULL || *out > INT_MAX)
		return bad(c, value, "expected bytes with an optional K, M or G suffix, below 2G");
	return 0;
}

/* systemd also takes a boolean here: yes means ipv6-only, no means both. */
static int set_ipv6_only(struct ctx *c, const char *value)
{
	static const char *const modes[] = { "default", "both", "ipv6-only" };
	bool yes;

	for (uint8_t i = 0; i < 3; i++)
		if (strcmp(value, modes[i]) == 0 || (!*value && i == 0)) {
			c->svc->sock.bind_ipv6_only = i;
			return 0;
		}
	if (parse_bool(value, &yes) == 0) {
		c->svc->sock.bind_ipv6_only = yes ? 2 : 1;
		return 0;
	}
	return bad(c, value, "expected default, both, ipv6-only or a boolean");
}

static int add_symlinks(struct ctx *c, const char *value)
{
	struct socket_spec *s = &c->svc->sock;
	char copy[SERVICE_LINE_MAX];
	char *save = NULL;

	if (!*value) {
		s->symlink_count = 0;
		return 0;
	}
	snprintf(copy, sizeof copy, "%s", value);
	for (char *p = strtok_r(copy, " \t", &save); p; p = strtok_r(NULL, " \t", &save)) {
		if (p[0] != '/' || strstr(p, "/../") || strstr(p, "//"))
			return bad(c, p, "expected clean absolute paths");
		if (s->symlink_count >= SOCKET_SYMLINKS_MAX)
			return bad(c, value, "more than 4 symlinks");
		if (store(c->svc, c->diag, c->line, c->key, p, &s->symlink[s->symlink_count]) < 0)
			return -1;
		s->symlink_count++;
	}
	return 0;
}


/* ---- sockets-accept: Accept=yes limits and the one-setsockopt keys ------------------ */

/* A time span in whole seconds (rounded up, as the kernel's TCP options take seconds). */
static int set_seconds(struct ctx *c, const char *value, uint16_t *out)
{
	unsigned long ms;

	if (!*value) {
		*out = 0;
		return 0;
	}
	if (parse_duration_ms(value, &ms) < 0 || ms / 1000 >= 65535)
		return bad(c, value, "expected a time span below 18 hours (30s, 2min)");
	*out = (uint16_t)((ms + 999) / 1000);
	return 0;
}

static int set_number(struct ctx *c, const char *value, unsigned long min, unsigned long max,
		      unsigned long *out)
{
	if (parse_ulong(value, min, max, out) < 0) {
		char why[64];
		snprintf(why, sizeof why, "expected a number from %lu to %lu", min, max);
		return bad(c, value, why);
	}
	return 0;
}

/* IPTOS=: a number or one of the names systemd knows. */
static int set_tos(struct ctx *c, const char *value)
{
	static const struct { const char *name; int tos; } names[] = {
		{ "low-delay", 0x10 }, { "throughput", 0x08 }, { "reliability", 0x04 },
		{ "low-cost", 0x02 },
	};
	unsigned long n;

	c->svc->sock.ip_tos = -1;
	if (!*value)
		return 0;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(value, names[i].name) == 0) {
			c->svc->sock.ip_tos = (int16_t)names[i].tos;
			return 0;
		}
	if (parse_ulong(value, 0, 255, &n) < 0)
		return bad(c, value, "expected 0-255, low-delay, throughput, reliability or low-cost");
	c->svc->sock.ip_tos = (int16_t)n;
	return 0;
}

static int set_timestamping(struct ctx *c, const char *value)
{
	static const struct { const char *name; uint8_t v; } modes[] = {
		{ "", 0 }, { "off", 0 }, { "us", 1 }, { "usec", 1 }, { "\xce\xbcs", 1 }, /* μs */
		{ "ns", 2 }, { "nsec", 2 },
	};

	for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
		if (strcmp(value, modes[i].name) == 0) {
			c->svc->sock.timestamping = modes[i].v;
			return 0;
		}
	return bad(c, value, "expected off, us or ns");
}

/* 0: taken, -1: invalid, 1: not one of these keys. */
static int assign_option(struct ctx *c, const char *value)
{
	struct socket_spec *s = &c->svc->sock;
	const char *k = c->key;
	unsigned long n = 0;

	if (strcmp(k, "MaxConnections") == 0 || strcmp(k, "MaxConnectionsPerSource") == 0) {
		if (*value && set_number(c, value, 1, 65535, &n) < 0)
			return -1;
		*(k[14] ? &s->max_per_source : &s->max_connections) = (uint16_t)n;
		return 0;
	}
	if (strcmp(k, "KeepAliveTimeSec") == 0)
		return set_seconds(c, value, &s->keep_alive_time_s);
	if (strcmp(k, "KeepAliveIntervalSec") == 0)
		return set_seconds(c, value, &s->keep_alive_interval_s);
	if (strcmp(k, "DeferAcceptSec") == 0)
		return set_seconds(c, value, &s->defer_accept_s);
	if (strcmp(k, "KeepAliveProbes") == 0) {
		if (*value && set_number(c, value, 1, 127, &n) < 0)
			return -1;
		s->keep_alive_probes = (uint8_t)n;
		return 0;
	}
	if (strcmp(k, "IPTOS") == 0)
		return set_tos(c, value);
	if (strcmp(k, "IPTTL") == 0) {
		if (*value && set_number(c, value, 0, 255, &n) < 0)
			return -1;
		s->ip_ttl = *value ? (int16_t)n : -1;
		return 0;
	}
	if (strcmp(k, "Priority") == 0) {
		if (*value && set_number(c, value, 0, INT_MAX, &n) < 0)
			return -1;
		s->priority = *value ? (int32_t)n : -1;
		return 0;
	}
	if (strcmp(k, "Mark") == 0) {
		if (*value && set_number(c, value, 0, 0xffffffffUL, &n) < 0)
			return -1;
		s->mark = (uint32_t)n;
		s->mark_set = *value != '\0';
		return 0;
	}
	if (strcmp(k, "Timestamping") == 0)
		return set_timestamping(c, value);
	return 1;
}

static const struct {
	const char *key;
	int type;
} listen_keys[] = {
	{ "ListenStream", LISTEN_STREAM }, { "ListenDatagram", LISTEN_DATAGRAM },
	{ "ListenSequentialPacket", LISTEN_SEQPACKET }, { "ListenFIFO", LISTEN_FIFO },
	{ "ListenNetlink", LISTEN_NETLINK }, { "ListenSpecial", LISTEN_SPECIAL },
};

static int assign_flag(struct ctx *c, const char *value)
{
	struct socket_spec *s = &c->svc->sock;
	static const struct {
		const char *key;
		size_t offset;
	} flags[] = {
		{ "RemoveOnStop", offsetof(struct socket_spec, remove_on_stop) },
		{ "PassCredentials", offsetof(struct socket_spec, pass_credentials) },
		{ "PassSecurity", offsetof(struct socket_spec, pass_security) },
		{ "ReusePort", offsetof(struct socket_spec, reuse_port) },
		{ "FreeBind", offsetof(struct socket_spec, free_bind) },
		{ "Transparent", offsetof(struct socket_spec, transparent) },
		/* sockets-accept */
		{ "Accept", offsetof(struct socket_spec, accept) },
		{ "KeepAlive", offsetof(struct socket_spec, keep_alive) },
		{ "NoDelay", offsetof(struct socket_spec, no_delay) },
		{ "Broadcast", offsetof(struct socket_spec, broadcast) },
		{ "PassPacketInfo", offsetof(struct socket_spec, pass_packet_info) },
		{ "Writable", offsetof(struct socket_spec, writable) },
	};
	for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
		if (strcmp(c->key, flags[i].key) == 0)
			return set_bool(c, value, (bool *)((char *)s + flags[i].offset));
	return 1;
}

int socket_unit_assign(struct service *svc, const struct service_diag *diag, unsigned line,
		       const char *key, const char *value)
{
	struct ctx c = { svc, diag, line, key };
	struct socket_spec *s = &svc->sock;
	int r;

	for (size_t i = 0; i < sizeof listen_keys / sizeof *listen_keys; i++)
		if (strcmp(key, listen_keys[i].key) == 0)
			return add_listen(&c, listen_keys[i].type, value);
	if (strcmp(key, "SocketMode") == 0)
		return set_mode(&c, value, &s->socket_mode, 0666);
	if (strcmp(key, "DirectoryMode") == 0)
		return set_mode(&c, value, &s->directory_mode, 0755);
	if (strcmp(key, "SocketUser") == 0)
		return set_account(&c, value, &s->user);
	if (strcmp(key, "SocketGroup") == 0)
		return set_account(&c, value, &s->group);
	if (strcmp(key, "Service") == 0)
		return set_service(&c, value);
	if (strcmp(key, "Backlog") == 0)
		return set_backlog(&c, value);
	if (strcmp(key, "ReceiveBuffer") == 0)
		return set_buffer(&c, value, &s->receive_buffer);
	if (strcmp(key, "SendBuffer") == 0)
		return set_buffer(&c, value, &s->send_buffer);
	if (strcmp(key, "BindIPv6Only") == 0)
		return set_ipv6_only(&c, value);
	if (strcmp(key, "Symlinks") == 0)
		return add_symlinks(&c, value);
	if (strcmp(key, "FileDescriptorName") == 0) {
		if (*value && !fdname_valid(value))
			return bad(&c, value, "expected 1-255 printable characters without ':'");
		return *value ? store(svc, diag, line, key, value, &s->fdname) : (s->fdname = 0, 0);
	}
	r = assign_option(&c, value);
	return r <= 0 ? r : assign_flag(&c, value);
}

/* The one path (socket file or FIFO) Symlinks= point to: its index, or -1 when there is
 * not exactly one. */
int socket_unit_symlink_target(const struct service *svc)
{
	int found = -1;

	for (size_t i = 0; i < svc->sock.listen_count; i++) {
		if (service_str(svc, svc->sock.listen[i].address)[0] != '/' ||
		    svc->sock.listen[i].type == LISTEN_NETLINK)
			continue;
		if (found >= 0)
			return -1;
		found = (int)i;
	}
	return found;
}

/* Accept=yes: one instance of NAME@.service per connection, so every entry must be one
 * that connections arrive on, and the template's name follows from the socket's. */
static void validate_accept(struct service *svc, const struct service_diag *diag)
{
	for (size_t i = 0; i < svc->sock.listen_count; i++) {
		int type = svc->sock.listen[i].type;
		if (type != LISTEN_STREAM && type != LISTEN_SEQPACKET) {
			service_fail(svc, diag, 0, "Accept=yes needs ListenStream= or "
				     "ListenSequentialPacket= entries only (connections to accept)");
			return;
		}
	}
	if (svc->sock.service)
		service_fail(svc, diag, 0, "Service= cannot be used with Accept=yes (each "
			     "connection starts an instance of the socket's own NAME@.service)");
}

void socket_unit_validate(struct service *svc, const struct service_diag *diag)
{
	if (svc->sock.listen_count == 0)
		service_fail(svc, diag, 0, "no ListenStream=, ListenDatagram=, "
			     "ListenSequentialPacket=, ListenFIFO= or ListenNetlink= in [Socket]");
	else if (svc->sock.symlink_count > 0 && socket_unit_symlink_target(svc) < 0)
		service_fail(svc, diag, 0, "Symlinks= needs exactly one Listen*= entry with a path");
	else if (svc->sock.accept)
		validate_accept(svc, diag);
}

/* sockets-accept: the keys this file implements, for `emberctl verify --keys`. */
static const char *const implemented_keys[] = {
	"ListenStream", "ListenDatagram", "ListenSequentialPacket", "ListenFIFO",
	"ListenNetlink", "ListenSpecial", "SocketMode", "DirectoryMode", "SocketUser",
	"SocketGroup", "Service", "Backlog", "ReceiveBuffer", "SendBuffer", "BindIPv6Only",
	"Symlinks", "FileDescriptorName", "RemoveOnStop", "PassCredentials", "PassSecurity",
	"ReusePort", "FreeBind", "Transparent", "Accept", "MaxConnections",
	"MaxConnectionsPerSource", "KeepAlive", "KeepAliveTimeSec", "KeepAliveIntervalSec",
	"KeepAliveProbes", "NoDelay", "Priority", "DeferAcceptSec", "IPTOS", "IPTTL", "Mark",
	"Broadcast", "PassPacketInfo", "Timestamping", "Writable", NULL,
};

const char *const *socket_unit_keys(void)
{
	return implemented_keys;
}

const char *socket_unit_service(const struct service *sock, char *buf, size_t size)
{
	if (sock->sock.accept) /* sockets-accept: the template, "sshd@" for sshd.socket */
		return socket_unit_template(sock, buf, size);
	size_t len = strlen(sock->name), suffix = strlen(SOCKET_SUFFIX);

	if (sock->sock.service)
		snprintf(buf, size, "%s", service_str(sock, sock->sock.service));
	else if (len > suffix && strcmp(sock->name + len - suffix, SOCKET_SUFFIX) == 0)
		snprintf(buf, size, "%.*s", (int)(len - suffix), sock->name);
	else
		snprintf(buf, size, "%s", sock->name);
	return buf;
}

const char *socket_unit_fdname(const struct service *sock)
{
	return sock->sock.fdname ? service_str(sock, sock->sock.fdname) : sock->name;
}

const char *socket_unit_template(const struct service *sock, char *buf, size_t size)
{
	size_t len = strlen(sock->name), suffix = strlen(SOCKET_SUFFIX);

	if (len > suffix && strcmp(sock->name + len - suffix, SOCKET_SUFFIX) == 0)
		len -= suffix;
	snprintf(buf, size, "%.*s@", (int)len, sock->name);
	return buf;
}
