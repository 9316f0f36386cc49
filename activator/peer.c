/* systemd's private manager socket, /run/systemd/private, answered for ember-init
 * (ember-activator --peer, docs/dbus.md "The private socket").
 *
 * Root's systemd tools talk to the manager over that socket, peer to peer (no bus
 * daemon, no Hello), and fall back to the system bus only when it cannot be connected.
 * systemd-update-utmp runs before sysinit.target, when the bus is not up: under ember
 * its fallback connection waited on dbus.socket, and the boot with it. ember-init
 * listens on the path (ember-private.socket, Accept=yes) and starts this program for
 * each connection, the connection on standard input.
 *
 * The conversation: SASL EXTERNAL (the server side of it), then method calls. Only the
 * read-only questions such tools ask are answered: the manager's start time
 * (UserspaceTimestampMonotonic, which the utmp boot record is dated from) and a unit's
 * LoadState, ActiveState and SubState (the runlevel record); every other call gets an
 * error. The socket is root's only (SocketMode=0600), and the peer's credentials are
 * checked here as well: anyone else is refused before a byte is read. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "activator.h"
#include "escape.h"
#include "exitcode.h"
#include "io.h"
#include "log.h"
#include "parse.h"
#include "peer.h"

#define AUTH_MS 5000          /* the whole SASL conversation */
#define IDLE_MS 60000         /* a connection that asks nothing more is closed */
#define AUTH_LINE_MAX 256
#define AUTH_LINES_MAX 16     /* a client that says more than this is not a D-Bus client */
#define MANAGER_PATH "/org/freedesktop/systemd1"
#define MANAGER_IFACE "org.freedesktop.systemd1.Manager"
#define PROPERTIES_IFACE "org.freedesktop.DBus.Properties"

static int peer_uid(int fd, uid_t *uid)
{
	struct ucred cred;
	socklen_t len = sizeof cred;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
		return -1;
	*uid = cred.uid;
	return 0;
}

/* ---- SASL EXTERNAL, the server's side ------------------------------------------------ */

struct auth {
	int fd;
	uid_t uid;
	bool external, ok;           /* AUTH EXTERNAL seen; OK sent */
	char guid[33];
	char buf[AUTH_LINE_MAX * 2];
	size_t len;
};

static int say(struct auth *s, const char *line)
{
	return io_write_all(s->fd, line, strlen(line));
}

/* An EXTERNAL identity is the hex of the uid in decimal; empty means "the one you see". */
static bool identity_matches(const char *hex, uid_t uid)
{
	char decimal[24], want[24];
	size_t n = strlen(hex);

	if (n == 0)
		return true;
	if (n % 2 != 0 || n / 2 >= sizeof decimal)
		return false;
	for (size_t i = 0; i < n; i += 2) {
		int hi = hex_digit_value(hex[i]), lo = hex_digit_value(hex[i + 1]);
		if (hi < 0 || lo < 0)
			return false;
		decimal[i / 2] = (char)(hi << 4 | lo);
	}
	decimal[n / 2] = '\0';
	snprintf(want, sizeof want, "%lu", (unsigned long)uid);
	return strcmp(decimal, want) == 0;
}

static int accept_identity(struct auth *s, const char *hex)
{
	char line[48];

	if (!identity_matches(hex, s->uid)) {
		s->external = false;
		return say(s, "REJECTED EXTERNAL\r\n");
	}
	s->ok = true;
	snprintf(line, sizeof line, "OK %s\r\n", s->guid);
	return say(s, line);
}

