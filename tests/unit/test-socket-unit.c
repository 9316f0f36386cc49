// sources: init/service.c init/unit-runtime-keys.c init/exec-line.c init/socket-unit.c init/condition.c init/unit-compat.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* .socket units and Type=dbus in the parser: every [Socket] key, the address forms,
 * the fd names, and each bad value failing the unit with the key and the reason. */
#include "harness.h"

#include <limits.h>
#include "../../init/service.h"
#include "../../init/socket-unit.h"

#include <arpa/inet.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/un.h>

static struct service svc;
static int warnings, errors;
static char first_error[512], first_warning[512];

static void record(void *ctx, enum service_severity severity, const char *file, unsigned line,
		   const char *message)
{
	char *dst = severity == SERVICE_WARNING ? first_warning : first_error;
	int *count = severity == SERVICE_WARNING ? &warnings : &errors;

	if ((*count)++ == 0)
		snprintf(dst, sizeof first_error, "%s:%u: %s", file, line, message);
}

static const struct service_diag diag = { record, NULL, false };

static int parse_unit(const char *name, enum unit_kind kind, const char *text)
{
	char path[128];

	warnings = errors = 0;
	first_error[0] = first_warning[0] = '\0';
	snprintf(path, sizeof path, "/etc/ember/services/%s%s", name,
		 kind == UNIT_SERVICE ? ".service" : "");
	service_init(&svc, name, path);
	svc.kind = kind;
	return service_parse(&svc, text, strlen(text), &diag);
}

static int parse_socket(const char *text)
{
	return parse_unit("demo.socket", UNIT_SOCKET, text);
}

/* Debian's dbus.socket, as shipped. */
static void debian_dbus_socket_loads(void)
{
	char name[SERVICE_NAME_MAX];

	CHECK(parse_socket("[Unit]\nDescription=D-Bus System Message Bus Socket\n\n"
			   "[Socket]\nListenStream=/run/dbus/system_bus_socket\n\n"
			   "[Install]\nWantedBy=sockets.target\n") == 0);
	CHECK(errors == 0);
	CHECK(svc.sock.listen_count == 1);
	CHECK(svc.sock.listen[0].type == LISTEN_STREAM);
	CHECK_STR(service_str(&svc, svc.sock.listen[0].address), "/run/dbus/system_bus_socket");
	CHECK(svc.sock.socket_mode == 0666);
	CHECK(svc.sock.directory_mode == 0755);
	CHECK(svc.sock.backlog == INT_MAX); /* systemd's: the kernel holds it to somaxconn */
	CHECK_STR(socket_unit_service(&svc, name, sizeof name), "demo");
	CHECK_STR(socket_unit_fdname(&svc), "demo.socket");
}

static void every_key_parsed(void)
{
	char name[SERVICE_NAME_MAX];

	CHECK(parse_socket("[Socket]\nListenStream=@abstract-name\nListenDatagram=/run/d.sock\n"
			   "ListenSequentialPacket=/run/s.sock\nListenFIFO=/run/f.fifo\n"
			   "ListenNetlink=kobject-uevent 1\nListenStream=127.0.0.1:8080\n"
			   "ListenStream=[::1]:8081\nListenStream=8082\n"
			   "SocketMode=0600\nDirectoryMode=0750\nSocketUser=nobody\nSocketGroup=0\n"
			   "FileDescriptorName=varlink\nService=other.service\nAccept=no\n"
			   "RemoveOnStop=yes\nPassCredentials=yes\nPassSecurity=true\n"
			   "Backlog=16\nReusePort=yes\nFreeBind=yes\nTransparent=no\n"
			   "ReceiveBuffer=8M\nSendBuffer=4096\nBindIPv6Only=ipv6-only\n") == 0);
	CHECK(errors == 0 && warnings == 0);
	CHECK(svc.sock.listen_count == 8);
	CHECK(svc.sock.listen[1].type == LISTEN_DATAGRAM);
	CHECK(svc.sock.listen[2].type == LISTEN_SEQPACKET);
	CHECK(svc.sock.listen[3].type == LISTEN_FIFO);
	CHECK(svc.sock.listen[4].type == LISTEN_NETLINK);
	CHECK(svc.sock.socket_mode == 0600 && svc.sock.directory_mode == 0750);
	CHECK_STR(service_str(&svc, svc.sock.user), "nobody");
	CHECK_STR(service_str(&svc, svc.sock.group), "0");
	CHECK_STR(socket_unit_fdname(&svc), "varlink");
	CHECK_STR(socket_unit_service(&svc, name, sizeof name), "other");
	CHECK(svc.sock.remove_on_stop && svc.sock.pass_credentials && svc.sock.pass_security);
	CHECK(svc.sock.backlog == 16 && svc.sock.reuse_port && svc.sock.free_bind);
	CHECK(!svc.sock.transparent);
	CHECK(svc.sock.receive_buffer == 8ULL << 20 && svc.sock.send_buffer == 4096);
	CHECK(svc.sock.bind_ipv6_only == 2);
}

