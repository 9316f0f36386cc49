/* The control protocol's codec: requests, reply packets and records. See ctl.h and
 * docs/control-protocol.md. No allocation, no stdio streams: PID 1 calls this. */
#include "ctl.h"
#include "parse.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *const verb_names[CTL_VERB_COUNT] = {
	[CTL_LIST] = "list",         [CTL_STATUS] = "status",   [CTL_START] = "start",
	[CTL_STOP] = "stop",         [CTL_RESTART] = "restart", [CTL_RELOAD] = "reload",
	[CTL_LOG] = "log",           [CTL_ANALYZE] = "analyze", [CTL_POWEROFF] = "poweroff",
	[CTL_REBOOT] = "reboot",     [CTL_HALT] = "halt",
	[CTL_DAEMON_REEXEC] = "daemon-reexec",
	/* emberctl verbs (issue 17) */
	[CTL_KILL] = "kill",
};

/* Each option and the verbs that take it. */
static const struct {
	const char *name;
	unsigned bit;
	unsigned verbs; /* bit v: verb v takes it */
} options[] = {
	{ "follow", CTL_OPT_FOLLOW, 1u << CTL_LOG },
	{ "stamped", CTL_OPT_STAMPED, 1u << CTL_LOG }, /* emberctl verbs (issue 17) */
	{ "hold", CTL_OPT_HOLD, 1u << CTL_START }, /* sessions */
	{ "release", CTL_OPT_RELEASE, 1u << CTL_STOP },
	{ "no-start", CTL_OPT_NO_START, 1u << CTL_RELOAD },
};
#define OPTION_COUNT (sizeof options / sizeof options[0])

/* Longest word quoted back in an error message. */
#define QUOTE_MAX 64

const char *ctl_verb_name(enum ctl_verb verb)
{
	return (unsigned)verb < CTL_VERB_COUNT ? verb_names[verb] : NULL;
}

bool ctl_verb_changes(enum ctl_verb verb)
{
	switch (verb) {
	case CTL_LIST: case CTL_STATUS: case CTL_LOG: case CTL_ANALYZE:
		return false;
	default:
		return true;
	}
}

bool ctl_verb_takes_name(enum ctl_verb verb)
{
	switch (verb) {
	case CTL_STATUS: case CTL_START: case CTL_STOP: case CTL_RESTART:
	case CTL_LOG: case CTL_KILL:
		return true;
	default:
		return false;
	}
}

/* U2: "reload" re-reads the service files; "reload NAME" reloads one service. */
bool ctl_verb_name_optional(enum ctl_verb verb)
{
	return verb == CTL_RELOAD;
}

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == ':' || c == '-' || c == '@' || c == '\\';
}

bool ctl_name_valid(const char *name)
{
	size_t len = strlen(name);

	if (len == 0 || len >= CTL_NAME_MAX || name[0] == '.' || name[0] == '-')
		return false;
	for (size_t i = 0; i < len; i++)
		if (!is_name_char(name[i]))
			return false;
	return true;
}

/* Write a message to err (if any) and fail with EINVAL. */
static int fail_msg(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail_msg(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	errno = EINVAL;
	return -1;
}

/* ---- requests ------------------------------------------------------------------------ */

int ctl_verb_from_name(const char *word)
{
	for (int v = 0; v < CTL_VERB_COUNT; v++)
		if (strcmp(word, verb_names[v]) == 0)
			return v;
	return -1;
}

static int find_option(const char *word)
{
	for (size_t i = 0; i < OPTION_COUNT; i++)
		if (strcmp(word, options[i].name) == 0)
			return (int)i;
	return -1;
}

/* Only printable ASCII, words separated by single spaces. */
static int check_request_bytes(const char *buf, size_t len, char *err, size_t errlen)
{
	if (len == 0)
		return fail_msg(err, errlen, "empty request");
	if (len > CTL_REQUEST_MAX)
		return fail_msg(err, errlen, "request of %zu bytes, longer than %d", len,
				CTL_REQUEST_MAX);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];
		if (c == 0)
			return fail_msg(err, errlen, "NUL byte at offset %zu", i);
		if (c < 0x20 || c == 0x7f)
			return fail_msg(err, errlen, "control byte 0x%02x at offset %zu", c, i);
		if (c >= 0x80)
			return fail_msg(err, errlen, "non-ASCII byte 0x%02x at offset %zu", c, i);
		if (c == ' ' && (i == 0 || i == len - 1 || buf[i - 1] == ' '))
			return fail_msg(err, errlen, "stray space at offset %zu", i);
	}
	return 0;
}

