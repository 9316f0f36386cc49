#ifndef EMBER_UTMP_H
#define EMBER_UTMP_H
/* UtmpIdentifier= and UtmpMode=: the records systemd writes for a service that runs on a
 * terminal, so `who`, `w` and `last` see a phone shell's user on tty7 and a serial login
 * end. ember is linked against musl, whose utmp functions do nothing, and the files are
 * read by the distribution's C library (glibc on Debian), so the records are written
 * here in that library's layout (init/utmp.c). See docs/services.md, "utmp records". */
#include <stdbool.h>
#include <sys/types.h>

#define UTMP_PATH "/run/utmp"
#define WTMP_PATH "/var/log/wtmp"
#define LASTLOG_PATH "/var/log/lastlog"

enum utmp_mode { UTMP_MODE_INIT, UTMP_MODE_LOGIN, UTMP_MODE_USER };

struct utmp_files {
	const char *utmp, *wtmp; /* NULL: the default paths above */
};

/* Is there a known record layout for this architecture (else nothing is written)? */
bool utmp_supported(void);

/* At a command's start, in the forked child before exec: an INIT_PROCESS record for id
 * (its last 4 characters, as agetty and systemd shorten it) on line ("tty7": TTYPath=
 * without "/dev/", or NULL), then LOGIN_PROCESS for login and user modes, then
 * USER_PROCESS under user for user mode; each to utmp and to wtmp where that exists.
 * Waits up to about half a second for another writer's lock. 0, or -1 with errno. */
int utmp_put_start(const struct utmp_files *f, const char *id, pid_t pid, pid_t sid,
		   const char *line, enum utmp_mode mode, const char *user);

/* When pid has ended (PID 1): its record for id, if pid still holds it, becomes
 * DEAD_PROCESS with the exit code and status; wtmp gets it too. Never waits for a lock:
 * a busy file is left alone (-1, EAGAIN). 0 also when there was nothing to end. */
int utmp_put_dead(const struct utmp_files *f, const char *id, pid_t pid, int code, int status);

/* pam_lastlog's session records (ember-session): a USER_PROCESS record appended to wtmp
 * as glibc's logwtmp() writes it (pid, line, user, host; no id, no session), and the
 * user's entry of lastlog (time, line, host, at uid's slot; lastlog is NULL for
 * LASTLOG_PATH). line is the terminal without "/dev/", "" for none. A missing file stays
 * missing. 0, or -1 with errno. */
int utmp_log_login(const struct utmp_files *f, pid_t pid, const char *line, const char *user,
		   const char *host);
int utmp_put_lastlog(const char *lastlog, uid_t uid, const char *line, const char *host);

#endif
