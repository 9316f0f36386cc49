/* U5: a terminal for StandardInput=tty* / StandardOutput=tty (getty@, serial-getty@).
 * In the child after setsid(): optionally reset it, hang up whoever had it, clear a VT,
 * then open it and make it the controlling terminal. See docs/exec-context.md. */
#include "exec-context.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#ifndef VT_DISALLOCATE
#define VT_DISALLOCATE 0x5608 /* linux/vt.h */
#endif
#define TTY_WAIT_NS 100000000L /* StandardInput=tty: retry every 100 ms while it is taken */

static int fail_tty(struct exec_failure *f, enum exec_tty_op op)
{
	f->step = EXEC_STEP_TTY;
	f->err = errno;
	f->arg = op;
	return -1;
}

/* Sane line settings, as after a fresh login (stty sane, roughly): the previous user's
 * raw mode or odd characters do not leak into the next program. */
static void reset_termios(int fd)
{
	struct termios t;

	if (tcgetattr(fd, &t) < 0)
		return;
	t.c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | ISTRIP | INLCR | IGNCR | IXOFF);
	t.c_iflag |= ICRNL | IXON | IMAXBEL;
#ifdef IUTF8
	t.c_iflag |= IUTF8;
#endif
	t.c_oflag |= OPOST | ONLCR;
	t.c_cflag |= CREAD;
	t.c_lflag = ISIG | ICANON | IEXTEN | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE;
	t.c_cc[VINTR] = 0x03;  /* ^C */
	t.c_cc[VQUIT] = 0x1c;  /* ^\ */
	t.c_cc[VERASE] = 0x7f; /* DEL */
	t.c_cc[VKILL] = 0x15;  /* ^U */
	t.c_cc[VEOF] = 0x04;   /* ^D */
	t.c_cc[VSTART] = 0x11; /* ^Q */
	t.c_cc[VSTOP] = 0x13;  /* ^S */
	t.c_cc[VSUSP] = 0x1a;  /* ^Z */
	t.c_cc[VTIME] = 0;
	t.c_cc[VMIN] = 1;
	tcsetattr(fd, TCSANOW, &t);
	tcflush(fd, TCIOFLUSH);
}

static int open_tty(const char *path)
{
	return open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
}

/* /dev/ttyN: the VT number, else 0. */
static int vt_number(const char *path)
{
	int n = 0;

	if (strncmp(path, "/dev/tty", 8) != 0 || path[8] < '1' || path[8] > '9')
		return 0;
	for (const char *p = path + 8; *p; p++) {
		if (*p < '0' || *p > '9' || n > 1000)
			return 0;
		n = n * 10 + (*p - '0');
	}
	return n;
}

/* Best effort, as systemd: a VT that cannot be deallocated (it is the active one) is
 * cleared instead. */
static void vt_disallocate(const char *path)
{
	int vt = vt_number(path), fd;

	if (vt == 0)
		return;
	fd = open("/dev/tty0", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0) {
		int r = ioctl(fd, VT_DISALLOCATE, vt);
		close(fd);
		if (r == 0)
			return;
	}
	fd = open_tty(path);
	if (fd >= 0) {
		static const char clear[] = "\033[r\033[H\033[3J\033c";
		if (write(fd, clear, sizeof clear - 1) < 0) { /* nothing more to do */ }
		close(fd);
	}
}

static void prepare(const struct exec_context *c)
{
	int fd;

	if (c->tty_flags & (EXEC_TTY_RESET | EXEC_TTY_VHANGUP)) {
		fd = open_tty(c->tty_path);
		if (fd >= 0) {
			if (c->tty_flags & EXEC_TTY_RESET)
				reset_termios(fd);
			if (c->tty_flags & EXEC_TTY_VHANGUP)
				ioctl(fd, TIOCVHANGUP, 0);
			close(fd);
		}
	}
	if (c->tty_flags & EXEC_TTY_VT_DISALLOCATE)
		vt_disallocate(c->tty_path);
}

int exec_tty_acquire(const struct exec_context *c, struct exec_failure *fail)
{
	int fd;

	prepare(c);
	for (;;) {
		fd = open_tty(c->tty_path);
		if (fd < 0)
			return fail_tty(fail, EXEC_TTY_OPEN);
		if (!(c->tty_flags & EXEC_TTY_STDIN))
			return fd;
		/* Force: steal it from another session (needs CAP_SYS_ADMIN, which root has). */
		if (ioctl(fd, TIOCSCTTY, (c->tty_flags & EXEC_TTY_FORCE) ? 1 : 0) == 0)
			return fd;
		if (errno != EPERM || (c->tty_flags & (EXEC_TTY_FAIL | EXEC_TTY_FORCE))) {
			int op = errno == EPERM ? EXEC_TTY_BUSY : EXEC_TTY_CONTROLLING;
			int saved = errno;
			close(fd);
			errno = saved;
			return fail_tty(fail, op);
		}
		/* StandardInput=tty: another session owns it; wait until it lets go. */
		close(fd);
		nanosleep(&(struct timespec){ 0, TTY_WAIT_NS }, NULL);
	}
}