static int parse_option(const char *verb, const char *word, struct ctl_request *req,
			char *err, size_t errlen)
{
	int o = find_option(word);

	if (o < 0)
		return fail_msg(err, errlen, "%s: unexpected argument '%.*s'", verb, QUOTE_MAX, word);
	if (!(options[o].verbs & (1u << req->verb)))
		return fail_msg(err, errlen, "%s: option '%s' is not valid for this verb", verb, word);
	if (req->options & options[o].bit)
		return fail_msg(err, errlen, "%s: option '%s' given twice", verb, word);
	req->options |= options[o].bit;
	return 0;
}

static int append(char *buf, size_t size, size_t *len, const char *s);

/* ---- emberctl verbs (issue 17): options with a value ---------------------------------
 * "from=CURSOR" (log follow), "signal=N" and "whom=WHO" (kill). Each at most once. */

static const char *const whom_names[CTL_WHOM_COUNT] = {
	[CTL_WHOM_ALL] = "all", [CTL_WHOM_MAIN] = "main", [CTL_WHOM_CONTROL] = "control",
};

const char *ctl_whom_name(enum ctl_whom whom)
{
	return (unsigned)whom < CTL_WHOM_COUNT ? whom_names[whom] : NULL;
}

/* Decimal digits only, no sign, no leading zero, at most max. */
static int parse_number(const char *s, unsigned long long max, unsigned long long *out)
{
	unsigned long long v = 0;

	if (*s == '\0' || (s[0] == '0' && s[1] != '\0'))
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (max - (unsigned)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (unsigned)(*s - '0');
	}
	*out = v;
	return 0;
}

static int parse_valued(const char *verb, char *word, struct ctl_request *req, char *err,
			size_t errlen)
{
	char *value = strchr(word, '=');
	unsigned long long n;

	*value++ = '\0';
	if (strcmp(word, "from") == 0 && req->verb == CTL_LOG) {
		if (req->from || parse_number(value, ULLONG_MAX, &n) < 0 || n == 0)
			return fail_msg(err, errlen, "%s: bad or repeated 'from=': expected a "
					"cursor, 1 or more", verb);
		req->from = n;
		return 0;
	}
	if (strcmp(word, "signal") == 0 && req->verb == CTL_KILL) {
		if (req->signal || parse_number(value, CTL_SIGNAL_MAX, &n) < 0 || n == 0)
			return fail_msg(err, errlen, "%s: bad or repeated 'signal=': expected "
					"1-%d", verb, CTL_SIGNAL_MAX);
		req->signal = (int)n;
		return 0;
	}
	if (strcmp(word, "whom") == 0 && req->verb == CTL_KILL) {
		for (int w = 1; w < CTL_WHOM_COUNT; w++)
			if (req->whom == CTL_WHOM_ALL && strcmp(value, whom_names[w]) == 0) {
				req->whom = (enum ctl_whom)w;
				return 0;
			}
		if (strcmp(value, "all") == 0)
			return fail_msg(err, errlen, "%s: 'whom=all' is the default; not sent", verb);
		return fail_msg(err, errlen, "%s: bad or repeated 'whom=': expected main or "
				"control", verb);
	}
	return fail_msg(err, errlen, "%s: option '%.*s=' is not valid for this verb", verb,
			QUOTE_MAX, word);
}