static void symlinks_need_one_path(void)
{
	CHECK(parse_socket("[Socket]\nListenDatagram=/run/j/dev-log\nSymlinks=/dev/log /run/log\n") == 0);
	CHECK(svc.sock.symlink_count == 2);
	CHECK_STR(service_str(&svc, svc.sock.symlink[1]), "/run/log");
	CHECK(socket_unit_symlink_target(&svc) == 0);
	CHECK(parse_socket("[Socket]\nListenStream=/run/a\nListenStream=/run/b\nSymlinks=/dev/x\n") < 0);
	CHECK(strstr(first_error, "exactly one Listen*= entry with a path") != NULL);
	CHECK(parse_socket("[Socket]\nListenStream=@abs\nSymlinks=/dev/x\n") < 0);
}

static void empty_listen_resets_list(void)
{
	CHECK(parse_socket("[Socket]\nListenStream=/run/a\nListenStream=\nListenStream=/run/b\n") == 0);
	CHECK(svc.sock.listen_count == 1);
	CHECK_STR(service_str(&svc, svc.sock.listen[0].address), "/run/b");
}

static void specifiers_expanded(void)
{
	CHECK(parse_socket("[Socket]\nListenStream=/run/%n\nFileDescriptorName=%%x\n") == 0);
	CHECK_STR(service_str(&svc, svc.sock.listen[0].address), "/run/demo.socket");
}

struct bad {
	const char *line;
	const char *why;
};

