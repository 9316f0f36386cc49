#ifndef EMBER_JSON_H
#define EMBER_JSON_H
#include <stdio.h>

/* Minimal JSON output for --json: callers write the structure, these escape values.
 * Output is always valid UTF-8: bytes that are not well-formed UTF-8 become U+FFFD. */
void json_string(FILE *f, const char *s);
/* "key": "value" */
void json_kv_string(FILE *f, const char *key, const char *value);
void json_kv_int(FILE *f, const char *key, long long value);
#endif