/* What the valued options need of each other once the whole request is read. */
static int check_valued(const char *verb, const struct ctl_request *req, char *err,
			size_t errlen)
{
	if (req->verb == CTL_KILL && req->signal == 0)
		return fail_msg(err, errlen, "%s: missing 'signal='", verb);
	if (req->from && !(req->options & CTL_OPT_FOLLOW))
		return fail_msg(err, errlen, "%s: 'from=' needs 'follow'", verb);
	if ((req->options & CTL_OPT_FOLLOW) && (req->options & CTL_OPT_STAMPED))
		return fail_msg(err, errlen, "%s: 'stamped' and 'follow' do not go together", verb);
	return 0;
}

/* The valued options of req as words, appended to buf. */
static int format_valued(const struct ctl_request *req, char *buf, size_t size, size_t *len)
{
	char word[48];

	if (req->from) {
		snprintf(word, sizeof word, " from=%llu", req->from);
		if (append(buf, size, len, word) < 0)
			return -1;
	}
	if (req->signal) {
		snprintf(word, sizeof word, " signal=%d", req->signal);
		if (append(buf, size, len, word) < 0)
			return -1;
	}
	if (req->whom != CTL_WHOM_ALL) {
		snprintf(word, sizeof word, " whom=%s", ctl_whom_name(req->whom));
		if (append(buf, size, len, word) < 0)
			return -1;
	}
	return 0;
}

static int parse_request(const char *buf, size_t len, struct ctl_request *req, char *err,
			 size_t errlen)
{
	char copy[CTL_REQUEST_MAX + 1], back[CTL_REQUEST_MAX + 1];
	char *word[2 + CTL_OPTIONS_MAX];
	size_t nwords = 0;
	size_t next = 0;
	int verb;

	if (check_request_bytes(buf, len, err, errlen) < 0)
		return -1;
	memcpy(copy, buf, len);
	copy[len] = '\0';
	for (char *p = copy, *sp; p; p = sp ? sp + 1 : NULL) {
		sp = strchr(p, ' ');
		if (sp)
			*sp = '\0';
		if (nwords == sizeof word / sizeof word[0])
			return fail_msg(err, errlen, "more than %zu words", sizeof word / sizeof word[0]);
		word[nwords++] = p;
	}

	verb = ctl_verb_from_name(word[0]);
	if (verb < 0)
		return fail_msg(err, errlen, "unknown verb '%.*s'", QUOTE_MAX, word[0]);
	req->verb = (enum ctl_verb)verb;
	next = 1;
	if (ctl_verb_takes_name(req->verb) ||
	    (ctl_verb_name_optional(req->verb) && nwords >= 2 && find_option(word[1]) < 0)) {
		if (nwords < 2)
			return fail_msg(err, errlen, "%s: missing service name", word[0]);
		if (!ctl_name_valid(word[1]))
			return fail_msg(err, errlen,
					"%s: invalid service name '%.*s': expected 1-63 characters of "
					"A-Z a-z 0-9 _ . : - not starting with '.' or '-'",
					word[0], QUOTE_MAX, word[1]);
		memcpy(req->name, word[1], strlen(word[1]) + 1);
		next = 2;
	}
	for (size_t i = next; i < nwords; i++) {
		int r = strchr(word[i], '=') ? parse_valued(word[0], word[i], req, err, errlen)
					     : parse_option(word[0], word[i], req, err, errlen);
		if (r < 0)
			return -1;
	}
	if (check_valued(word[0], req, err, errlen) < 0)
		return -1;
	/* One spelling per request (options in the order the formatter writes them): a
	 * parsed request formats back to the same bytes. */
	if (ctl_request_format(req, back, sizeof back, NULL, 0) != (int)len ||
	    memcmp(back, buf, len) != 0)
		return fail_msg(err, errlen, "%s: options out of order (expected: %s)", word[0],
				"flags, then from=, signal=, whom=");
	return 0;
}

