#ifndef EMBER_INIT_CONSOLE_H
#define EMBER_INIT_CONSOLE_H
#include <stdbool.h>
#include <sys/types.h>

/* Point fds 0-2 at /dev/console (the kernel may start us without them). */
void console_setup(void);
/* Start path on the console's real tty (read from /sys/class/tty/console/active) as a
 * session leader with it as controlling terminal, so job control works. With
 * inherit_stdio (container mode, where the console is the host's) the child keeps
 * PID 1's own stdio instead. Returns the pid or -1/errno. */
pid_t console_spawn(const char *path, char *const argv[], char *const envp[], bool inherit_stdio);
#endif
