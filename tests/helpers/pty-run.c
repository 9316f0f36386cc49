/* pty-run: run CMD as the leader of a new session whose controlling terminal is a new
 * PTY (stdin, stdout and stderr on it), copy what it writes to our stdout, and exit with
 * its status. For guests without script(1): empower's interactive cases and TIOCSTI.
 *   pty-run CMD [ARG...] */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: pty-run CMD [ARG...]\n");
		return 100;
	}
	int master = posix_openpt(O_RDWR | O_NOCTTY);
	char *name;
	if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0 || !(name = ptsname(master))) {
		perror("pty-run: pty");
		return 111;
	}
	pid_t pid = fork();
	if (pid == 0) {
		int slave;
		setsid();
		slave = open(name, O_RDWR);
		if (slave < 0 || ioctl(slave, TIOCSCTTY, 0) < 0) {
			perror("pty-run: slave");
			_exit(111);
		}
		dup2(slave, 0);
		dup2(slave, 1);
		dup2(slave, 2);
		if (slave > 2)
			close(slave);
		close(master);
		execvp(argv[1], argv + 1);
		perror("pty-run: exec");
		_exit(127);
	}
	char buf[4096];
	int status = 0, reaped = 0;
	for (;;) {
		struct pollfd p = { .fd = master, .events = POLLIN };
		if (poll(&p, 1, 200) > 0) {
			ssize_t n = read(master, buf, sizeof buf);
			if (n <= 0)
				break; /* EIO: every slave fd closed */
			if (write(1, buf, (size_t)n) < 0)
				break;
		} else if (waitpid(pid, &status, WNOHANG) == pid) {
			reaped = 1;
			break;
		}
	}
	if (!reaped)
		waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