int ctl_request_parse(const char *buf, size_t len, struct ctl_request *req, char *err,
		      size_t errlen)
{
	memset(req, 0, sizeof *req);
	if (parse_request(buf, len, req, err, errlen) == 0)
		return 0;
	memset(req, 0, sizeof *req);
	return -1;
}

/* Append s to buf at *len, keeping a NUL; -1 when it does not fit. */
static int append(char *buf, size_t size, size_t *len, const char *s)
{
	size_t n = strlen(s);

	if (*len + n + 1 > size)
		return -1;
	memcpy(buf + *len, s, n + 1);
	*len += n;
	return 0;
}

int ctl_request_format(const struct ctl_request *req, char *buf, size_t size, char *err,
		       size_t errlen)
{
	const char *verb = ctl_verb_name(req->verb);
	size_t len = 0;
	unsigned left = req->options;

	if (!verb)
		return fail_msg(err, errlen, "unknown verb number %d", (int)req->verb);
	if ((ctl_verb_takes_name(req->verb) || req->name[0]) && !ctl_name_valid(req->name))
		return fail_msg(err, errlen,
				"%s: invalid service name '%.*s': expected 1-63 characters of "
				"A-Z a-z 0-9 _ . : - not starting with '.' or '-'",
				verb, QUOTE_MAX, req->name);
	if (!ctl_verb_takes_name(req->verb) && !ctl_verb_name_optional(req->verb) && req->name[0])
		return fail_msg(err, errlen, "%s: takes no service name", verb);
	if (size == 0 || append(buf, size, &len, verb) < 0)
		goto too_long;
	if (req->name[0] && (append(buf, size, &len, " ") < 0 ||
			     append(buf, size, &len, req->name) < 0))
		goto too_long;
	for (size_t i = 0; i < OPTION_COUNT; i++) {
		if (!(left & options[i].bit))
			continue;
		if (!(options[i].verbs & (1u << req->verb)))
			return fail_msg(err, errlen, "%s: option '%s' is not valid for this verb",
					verb, options[i].name);
		if (append(buf, size, &len, " ") < 0 || append(buf, size, &len, options[i].name) < 0)
			goto too_long;
		left &= ~options[i].bit;
	}
	if (left)
		return fail_msg(err, errlen, "%s: unknown option bits 0x%x", verb, left);
	if ((req->from && req->verb != CTL_LOG) || (req->signal && req->verb != CTL_KILL) ||
	    (req->whom != CTL_WHOM_ALL && req->verb != CTL_KILL) ||
	    (unsigned)req->whom >= CTL_WHOM_COUNT || req->signal < 0 ||
	    req->signal > CTL_SIGNAL_MAX)
		return fail_msg(err, errlen, "%s: option value not valid for this verb", verb);
	if (check_valued(verb, req, err, errlen) < 0)
		return -1;
	if (format_valued(req, buf, size, &len) < 0)
		goto too_long;
	return (int)len;
too_long:
	errno = ENAMETOOLONG;
	if (err && errlen)
		snprintf(err, errlen, "%s: request does not fit in %zu bytes", verb, size);
	return -1;
}

/* ---- escaping ------------------------------------------------------------------------ */

static const char hex_digits[] = "0123456789abcdef";

/* The escape of one byte into out (may be NULL); returns its length. */
static size_t escape_byte(unsigned char c, char *out)
{
	char tmp[4];
	size_t n;

	if (c == '\\' || c == '\n' || c == '\t') {
		tmp[0] = '\\';
		tmp[1] = c == '\\' ? '\\' : c == '\n' ? 'n' : 't';
		n = 2;
	} else if (c < 0x20 || c == 0x7f) {
		tmp[0] = '\\';
		tmp[1] = 'x';
		tmp[2] = hex_digits[c >> 4];
		tmp[3] = hex_digits[c & 0xf];
		n = 4;
	} else {
		tmp[0] = (char)c;
		n = 1;
	}
	if (out)
		memcpy(out, tmp, n);
	return n;
}

