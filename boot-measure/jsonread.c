#include "jsonread.h"

#include <stdint.h>
#include <string.h>

static int object_next(struct json_reader *r, char *key, size_t key_size);
static int scan_string(struct json_reader *r, char *out, size_t size, size_t *len);

static int fail(struct json_reader *r, const char *why)
{
	if (!r->error)
		r->error = why;
	return -1;
}

void json_reader_init(struct json_reader *r, const char *text, size_t len)
{
	r->p = text;
	r->end = text + len;
	r->depth = 0;
	r->error = NULL;
	r->just_opened = false;
}

static void skip_blanks(struct json_reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

char json_peek(struct json_reader *r)
{
	skip_blanks(r);
	return r->p < r->end ? *r->p : 0;
}

static int expect(struct json_reader *r, char c, const char *why)
{
	if (r->error)
		return -1;
	if (json_peek(r) != c)
		return fail(r, why);
	r->p++;
	return 0;
}

static int enter(struct json_reader *r, char open, const char *why)
{
	if (expect(r, open, why) < 0)
		return -1;
	if (++r->depth > JSON_MAX_DEPTH)
		return fail(r, "nested too deeply");
	r->just_opened = true;
	return 0;
}

int json_object_begin(struct json_reader *r)
{
	return enter(r, '{', "expected an object");
}

int json_array_begin(struct json_reader *r)
{
	return enter(r, '[', "expected an array");
}

/* Shared by objects and arrays: 1 = another member follows, 0 = closed. Right after
 * the opening bracket nothing separates members; after a member a comma must. */
static int container_next(struct json_reader *r, char close)
{
	bool first = r->just_opened;
	r->just_opened = false;
	if (r->error)
		return -1;
	if (json_peek(r) == close) {
		r->p++;
		r->depth--;
		return 0;
	}
	if (first)
		return 1;
	if (expect(r, ',', "expected ',' or a closing bracket") < 0)
		return -1;
	if (json_peek(r) == close)
		return fail(r, "trailing comma");
	return 1;
}

int json_object_next(struct json_reader *r, char *key, size_t key_size)
{
	if (key_size == 0)
		return fail(r, "key too long");
	return object_next(r, key, key_size);
}

int json_array_next(struct json_reader *r)
{
	return container_next(r, ']');
}

static int hex4(struct json_reader *r, unsigned *out)
{
	unsigned v = 0;
	if (r->end - r->p < 4)
		return fail(r, "truncated \\u escape");
	for (int i = 0; i < 4; i++) {
		char c = *r->p++;
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return fail(r, "bad \\u escape");
	}
	*out = v;
	return 0;
}

/* \uXXXX, with a surrogate pair joined, as one code point. */
static int unicode_escape(struct json_reader *r, unsigned *cp)
{
	unsigned lo;
	if (hex4(r, cp) < 0)
		return -1;
	if (*cp >= 0xDC00 && *cp <= 0xDFFF)
		return fail(r, "lone low surrogate");
	if (*cp < 0xD800 || *cp > 0xDBFF)
		return 0;
	if (r->end - r->p < 2 || r->p[0] != '\\' || r->p[1] != 'u')
		return fail(r, "lone high surrogate");
	r->p += 2;
	if (hex4(r, &lo) < 0)
		return -1;
	if (lo < 0xDC00 || lo > 0xDFFF)
		return fail(r, "bad surrogate pair");
	*cp = 0x10000 + ((*cp - 0xD800) << 10) + (lo - 0xDC00);
	return 0;
}

/* out == NULL: validate and skip only. */
static int put_byte(struct json_reader *r, char *out, size_t size, size_t *n, unsigned byte)
{
	if (out) {
		if (*n + 1 >= size)
			return fail(r, "string too long");
		out[*n] = (char)byte;
	}
	(*n)++;
	return 0;
}

static int put_code_point(struct json_reader *r, char *out, size_t size, size_t *n, unsigned cp)
{
	if (cp == 0)
		return fail(r, "string holds U+0000");
	if (cp < 0x80)
		return put_byte(r, out, size, n, cp);
	if (cp < 0x800)
		return put_byte(r, out, size, n, 0xC0 | cp >> 6) < 0 ? -1 :
		       put_byte(r, out, size, n, 0x80 | (cp & 0x3F));
	if (cp < 0x10000) {
		if (put_byte(r, out, size, n, 0xE0 | cp >> 12) < 0)
			return -1;
	} else {
		if (put_byte(r, out, size, n, 0xF0 | cp >> 18) < 0 ||
		    put_byte(r, out, size, n, 0x80 | ((cp >> 12) & 0x3F)) < 0)
			return -1;
	}
	if (put_byte(r, out, size, n, 0x80 | ((cp >> 6) & 0x3F)) < 0)
		return -1;
	return put_byte(r, out, size, n, 0x80 | (cp & 0x3F));
}

static int escape(struct json_reader *r, char *out, size_t size, size_t *n)
{
	unsigned cp;
	if (r->p >= r->end)
		return fail(r, "truncated string");
	switch (*r->p++) {
	case '"': return put_byte(r, out, size, n, '"');
	case '\\': return put_byte(r, out, size, n, '\\');
	case '/': return put_byte(r, out, size, n, '/');
	case 'b': return put_byte(r, out, size, n, '\b');
	case 'f': return put_byte(r, out, size, n, '\f');
	case 'n': return put_byte(r, out, size, n, '\n');
	case 'r': return put_byte(r, out, size, n, '\r');
	case 't': return put_byte(r, out, size, n, '\t');
	case 'u':
		if (unicode_escape(r, &cp) < 0)
			return -1;
		return put_code_point(r, out, size, n, cp);
	default: return fail(r, "bad escape in string");
	}
}

size_t json_utf8_sequence(const char *text, size_t avail)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t extra;
	unsigned cp;
	if (avail == 0)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xE0) == 0xC0) { extra = 1; cp = s[0] & 0x1Fu; }
	else if ((s[0] & 0xF0) == 0xE0) { extra = 2; cp = s[0] & 0x0Fu; }
	else if ((s[0] & 0xF8) == 0xF0) { extra = 3; cp = s[0] & 0x07u; }
	else return 0;
	if (avail <= extra)
		return 0;
	for (size_t i = 1; i <= extra; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3Fu);
	}
	/* overlong forms, surrogates and code points past U+10FFFF are not UTF-8 */
	if ((extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) ||
	    (extra == 3 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return extra + 1;
}

/* A raw multi-byte character whose first byte was just consumed. */
static int raw_utf8(struct json_reader *r, char *out, size_t size, size_t *n)
{
	const char *start = r->p - 1;
	size_t length = json_utf8_sequence(start, (size_t)(r->end - start));
	if (length == 0)
		return fail(r, "invalid UTF-8 in string");
	for (size_t i = 0; i < length; i++)
		if (put_byte(r, out, size, n, (unsigned char)start[i]) < 0)
			return -1;
	r->p = start + length;
	return 0;
}

static int scan_string(struct json_reader *r, char *out, size_t size, size_t *len)
{
	size_t n = 0;
	if (expect(r, '"', "expected a string") < 0)
		return -1;
	for (;;) {
		unsigned char c;
		if (r->p >= r->end)
			return fail(r, "truncated string");
		c = (unsigned char)*r->p++;
		if (c == '"')
			break;
		if (c < 0x20)
			return fail(r, "control character in string");
		if (c == '\\') {
			if (escape(r, out, size, &n) < 0)
				return -1;
		} else if (c >= 0x80) {
			if (raw_utf8(r, out, size, &n) < 0)
				return -1;
		} else if (put_byte(r, out, size, &n, c) < 0) {
			return -1;
		}
	}
	if (out)
		out[n] = '\0';
	if (len)
		*len = n;
	return 0;
}

int json_read_string(struct json_reader *r, char *out, size_t size, size_t *len)
{
	if (size == 0)
		return fail(r, "string too long");
	return scan_string(r, out, size, len);
}

int json_read_uint(struct json_reader *r, unsigned long long max, unsigned long long *out)
{
	unsigned long long v = 0;
	const char *start;
	if (r->error)
		return -1;
	json_peek(r);
	start = r->p;
	while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
		unsigned d = (unsigned)(*r->p - '0');
		if (v > (max - d) / 10)
			return fail(r, "number out of range");
		v = v * 10 + d;
		r->p++;
	}
	if (r->p == start)
		return fail(r, "expected a non-negative integer");
	if (r->p - start > 1 && *start == '0')
		return fail(r, "leading zero in number");
	if (r->p < r->end && (*r->p == '.' || *r->p == 'e' || *r->p == 'E'))
		return fail(r, "expected an integer");
	*out = v;
	return 0;
}

