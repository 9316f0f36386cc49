#ifndef EMBER_LOG_H
#define EMBER_LOG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdnoreturn.h>

/* One logging helper for every program: "prog: message" on stderr, and in PID 1 also
 * on /dev/kmsg. Messages say what failed, on which object, and why. */
enum log_level { LOG_LEVEL_ERROR = 3, LOG_LEVEL_WARN = 4, LOG_LEVEL_INFO = 6, LOG_LEVEL_DEBUG = 7 };

void log_open(const char *prog);
void log_set_level(enum log_level max);
/* Also send messages to this fd in kmsg format ("<N>prog: ..."); -1 turns it off.
 * The kernel echoes kmsg lines below console_loglevel to the console: those are then
 * not written to the console fd a second time. */
void log_set_kmsg(int fd, int console_loglevel);
/* Where the human-readable copy goes (default 2), and up to which level (default: all
 * that is logged). */
void log_set_console(int fd);
/* A destination tried before kmsg (PID 1: journald, while it runs). It gets the level and
 * the message alone (no "prog: ", no newline; not NUL-terminated) and returns true when it
 * took the line: the kmsg copy is then not written, the console copy is. It must not log.
 * NULL: none. */
void log_set_sink(bool (*sink)(enum log_level level, const char *text, size_t len));
void log_set_console_level(enum log_level max);

void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
noreturn void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

const char *log_prog(void);
#endif