/* Escape value into out (NULL: only count), stopping before the first escape that
 * would take the total past room. Returns the bytes written (or counted). */
static size_t escape_limited(const char *value, char *out, size_t room)
{
	size_t len = 0;

	for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
		size_t n = escape_byte(*p, NULL);
		if (len + n > room)
			break;
		escape_byte(*p, out ? out + len : NULL);
		len += n;
	}
	return len;
}

size_t ctl_escaped_len(const char *value)
{
	return escape_limited(value, NULL, SIZE_MAX);
}

void ctl_escape(const char *value, char *out)
{
	out[escape_limited(value, out, SIZE_MAX)] = '\0';
}

/* ---- the writer ---------------------------------------------------------------------- */

void ctl_writer_init(struct ctl_writer *w, ctl_send_fn send, void *ctx)
{
	memset(w, 0, sizeof *w);
	w->send = send;
	w->ctx = ctx;
}

static bool writable(const struct ctl_writer *w)
{
	if (w->failed || w->finished) {
		errno = w->failed ? EIO : EINVAL;
		return false;
	}
	return true;
}

int ctl_writer_flush(struct ctl_writer *w)
{
	if (w->failed)
		return -1;
	if (w->len == 0)
		return 0;
	int r = w->send(w->ctx, w->packet, w->len);
	w->len = 0;
	if (r < 0) {
		w->failed = true;
		return -1;
	}
	return 0;
}

/* Make the packet being filled one of kind with room for need more bytes
 * (need <= CTL_PACKET_MAX - 1). */
static int open_packet(struct ctl_writer *w, char kind, size_t need)
{
	if (w->len > 0 && (w->packet[0] != kind || w->len + need > CTL_PACKET_MAX))
		if (ctl_writer_flush(w) < 0)
			return -1;
	if (w->len == 0) {
		w->packet[0] = kind;
		w->len = 1;
	}
	return 0;
}

static bool key_valid(const char *key)
{
	size_t len = strlen(key);

	if (len == 0 || len > CTL_KEY_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((key[i] >= 'a' && key[i] <= 'z') || (key[i] >= '0' && key[i] <= '9') ||
		      key[i] == '_'))
			return false;
	return true;
}

int ctl_record_begin(struct ctl_writer *w)
{
	if (!writable(w))
		return -1;
	if (w->in_record) {
		errno = EINVAL;
		return -1;
	}
	w->in_record = true;
	return 0;
}

int ctl_record_add_str(struct ctl_writer *w, const char *key, const char *value)
{
	size_t key_len, room, value_len;

	if (!writable(w))
		return -1;
	if (!w->in_record || !key || !key_valid(key)) {
		errno = EINVAL;
		return -1;
	}
	if (!value) /* PID 1 must not die over a missing string: send it empty */
		value = "";
	key_len = strlen(key);
	/* The line "key=value\n" must fit an empty packet after the kind byte. */
	room = CTL_PACKET_MAX - 1 - key_len - 2;
	value_len = escape_limited(value, NULL, room);
	if (open_packet(w, CTL_KIND_RECORD, key_len + value_len + 2) < 0)
		return -1;
	memcpy(w->packet + w->len, key, key_len);
	w->len += key_len;
	w->packet[w->len++] = '=';
	w->len += escape_limited(value, w->packet + w->len, value_len);
	w->packet[w->len++] = '\n';
	return 0;
}

int ctl_record_add_int(struct ctl_writer *w, const char *key, long long value)
{
	char digits[24];
	char *p = digits + sizeof digits;
	unsigned long long magnitude = value < 0 ? 0ULL - (unsigned long long)value
						 : (unsigned long long)value;

	*--p = '\0';
	do {
		*--p = (char)('0' + magnitude % 10);
		magnitude /= 10;
	} while (magnitude);
	if (value < 0)
		*--p = '-';
	return ctl_record_add_str(w, key, p);
}

