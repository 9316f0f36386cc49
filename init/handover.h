#ifndef EMBER_INIT_HANDOVER_H
#define EMBER_INIT_HANDOVER_H
/* Re-executing PID 1 without losing the services (docs/supervision.md, "Re-execution").
 *
 * The running PID 1 writes its state (the few PID 1 fields below and every unit's
 * runtime state: pids, fds of its pipes and cgroup, timers, backoff) as text into a
 * memfd, clears FD_CLOEXEC on the fds that must survive, and execve()s ember-init with
 * EMBER_STATE_FD=<fd> in its environment. Services keep their PIDs, cgroups and output
 * pipes: they are still PID 1's children, and the new PID 1 adopts them (and reaps
 * them). Used by emberctl daemon-reexec, SIGRTMIN+25 and after a real crash.
 *
 * Nothing here allocates: the crash path calls it from a signal handler. */
#include <stdbool.h>
#include <sys/types.h>

#define HANDOVER_ENV "EMBER_STATE_FD"

/* PID 1's own fields that must carry over. */
struct handover_pid1 {
	pid_t run_pid;          /* the ember.run command, 0 none */
	pid_t shell_pid;        /* the console shell, 0 none */
	bool rescue;
	long long started_us;   /* when the first PID 1 started (CLOCK_BOOTTIME) */
	long long boot_ready_us; /* the supervisor's "boot ready", -1 not yet */
	unsigned generation;    /* how many times PID 1 was re-executed */
	unsigned crashes;       /* real crashes in a row, each within CRASH_WINDOW of the last */
	long long crash_ms;     /* when the last one was (CLOCK_BOOTTIME) */
	int notify_fd;          /* the sd_notify socket, kept open: a service that connected
				 * to it once (journald) must still reach PID 1; -1 none */
};

/* Remember how this PID 1 was started (its path, arguments, environment), to start the
 * next one the same way. Call once at the beginning of main(). */
void handover_save_invocation(int argc, char **argv, char **envp);

/* Serialise p and every unit, then execve(). Returns only on failure (errno set), with
 * FD_CLOEXEC restored: the caller carries on as before. */
int handover_exec(const struct handover_pid1 *p);

/* In a re-executed PID 1: read the state named by EMBER_STATE_FD (and remove the
 * variable). Returns true with p filled when there is one. */
bool handover_receive(struct handover_pid1 *p);
/* After supervisor_init(): give the services their runtime state back. Returns the
 * number of units adopted. */
unsigned handover_adopt_units(void);

/* Exposed for tests: the text format, both ways. */
size_t handover_format(char *buf, size_t size, const struct handover_pid1 *p);
bool handover_parse_pid1(const char *text, struct handover_pid1 *p);
#endif
