#ifndef BOOT_MEASURE_JSONREAD_H
#define BOOT_MEASURE_JSONREAD_H
/* A small pull reader for one JSON text held in memory. It never allocates, bounds
 * nesting, and refuses anything RFC 8259 does not allow, so hostile log records end
 * in an error message rather than in undefined behaviour. Every function returns 0 on
 * success and -1 with r->error set on failure; the first error sticks. */
#include <stdbool.h>
#include <stddef.h>

#define JSON_MAX_DEPTH 16

struct json_reader {
	const char *p, *end;
	int depth;
	bool just_opened; /* no member read yet in the innermost container */
	const char *error; /* static text, NULL while all is well */
};

void json_reader_init(struct json_reader *r, const char *text, size_t len);
/* The next non-blank character without consuming it, or 0 at the end. */
char json_peek(struct json_reader *r);

/* Objects: call json_object_begin, then json_object_next until it returns 0 (end of
 * object) or -1; each 1 leaves the reader at the member's value, which the caller
 * must consume (read or json_skip). Arrays work alike with json_array_next. */
int json_object_begin(struct json_reader *r);
int json_object_next(struct json_reader *r, char *key, size_t key_size);
int json_array_begin(struct json_reader *r);
int json_array_next(struct json_reader *r);

/* A string decoded into out (NUL-terminated); *len excludes the NUL. Strings holding
 * U+0000 or longer than size-1 bytes are refused. */
int json_read_string(struct json_reader *r, char *out, size_t size, size_t *len);
/* A non-negative integer up to max. */
int json_read_uint(struct json_reader *r, unsigned long long max, unsigned long long *out);
int json_skip(struct json_reader *r);
/* The length of the UTF-8 character at text (1-4), or 0 when it is not valid UTF-8
 * (overlong, surrogate, beyond U+10FFFF, truncated). */
size_t json_utf8_sequence(const char *text, size_t avail);
/* Only blanks remain. */
int json_expect_end(struct json_reader *r);
#endif
