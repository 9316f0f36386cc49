#ifndef EMBERCTL_JOURNAL_H
#define EMBERCTL_JOURNAL_H
/* emberctl log -n N --since=TIME --all: the lines of one or every service with the time
 * each began (stamped replies, docs/control-protocol.md), merged by time, cut to what
 * was asked for, printed. */
#include <stdbool.h>
#include <stdio.h>

#include "records.h"

struct journal_line {
	long long t_ms;    /* CLOCK_BOOTTIME ms; -1 unknown */
	const char *unit;  /* points to the caller's name, which must outlive the journal */
	char *text;        /* without its newline (malloc'd) */
	size_t seq;        /* arrival order: ties keep it */
};

struct journal {
	struct journal_line *line;
	size_t count, cap;
};

/* Add the lines of one unit's stamped reply; *cursor gets the cursor it ended with (0
 * when the reply had none). Returns 0, or -1 with a message in err (out of memory). */
int journal_add(struct journal *j, const char *unit, const struct record_set *set,
		unsigned long long *cursor, char *err, size_t errlen);
/* Order every line by time, ties in arrival order. */
void journal_sort(struct journal *j);
/* The first line to show: none before since_ms (-1: no bound), at most lines of them
 * (-1: no bound). */
size_t journal_first(const struct journal *j, long long since_ms, long lines);
/* Print lines first.. . with_unit: "YYYY-MM-DD HH:MM:SS UNIT: text" (boot_to_real_us
 * turns boot time into wall-clock time); else the text alone. tty: control bytes are
 * escaped. */
void journal_print(FILE *f, const struct journal *j, size_t first, bool with_unit,
		   long long boot_to_real_us, bool tty);
void journal_free(struct journal *j);
#endif
