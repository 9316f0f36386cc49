#ifndef EMBERCTL_RECORDS_H
#define EMBERCTL_RECORDS_H
/* The records of a reply, and the small formatting helpers every view shares. The
 * views themselves (show.c, analyze.c) are pure: records in, text on a FILE out. */
#include <stdbool.h>
#include <stdio.h>

#include "ctl.h"

struct record_set {
	size_t count;
	struct ctl_record *rec; /* point into the stream text they were read from */
};

/* Read every record of the stream text[0..len) (parsed in place, see
 * ctl_record_read). Returns 0, or -1 with a message in err (malformed stream, or out
 * of memory). */
int records_load(char *text, size_t len, struct record_set *set, char *err, size_t errlen);
void records_free(struct record_set *set);

/* A field as a string ("" when missing) or an integer (-1 when missing or not a
 * number: every integer in the protocol uses -1 for "unset"). */
const char *rec_str(const struct ctl_record *rec, const char *key);
long long rec_int(const struct ctl_record *rec, const char *key);

/* "850us", "120ms", "1.234s", "2min 3s", "1h 2min"; "-" for a negative value. */
void format_duration(char *buf, size_t size, long long us);
/* "512B", "4.0K", "12.5M", "1.1G" (powers of 1024); "-" for a negative value. */
void format_bytes(char *buf, size_t size, long long bytes);

/* s with control bytes shown as \n, \t, \xHH and backslashes doubled, so a value can
 * never move the cursor or change the terminal. */
void print_safe(FILE *f, const char *s);
/* The same for a buffer that may hold NUL bytes. */
void print_safe_n(FILE *f, const char *s, size_t len);
/* Its printed width (bytes; UTF-8 sequences count one column per lead byte). */
size_t safe_width(const char *s);

/* A record as one JSON object: known integer keys become numbers, "after" and
 * "requires" arrays of names, everything else strings. */
void record_json(FILE *f, const struct ctl_record *rec);
#endif
