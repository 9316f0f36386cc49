#include "console.h"
#include "rlimits.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "io.h"
#include "log.h"

void console_setup(void)
{
	int fd = open("/dev/console", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return;
	for (int i = 0; i < 3; i++)
		if (fcntl(i, F_GETFD) < 0)
			dup2(fd, i);
	if (fd > 2)
		close(fd);
}

/* The last console the kernel lists is the one /dev/console writes to. */
static void console_tty_path(char *path, size_t size)
{
	char active[256];
	char *last;

	snprintf(path, size, "/dev/console");
	if (io_read_file("/sys/class/tty/console/active", active, sizeof active) <= 0)
		return;
	last = strrchr(active, ' ');
	last = last ? last + 1 : active;
	last[strcspn(last, "\n")] = '\0';
	if (*last)
		snprintf(path, size, "/dev/%s", last);
}

static void child_enter_console(const char *tty, bool controlling)
{
	int fd;
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setsid();
	fd = open(tty, O_RDWR | (controlling ? 0 : O_NOCTTY));
	if (fd < 0)
		fd = open("/dev/console", O_RDWR | (controlling ? 0 : O_NOCTTY));
	if (fd < 0)
		_exit(127);
	if (controlling)
		ioctl(fd, TIOCSCTTY, 1);
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
}

pid_t console_spawn(const char *path, char *const argv[], char *const envp[], enum console_mode mode)
{
	char tty[300];
	pid_t pid;

	console_tty_path(tty, sizeof tty);
	pid = fork();
	if (pid != 0)
		return pid;
	rlimits_for_child();
	if (mode == CONSOLE_INHERIT) {
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		setsid();
	} else {
		child_enter_console(tty, mode == CONSOLE_INTERACTIVE);
	}
	execve(path, argv, envp);
	log_error("%s: cannot execute: %m", path);
	_exit(127);
}
