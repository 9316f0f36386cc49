/* journal: a service's standard output as a stream to systemd-journald, where journald
 * listens (docs/services.md, "Output to the journal"). */
#ifndef EMBER_JOURNAL_STREAM_H
#define EMBER_JOURNAL_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define JOURNAL_STREAM_SOCKET "/run/systemd/journal/stdout"

struct journal_stream_header {
	const char *identifier; /* SYSLOG_IDENTIFIER= of every line */
	const char *unit;       /* the unit's name; journald trusts it from root only */
	unsigned priority;      /* facility << 3 | level, for lines without "<N>" */
	bool level_prefix;      /* "<N>" at a line's start sets its level */
	bool to_console;        /* journald copies the lines to the console */
};

/* The header journald reads before the first line: seven lines. A control character in
 * a name becomes '_', so no name can add lines of its own. Returns the length, or 0 when
 * it does not fit. */
size_t journal_stream_header(char *buf, size_t size, const struct journal_stream_header *h);

/* In the child: a stream to journald with the header sent, blocking again for the
 * service's writes; -1 when journald does not take it at once (no socket, refused,
 * backlog full), and the caller keeps ember's log. */
int journal_stream_connect(const char *socket_path, const struct journal_stream_header *h);

/* "JOURNAL_STREAM=DEV:INO" of a stream, as programs compare it with their stderr. */
int journal_stream_env(int fd, char *buf, size_t size);

#endif
