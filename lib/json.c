#include "json.h"

#include <stddef.h>

/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF), or 0 when the bytes there are not one. */
static size_t utf8_sequence_length(const unsigned char *p)
{
	size_t len;
	unsigned char lo = 0x80, hi = 0xbf;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4;
	else
		return 0;
	/* The second byte's range is narrower after these leads: it is what rules out
	 * overlong forms, surrogates and code points past U+10FFFF. */
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return len;
}

static void json_char(FILE *f, unsigned char c)
{
	switch (c) {
	case '"': fputs("\\\"", f); break;
	case '\\': fputs("\\\\", f); break;
	case '\n': fputs("\\n", f); break;
	case '\r': fputs("\\r", f); break;
	case '\t': fputs("\\t", f); break;
	default:
		if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
}

/* Text from service files and the kernel may hold any bytes: JSON must be UTF-8, so a
 * byte that does not start a well-formed sequence becomes U+FFFD, one per byte. */
void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		size_t len = utf8_sequence_length(p);
		if (len == 0) {
			fputs("\\ufffd", f);
			p++;
		} else if (len == 1) {
			json_char(f, *p++);
		} else {
			fwrite(p, 1, len, f);
			p += len;
		}
	}
	fputc('"', f);
}

void json_kv_string(FILE *f, const char *key, const char *value)
{
	json_string(f, key);
	fputc(':', f);
	json_string(f, value);
}

void json_kv_int(FILE *f, const char *key, long long value)
{
	json_string(f, key);
	fprintf(f, ":%lld", value);
}
