// sources: session/args.c session/logind.c
/* ember-session's pure parts: its command line (bad options are refused before anything
 * runs), the CreateSession call pam_systemd would make for the same unit, and logind's
 * reply, checked before any of it reaches the environment. */
#include "harness.h"
#include "session.h"

#include <string.h>

#define ARGC(a) ((int)(sizeof(a) / sizeof *(a)) - 1)

static void parses_options_and_the_rest(void)
{
	char *argv[] = { "ember-session", "--uid", "1000", "--service=login", "--tty", "/dev/tty7",
			 "--report-fd", "9", "--timeout", "5", "--", "/usr/sbin/ember-caps",
			 "--uid", "1000", NULL };
	struct session_options o;
	char err[256];

	CHECK(session_parse_args(ARGC(argv), argv, &o, err, sizeof err) == 0);
	CHECK(o.uid_set && o.uid == 1000);
	CHECK_STR(o.service, "login");
	CHECK_STR(o.tty, "/dev/tty7");
	CHECK(o.report_fd == 9 && o.timeout_s == 5);
	CHECK_STR(o.rest[0], "/usr/sbin/ember-caps");
	CHECK_STR(o.rest[2], "1000");
	CHECK(o.rest[3] == NULL);
}

static int parse(char **argv, int argc, char *err, size_t size)
{
	struct session_options o;
	return session_parse_args(argc, argv, &o, err, size);
}

static void refuses_bad_options(void)
{
	char err[256];
	char *no_uid[] = { "s", "--service", "login", "--", "/bin/true", NULL };
	char *no_service[] = { "s", "--uid", "0", "--", "/bin/true", NULL };
	char *bad_uid[] = { "s", "--uid", "-1", "--service", "login", "--", "/bin/true", NULL };
	char *bad_service[] = { "s", "--uid", "0", "--service", "../etc/shadow", "--", "/bin/true", NULL };
	char *bad_service2[] = { "s", "--uid", "0", "--service", "lo\ngin", "--", "/bin/true", NULL };
	char *bad_tty[] = { "s", "--uid", "0", "--service", "login", "--tty", "tty1", "--", "/bin/true", NULL };
	char *bad_tty2[] = { "s", "--uid", "0", "--service", "login", "--tty", "/dev/../etc/x", "--", "/bin/true", NULL };
	char *no_command[] = { "s", "--uid", "0", "--service", "login", "--", NULL };
	char *relative[] = { "s", "--uid", "0", "--service", "login", "--", "true", NULL };
	char *no_dashes[] = { "s", "--uid", "0", "--service", "login", "/bin/true", NULL };
	char *no_value[] = { "s", "--uid", "0", "--service", NULL };
	char *bad_timeout[] = { "s", "--uid", "0", "--service", "login", "--timeout", "0", "--", "/bin/true", NULL };
	char *unknown[] = { "s", "--uid", "0", "--service", "login", "--seat", "seat0", "--", "/bin/true", NULL };

	CHECK(parse(no_uid, ARGC(no_uid), err, sizeof err) < 0 && strstr(err, "--uid"));
	CHECK(parse(no_service, ARGC(no_service), err, sizeof err) < 0 && strstr(err, "--service"));
	CHECK(parse(bad_uid, ARGC(bad_uid), err, sizeof err) < 0);
	CHECK(parse(bad_service, ARGC(bad_service), err, sizeof err) < 0);
	CHECK(parse(bad_service2, ARGC(bad_service2), err, sizeof err) < 0 && !strchr(err, '\n'));
	CHECK(parse(bad_tty, ARGC(bad_tty), err, sizeof err) < 0);
	CHECK(parse(bad_tty2, ARGC(bad_tty2), err, sizeof err) < 0);
	CHECK(parse(no_command, ARGC(no_command), err, sizeof err) < 0);
	CHECK(parse(relative, ARGC(relative), err, sizeof err) < 0);
	CHECK(parse(no_dashes, ARGC(no_dashes), err, sizeof err) < 0);
	CHECK(parse(no_value, ARGC(no_value), err, sizeof err) < 0 && strstr(err, "needs a value"));
	CHECK(parse(bad_timeout, ARGC(bad_timeout), err, sizeof err) < 0);
	CHECK(parse(unknown, ARGC(unknown), err, sizeof err) < 0 && strstr(err, "unknown option"));
}

