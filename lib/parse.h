#ifndef EMBER_PARSE_H
#define EMBER_PARSE_H
#include <stdbool.h>
#include <stddef.h>

/* Strict number parsing (strtonum-like): the whole string must be a number in
 * [min, max]. Returns 0, or -1 with errno EINVAL (not a number) or ERANGE. */
int parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out);
int parse_long(const char *s, long min, long max, long *out);
/* "yes/no/true/false/on/off/1/0" */
int parse_bool(const char *s, bool *out);
/* A time span as systemd.time(7) writes it: "90" (seconds), "500ms", "2min", "1.5h",
 * "2h 30min", "1d", "1w", "infinity" -> milliseconds (infinity -> ~0UL; below 1 ms
 * rounds up). */
int parse_duration_ms(const char *s, unsigned long *out);
/* A size such as "512", "64K", "10M", "1G", "infinity" (-> ~0ULL) in bytes. */
int parse_size(const char *s, unsigned long long *out);

/* The value of a hexadecimal digit, or -1. */
int hex_digit_value(char c);

/* Strip leading and trailing whitespace in place; returns the new start. */
char *strip(char *s);
bool str_starts_with(const char *s, const char *prefix);
/* Copy with truncation check: -1/ENAMETOOLONG when src does not fit. */
int str_copy(char *dst, size_t size, const char *src);
#endif