/* One command line of the client. 1: BEGIN after OK (done), 0: go on, -1: give up. */
static int auth_line(struct auth *s, const char *line)
{
	if (strncmp(line, "AUTH", 4) == 0 && (line[4] == ' ' || !line[4])) {
		if (strncmp(line, "AUTH EXTERNAL", 13) != 0 || (line[13] && line[13] != ' '))
			return say(s, "REJECTED EXTERNAL\r\n");
		s->external = true;
		s->ok = false;
		return line[13] ? accept_identity(s, line + 14) : say(s, "DATA\r\n");
	}
	if (strncmp(line, "DATA", 4) == 0 && (line[4] == ' ' || !line[4]))
		return s->external && !s->ok ? accept_identity(s, line[4] ? line + 5 : "")
					     : say(s, "ERROR\r\n");
	if (strcmp(line, "BEGIN") == 0)
		return s->ok ? 1 : say(s, "ERROR\r\n");
	if (strcmp(line, "CANCEL") == 0 || strncmp(line, "ERROR", 5) == 0) {
		s->external = s->ok = false;
		return say(s, "REJECTED EXTERNAL\r\n");
	}
	/* NEGOTIATE_UNIX_FD among them: no call answered here passes a file descriptor */
	return say(s, "ERROR\r\n");
}

static void make_guid(char *out)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char raw[16] = { 0 };

	if (getrandom(raw, sizeof raw, GRND_NONBLOCK) != sizeof raw)
		raw[0] = (unsigned char)getpid(); /* only needs to be one server's: any will do */
	for (size_t i = 0; i < sizeof raw; i++) {
		out[2 * i] = hex[raw[i] >> 4];
		out[2 * i + 1] = hex[raw[i] & 15];
	}
	out[32] = '\0';
}

/* The first whole line in the buffer, answered and taken out. 1: BEGIN after OK (the
 * bytes after it are the first message's: they go to conn), 0: go on (or no whole line
 * yet: *taken false), -1: give up. Lines end in \r\n. */
static int take_line(struct auth *s, struct dbus_conn *conn, unsigned *lines, bool *taken)
{
	char *end = memchr(s->buf, '\n', s->len);
	size_t used;
	int r;

	*taken = end != NULL;
	if (!end)
		return 0;
	used = (size_t)(end - s->buf) + 1;
	if (end == s->buf || end[-1] != '\r' || ++*lines > AUTH_LINES_MAX)
		return -1;
	end[-1] = '\0';
	if (memchr(s->buf, '\0', used - 2))
		return -1;
	r = auth_line(s, s->buf);
	s->len -= used;
	memmove(s->buf, s->buf + used, s->len);
	if (r == 1) {
		memcpy(conn->buf, s->buf, s->len);
		conn->len = s->len;
	}
	return r;
}

/* More of the conversation, before deadline; the credentials byte (NUL) must come
 * first, and only once. 0, or -1: give up. */
static int read_more(struct auth *s, long long deadline, bool *nul_seen)
{
	long long left = deadline - dbus_now_ms();
	struct pollfd p = { .fd = s->fd, .events = POLLIN };
	ssize_t r;

	if (s->len >= AUTH_LINE_MAX || left <= 0 || poll(&p, 1, (int)left) <= 0)
		return -1;
	r = read(s->fd, s->buf + s->len, sizeof s->buf - s->len);
	if (r <= 0)
		return -1;
	if (!*nul_seen) {
		if (s->buf[s->len] != '\0')
			return -1;
		memmove(s->buf + s->len, s->buf + s->len + 1, (size_t)r - 1);
		r--;
		*nul_seen = true;
	}
	s->len += (size_t)r;
	return 0;
}

static int authenticate(struct auth *s, struct dbus_conn *conn)
{
	long long deadline = dbus_now_ms() + AUTH_MS;
	unsigned lines = 0;
	bool nul_seen = false, taken;

	for (;;) {
		int r = take_line(s, conn, &lines, &taken);
		if (r != 0)
			return r < 0 ? -1 : 0;
		if (!taken && read_more(s, deadline, &nul_seen) < 0)
			return -1;
	}
}

/* ---- the calls ------------------------------------------------------------------------ */