static struct session_request fill(const char *tty, char **envp)
{
	struct session_options o = { .uid = 1000, .uid_set = true, .service = "login", .tty = tty };
	struct session_request r;

	session_request_fill(&o, envp, 4242, &r);
	return r;
}

static void request_without_terminal_is_background(void)
{
	char *env[] = { "PATH=/bin", NULL };
	struct session_request r = fill(NULL, env);

	CHECK(r.uid == 1000 && r.pid == 4242 && r.vtnr == 0);
	CHECK_STR(r.service, "login");
	CHECK_STR(r.type, "unspecified");
	CHECK_STR(r.class_, "background"); /* pam_systemd's default for that type */
	CHECK_STR(r.seat, "");
	CHECK_STR(r.tty, "");
}

static void request_on_a_vt_is_seat0(void)
{
	char *env[] = { NULL };
	struct session_request r = fill("/dev/tty7", env);

	CHECK_STR(r.type, "tty");
	CHECK_STR(r.class_, "user");
	CHECK_STR(r.seat, "seat0");
	CHECK(r.vtnr == 7);
	CHECK_STR(r.tty, "tty7");
	r = fill("/dev/pts/3", env); /* not a VT: no seat, no number */
	CHECK_STR(r.tty, "pts/3");
	CHECK_STR(r.seat, "");
	CHECK(r.vtnr == 0);
	r = fill("/dev/tty64", env);
	CHECK(r.vtnr == 0);
	r = fill("/dev/ttyS0", env);
	CHECK(r.vtnr == 0 && !*r.seat);
}

static void request_takes_the_units_xdg_variables(void)
{
	char *env[] = { "XDG_SESSION_TYPE=wayland", "XDG_SESSION_CLASS=greeter",
			"XDG_SESSION_DESKTOP=phosh", "XDG_SEAT=seat1", "XDG_VTNR=2", NULL };
	char *env2[] = { "XDG_VTNR=3", "XDG_SEATX=seat9", NULL };
	struct session_request r = fill("/dev/tty7", env);

	CHECK_STR(r.type, "wayland");
	CHECK_STR(r.class_, "greeter");
	CHECK_STR(r.desktop, "phosh");
	CHECK_STR(r.seat, "seat1");
	CHECK(r.vtnr == 0); /* only seat0 has VTs */
	r = fill(NULL, env2);
	CHECK(r.vtnr == 3);
	CHECK_STR(r.seat, "");
}

static void call_is_create_session(void)
{
	char *env[] = { NULL };
	struct session_request r = fill("/dev/tty7", env);
	uint8_t buf[4096];
	size_t n = session_call_build(&r, 5, buf, sizeof buf);
	struct dbus_msg m, head;
	union dbus_value v[16];
	bool read = false;

	CHECK(n > 0);
	CHECK(dbus_msg_parse(buf, n, &m) == 0);
	CHECK(m.type == DBUS_METHOD_CALL && m.serial == 5);
	CHECK_STR(m.destination, "org.freedesktop.login1");
	CHECK_STR(m.path, "/org/freedesktop/login1");
	CHECK_STR(m.interface, "org.freedesktop.login1.Manager");
	CHECK_STR(m.member, "CreateSession");
	CHECK_STR(m.signature, "uusssssussbssa(sv)");
	/* the basic values before the (empty) properties, read back */
	head = m;
	head.signature = "uusssssussbss";
	for (uint32_t len = m.body_len; len > 0 && !read; len--) {
		head.body_len = len;
		read = dbus_body_read(&head, head.signature, v) == 0;
	}
	CHECK(read);
	CHECK(v[0].u == 1000 && v[1].u == 4242);
	CHECK_STR(v[2].s, "login");
	CHECK_STR(v[3].s, "tty");
	CHECK_STR(v[4].s, "user");
	CHECK_STR(v[6].s, "seat0");
	CHECK(v[7].u == 7);
	CHECK_STR(v[8].s, "tty7");
	CHECK(!v[10].b);
	/* the array: length 0 at the end, 8-aligned for its structs */
	CHECK(m.body_len % 8 == 0);
	CHECK(session_call_build(&r, 5, buf, 64) == 0);
}

