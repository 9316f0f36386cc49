/* ember-session: a systemd-logind session for a service with PAMName= (ember-session(8)).
 * ember-init execs it first in a service's exec chain, as root: it sets the audit login
 * uid (pam_loginuid), asks logind for a session with its own pid as the leader
 * (pam_systemd's CreateSession: the pid stays the service's, exec keeps it), puts
 * XDG_SESSION_ID, XDG_RUNTIME_DIR and friends into the environment, gives the session's
 * fifo to a process of its own that ends with the service's main process (hold.c: the
 * session ends then, as under systemd), and execs the rest of the chain, which switches identity. A session that
 * cannot be had is logged and the service runs without one, as with Debian's optional
 * pam_systemd; only a failure to set the login uid stops the start (pam_loginuid is
 * required there). systemd's per-user manager gets no session but a view of its own
 * (user-manager.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "dbus-client.h"
#include "escape.h"
#include "io.h"
#include "exec-context.h"
#include "exitcode.h"
#include "log.h"
#include "pam-apply.h"
#include "parse.h"
#include "session.h"
#include "systemd-view.h"

enum { EXIT_EXEC = 127 }; /* the next link could not be executed */

#define SYSTEMD_RUN_DIR "/run/systemd"

static void usage(void)
{
	printf("usage: ember-session --uid UID --service NAME [OPTION...] -- PATH ARGV0 [ARG...]\n"
	       "Open a systemd-logind session for UID, then exec PATH (see ember-session(8)).\n"
	       "  --uid UID            the session's user\n"
	       "  --service NAME       the PAM service name (PAMName=)\n"
	       "  --tty PATH           the session's terminal (TTYPath=): type tty; a VT\n"
	       "                       /dev/ttyN gives seat0 and VT number N\n"
	       "  --address ADDRESS    bus address (default: $DBUS_SYSTEM_BUS_ADDRESS or\n"
	       "                       unix:path=/run/dbus/system_bus_socket)\n"
	       "  --timeout SEC        wait this long for logind's answer (default 30)\n"
	       "  --report-fd N        write a failure record to fd N (for ember-init)\n"
	       "  -h, --help           this help\n"
	       "      --version        version\n"
	       "Exit codes: 100 usage, 111 system failure (the login uid, a required limit), 127 exec failure\n");
}

static struct dbus_conn conn; /* 64 KiB: not on the stack */

static _Noreturn void refuse(int code, int report_fd, int op, int err)
{
	struct exec_failure f = { .step = EXEC_STEP_SESSION, .err = err, .arg = op };

	if (report_fd >= 0)
		exec_failure_write(report_fd, &f);
	exit(code);
}

/* The login uid this process has now; -1 when unset (or unreadable). */
static long long current_loginuid(void)
{
	char buf[16] = "";
	unsigned long v;

	if (io_read_file("/proc/self/loginuid", buf, sizeof buf) < 0)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	if (parse_ulong(buf, 0, 4294967294UL, &v) < 0)
		return -1; /* 4294967295: unset */
	return (long long)v;
}

/* pam_loginuid: the audit subsystem's login uid. Without audit the file is missing or
 * refuses the write (EPERM, in a container too): that is no failure while the login uid
 * is unset or already uid; one set for another user (immutable, or no
 * CAP_AUDIT_CONTROL) would log the service's acts as that user's: refused. */
static int set_loginuid(uid_t uid)
{
	char buf[16];
	int n = snprintf(buf, sizeof buf, "%u", (unsigned)uid);
	int fd = open("/proc/self/loginuid", O_WRONLY | O_CLOEXEC);
	ssize_t w;
	int e;

	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	w = write(fd, buf, (size_t)n);
	e = errno;
	close(fd);
	if (w == n)
		return 0;
	if (w >= 0)
		e = EIO;
	if (e == EPERM) {
		long long now = current_loginuid();
		if (now < 0 || now == (long long)uid)
			return 0;
	}
	errno = e;
	return -1;
}

/* logind's error: its name and message, escaped (they come from the bus). */
static void log_call_error(const struct dbus_msg *m, const char *service)
{
	const char *text = "";
	char name[128], msg[256];

	if (m->body_len > 0)
		(void)dbus_body_strings(m, &text, 1);
	escape_text(m->error_name ? m->error_name : "?", name, sizeof name);
	escape_text(text, msg, sizeof msg);
	if (m->error_name && strcmp(m->error_name, SESSION_ERROR_BUSY) == 0)
		log_info("%s: already in a session, no new one: %s", service, msg);
	else
		log_warn("%s: logind refused the session (%s: %s); running without one", service,
			 name, msg);
}

