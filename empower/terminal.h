#ifndef EMBER_EMPOWER_TERMINAL_H
#define EMBER_EMPOWER_TERMINAL_H
/* The client's terminal work: a new PTY for the session, the caller's terminal in raw
 * mode while it runs (restored on every exit path), window-size copies, and reading a
 * password without echo. */
#include <stdbool.h>
#include <stddef.h>

struct pty {
	int master, slave;
};

/* Open a PTY pair; the slave gets the termios and window size of term_fd (if >= 0).
 * 0 or -1/errno. */
int pty_open(struct pty *p, int term_fd);
/* Copy the window size of term_fd to the PTY (SIGWINCH reaches the command). */
void pty_copy_winsize(int master, int term_fd);

/* Put fd in raw mode, remembering its settings for terminal_restore(). */
int terminal_raw(int fd);
void terminal_restore(void);
bool terminal_is_raw(void);
/* Prompt on tty and read one line without echo into buf (newline dropped). A stop
 * (^Z) gives the terminal its echo back before stopping; continuing turns echo off and
 * prompts again. A signal read from sigfd (other than SIGWINCH) cancels: -1 with
 * *cancel set to it. 0 or -1/errno (EOVERFLOW: longer than size-1). */
int terminal_read_password(int tty, const char *prompt, char *buf, size_t size, int sigfd,
			   int *cancel);
#endif