int ctl_record_end(struct ctl_writer *w)
{
	if (!writable(w))
		return -1;
	if (!w->in_record) {
		errno = EINVAL;
		return -1;
	}
	if (open_packet(w, CTL_KIND_RECORD, 1) < 0)
		return -1;
	w->packet[w->len++] = '\n';
	w->in_record = false;
	return 0;
}

int ctl_write_text(struct ctl_writer *w, const char *text, size_t len)
{
	if (!writable(w))
		return -1;
	if (w->in_record) {
		errno = EINVAL;
		return -1;
	}
	while (len > 0) {
		if (open_packet(w, CTL_KIND_TEXT, 1) < 0)
			return -1;
		size_t n = CTL_PACKET_MAX - w->len;
		if (n > len)
			n = len;
		memcpy(w->packet + w->len, text, n);
		w->len += n;
		text += n;
		len -= n;
		if (w->len == CTL_PACKET_MAX && ctl_writer_flush(w) < 0)
			return -1;
	}
	return 0;
}

/* Flush, then send kind + payload (cut to one packet) as a packet of its own. */
static int write_single(struct ctl_writer *w, char kind, const char *payload)
{
	size_t n = strlen(payload);

	if (ctl_writer_flush(w) < 0)
		return -1;
	if (n > CTL_PACKET_MAX - 1)
		n = CTL_PACKET_MAX - 1;
	w->packet[0] = kind;
	memcpy(w->packet + 1, payload, n);
	w->len = n + 1;
	return ctl_writer_flush(w);
}

int ctl_write_error(struct ctl_writer *w, const char *message)
{
	if (!writable(w))
		return -1;
	if (!message)
		message = "";
	if (w->in_record) {
		errno = EINVAL;
		return -1;
	}
	return write_single(w, CTL_KIND_ERROR, message);
}

int ctl_write_exit(struct ctl_writer *w, int status)
{
	char digits[4];

	if (!writable(w))
		return -1;
	if (status < 0 || status > 255) {
		errno = EINVAL;
		return -1;
	}
	/* A record left open would make the whole reply unreadable: close it. */
	if (w->in_record && ctl_record_end(w) < 0)
		return -1;
	snprintf(digits, sizeof digits, "%d", status);
	if (write_single(w, CTL_KIND_EXIT, digits) < 0)
		return -1;
	w->finished = true;
	return 0;
}

/* ---- the reader ---------------------------------------------------------------------- */

int ctl_parse_exit(const char *payload, size_t len, int *status)
{
	int value = 0;

	if (len == 0 || len > 3 || (len > 1 && payload[0] == '0'))
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (payload[i] < '0' || payload[i] > '9')
			return -1;
		value = value * 10 + (payload[i] - '0');
	}
	if (value > 255)
		return -1;
	*status = value;
	return 0;
}

/* Unescape the value text[start..end) in place and NUL-terminate it (the result is
 * never longer). Offsets in messages are offsets in the stream. */
static int unescape(char *text, size_t start, size_t end, char *err, size_t errlen)
{
	size_t out = start;

	for (size_t i = start; i < end; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c < 0x20 || c == 0x7f)
			return fail_msg(err, errlen, "raw control byte 0x%02x at byte %zu", c, i);
		if (c != '\\') {
			text[out++] = (char)c;
			continue;
		}
		if (i + 1 >= end)
			return fail_msg(err, errlen, "backslash at the end of the line at byte %zu", i);
		char e = text[++i];
		if (e == '\\' || e == 'n' || e == 't') {
			text[out++] = e == '\\' ? '\\' : e == 'n' ? '\n' : '\t';
			continue;
		}
		if (e != 'x')
			return fail_msg(err, errlen, "unknown escape '\\%c' at byte %zu",
					(unsigned char)e >= 0x20 && (unsigned char)e < 0x7f ? e : '?',
					i - 1);
		int hi = i + 2 < end ? hex_digit_value(text[i + 1]) : -1;
		int lo = i + 2 < end ? hex_digit_value(text[i + 2]) : -1;
		if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
			return fail_msg(err, errlen, "bad \\x escape at byte %zu", i - 1);
		text[out++] = (char)(hi << 4 | lo);
		i += 2;
	}
	text[out] = '\0';
	return 0;
}

