/* The holder of a logind session's fifo (session.h), as systemd's (sd-pam) holds it.
 * logind ends a session when the last writer of its fifo is gone. Kept across exec, the
 * fd reached every process the service started, and a session outlived its service for
 * as long as any of them ran (a phone shell's settings daemons after the compositor
 * crashed: the run-time round of 2026-12-07). */
#include "session.h"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "passwd.h"

static void null_stdio(void)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	for (int i = 0; null >= 0 && i < 3; i++)
		(void)dup2(null, i);
	if (null > 2)
		close(null);
}

/* Every fd but keep and 0..2: the service's sockets, its report pipe, its terminal. */
static void close_others(int keep)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	if (!d) {
		for (int fd = 3; fd < 4096; fd++)
			if (fd != keep)
				close(fd);
		return;
	}
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name);
		if (fd > 2 && fd != keep && fd != dirfd(d))
			close(fd);
	}
	closedir(d);
}

/* The user's own ids: the kernel sends the parent-death signal with the dying parent's
 * rights, and the service runs as uid. */
static int become(uid_t uid)
{
	struct passwd_user pw;
	gid_t gid;

	if (uid == 0)
		return 0;
	gid = passwd_user_by_uid(NULL, uid, &pw) == 0 ? pw.gid : (gid_t)uid;
	if (setgroups(0, NULL) < 0 || setresgid(gid, gid, gid) < 0 ||
	    setresuid(uid, uid, uid) < 0)
		return -1;
	return 0;
}

static _Noreturn void hold(int fd, pid_t service, uid_t uid, const sigset_t *term)
{
	int sig;

	(void)setsid(); /* no terminal: its hangup is not the service's end */
	null_stdio();
	close_others(fd);
	(void)prctl(PR_SET_NAME, "(ember-session)");
	/* the death signal is cleared by a change of ids: asked for after it */
	if (become(uid) < 0 || prctl(PR_SET_PDEATHSIG, SIGTERM) < 0)
		_exit(1);
	if (getppid() == service)
		(void)sigwait(term, &sig);
	_exit(0);
}

int session_hold_fd(int fd, uid_t uid)
{
	sigset_t term, old;
	pid_t service = getpid(), pid;

	/* blocked before the fork, so a SIGTERM between fork and sigwait is not lost */
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &term, &old) < 0)
		return -1;
	pid = fork();
	if (pid == 0)
		hold(fd, service, uid, &term);
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0)
		return -1;
	close(fd);
	return 0;
}
