/* PTY and terminal modes (terminal.h). */
#include "terminal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
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

int terminal_read_password(int tty, const char *prompt, char *buf, size_t size)
{
	struct termios old, quiet;
	size_t n = 0;
	int rc = 0;
	if (tcgetattr(tty, &old) < 0)
		return -1;
	quiet = old;
	quiet.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
	quiet.c_lflag |= ICANON | ISIG;
	quiet.c_iflag |= ICRNL;
	quiet.c_oflag |= OPOST | ONLCR;
	if (tcsetattr(tty, TCSANOW, &quiet) < 0)
		return -1;
	io_write_all(tty, prompt, strlen(prompt));
	for (;;) {
		char c;
		ssize_t r = read(tty, &c, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || c == '\n')
			break;
		if (n + 1 >= size) {
			rc = -1;
			errno = EOVERFLOW;
			continue; /* read the rest of the line, keep nothing */
		}
		buf[n++] = c;
	}
	buf[n] = '\0';
	io_write_all(tty, "\n", 1);
	tcsetattr(tty, TCSAFLUSH, &old);
	return rc;
}