/* What logind sends is the write end of the session's FIFO (O_WRONLY). Anything else
 * (a file opened read-write, a directory, a socket) did not come from logind and must
 * never reach the service, which runs as another user. */
static bool session_fd_ok(int fd)
{
	struct stat st;
	int fl = fcntl(fd, F_GETFL);

	return fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) && fl >= 0 &&
	       (fl & O_ACCMODE) == O_WRONLY;
}

/* The session's fifo, close-on-exec until hold_session() gives it to its holder. */
static int session_fd = -1;

/* The reply's fd is kept for the holder. 1 kept, 0 none came (the session ends when
 * logind sees the leader go), -1 it is not the session's fifo: the reply is not
 * believed. */
static int keep_session_fd(const struct session_reply *r)
{
	int fd = dbus_conn_take_fd(&conn, r->fd_index);

	if (fd < 0) {
		log_warn("session %s: its fifo did not come with the reply: %m; the session "
			 "ends when logind sees the leader go", r->id);
		return 0;
	}
	if (!session_fd_ok(fd)) {
		close(fd);
		return -1;
	}
	session_fd = fd;
	return 1;
}

/* Last before exec: a process of its own holds the fifo until the service's main
 * process ends (session_hold_fd). Should it not fork, the service holds it itself, and
 * the session lasts while any of its processes does. */
static void hold_session(const struct session_options *o)
{
	if (session_fd < 0 || session_hold_fd(session_fd, o->uid) == 0)
		return;
	log_warn("%s: no process to hold the session (%m); the service and its children hold "
		 "it", o->service);
	(void)fcntl(session_fd, F_SETFD, 0);
}

static void apply_env(const struct session_env *env)
{
	for (size_t i = 0; env->unset[i]; i++)
		unsetenv(env->unset[i]);
	for (size_t i = 0; env->vars[i]; i++)
		if (putenv(env->vars[i]) != 0)
			log_warn("%.64s: %m", env->vars[i]);
}

#define LOGIND_NAME "org.freedesktop.login1"

/* A call to the bus driver about logind's name, and its answer (only the driver's). */
static int driver_call(const char *member, bool with_u32, struct dbus_msg *m,
		       long long deadline)
{
	uint32_t serial;
	int r;

	if (dbus_conn_call(&conn, member, LOGIND_NAME, with_u32, 0, &serial) < 0)
		return -1;
	r = dbus_conn_wait_reply_from(&conn, serial, DBUS_DRIVER, m, deadline);
	if (r == 0)
		errno = ETIMEDOUT;
	return r > 0 ? 0 : -1;
}

/* logind's unique name (started by the bus when it is not running yet, as the call to
 * the well-known name would): only a reply from it is logind's, whoever else sends
 * one with the serial. 0, or -1 with m the error (errno EREMOTEIO) or errno set. */
static int logind_owner(char *owner, size_t size, struct dbus_msg *m, long long deadline)
{
	const char *name;

	if (driver_call("GetNameOwner", false, m, deadline) < 0) {
		if (errno != EREMOTEIO || driver_call("StartServiceByName", true, m, deadline) < 0 ||
		    driver_call("GetNameOwner", false, m, deadline) < 0)
			return -1;
	}
	if (dbus_body_strings(m, &name, 1) < 0 || name[0] != ':' || strlen(name) >= size) {
		errno = EBADMSG;
		return -1;
	}
	strcpy(owner, name);
	return 0;
}