/* When PID 1 started, CLOCK_MONOTONIC us: its start time in /proc/1/stat (clock ticks
 * since boot, counted on the boot clock, which equals the monotonic one before any
 * suspend; PID 1 starts before any). 0 when it cannot be read: what systemd's tools
 * take as "not known". */
static unsigned long long pid1_start_us(void)
{
	char line[1024];
	FILE *f = fopen("/proc/1/stat", "r");
	char *p = NULL;
	unsigned long long ticks = 0;
	long hz = sysconf(_SC_CLK_TCK);
	size_t n = f ? fread(line, 1, sizeof line - 1, f) : 0;

	if (f)
		fclose(f);
	line[n] = '\0';
	p = strrchr(line, ')'); /* the name before it may hold anything */
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu", &ticks) != 1 || hz <= 0)
		return 0;
	return ticks * (1000000ULL / (unsigned long long)hz);
}

static void reply_u64(struct activator *a, const struct dbus_msg *m, uint64_t v)
{
	uint8_t buf[16];
	struct dbus_body body = { buf, 0, sizeof buf, false };
	struct dbus_out o = { .type = DBUS_METHOD_RETURN, .reply_serial = m->serial,
			      .destination = m->sender, .signature = "v", .body = &body };

	dbus_put_variant_u64(&body, v);
	if (!(m->flags & NO_REPLY_EXPECTED))
		bus_send(a, &o);
}

static bool manager_property(struct activator *a, const struct dbus_msg *m)
{
	const char *args[2];

	if (!field_is(m->path, MANAGER_PATH) || dbus_body_strings(m, args, 2) < 0 ||
	    !field_is(args[0], MANAGER_IFACE))
		return false;
	if (field_is(args[1], "UserspaceTimestampMonotonic")) {
		reply_u64(a, m, pid1_start_us());
		return true;
	}
	reply_error(a, m, "org.freedesktop.DBus.Error.UnknownProperty",
		    "ember-init answers only UserspaceTimestampMonotonic of the manager here");
	return true;
}

static void handle_call(struct activator *a, const struct dbus_msg *m)
{
	char shown[168];

	if (field_is(m->interface, "org.freedesktop.DBus.Peer") && field_is(m->member, "Ping")) {
		reply_return(a, m, NULL, NULL);
		return;
	}
	/* A bus client's first call (busctl --address= makes one): there is no bus, and the
	 * client is the only one here; the name it gets is never used. */
	if (field_is(m->interface, "org.freedesktop.DBus") && field_is(m->member, "Hello")) {
		reply_return(a, m, "s", ":1.1");
		return;
	}
	if (field_is(m->interface, PROPERTIES_IFACE) && field_is(m->member, "Get") &&
	    (manager_property(a, m) || unit_property(a, m)))
		return;
	reply_unknown_method(a, m, "ember-init answers only a few questions on systemd's "
			     "private socket, not", shown, sizeof shown);
}

int peer_serve(struct activator *a, int fd)
{
	static struct auth s;
	struct dbus_msg m;

	s.fd = fd;
	if (peer_uid(fd, &s.uid) < 0) {
		log_error("--peer: standard input is not a unix socket with a peer");
		return EXIT_USAGE;
	}
	if (s.uid != 0) {
		log_warn("private socket: a connection of uid %lu refused: root's only",
			 (unsigned long)s.uid);
		return EXIT_OK;
	}
	make_guid(s.guid);
	a->conn.fd = fd;
	if (authenticate(&s, &a->conn) < 0) {
		log_warn("private socket: a client that did not authenticate, closed");
		return EXIT_OK;
	}
	for (;;) {
		int r = dbus_conn_read(&a->conn, &m, dbus_now_ms() + IDLE_MS);
		if (r < 0 && errno == EBADMSG)
			log_warn("private socket: a client sent what is not D-Bus, closed");
		if (r <= 0) /* the client is done (or sent what is not D-Bus, or nothing) */
			return EXIT_OK;
		if (m.type == DBUS_METHOD_CALL)
			handle_call(a, &m);
	}
}
