/* See varlink.h. The JSON reader takes the grammar as RFC 8259 has it; values it does not
 * keep (nested objects and arrays, unknown keys) are checked and passed over, at most 16
 * levels deep. */
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "io.h"
#include "varlink.h"

#define DEPTH_MAX 16

ssize_t varlink_read(int fd, char *buf, size_t size, int timeout_ms)
{
	size_t n = 0;

	while (n < size) {
		struct pollfd p = { fd, POLLIN, 0 };
		ssize_t got;
		if (poll(&p, 1, timeout_ms) <= 0)
			return -1;
		got = read(fd, buf + n, size - n);
		if (got <= 0)
			return -1;
		for (ssize_t i = 0; i < got; i++)
			if (buf[n + (size_t)i] == '\0')
				return (ssize_t)n + i;
		n += (size_t)got;
	}
	return -1;
}

int varlink_reply(int fd, const char *json)
{
	return io_write_all(fd, json, strlen(json) + 1) < 0 ? -1 : 0;
}

static const char *skip_ws(const char *p)
{
	return p + strspn(p, " \t\r\n");
}

static int hex_value(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* \uXXXX as UTF-8 into out (surrogates are refused: no name of ours needs them).
 * Returns the bytes written, or -1. */
static int put_code_point(const char *p, char *out)
{
	unsigned cp = 0;

	for (int i = 0; i < 4; i++) {
		int h = hex_value(p[i]);
		if (h < 0)
			return -1;
		cp = cp << 4 | (unsigned)h;
	}
	if (cp == 0 || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	out[0] = (char)(0xe0 | cp >> 12);
	out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[2] = (char)(0x80 | (cp & 0x3f));
	return 3;
}

/* A string at p (its opening quote), decoded into out (NULL: only checked). Returns the
 * position after its closing quote, or NULL: malformed, or longer than size - 1. */
static const char *read_string(const char *p, char *out, size_t size)
{
	static const char plain[] = "\"\\/bfnrt", meant[] = "\"\\/\b\f\n\r\t";
	size_t n = 0;

	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		char buf[4];
		int len = 1;
		if ((unsigned char)*p < 0x20)
			return NULL; /* the NUL ending the text included */
		if (*p != '\\') {
			buf[0] = *p++;
		} else if (p[1] == 'u') {
			if ((len = put_code_point(p + 2, buf)) < 0)
				return NULL;
			p += 6;
		} else {
			const char *e = p[1] ? strchr(plain, p[1]) : NULL;
			if (!e)
				return NULL;
			buf[0] = meant[e - plain];
			p += 2;
		}
		if (out && n + (size_t)len >= size)
			return NULL;
		if (out)
			memcpy(out + n, buf, (size_t)len);
		n += (size_t)len;
	}
	if (out)
		out[n] = '\0';
	return p + 1;
}

/* A number, true, false or null at p: the position after it, or NULL. */
static const char *read_literal(const char *p)
{
	static const char *const words[] = { "true", "false", "null" };
	const char *q = p;

	for (size_t i = 0; i < 3; i++)
		if (strncmp(p, words[i], strlen(words[i])) == 0)
			return p + strlen(words[i]);
	if (*q == '-')
		q++;
	if (*q < '0' || *q > '9' || (*q == '0' && q[1] >= '0' && q[1] <= '9'))
		return NULL;
	q += strspn(q, "0123456789");
	if (*q == '.') {
		if (q[1] < '0' || q[1] > '9')
			return NULL;
		q += 1 + strspn(q + 1, "0123456789");
	}
	if (*q == 'e' || *q == 'E') {
		q += (q[1] == '+' || q[1] == '-') ? 2 : 1;
		if (*q < '0' || *q > '9')
			return NULL;
		q += strspn(q, "0123456789");
	}
	return q;
}

static const char *skip_value(const char *p, int depth);

/* The members of an object or the elements of an array at p, each passed to member (for
 * an object, with its key; NULL: skipped). Returns the position after it, or NULL. */
static const char *read_container(const char *p, int depth,
				  const char *(*member)(const char *key, const char *value,
							void *ctx), void *ctx)
{
	char open = *p, close = open == '{' ? '}' : ']';

	if (depth > DEPTH_MAX)
		return NULL;
	p = skip_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		char key[64] = "";
		if (open == '{') {
			if (!(p = read_string(p, member ? key : NULL, sizeof key)))
				return NULL;
			p = skip_ws(p);
			if (*p++ != ':')
				return NULL;
			p = skip_ws(p);
		}
		p = member ? member(key, p, ctx) : skip_value(p, depth + 1);
		if (!p)
			return NULL;
		p = skip_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
		p = skip_ws(p);
	}
}

static const char *skip_value(const char *p, int depth)
{
	if (*p == '"')
		return read_string(p, NULL, 0);
	if (*p == '{' || *p == '[')
		return read_container(p, depth, NULL, NULL);
	return read_literal(p);
}

static const char *parameter(const char *key, const char *value, void *ctx)
{
	struct varlink_call *call = ctx;
	struct varlink_param *prm;
	const char *end;

	if (*value == '{' || *value == '[') /* no parameter of ours is one */
		return skip_value(value, 2);
	if (call->nparams == VARLINK_PARAMS_MAX || strlen(key) >= sizeof prm->key)
		return NULL;
	prm = &call->param[call->nparams++];
	memcpy(prm->key, key, strlen(key) + 1);
	prm->is_string = *value == '"';
	if (prm->is_string)
		return read_string(value, prm->value, sizeof prm->value);
	if (!(end = read_literal(value)) || (size_t)(end - value) >= sizeof prm->value)
		return NULL;
	memcpy(prm->value, value, (size_t)(end - value));
	prm->value[end - value] = '\0';
	return end;
}

static const char *top_member(const char *key, const char *value, void *ctx)
{
	struct varlink_call *call = ctx;

	if (strcmp(key, "method") == 0)
		return *value == '"' ? read_string(value, call->method, sizeof call->method) : NULL;
	if (strcmp(key, "more") == 0) {
		call->more = strncmp(value, "true", 4) == 0;
		return read_literal(value);
	}
	if (strcmp(key, "parameters") == 0)
		return *value == '{' ? read_container(value, 1, parameter, call) : NULL;
	return skip_value(value, 1);
}

int varlink_parse_call(const char *json, struct varlink_call *call)
{
	const char *p = skip_ws(json);

	memset(call, 0, sizeof *call);
	if (*p != '{' || !(p = read_container(p, 0, top_member, call)))
		return -1;
	return *skip_ws(p) == '\0' && call->method[0] ? 0 : -1;
}

const struct varlink_param *varlink_param(const struct varlink_call *call, const char *key)
{
	for (size_t i = 0; i < call->nparams; i++)
		if (strcmp(call->param[i].key, key) == 0)
			return &call->param[i];
	return NULL;
}