static int skip_digits(struct json_reader *r)
{
	const char *start = r->p;
	while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
		r->p++;
	return r->p == start ? fail(r, "bad number") : 0;
}

static int skip_number(struct json_reader *r)
{
	if (r->p < r->end && *r->p == '-')
		r->p++;
	if (r->p < r->end && *r->p == '0')
		r->p++;
	else if (skip_digits(r) < 0)
		return -1;
	if (r->p < r->end && *r->p == '.') {
		r->p++;
		if (skip_digits(r) < 0)
			return -1;
	}
	if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
		r->p++;
		if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
			r->p++;
		if (skip_digits(r) < 0)
			return -1;
	}
	return 0;
}

static int skip_word(struct json_reader *r, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
		return fail(r, "unexpected character");
	r->p += n;
	return 0;
}

/* A member's key, decoded into key, or only skipped when key is NULL. */
static int object_next(struct json_reader *r, char *key, size_t key_size)
{
	int more = container_next(r, '}');
	if (more <= 0)
		return more;
	if (scan_string(r, key, key_size, NULL) < 0)
		return -1;
	if (expect(r, ':', "expected ':' after a key") < 0)
		return -1;
	return 1;
}

static int skip_container(struct json_reader *r, bool object)
{
	int more;
	if ((object ? json_object_begin(r) : json_array_begin(r)) < 0)
		return -1;
	while ((more = object ? object_next(r, NULL, 0) : json_array_next(r)) > 0)
		if (json_skip(r) < 0)
			return -1;
	return more;
}

int json_skip(struct json_reader *r)
{
	switch (json_peek(r)) {
	case '{': return skip_container(r, true);
	case '[': return skip_container(r, false);
	case '"': return scan_string(r, NULL, 0, NULL);
	case 't': return skip_word(r, "true");
	case 'f': return skip_word(r, "false");
	case 'n': return skip_word(r, "null");
	case 0: return fail(r, "truncated value");
	default:
		if (*r->p == '-' || (*r->p >= '0' && *r->p <= '9'))
			return skip_number(r);
		return fail(r, "unexpected character");
	}
}

int json_expect_end(struct json_reader *r)
{
	if (r->error)
		return -1;
	skip_blanks(r);
	return r->p < r->end ? fail(r, "trailing characters") : 0;
}
