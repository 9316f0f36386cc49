/* PTY and terminal modes (terminal.h). */
#include "terminal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <termios.h>
#include <unistd.h>

#include "io.h"

static struct {
	bool saved;
	int fd;
	struct termios tio;
} raw_state;

int pty_open(struct pty *p, int term_fd)
{
	char name[128];
	struct termios tio;
	p->master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (p->master < 0)
		return -1;
	if (grantpt(p->master) < 0 || unlockpt(p->master) < 0 ||
	    ptsname_r(p->master, name, sizeof name) != 0)
		goto fail;
	p->slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (p->slave < 0)
		goto fail;
	if (term_fd >= 0 && tcgetattr(term_fd, &tio) == 0)
		tcsetattr(p->slave, TCSANOW, &tio);
	pty_copy_winsize(p->master, term_fd);
	return 0;
fail:
	close(p->master);
	return -1;
}

void pty_copy_winsize(int master, int term_fd)
{
	struct winsize ws;
	if (term_fd >= 0 && ioctl(term_fd, TIOCGWINSZ, &ws) == 0)
		ioctl(master, TIOCSWINSZ, &ws);
}

int terminal_raw(int fd)
{
	struct termios tio;
	if (tcgetattr(fd, &tio) < 0)
		return -1;
	raw_state.tio = tio;
	raw_state.fd = fd;
	raw_state.saved = true;
	cfmakeraw(&tio);
	return tcsetattr(fd, TCSADRAIN, &tio);
}

void terminal_restore(void)
{
	if (raw_state.saved)
		tcsetattr(raw_state.fd, TCSADRAIN, &raw_state.tio);
	raw_state.saved = false;
}

bool terminal_is_raw(void)
{
	return raw_state.saved;
}

/* Echo off for the prompt, but line editing and the signal keys on. */
static struct termios quiet_modes(struct termios t)
{
	t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
	t.c_lflag |= ICANON | ISIG;
	t.c_iflag |= ICRNL;
	t.c_oflag |= OPOST | ONLCR;
	return t;
}

/* A stop key (^Z) or SIGTTIN/SIGTTOU: the terminal gets its own modes back (echo on)
 * for the shell, then this process stops. SIGCONT: echo off again and a new prompt, but
 * only in the foreground: a background job leaves the terminal alone and stops again. */
static void stop_and_resume(int tty, int signo, const struct termios *old,
			    const struct termios *quiet, const char *prompt)
{
	if (signo != SIGCONT) {
		tcsetattr(tty, TCSANOW, old);
		io_write_all(tty, "\n", 1);
		raise(SIGSTOP);
		return; /* the SIGCONT that wakes us is read next */
	}
	if (tcgetpgrp(tty) != getpgrp()) {
		raise(SIGSTOP);
		return;
	}
	tcsetattr(tty, TCSANOW, quiet);
	io_write_all(tty, prompt, strlen(prompt));
}

/* One line from tty into buf: 1 at a newline or end of file, 0 when more may come. */
static int read_chunk(int tty, char *buf, size_t size, size_t *n, int *rc)
{
	char chunk[256];
	ssize_t r = read(tty, chunk, sizeof chunk);
	if (r < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : 1;
	if (r == 0)
		return 1;
	for (ssize_t i = 0; i < r; i++) {
		if (chunk[i] == '\n') {
			explicit_bzero(chunk, sizeof chunk);
			return 1;
		}
		if (*n + 1 >= size) {
			*rc = -1; /* too long: keep nothing */
			errno = EOVERFLOW;
			continue;
		}
		buf[(*n)++] = chunk[i];
	}
	explicit_bzero(chunk, sizeof chunk);
	return 0;
}

int terminal_read_password(int tty, const char *prompt, char *buf, size_t size, int sigfd,
			   int *cancel)
{
	struct termios old, quiet;
	sigset_t stops, saved;
	size_t n = 0;
	int rc = 0;
	*cancel = 0;
	if (tcgetattr(tty, &old) < 0)
		return -1;
	quiet = quiet_modes(old);
	sigemptyset(&stops);
	sigaddset(&stops, SIGTSTP);
	sigaddset(&stops, SIGTTIN);
	sigaddset(&stops, SIGTTOU);
	sigaddset(&stops, SIGCONT);
	sigprocmask(SIG_BLOCK, &stops, &saved);
	int stopfd = signalfd(-1, &stops, SFD_CLOEXEC | SFD_NONBLOCK);
	if (stopfd < 0 || tcsetattr(tty, TCSANOW, &quiet) < 0) {
		rc = -1;
		goto out;
	}
	io_write_all(tty, prompt, strlen(prompt));
	for (;;) {
		struct pollfd p[3] = { { .fd = tty, .events = POLLIN },
				       { .fd = sigfd, .events = POLLIN },
				       { .fd = stopfd, .events = POLLIN } };
		struct signalfd_siginfo si;
		if (poll(p, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			rc = -1;
			break;
		}
		if ((p[1].revents & POLLIN) && read(sigfd, &si, sizeof si) == sizeof si &&
		    si.ssi_signo != SIGWINCH) {
			*cancel = (int)si.ssi_signo; /* ^C, SIGTERM, hangup: nothing is sent */
			rc = -1;
			break;
		}
		if ((p[2].revents & POLLIN) && read(stopfd, &si, sizeof si) == sizeof si) {
			stop_and_resume(tty, (int)si.ssi_signo, &old, &quiet, prompt);
			continue;
		}
		if ((p[0].revents & (POLLIN | POLLHUP | POLLERR)) && read_chunk(tty, buf, size, &n, &rc))
			break;
	}
	io_write_all(tty, "\n", 1);
	tcsetattr(tty, TCSAFLUSH, &old);
out:
	buf[n] = '\0';
	if (stopfd >= 0)
		close(stopfd);
	sigprocmask(SIG_SETMASK, &saved, NULL);
	return rc;
}
