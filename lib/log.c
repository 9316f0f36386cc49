#include "log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Formatting happens into a fixed buffer: no allocation, safe on PID 1 paths. */
#define LOG_LINE_MAX 1024

static const char *prog = "ember";
static enum log_level max_level = LOG_LEVEL_INFO;
static int kmsg_fd = -1;
/* Messages below this level are echoed to the console by the kernel itself. */
static int kmsg_echo_below;
static int console_fd = 2;
static enum log_level console_max = LOG_LEVEL_DEBUG;
static bool (*sink)(enum log_level level, const char *text, size_t len);

void log_open(const char *name)
{
	const char *slash = strrchr(name, '/');
	prog = slash ? slash + 1 : name;
}

void log_set_level(enum log_level max) { max_level = max; }
void log_set_kmsg(int fd, int console_loglevel)
{
	kmsg_fd = fd;
	kmsg_echo_below = fd >= 0 ? console_loglevel : 0;
}
void log_set_console(int fd) { console_fd = fd; }
void log_set_console_level(enum log_level max) { console_max = max; }
void log_set_sink(bool (*fn)(enum log_level, const char *, size_t)) { sink = fn; }
const char *log_prog(void) { return prog; }

static void io_write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		buf += n;
		len -= (size_t)n;
	}
}

static void vlog(enum log_level level, const char *fmt, va_list ap)
{
	int saved_errno = errno;
	char line[LOG_LINE_MAX];
	int head, body;
	bool sunk;

	if (level > max_level)
		return;
	head = snprintf(line, sizeof line, "<%d>%s: ", (int)level, prog);
	body = vsnprintf(line + head, sizeof line - (size_t)head - 1, fmt, ap);
	if (body < 0)
		body = 0;
	if ((size_t)(head + body) > sizeof line - 2)
		body = (int)(sizeof line - 2) - head;
	line[head + body] = '\n';
	sunk = sink && sink(level, line + head, (size_t)body);
	if (!sunk && kmsg_fd >= 0)
		io_write_all(kmsg_fd, line, (size_t)(head + body + 1));
	/* The console copy drops the "<N>" priority prefix, and is skipped when the
	 * kernel already prints the kmsg line there. */
	if (console_fd >= 0 && level <= console_max &&
	    (sunk || kmsg_fd < 0 || (int)level >= kmsg_echo_below)) {
		const char *plain = strchr(line, '>') + 1;
		io_write_all(console_fd, plain, (size_t)(line + head + body + 1 - plain));
	}
	errno = saved_errno;
}

#define DEFINE_LOG(fn, level)                   \
	void fn(const char *fmt, ...)           \
	{                                       \
		va_list ap;                     \
		va_start(ap, fmt);              \
		vlog(level, fmt, ap);           \
		va_end(ap);                     \
	}
DEFINE_LOG(log_error, LOG_LEVEL_ERROR)
DEFINE_LOG(log_warn, LOG_LEVEL_WARN)
DEFINE_LOG(log_info, LOG_LEVEL_INFO)
DEFINE_LOG(log_debug, LOG_LEVEL_DEBUG)

void die(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vlog(LOG_LEVEL_ERROR, fmt, ap);
	va_end(ap);
	exit(code);
}
