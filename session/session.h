#ifndef EMBER_SESSION_H
#define EMBER_SESSION_H
/* ember-session: a logind session for a service with PAMName=, asked of
 * systemd-logind directly, as pam_systemd would (ember-session(8), docs/services.md
 * "PAMName="). The pieces here are pure: the command line, the CreateSession call made
 * from it and the unit's environment, and the reply turned into environment variables.
 * main.c does the I/O. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "dbus-wire.h"

#define SESSION_TIMEOUT_DEFAULT_S 30 /* logind answers once the scope's units are up */
#define SESSION_ENV_MAX 8            /* variables set from a reply */
#define SESSION_ENV_TEXT_MAX 1024

struct session_options {
	uid_t uid;
	bool uid_set;
	const char *service;      /* --service: the PAM service name (PAMName=) */
	const char *tty;          /* --tty: the terminal (TTYPath=); NULL: none */
	const char *address;      /* --address: the bus; NULL: the system bus */
	unsigned long timeout_s;
	int report_fd;            /* --report-fd: ember-init's failure pipe; -1: none */
	bool help, version;
	char **rest;              /* after "--": the next link's argv, rest[0] its path */
};

/* Parse argv[1..argc). 0, or -1 with a message in err. --help and --version stop
 * parsing with their flag set. */
int session_parse_args(int argc, char **argv, struct session_options *o, char *err,
			size_t err_size);

/* CreateSession's arguments, as pam_systemd works them out. */
struct session_request {
	uint32_t uid, pid, vtnr;
	const char *service, *type, *class_, *desktop, *seat, *tty;
};

/* From the options and the unit's environment (envp, NULL-terminated): XDG_SESSION_TYPE,
 * XDG_SESSION_CLASS, XDG_SESSION_DESKTOP, XDG_SEAT and XDG_VTNR when set; type "tty"
 * with a terminal, else "unspecified"; class "background" for an unspecified type, else
 * "user"; a virtual terminal /dev/ttyN gives vtnr N and, without XDG_SEAT, seat0; a
 * vtnr on a seat other than seat0 is dropped. tty is the path below /dev/. */
void session_request_fill(const struct session_options *o, char *const *envp, uint32_t pid,
			  struct session_request *r);

/* The CreateSession method call ("uusssssussbssa(sv)"). Its length, 0 if it does not
 * fit. */
size_t session_call_build(const struct session_request *r, uint32_t serial, uint8_t *buf,
			  size_t size);

/* The reply ("soshusub"), checked: a session id of letters and digits, an absolute
 * runtime path or "", a seat name or "", vtnr 0..63. Strings point into the message. */
struct session_reply {
	const char *id, *object_path, *runtime_path, *seat;
	uint32_t fd_index, original_uid, vtnr;
	bool existing;
};
int session_reply_parse(const struct dbus_msg *m, struct session_reply *r, char *err,
			size_t err_size);

/* The variables to set: XDG_SESSION_ID; XDG_RUNTIME_DIR when the session is this
 * user's (original_uid == uid) and has one; XDG_SEAT, XDG_VTNR when given; and the
 * type, class and desktop asked for. "NAME=value" strings in out (NULL-terminated),
 * their text in text. The count, or -1 when they do not fit. unset names (NULL-
 * terminated) what the session does not have, XDG_SEAT and XDG_VTNR: the unit's own
 * (a VT asked for on a seat without VTs) must not contradict the session. */
struct session_env {
	char *vars[SESSION_ENV_MAX + 1];
	const char *unset[3];
	char text[SESSION_ENV_TEXT_MAX];
};
int session_env_build(const struct session_reply *reply, const struct session_request *req,
		      struct session_env *out);

/* Hold the session's fifo fd in a process of its own that ends when this one (the
 * service's main process, after exec) does: the session ends with the service, as under
 * systemd, not with the last process the service left behind. fd is closed here. 0, or
 * -1 (fork failed: fd is untouched). */
int session_hold_fd(int fd, uid_t uid);

/* The PAM service of systemd's per-user manager, which gets no session (as pam_systemd). */
#define SESSION_USER_MANAGER "systemd-user"

/* For that manager (session/user-manager.c): XDG_RUNTIME_DIR when /run/user/UID is
 * there; its mount namespace with /run/systemd/system/ is lib/systemd-view.h's. */
void user_manager_env(uid_t uid);
/* DBUS_SESSION_BUS_ADDRESS when XDG_RUNTIME_DIR is /run/user/UID and its bus is there. */
void user_bus_env(uid_t uid);

/* The error logind gives a leader already in a session (not a failure: pam_systemd goes
 * on without a new one). */
#define SESSION_ERROR_BUSY "org.freedesktop.login1.SessionBusy"
#endif
