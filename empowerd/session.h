#ifndef EMBER_EMPOWERD_SESSION_H
#define EMBER_EMPOWERD_SESSION_H
/* One connection, served by its own process forked from the daemon: read the request,
 * authorise it against the policy, authenticate, start the command in a clean execution
 * context, relay signals, report the exit status. Never returns. */
#include <stddef.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdnoreturn.h>
#include <sys/types.h>

#define SESSION_REQUEST_TIMEOUT_MS 10000 /* a silent client is dropped */
#define SESSION_AUTH_TIMEOUT_MS 60000    /* time to type a password */
#define SESSION_FAIL_DELAY_S 2           /* after a wrong password */
#define SESSION_STOP_GRACE_MS 5000       /* SIGTERM, then SIGKILL */
#define PERSIST_MAX 64
#define BACKOFF_SLOTS 4096               /* per-uid failure counters (uid % slots) */
#define BACKOFF_MAX_MS 60000             /* longest spacing between two attempts */

enum {
	EXIT_REFUSED = 125,  /* policy or authentication refused; nothing ran */
	EXIT_CANNOT_RUN = 126,
	EXIT_NOT_FOUND = 127,
};

/* A remembered authentication: uid on one terminal (device and session), bound to what
 * does not come back: the session leader's start time and the PTY's birth time. */
struct persist_entry {
	uid_t uid;
	uint64_t tty_dev;
	pid_t tty_sid;
	unsigned long long leader_start; /* clock ticks after boot, /proc/SID/stat */
	uint64_t tty_birth;              /* ctime of /dev/pts/N in ns; 0: not a PTY */
	uint64_t expires_ms; /* CLOCK_BOOTTIME, so clock changes do not matter */
};

struct persist_table {
	size_t count;
	struct persist_entry entry[PERSIST_MAX];
};

/* Password attempts per uid, shared by every session process (a MAP_SHARED mapping the
 * daemon makes before it forks any): each attempt reserves the next free time for its
 * uid, spaced by a delay that doubles with each failure since the last success, so
 * parallel connections wait in line instead of guessing side by side. */
struct backoff_slot {
	_Atomic uint64_t next_ms;   /* CLOCK_BOOTTIME: the next attempt may start then */
	_Atomic uint32_t failures;  /* attempts since the last success */
};
struct backoff_table {
	struct backoff_slot slot[BACKOFF_SLOTS];
};

struct session_config {
	const char *policy_path;
	const char *caps_helper;
	const char *shadow_path;  /* NULL: /etc/shadow */
	int cgroup_fd;            /* where session cgroups go; -1: none */
	int notify_fd;            /* to the daemon: struct persist_entry records */
	const struct persist_table *persist;
	struct backoff_table *backoff;  /* shared between sessions */
	bool tiocsti_warn;              /* legacy TIOCSTI on: warn instead of refusing */
	char grant_warning[512];        /* session_grant_warning(), "" for a full grant */
	uint64_t signals_to_reset;      /* session_signals_to_reset() */
};

uint64_t boottime_ms(void);
/* Block the signals the daemon and each session handle through a signalfd (SIGCHLD,
 * SIGTERM, SIGINT, SIGHUP) and return one for them, close-on-exec and non-blocking;
 * -1/errno. */
int empowerd_signal_fd(void);

/* The warning for a grant smaller than every capability of this kernel, into out ("" for
 * a full grant). Called once by the daemon: sessions inherit its capability sets. */
void session_grant_warning(char *out, size_t size);

/* The signals whose disposition is not the default in the daemon (ignored ones survive
 * execve), as exec_context.signals_to_reset wants them. Called once by the daemon after
 * it has set its own: sessions inherit them and install no handler. */
uint64_t session_signals_to_reset(void);

noreturn void session_serve(int conn, uid_t peer_uid, pid_t peer_pid,
			    const struct session_config *cfg);
#endif
