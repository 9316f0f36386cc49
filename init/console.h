#ifndef EMBER_INIT_CONSOLE_H
#define EMBER_INIT_CONSOLE_H
#include <stdbool.h>
#include <sys/types.h>

/* Point fds 0-2 at /dev/console (the kernel may start us without them). */
void console_setup(void);
enum console_mode {
	/* A session leader with the console's real tty (read from
	 * /sys/class/tty/console/active) as controlling terminal: job control works. */
	CONSOLE_INTERACTIVE,
	/* The same tty as stdio, but not as controlling terminal. When a session leader
	 * exits, the kernel hangs its controlling tty up, which discards output the serial
	 * line has not sent yet: a command whose last lines matter (ember.run) must not
	 * own the tty. */
	CONSOLE_OUTPUT,
	/* PID 1's own stdio (container mode, where the console is the host's). */
	CONSOLE_INHERIT,
};

/* Start path on the console in a new session. Returns the pid or -1/errno. */
pid_t console_spawn(const char *path, char *const argv[], char *const envp[], enum console_mode mode);
#endif