/* One "key=value" line text[start..nl) into rec. */
static int read_field(char *text, size_t start, size_t nl, struct ctl_record *rec,
		      char *err, size_t errlen)
{
	size_t eq = start;

	while (eq < nl && text[eq] != '=')
		eq++;
	if (eq == nl)
		return fail_msg(err, errlen, "line without '=' at byte %zu", start);
	if (eq == start || eq - start > CTL_KEY_MAX)
		return fail_msg(err, errlen, "key of %zu bytes at byte %zu (1-%d allowed)",
				eq - start, start, CTL_KEY_MAX);
	for (size_t i = start; i < eq; i++) {
		char c = text[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
			return fail_msg(err, errlen, "bad key character 0x%02x at byte %zu",
					(unsigned char)c, i);
	}
	if (rec->count == CTL_RECORD_FIELDS_MAX)
		return fail_msg(err, errlen, "record with more than %d fields at byte %zu",
				CTL_RECORD_FIELDS_MAX, start);
	text[eq] = '\0';
	for (size_t f = 0; f < rec->count; f++)
		if (strcmp(rec->field[f].key, text + start) == 0)
			return fail_msg(err, errlen, "duplicate key '%s' at byte %zu", text + start,
					start);
	if (unescape(text, eq + 1, nl, err, errlen) < 0)
		return -1;
	rec->field[rec->count].key = text + start;
	rec->field[rec->count].value = text + eq + 1;
	rec->count++;
	return 0;
}

int ctl_record_read(char *text, size_t len, size_t *pos, struct ctl_record *rec,
		    char *err, size_t errlen)
{
	size_t p = *pos;

	rec->count = 0;
	if (p >= len)
		return 0;
	for (;;) {
		if (p >= len)
			return fail_msg(err, errlen,
					"truncated record: the stream ends inside a record");
		char *nl = memchr(text + p, '\n', len - p);
		if (!nl)
			return fail_msg(err, errlen,
					"truncated record: line without a newline at byte %zu", p);
		size_t end = (size_t)(nl - text);
		if (end == p) {
			if (rec->count == 0)
				return fail_msg(err, errlen, "empty record at byte %zu", p);
			*pos = p + 1;
			return 1;
		}
		if (read_field(text, p, end, rec, err, errlen) < 0)
			return -1;
		p = end + 1;
	}
}

const char *ctl_record_get(const struct ctl_record *rec, const char *key)
{
	for (size_t i = 0; i < rec->count; i++)
		if (strcmp(rec->field[i].key, key) == 0)
			return rec->field[i].value;
	return NULL;
}

int ctl_record_get_int(const struct ctl_record *rec, const char *key, long long *out)
{
	const char *s = ctl_record_get(rec, key);
	unsigned long long magnitude = 0;
	bool negative;

	if (!s)
		return -1;
	negative = *s == '-';
	if (negative)
		s++;
	if (*s == '\0')
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (magnitude > (ULLONG_MAX - 9) / 10)
			return -1;
		magnitude = magnitude * 10 + (unsigned)(*s - '0');
	}
	if (magnitude == 0)
		negative = false;
	if (magnitude > (unsigned long long)LLONG_MAX + (negative ? 1 : 0))
		return -1;
	*out = negative ? -(long long)(magnitude - 1) - 1 : (long long)magnitude;
	return 0;
}