/* A reply as logind sends it, with fds fds. */
static size_t reply(uint8_t *buf, size_t size, const char *id, const char *runtime,
		    uint32_t fd_index, uint32_t uid, const char *seat, uint32_t vtnr,
		    uint32_t fds, const char *sig)
{
	uint8_t body_buf[1024];
	struct dbus_body b = { body_buf, 0, sizeof body_buf, false };
	struct dbus_out o = { .type = DBUS_METHOD_RETURN, .serial = 3, .reply_serial = 5,
			      .signature = sig, .body = &b, .unix_fds = fds };

	dbus_put_string(&b, id);
	dbus_put_string(&b, "/org/freedesktop/login1/session/_31");
	dbus_put_string(&b, runtime);
	dbus_put_u32(&b, fd_index);
	dbus_put_u32(&b, uid);
	dbus_put_string(&b, seat);
	dbus_put_u32(&b, vtnr);
	dbus_put_bool(&b, false);
	return dbus_msg_build(buf, size, &o);
}

static int parse_reply(const uint8_t *buf, size_t n, struct session_reply *r)
{
	struct dbus_msg m;
	char err[128];

	if (dbus_msg_parse(buf, n, &m) < 0)
		return -2;
	return session_reply_parse(&m, r, err, sizeof err);
}

static void reply_is_checked(void)
{
	uint8_t buf[2048];
	struct session_reply r;
	size_t n = reply(buf, sizeof buf, "1", "/run/user/1000", 0, 1000, "seat0", 7, 1, "soshusub");

	CHECK(n > 0 && parse_reply(buf, n, &r) == 0);
	CHECK_STR(r.id, "1");
	CHECK_STR(r.runtime_path, "/run/user/1000");
	CHECK_STR(r.seat, "seat0");
	CHECK(r.fd_index == 0 && r.original_uid == 1000 && r.vtnr == 7 && !r.existing);
	n = reply(buf, sizeof buf, "c1", "", 0, 1000, "", 0, 1, "soshusub");
	CHECK(parse_reply(buf, n, &r) == 0); /* no runtime directory, no seat: fine */
	n = reply(buf, sizeof buf, "1/../x", "/run/user/1000", 0, 1000, "seat0", 7, 1, "soshusub");
	CHECK(parse_reply(buf, n, &r) == -1);
	n = reply(buf, sizeof buf, "1", "run/user", 0, 1000, "seat0", 7, 1, "soshusub");
	CHECK(parse_reply(buf, n, &r) == -1);
	/* a runtime directory with control bytes, or one that climbs out ("/.." last) */
	n = reply(buf, sizeof buf, "1", "/run/user/1000\nX=y", 0, 1000, "seat0", 7, 1, "soshusub");
	CHECK(parse_reply(buf, n, &r) == -1);
	n = reply(buf, sizeof buf, "1", "/run/user/\033]0;x", 0, 1000, "seat0", 7, 1, "soshusub");
	CHECK(parse_reply(buf, n, &r) == -1);
	n = reply(buf, sizeof buf, "1", "/run/user/..", 0, 1000, "seat0", 7, 1, "soshusub");
	CHECK(parse_reply(buf, n, &r) == -1);
	n = reply(buf, sizeof buf, "1", "/run/user/1000", 0, 1000, "seat0\nX", 7, 1, "soshusub");
	CHECK(parse_reply(buf, n, &r) == -1);
	n = reply(buf, sizeof buf, "1", "/run/user/1000", 0, 1000, "seat0", 64, 1, "soshusub");
	CHECK(parse_reply(buf, n, &r) == -1);
	/* an fd index past the fds the message came with */
	n = reply(buf, sizeof buf, "1", "/run/user/1000", 1, 1000, "seat0", 7, 1, "soshusub");
	CHECK(parse_reply(buf, n, &r) == -1);
	n = reply(buf, sizeof buf, "1", "/run/user/1000", 0, 1000, "seat0", 7, 0, "soshusub");
	CHECK(parse_reply(buf, n, &r) == -1);
	/* the body is not what the signature says, or another signature */
	n = reply(buf, sizeof buf, "1", "/run/user/1000", 0, 1000, "seat0", 7, 1, "sosuusub");
	CHECK(parse_reply(buf, n, &r) == -1);
	n = reply(buf, sizeof buf, "1", "/run/user/1000", 0, 1000, "seat0", 7, 1, "soshusu");
	CHECK(n == 0 || parse_reply(buf, n, &r) != 0);
}

