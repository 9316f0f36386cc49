#ifndef EMBER_INIT_SVC_PIDFILE_H
#define EMBER_INIT_SVC_PIDFILE_H
/* Type=forking: finding the main process after the started process exited. PIDFile= is
 * read with care, since whoever wrote it may be the service's unprivileged user: a file
 * that is not root's (or sits behind a link or in a directory that is not root's) is
 * believed only when the PID it names is one of the service's own processes. Without
 * PIDFile=, the main process is guessed as systemd's GuessMainPID= does: the one process
 * left in the service's cgroup. */
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define SVC_PIDFILE_MAX 32 /* bytes read: a decimal PID, blanks, a newline */

/* "1234\n" -> 1234. Returns 0, or -1 when the text is not one positive PID. */
int svc_pidfile_parse(const char *text, size_t len, pid_t *pid);

/* Read the PID file at path (no FIFOs or devices; at most SVC_PIDFILE_MAX bytes).
 * *trusted: the file, a symlink in its place, and its directory all belong to root.
 * Returns 1 with *pid, 0 when the file does not exist (yet) or is still empty, -1 with
 * err. */
int svc_pidfile_read(const char *path, pid_t *pid, bool *trusted, char *err, size_t errlen);

/* The service has ended (any Type=, before a restart too): remove its PID file, which is
 * now out of date, as systemd does. A link on the way is followed only where only root
 * can have made it, so the service's user cannot aim the unlink at another directory;
 * failures are ignored. */
void svc_pidfile_remove(const char *path);

/* The main process of a Type=forking service without PIDFile=, from the cgroup at cg_fd
 * (not counting `except`): the only process there, or of several the only one whose
 * parent is PID 1 (the daemon, with children of its own), as systemd guesses it. 0 when
 * there is none; -1 when it cannot tell or the cgroup cannot be read. */
pid_t svc_guess_main_pid(int cg_fd, pid_t except);
#endif