static const struct bad bad_lines[] = {
	{ "ListenStream=relative/path", "expected an absolute path, @abstract name, port" },
	{ "ListenStream=/run/a/../b", "expected a clean absolute path" },
	{ "ListenStream=@", "an abstract socket needs a name" },
	{ "ListenStream=0", "expected an absolute path" },
	{ "ListenStream=65536", "expected an absolute path" },
	{ "ListenStream=1.2.3:80", "expected an absolute path" },
	{ "ListenStream=[::1:80", "expected an absolute path" },
	{ "ListenStream=[fe80::1%%eth0]:80", "scope ids" },
	{ "ListenStream=vsock:2:1234", "vsock addresses are not supported" },
	{ "ListenStream=/run/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	  "shorter than 108 bytes" },
	{ "ListenSequentialPacket=8080", "takes a path or an @abstract name" },
	{ "ListenFIFO=@x", "expected an absolute path" },
	{ "ListenNetlink=nosuchfamily 1", "unknown netlink family" },
	{ "ListenNetlink=route x", "expected a netlink family" },
	{ "SocketMode=0999", "expected an octal mode" },
	{ "SocketMode=rw", "expected an octal mode" },
	{ "DirectoryMode=077777", "expected an octal mode" },
	{ "SocketUser=bad/user", "not a valid user or group" },
	{ "FileDescriptorName=a:b", "without ':'" },
	{ "FileDescriptorName=with space", "without ':'" },
	{ "Service=other", "ending in .service" },
	{ "Service=../x.service", "not a valid service name" },
	{ "Accept=maybe", "expected yes or no" },
	{ "Backlog=0", "expected a positive number" },
	{ "RemoveOnStop=2", "expected yes or no" },
	{ "ReceiveBuffer=lots", "expected bytes" },
	{ "SendBuffer=3G", "below 2G" },
	{ "BindIPv6Only=sometimes", "expected default, both, ipv6-only or a boolean" },
	{ "MaxConnections=0", "expected a number from 1 to 65535" },
	{ "IPTOS=fast", "expected 0-255, low-delay" },
	{ "IPTTL=256", "expected a number from 0 to 255" },
	{ "Timestamping=ms", "expected off, us or ns" },
	{ "KeepAliveTimeSec=soon", "expected a time span" },
	{ "ListenSpecial=relative", "expected an absolute path" },
	{ "Symlinks=relative", "expected clean absolute paths" },
	{ "Symlinks=/a /b /c /d /e", "more than 4 symlinks" },
};

static void bad_values_fail_with_reason(void)
{
	for (size_t i = 0; i < sizeof bad_lines / sizeof *bad_lines; i++) {
		char text[512];
		snprintf(text, sizeof text, "[Socket]\nListenStream=/run/ok\n%s\n", bad_lines[i].line);
		if (parse_socket(text) == 0 || !svc.failed || !strstr(first_error, bad_lines[i].why) ||
		    !strstr(first_error, "demo.socket:3:")) {
			printf("  %s: got \"%s\"\n", bad_lines[i].line, first_error);
			CHECK(0);
		}
	}
}

static void no_listen_fails(void)
{
	CHECK(parse_socket("[Unit]\nDescription=x\n[Socket]\nSocketMode=0600\n") < 0);
	CHECK(strstr(first_error, "no ListenStream=") != NULL);
}

static void sections_by_kind(void)
{
	/* [Service] in a socket unit, [Socket] in a service: warned, keys ignored. */
	CHECK(parse_socket("[Socket]\nListenStream=/run/x\n[Service]\nExecStart=/bin/true\n") == 0);
	CHECK(strstr(first_warning, "unknown section [Service]") != NULL);
	CHECK(parse_unit("svc", UNIT_SERVICE, "[Socket]\nListenStream=/run/x\n"
			 "[Service]\nExecStart=/bin/true\n") == 0);
	CHECK(strstr(first_warning, "unknown section [Socket]") != NULL);
	CHECK(svc.sock.listen_count == 0);
	CHECK(parse_socket("[Socket]\nListenStream=/run/x\nNoSuchKey=1\n") == 0);
	CHECK(strstr(first_warning, "NoSuchKey: unknown key in [Socket]") != NULL);
}

static void addresses_decoded(void)
{
	struct socket_address a;
	const char *why;
	const struct sockaddr_un *un = (const struct sockaddr_un *)&a.u.storage;
	const struct sockaddr_in *in4 = (const struct sockaddr_in *)&a.u.storage;
	const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&a.u.storage;
	const struct sockaddr_nl *nl = (const struct sockaddr_nl *)&a.u.storage;

	CHECK(socket_address_parse(LISTEN_STREAM, "/run/x.sock", &a, &why) == 0);
	CHECK(a.family == AF_UNIX && a.type == SOCK_STREAM);
	CHECK_STR(un->sun_path, "/run/x.sock");
	CHECK(a.len == offsetof(struct sockaddr_un, sun_path) + 12);
	CHECK(socket_address_parse(LISTEN_DATAGRAM, "@abs", &a, &why) == 0);
	CHECK(a.type == SOCK_DGRAM && un->sun_path[0] == '\0' && memcmp(un->sun_path + 1, "abs", 3) == 0);
	CHECK(a.len == offsetof(struct sockaddr_un, sun_path) + 4);
	CHECK(socket_address_parse(LISTEN_STREAM, "10.1.2.3:99", &a, &why) == 0);
	CHECK(a.family == AF_INET && ntohs(in4->sin_port) == 99 && ntohl(in4->sin_addr.s_addr) == 0x0a010203);
	CHECK(socket_address_parse(LISTEN_STREAM, "[::1]:443", &a, &why) == 0);
	CHECK(a.family == AF_INET6 && ntohs(in6->sin6_port) == 443 && !a.any_v6);
	CHECK(in6->sin6_addr.s6_addr[15] == 1);
	CHECK(socket_address_parse(LISTEN_STREAM, "22", &a, &why) == 0);
	CHECK(a.family == AF_INET6 && a.any_v6 && ntohs(in6->sin6_port) == 22);
	CHECK(socket_address_parse(LISTEN_NETLINK, "kobject-uevent 1", &a, &why) == 0);
	CHECK(a.family == AF_NETLINK && a.protocol == NETLINK_KOBJECT_UEVENT && nl->nl_groups == 1);
	CHECK(socket_address_parse(LISTEN_NETLINK, "route", &a, &why) == 0);
	CHECK(a.protocol == NETLINK_ROUTE && nl->nl_groups == 0);
}

static void type_dbus_needs_valid_bus_name(void)
{
	CHECK(parse_unit("bus", UNIT_SERVICE, "[Service]\nType=dbus\nBusName=org.example.Demo\n"
			 "ExecStart=/bin/true\n") == 0);
	CHECK(svc.type == SERVICE_DBUS);
	CHECK_STR(service_str(&svc, svc.bus_name), "org.example.Demo");
	CHECK(parse_unit("bus", UNIT_SERVICE, "[Service]\nType=dbus\nExecStart=/bin/true\n") < 0);
	CHECK(strstr(first_error, "Type=dbus without BusName=") != NULL);
	static const char *const bad[] = { "org", ":1.5", "org..x", "org.9x", "org.x.", ".org.x",
					   "org.ex ample", "org/x", "org.x$" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char text[256];
		snprintf(text, sizeof text, "[Service]\nType=dbus\nBusName=%s\nExecStart=/bin/true\n", bad[i]);
		if (parse_unit("bus", UNIT_SERVICE, text) == 0 ||
		    !strstr(first_error, "not a valid well-known D-Bus name")) {
			printf("  BusName=%s: got \"%s\"\n", bad[i], first_error);
			CHECK(0);
		}
	}
}

/* Text storage compaction must keep the socket strings (they are strrefs too). */
static void compaction_keeps_socket_strings(void)
{
	static char text[40000];
	size_t n;

	n = (size_t)snprintf(text, sizeof text, "[Socket]\nListenStream=/run/keep.sock\n"
			     "FileDescriptorName=keepname\n[Unit]\n");
	for (int i = 0; i < 60; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "Description=d%0300d\n", i);
	CHECK(parse_socket(text) == 0);
	CHECK_STR(service_str(&svc, svc.sock.listen[0].address), "/run/keep.sock");
	CHECK_STR(socket_unit_fdname(&svc), "keepname");
}

/* sockets-accept: Accept=yes and its limits, the one-setsockopt keys, ListenSpecial=. */
static void accept_and_options_parsed(void)
{
	char name[SERVICE_NAME_MAX];

	CHECK(parse_socket("[Socket]\nListenStream=2222\nAccept=yes\nMaxConnections=5\n"
			   "MaxConnectionsPerSource=2\nKeepAlive=yes\nKeepAliveTimeSec=2min\n"
			   "KeepAliveIntervalSec=1500ms\nKeepAliveProbes=4\nNoDelay=yes\n"
			   "Priority=6\nDeferAcceptSec=3\nIPTOS=low-delay\nIPTTL=64\nMark=7\n"
			   "Broadcast=yes\nPassPacketInfo=yes\nTimestamping=ns\n"
			   "BindIPv6Only=yes\n") == 0);
	CHECK(errors == 0 && warnings == 0);
	CHECK(svc.sock.accept && svc.sock.max_connections == 5 && svc.sock.max_per_source == 2);
	CHECK(svc.sock.keep_alive && svc.sock.keep_alive_time_s == 120);
	CHECK(svc.sock.keep_alive_interval_s == 2); /* rounded up to whole seconds */
	CHECK(svc.sock.keep_alive_probes == 4 && svc.sock.no_delay && svc.sock.priority == 6);
	CHECK(svc.sock.defer_accept_s == 3 && svc.sock.ip_tos == 0x10 && svc.sock.ip_ttl == 64);
	CHECK(svc.sock.mark_set && svc.sock.mark == 7 && svc.sock.broadcast);
	CHECK(svc.sock.pass_packet_info && svc.sock.timestamping == 2);
	CHECK(svc.sock.bind_ipv6_only == 2); /* yes: ipv6-only, as systemd */
	CHECK_STR(socket_unit_service(&svc, name, sizeof name), "demo@");
	CHECK(parse_socket("[Socket]\nListenStream=1\nBindIPv6Only=no\nIPTOS=\n") == 0);
	CHECK(svc.sock.bind_ipv6_only == 1 && svc.sock.ip_tos == -1 && !svc.sock.accept);
	CHECK(parse_socket("[Socket]\nListenSpecial=/dev/rfkill\nWritable=yes\n") == 0);
	CHECK(svc.sock.listen[0].type == LISTEN_SPECIAL && svc.sock.writable);
	/* Accept=yes needs sockets that take connections, and no Service= */
	CHECK(parse_socket("[Socket]\nListenDatagram=/run/d\nAccept=yes\n") < 0);
	CHECK(strstr(first_error, "Accept=yes needs ListenStream=") != NULL);
	CHECK(parse_socket("[Socket]\nListenStream=/run/s\nAccept=yes\nService=x.service\n") < 0);
	CHECK(strstr(first_error, "Service= cannot be used with Accept=yes") != NULL);
	CHECK(parse_socket("[Socket]\nListenSequentialPacket=/run/q\nAccept=yes\n") == 0);
}

int main(void)
{
	RUN(debian_dbus_socket_loads);
	RUN(every_key_parsed);
	RUN(empty_listen_resets_list);
	RUN(symlinks_need_one_path);
	RUN(specifiers_expanded);
	RUN(bad_values_fail_with_reason);
	RUN(no_listen_fails);
	RUN(sections_by_kind);
	RUN(addresses_decoded);
	RUN(type_dbus_needs_valid_bus_name);
	RUN(compaction_keeps_socket_strings);
	RUN(accept_and_options_parsed);
	return harness_done();
}