static const char *var(const struct session_env *e, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; e->vars[i]; i++)
		if (strncmp(e->vars[i], name, n) == 0 && e->vars[i][n] == '=')
			return e->vars[i] + n + 1;
	return NULL;
}

static void env_from_the_reply(void)
{
	char *envp[] = { NULL };
	struct session_request req = fill("/dev/tty7", envp);
	struct session_reply r = { .id = "4", .runtime_path = "/run/user/1000", .seat = "seat0",
				   .original_uid = 1000, .vtnr = 7 };
	struct session_env e;

	CHECK(session_env_build(&r, &req, &e) == 6);
	CHECK_STR(var(&e, "XDG_SESSION_ID"), "4");
	CHECK_STR(var(&e, "XDG_RUNTIME_DIR"), "/run/user/1000");
	CHECK_STR(var(&e, "XDG_SEAT"), "seat0");
	CHECK_STR(var(&e, "XDG_VTNR"), "7");
	CHECK_STR(var(&e, "XDG_SESSION_TYPE"), "tty");
	CHECK_STR(var(&e, "XDG_SESSION_CLASS"), "user");
	CHECK(var(&e, "XDG_SESSION_DESKTOP") == NULL);
	CHECK(e.unset[0] == NULL);
	/* someone else's session: its runtime directory is not ours */
	r.original_uid = 0;
	r.seat = "";
	r.vtnr = 0;
	CHECK(session_env_build(&r, &req, &e) == 3);
	CHECK(var(&e, "XDG_RUNTIME_DIR") == NULL && var(&e, "XDG_SEAT") == NULL &&
	      var(&e, "XDG_VTNR") == NULL);
	CHECK_STR(var(&e, "XDG_SESSION_ID"), "4");
}

/* The unit asked for VT 2 on seat1 (XDG_VTNR=2): only seat0 has VTs, logind answers
 * without one, and the unit's XDG_VTNR must not stay behind to contradict it. */
static void units_vtnr_is_unset_off_seat0(void)
{
	char *envp[] = { "XDG_SEAT=seat1", "XDG_VTNR=2", NULL };
	struct session_request req = fill(NULL, envp);
	struct session_reply r = { .id = "5", .runtime_path = "", .seat = "seat1",
				   .original_uid = 1000, .vtnr = 0 };
	struct session_env e;

	CHECK(req.vtnr == 0);
	CHECK(session_env_build(&r, &req, &e) >= 0);
	CHECK_STR(var(&e, "XDG_SEAT"), "seat1");
	CHECK(var(&e, "XDG_VTNR") == NULL);
	CHECK_STR(e.unset[0], "XDG_VTNR");
	CHECK(e.unset[1] == NULL);
}

int main(void)
{
	RUN(parses_options_and_the_rest);
	RUN(refuses_bad_options);
	RUN(request_without_terminal_is_background);
	RUN(request_on_a_vt_is_seat0);
	RUN(request_takes_the_units_xdg_variables);
	RUN(call_is_create_session);
	RUN(reply_is_checked);
	RUN(env_from_the_reply);
	RUN(units_vtnr_is_unset_off_seat0);
	return harness_done();
}
