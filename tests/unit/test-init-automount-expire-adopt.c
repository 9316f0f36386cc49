// sources: init/unit-automount.c
/* Re-execution: the idle check's child a new PID 1 takes over ("e" record, handover.c)
 * is its idle check: no second one starts while it runs, the checks go on once it ended,
 * and a stop of the automount kills it. In QEMU the child lives a few milliseconds
 * (test-automount.sh stops one across a re-execution to prove the stop); whether a
 * second check starts beside it is seen here, where a fork is a child this test reaps.
 * The supervisor is stubbed: an automount up on a fake pipe, its mount unit up. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "log.h"
#include "supervisor.h"
#include "unit-automount.h"
#include "unit-kinds.h"

static struct service am_svc, mnt_svc;
static struct unit am, mnt;

#include "automount-stubs.h"

/* ---- stubs ---------------------------------------------------------------------------- */

void log_info(const char *fmt, ...) { (void)fmt; }
void log_warn(const char *fmt, ...) { (void)fmt; }
int supervisor_start(const char *name, char *err, size_t errlen)
{
	(void)name, (void)err, (void)errlen;
	return 0;
}

/* ---- helpers -------------------------------------------------------------------------- */

/* An automount with TimeoutIdleSec=3 (a check every second), its mount unit up. */
static int setup(int p[2])
{
	return automount_fixture(p, 3, UNIT_READY);
}

/* The old PID 1's check: a child that waits (as one in the kernel's expire would). */
static pid_t old_check(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		pause();
		_exit(0);
	}
	return pid;
}

/* A check forked meanwhile (it ends at once: no autofs here), reaped; 0 none. The old
 * check does not count: it has not exited. */
static pid_t forked_check(void)
{
	pid_t pid = waitpid(-1, NULL, WNOHANG);

	return pid > 0 ? pid : 0;
}

/* pid's end within a second, or -1 (then it is ended here, so no test hangs on it). */
static int end_of(pid_t pid)
{
	int status;

	for (int i = 0; i < 100; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		usleep(10 * 1000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

/* ---- tests ---------------------------------------------------------------------------- */

static void adopted_check_is_the_only_one(void)
{
	int p[2];
	pid_t old, check;

	CHECK(setup(p) >= 0);
	CHECK((old = old_check()) > 0);
	CHECK(automount_adopt_expire(&am, old) == 0);
	CHECK(automount_expire_pid(&am) == old);
	/* Long past every due time: no check of its own while the old one runs. */
	for (long long now = 0; now <= 10000; now += 500)
		CHECK(automount_unit_tick(&am, now) == AUTOMOUNT_OK);
	usleep(100 * 1000);
	CHECK(forked_check() == 0);
	CHECK(automount_unit_due(&am) == -1);
	/* The old one ends: reaped as the idle check; the next one comes a second later. */
	kill(old, SIGTERM);
	CHECK(end_of(old) != -1);
	CHECK(automount_child_exited(old));
	CHECK(automount_expire_pid(&am) == 0);
	automount_unit_tick(&am, 20000);
	CHECK(automount_unit_due(&am) == 21000);
	automount_unit_tick(&am, 21000);
	check = automount_expire_pid(&am);
	CHECK(check > 0 && check != old);
	CHECK(end_of(check) != -1); /* no autofs here: it ends at once */
	CHECK(automount_child_exited(check));
	automount_unit_stop(&am);
	close(p[1]);
}

static void stop_kills_adopted_check(void)
{
	int p[2], status;
	pid_t old;

	CHECK(setup(p) >= 0);
	CHECK((old = old_check()) > 0);
	CHECK(automount_adopt_expire(&am, old) == 0);
	automount_unit_stop(&am);
	status = end_of(old);
	CHECK(status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	close(p[1]);
}

static void adoption_refused_without_autofs(void)
{
	int p[2];

	CHECK(setup(p) >= 0);
	CHECK(automount_adopt_expire(&am, 1) < 0);
	CHECK(automount_adopt_expire(&am, 0) < 0);
	close(am.listen_fd[AUTOMOUNT_IOCTL]);
	am.listen_fd[AUTOMOUNT_IOCTL] = -1;
	CHECK(automount_adopt_expire(&am, 4242) < 0);
	CHECK(automount_expire_pid(&am) == 0);
	automount_unit_stop(&am);
	close(p[1]);
}

int main(void)
{
	RUN(adopted_check_is_the_only_one);
	RUN(stop_kills_adopted_check);
	RUN(adoption_refused_without_autofs);
	return harness_done();
}
