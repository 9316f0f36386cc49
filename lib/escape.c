/* Escaping untrusted text for logs and messages (escape.h). */
#include "escape.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Length of the well-formed UTF-8 sequence at s that may be shown as is (0: escape the
 * byte at s). */
static size_t safe_utf8(const unsigned char *s)
{
	uint32_t cp;
	size_t n;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0; /* overlong, out of range or a surrogate */
	if (cp < 0xa0 || cp == 0x2028 || cp == 0x2029 || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e || cp == 0x200f || cp == 0x061c)
		return 0; /* C1 controls, line separators, bidirectional controls */
	return n;
}

static bool plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '\\' && c != '\'' && c != '"';
}

char *escape_text(const char *text, char *out, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)text;
	size_t o = 0;
	if (size == 0)
		return out;
	while (*s) {
		size_t n = plain(*s) ? 1 : safe_utf8(s);
		size_t need = n ? n : 4;
		if (o + need + 4 > size) { /* keep room for "..." and the NUL */
			if (o + 4 <= size)
				memcpy(out + o, "...", 3), o += 3;
			break;
		}
		if (n) {
			memcpy(out + o, s, n);
			o += n;
			s += n;
			continue;
		}
		out[o++] = '\\';
		out[o++] = 'x';
		out[o++] = hex[*s >> 4];
		out[o++] = hex[*s & 15];
		s++;
	}
	out[o] = '\0';
	return out;
}