static void create_session(const struct session_options *o, struct session_env *env)
{
	struct session_request req;
	struct session_reply reply;
	struct dbus_msg m;
	uint8_t call[4096];
	long long deadline = dbus_now_ms() + (long long)o->timeout_s * 1000;
	char err[256], shown[300], owner[256];
	uint32_t serial;
	size_t n;
	int r;

	session_request_fill(o, environ, (uint32_t)getpid(), &req);
	if (dbus_conn_open_fds(&conn, o->address, deadline, err, sizeof err) < 0) {
		log_warn("%s: no system bus (%s); running without a logind session", o->service,
			 escape_text(err, shown, sizeof shown));
		return;
	}
	if (logind_owner(owner, sizeof owner, &m, deadline) < 0) {
		if (errno == EREMOTEIO)
			log_call_error(&m, o->service);
		else
			log_warn("%s: no logind on the bus: %m; running without a logind session",
				 o->service);
		goto out;
	}
	n = session_call_build(&req, ++conn.serial, call, sizeof call);
	serial = conn.serial;
	if (n == 0 || io_write_all(conn.fd, call, n) < 0) {
		log_warn("%s: cannot send CreateSession: %m; running without a logind session",
			 o->service);
		goto out;
	}
	r = dbus_conn_wait_reply_from(&conn, serial, owner, &m, deadline);
	if (r == 0) {
		log_warn("%s: logind did not answer within %lu s; running without a session",
			 o->service, o->timeout_s);
		goto out;
	}
	if (r < 0) {
		if (errno == EREMOTEIO)
			log_call_error(&m, o->service);
		else
			log_warn("%s: CreateSession: %m; running without a logind session", o->service);
		goto out;
	}
	/* A malformed reply is not believed: its fd (if any) is closed with the
	 * connection, which ends a session logind may have made. */
	if (session_reply_parse(&m, &reply, err, sizeof err) < 0 ||
	    session_env_build(&reply, &req, env) < 0) {
		log_warn("%s: logind's reply refused: %s; running without a session", o->service,
			 err);
		goto out;
	}
	if (keep_session_fd(&reply) < 0) {
		log_warn("%s: the reply's fd is not a FIFO open for writing; reply refused, "
			 "running without a session", o->service);
		goto out;
	}
	log_info("%s: session %s for uid %u%s%s", o->service, reply.id, (unsigned)o->uid,
		 *reply.seat ? " on " : "", escape_text(reply.seat, shown, sizeof shown));
	apply_env(env);
out:
	dbus_conn_close(&conn);
}

/* systemd's per-user manager (session/user-manager.c): its runtime directory, and the
 * /run/systemd/system/ it checks for, in a mount namespace of its own. */
static void user_manager(const struct session_options *o)
{
	user_manager_env(o->uid);
	if (systemd_view(SYSTEMD_RUN_DIR) < 0)
		log_warn("%s: no %s/system for the user manager: %m", o->service, SYSTEMD_RUN_DIR);
}

int main(int argc, char **argv)
{
	static struct session_env env; /* putenv keeps pointers into it */
	static struct pam_apply pam;   /* environ points into it */
	struct session_options o;
	char err[512];

	log_open("ember-session");
	if (session_parse_args(argc, argv, &o, err, sizeof err) < 0) {
		log_error("%s (see --help)", err);
		return EXIT_USAGE;
	}
	if (o.help) {
		usage();
		return EXIT_OK;
	}
	if (o.version) {
		print_version("ember-session");
		return EXIT_OK;
	}
	if (o.report_fd >= 0 && fcntl(o.report_fd, F_GETFD) < 0) {
		log_error("--report-fd %d: %m", o.report_fd);
		return EXIT_USAGE;
	}
	if (set_loginuid(o.uid) < 0) {
		int e = errno;
		log_error("/proc/self/loginuid: cannot set uid %u: %s", (unsigned)o.uid, strerror(e));
		refuse(EXIT_SYSTEM, o.report_fd, EXEC_SESSION_LOGINUID, e);
	}
	/* pam_env before the session (pam_systemd reads XDG_SESSION_TYPE and friends from
	 * the environment pam_env made), pam_limits after it: a small nofile or as must
	 * not cost the bus connection; the service sees the same limits either way. */
	pam_apply_env(&pam, o.uid, o.service, o.tty);
	if (strcmp(o.service, SESSION_USER_MANAGER) == 0)
		user_manager(&o);
	else
		create_session(&o, &env);
	user_bus_env(o.uid);
	if (pam_apply_limits(&pam, o.uid) < 0) {
		log_error("%s: pam_limits: a limit could not be set; not started", o.service);
		refuse(EXIT_SYSTEM, o.report_fd, EXEC_SESSION_LIMITS, EPERM);
	}
	pam_apply_lastlog(&pam, o.uid, o.tty);
	hold_session(&o);
	execve(o.rest[0], o.rest, environ);
	{
		int e = errno;
		char shown[256];
		log_error("execve(%s): %s", escape_text(o.rest[0], shown, sizeof shown), strerror(e));
		refuse(EXIT_EXEC, o.report_fd, EXEC_SESSION_EXEC, e);
	}
}
