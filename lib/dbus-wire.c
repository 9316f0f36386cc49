/* D-Bus wire format: the subset in dbus-wire.h. Offsets are from the start of the
 * message, as the alignment rules of the specification count them. */
#include "dbus-wire.h"

#include <stdio.h>
#include <string.h>

#define FIXED_HEADER 16
#define BUS_DRIVER "org.freedesktop.DBus"
#define BUS_PATH "/org/freedesktop/DBus"

enum field {
	FIELD_PATH = 1, FIELD_INTERFACE, FIELD_MEMBER, FIELD_ERROR_NAME, FIELD_REPLY_SERIAL,
	FIELD_DESTINATION, FIELD_SENDER, FIELD_SIGNATURE, FIELD_UNIX_FDS,
};

static bool element_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '-' ||
	       (!first && c >= '0' && c <= '9');
}

bool dbus_name_valid(const char *name)
{
	size_t len = strlen(name), elements = 1;
	bool start = true;

	if (len == 0 || len > DBUS_NAME_MAX || name[0] == '.' || name[len - 1] == '.')
		return false;
	for (const char *c = name; *c; c++) {
		if (*c == '.') {
			if (start)
				return false; /* an empty element */
			elements++;
			start = true;
			continue;
		}
		if (!element_char(*c, start))
			return false;
		start = false;
	}
	return elements >= 2;
}

/* ---- reading -------------------------------------------------------------------------- */

struct reader {
	const uint8_t *buf;
	size_t pos, end;
	bool big_endian;
};

static int align(struct reader *r, size_t to)
{
	size_t pos = (r->pos + to - 1) / to * to;
	if (pos > r->end)
		return -1;
	r->pos = pos;
	return 0;
}

static uint32_t u32_at(const uint8_t *p, bool big_endian)
{
	return big_endian ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
			  : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static int read_u32(struct reader *r, uint32_t *v)
{
	if (align(r, 4) < 0 || r->end - r->pos < 4)
		return -1;
	*v = u32_at(r->buf + r->pos, r->big_endian);
	r->pos += 4;
	return 0;
}

static int read_u8(struct reader *r, uint8_t *v)
{
	if (r->pos >= r->end)
		return -1;
	*v = r->buf[r->pos++];
	return 0;
}

/* len bytes, then a NUL; no NUL inside. */
static int read_text(struct reader *r, size_t len, const char **out)
{
	const char *s = (const char *)r->buf + r->pos;

	if (len >= r->end - r->pos || s[len] != '\0' || memchr(s, '\0', len))
		return -1;
	*out = s;
	r->pos += len + 1;
	return 0;
}

static int read_string(struct reader *r, const char **out) /* 's' and 'o' */
{
	uint32_t len;
	return read_u32(r, &len) < 0 ? -1 : read_text(r, len, out);
}

static int read_signature(struct reader *r, const char **out) /* 'g' */
{
	uint8_t len;
	return read_u8(r, &len) < 0 ? -1 : read_text(r, len, out);
}

long dbus_msg_size(const uint8_t *buf, size_t len)
{
	bool big_endian;
	uint32_t body, fields;
	unsigned long total;

	if (len < FIXED_HEADER)
		return 0;
	if (buf[0] != 'l' && buf[0] != 'B')
		return -1;
	big_endian = buf[0] == 'B';
	if (buf[3] != 1) /* protocol version */
		return -1;
	body = u32_at(buf + 4, big_endian);
	fields = u32_at(buf + 12, big_endian);
	if (body > DBUS_MSG_MAX || fields > DBUS_MSG_MAX)
		return -1;
	total = (FIXED_HEADER + (unsigned long)fields + 7) / 8 * 8 + body;
	return total > DBUS_MSG_MAX ? -1 : (long)total;
}

/* One header field: its code, a one-type signature, then the value. */
static int read_field(struct reader *r, struct dbus_msg *m)
{
	uint8_t code;
	const char *sig, *s;
	uint32_t u;

	if (align(r, 8) < 0 || read_u8(r, &code) < 0 || read_signature(r, &sig) < 0)
		return -1;
	if (strcmp(sig, "s") == 0 || strcmp(sig, "o") == 0) {
		if (read_string(r, &s) < 0)
			return -1;
	} else if (strcmp(sig, "g") == 0) {
		if (read_signature(r, &s) < 0)
			return -1;
	} else if (strcmp(sig, "u") == 0) {
		if (read_u32(r, &u) < 0)
			return -1;
		if (code == FIELD_REPLY_SERIAL)
			m->reply_serial = u;
		if (code == FIELD_UNIX_FDS)
			m->unix_fds = u;
		return code == FIELD_REPLY_SERIAL || code == FIELD_UNIX_FDS || code > FIELD_UNIX_FDS
			       ? 0 : -1;
	} else {
		return -1; /* no field ember reads has another type; refuse rather than guess */
	}
	switch (code) {
	case FIELD_PATH: m->path = s; break;
	case FIELD_INTERFACE: m->interface = s; break;
	case FIELD_MEMBER: m->member = s; break;
	case FIELD_ERROR_NAME: m->error_name = s; break;
	case FIELD_DESTINATION: m->destination = s; break;
	case FIELD_SENDER: m->sender = s; break;
	case FIELD_SIGNATURE: m->signature = s; break;
	default:
		if (code <= FIELD_UNIX_FDS)
			return -1; /* a known field with the wrong type */
	}
	return 0;
}

int dbus_msg_parse(const uint8_t *buf, size_t len, struct dbus_msg *m)
{
	long size = dbus_msg_size(buf, len);
	struct reader r;
	uint32_t fields;

	memset(m, 0, sizeof *m);
	if (size <= 0 || (size_t)size != len)
		return -1;
	r = (struct reader){ buf, FIXED_HEADER, 0, buf[0] == 'B' };
	m->big_endian = r.big_endian;
	m->type = buf[1];
	m->flags = buf[2];
	m->body_len = u32_at(buf + 4, r.big_endian);
	m->serial = u32_at(buf + 8, r.big_endian);
	fields = u32_at(buf + 12, r.big_endian);
	if (m->type < DBUS_METHOD_CALL || m->type > DBUS_SIGNAL || m->serial == 0)
		return -1;
	r.end = FIXED_HEADER + (size_t)fields;
	while (r.pos < r.end)
		if (read_field(&r, m) < 0)
			return -1;
	r.end = len;
	if (align(&r, 8) < 0 || len - r.pos != m->body_len)
		return -1;
	m->body = buf + r.pos;
	if (m->body_len > 0 && !m->signature)
		return -1;
	return 0;
}

static struct reader body_reader(const struct dbus_msg *m)
{
	/* The body starts 8-aligned, so alignment within it equals alignment in the message. */
	return (struct reader){ m->body, 0, m->body_len, m->big_endian };
}

int dbus_body_strings(const struct dbus_msg *m, const char **out, size_t n)
{
	struct reader r = body_reader(m);

	if (!m->signature || strlen(m->signature) != n || strspn(m->signature, "s") != n)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (read_string(&r, &out[i]) < 0)
			return -1;
	return 0;
}

int dbus_body_bool(const struct dbus_msg *m, bool *out)
{
	struct reader r = body_reader(m);
	uint32_t v;

	if (!m->signature || strcmp(m->signature, "b") != 0 || read_u32(&r, &v) < 0 || v > 1)
		return -1;
	*out = v == 1;
	return 0;
}

int dbus_body_u32(const struct dbus_msg *m, uint32_t *out)
{
	struct reader r = body_reader(m);

	if (!m->signature || strcmp(m->signature, "u") != 0 || read_u32(&r, out) < 0)
		return -1;
	return 0;
}

/* One basic value of type t. */
static int read_basic(struct reader *r, char t, uint32_t unix_fds, union dbus_value *v)
{
	switch (t) {
	case 's': case 'o':
		return read_string(r, &v->s);
	case 'g':
		return read_signature(r, &v->s);
	case 'u': case 'i':
		return read_u32(r, &v->u);
	case 'h':
		return read_u32(r, &v->u) < 0 || v->u >= unix_fds ? -1 : 0;
	case 'b':
		if (read_u32(r, &v->u) < 0 || v->u > 1)
			return -1;
		v->b = v->u == 1;
		return 0;
	}
	return -1;
}

int dbus_body_read(const struct dbus_msg *m, const char *sig, union dbus_value *out)
{
	struct reader r = body_reader(m);
	size_t n = strlen(sig);

	if (!m->signature || strcmp(m->signature, sig) != 0 || n > DBUS_VALUES_MAX)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (read_basic(&r, sig[i], m->unix_fds, &out[i]) < 0)
			return -1;
	return r.pos == r.end ? 0 : -1;
}

/* ---- StartTransientUnit's body: "ssa(sv)a(sa(sv))" ------------------------------------ */

#define NESTING_MAX 16 /* containers within containers; the specification allows 64 */

static size_t type_alignment(char t)
{
	switch (t) {
	case 'n': case 'q': return 2;
	case 'b': case 'i': case 'u': case 'h': case 's': case 'o': case 'a': return 4;
	case 'x': case 't': case 'd': case '(': case '{': return 8;
	default: return 1; /* y, g, v */
	}
}

static size_t fixed_size(char t)
{
	switch (t) {
	case 'y': return 1;
	case 'n': case 'q': return 2;
	case 'b': case 'i': case 'u': case 'h': return 4;
	case 'x': case 't': case 'd': return 8;
	default: return 0;
	}
}

/* The end of the one complete type that starts at sig, or NULL. */
static const char *type_end(const char *sig, int depth)
{
	if (depth > NESTING_MAX)
		return NULL;
	if (fixed_size(*sig) || (*sig && strchr("sogv", *sig)))
		return sig + 1;
	if (*sig == 'a')
		return type_end(sig + 1, depth + 1);
	if (*sig == '(' || *sig == '{') {
		char close = *sig == '(' ? ')' : '}';
		const char *p = sig + 1;
		int members = 0;
		while (p && *p && *p != close) {
			p = type_end(p, depth + 1);
			members++;
		}
		if (!p || *p != close || members == 0 || (close == '}' && members != 2))
			return NULL;
		return p + 1;
	}
	return NULL;
}

static int skip_value(struct reader *r, const char *sig, int depth);

static int skip_array(struct reader *r, const char *elem, int depth)
{
	uint32_t len;
	size_t end, saved_end = r->end;

	if (read_u32(r, &len) < 0 || align(r, type_alignment(*elem)) < 0 ||
	    len > r->end - r->pos)
		return -1;
	end = r->pos + len;
	r->end = end;
	while (r->pos < end)
		if (skip_value(r, elem, depth + 1) < 0)
			return -1;
	r->end = saved_end;
	return 0;
}

static int skip_value(struct reader *r, const char *sig, int depth)
{
	const char *s;
	size_t n = fixed_size(*sig);

	if (depth > NESTING_MAX || align(r, type_alignment(*sig)) < 0)
		return -1;
	if (n) {
		if (r->end - r->pos < n)
			return -1;
		r->pos += n;
		return 0;
	}
	switch (*sig) {
	case 's': case 'o': return read_string(r, &s);
	case 'g': return read_signature(r, &s);
	case 'a': return skip_array(r, sig + 1, depth);
	case 'v':
		if (read_signature(r, &s) < 0 || type_end(s, depth) != s + strlen(s) || !*s)
			return -1;
		return skip_value(r, s, depth + 1);
	case '(': case '{': {
		const char *p = sig + 1;
		while (p && *p != ')' && *p != '}') {
			if (skip_value(r, p, depth + 1) < 0)
				return -1;
			p = type_end(p, depth + 1);
		}
		return p ? 0 : -1;
	}
	}
	return -1;
}

/* An "as" into out[], or a "au" into pids[]: what does not fit sets t->overflow. */
static int read_string_array(struct reader *r, const char **out, size_t max, size_t *count,
			     bool *overflow)
{
	uint32_t len;
	size_t end;

	if (read_u32(r, &len) < 0 || len > r->end - r->pos)
		return -1;
	end = r->pos + len;
	while (r->pos < end) {
		const char *s;
		if (read_string(r, &s) < 0 || r->pos > end)
			return -1;
		if (*count < max)
			out[(*count)++] = s;
		else
			*overflow = true;
	}
	return 0;
}

static int read_u32_array(struct reader *r, uint32_t *out, size_t max, size_t *count,
			  bool *overflow)
{
	uint32_t len, v;
	size_t end;

	if (read_u32(r, &len) < 0 || len % 4 || len > r->end - r->pos)
		return -1;
	end = r->pos + len;
	while (r->pos < end) {
		if (read_u32(r, &v) < 0)
			return -1;
		if (*count < max)
			out[(*count)++] = v;
		else
			*overflow = true;
	}
	return 0;
}

/* One (sv) of the properties: the few ember uses are taken, the others skipped, a known
 * one of the wrong type refused. */
static int read_property(struct reader *r, struct dbus_transient *t)
{
	const char *name, *sig;

	if (align(r, 8) < 0 || read_string(r, &name) < 0 || read_signature(r, &sig) < 0 ||
	    !*sig || type_end(sig, 1) != sig + strlen(sig))
		return -1;
	if (strcmp(name, "Slice") == 0 || strcmp(name, "Description") == 0) {
		if (strcmp(sig, "s") != 0)
			return -1;
		return read_string(r, name[0] == 'S' ? &t->slice : &t->description);
	}
	if (strcmp(name, "PIDs") == 0) {
		if (strcmp(sig, "au") != 0)
			return -1;
		return read_u32_array(r, t->pids, DBUS_TRANSIENT_PIDS_MAX, &t->pid_count,
				      &t->overflow);
	}
	if (strcmp(name, "PIDFDs") == 0) { /* systemd 257's logind: pidfds of the processes */
		if (strcmp(sig, "ah") != 0)
			return -1;
		return read_u32_array(r, t->pidfds, DBUS_TRANSIENT_PIDS_MAX, &t->pidfd_count,
				      &t->overflow);
	}
	if (strcmp(name, "Requires") == 0 || strcmp(name, "Wants") == 0) {
		if (strcmp(sig, "as") != 0)
			return -1;
		return read_string_array(r, t->wants, DBUS_TRANSIENT_UNITS_MAX, &t->want_count,
					 &t->overflow);
	}
	return skip_value(r, sig, 2);
}

int dbus_body_transient_unit(const struct dbus_msg *m, struct dbus_transient *t)
{
	struct reader r = body_reader(m);
	uint32_t len;
	size_t end;

	memset(t, 0, sizeof *t);
	if (!m->signature || strcmp(m->signature, "ssa(sv)a(sa(sv))") != 0 ||
	    read_string(&r, &t->name) < 0 || read_string(&r, &t->mode) < 0 ||
	    read_u32(&r, &len) < 0 || align(&r, 8) < 0 || len > r.end - r.pos)
		return -1;
	end = r.pos + len;
	while (r.pos < end) {
		size_t saved_end = r.end;
		r.end = end;
		if (read_property(&r, t) < 0)
			return -1;
		r.end = saved_end;
	}
	for (size_t i = 0; i < t->pidfd_count; i++)
		if (t->pidfds[i] >= m->unix_fds)
			return -1; /* an fd the message does not carry */
	/* the auxiliary units: ember makes none, but the body must still be well-formed */
	return skip_value(&r, "a(sa(sv))", 0) < 0 || r.pos != r.end ? -1 : 0;
}

int dbus_body_string_array(const struct dbus_msg *m, const char *sig, const char **out,
			   size_t max, size_t *n)
{
	struct reader r = body_reader(m);
	uint32_t len, b;
	size_t end;

	*n = 0;
	if (!m->signature || strncmp(m->signature, "as", 2) != 0 || strcmp(m->signature, sig) != 0 ||
	    strspn(sig + 2, "b") != strlen(sig + 2) || read_u32(&r, &len) < 0 ||
	    len > r.end - r.pos)
		return -1;
	end = r.pos + len;
	while (r.pos < end) {
		const char *s;
		if (read_string(&r, &s) < 0 || r.pos > end || *n >= max)
			return -1;
		out[(*n)++] = s;
	}
	for (const char *t = sig + 2; *t; t++) /* the flags after it: well-formed booleans */
		if (read_u32(&r, &b) < 0 || b > 1)
			return -1;
	return r.pos == r.end ? 0 : -1;
}

/* ---- writing (little-endian) ---------------------------------------------------------- */

struct writer {
	uint8_t *buf;
	size_t pos, size;
	bool full;
};

static void put(struct writer *w, const void *p, size_t n)
{
	if (w->full || n > w->size - w->pos) {
		w->full = true;
		return;
	}
	memcpy(w->buf + w->pos, p, n);
	w->pos += n;
}

static void pad(struct writer *w, size_t to)
{
	static const uint8_t zeros[8];
	put(w, zeros, (to - w->pos % to) % to);
}

static void put_u32(struct writer *w, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	pad(w, 4);
	put(w, b, 4);
}

static void put_u32_at(struct writer *w, size_t at, uint32_t v)
{
	if (!w->full) {
		w->buf[at] = (uint8_t)v;
		w->buf[at + 1] = (uint8_t)(v >> 8);
		w->buf[at + 2] = (uint8_t)(v >> 16);
		w->buf[at + 3] = (uint8_t)(v >> 24);
	}
}

static void put_string(struct writer *w, const char *s)
{
	put_u32(w, (uint32_t)strlen(s));
	put(w, s, strlen(s) + 1);
}

static void put_field(struct writer *w, uint8_t code, char type, const char *s)
{
	uint8_t sig[3] = { 1, (uint8_t)type, 0 };

	pad(w, 8);
	put(w, &code, 1);
	put(w, sig, 3);
	if (type == 'g') {
		uint8_t len = (uint8_t)strlen(s);
		put(w, &len, 1);
		put(w, s, strlen(s) + 1);
	} else {
		put_string(w, s);
	}
}

static void put_u32_field(struct writer *w, uint8_t code, uint32_t v)
{
	uint8_t sig[3] = { 1, 'u', 0 };

	pad(w, 8);
	put(w, &code, 1);
	put(w, sig, 3);
	put_u32(w, v);
}

static bool body_signature_valid(const char *sig)
{
	return strlen(sig) <= DBUS_ARGS_MAX && strspn(sig, "souv") == strlen(sig) &&
	       (!strchr(sig, 'u') || strchr(sig, 'u') == strrchr(sig, 'u'));
}

/* A signature of complete types only (a caller-written body's). */
static bool signature_valid(const char *sig)
{
	const char *p = sig;

	while (p && *p)
		p = type_end(p, 1);
	return p && strlen(sig) < 256;
}

/* ---- a caller-written body ---- */

static struct writer body_writer(const struct dbus_body *b)
{
	return (struct writer){ b->buf, b->len, b->size, b->full };
}

static void body_done(struct dbus_body *b, const struct writer *w)
{
	b->len = w->pos;
	b->full = w->full;
}

void dbus_put_u32(struct dbus_body *b, uint32_t v)
{
	struct writer w = body_writer(b);
	put_u32(&w, v);
	body_done(b, &w);
}

void dbus_put_bool(struct dbus_body *b, bool v)
{
	dbus_put_u32(b, v ? 1 : 0);
}

void dbus_put_string(struct dbus_body *b, const char *s)
{
	struct writer w = body_writer(b);
	put_string(&w, s);
	body_done(b, &w);
}

void dbus_put_variant_u64(struct dbus_body *b, uint64_t v)
{
	static const uint8_t sig[3] = { 1, 't', 0 };
	struct writer w = body_writer(b);

	put(&w, sig, 3);
	pad(&w, 8);
	put_u32(&w, (uint32_t)v); /* little-endian: the low half first */
	put_u32(&w, (uint32_t)(v >> 32));
	body_done(b, &w);
}

void dbus_put_empty_array(struct dbus_body *b, char element)
{
	struct writer w = body_writer(b);
	put_u32(&w, 0);
	pad(&w, type_alignment(element)); /* the padding before the first element is there */
	body_done(b, &w);
}

void dbus_put_dict_sv(struct dbus_body *b, const char *const *keys, const char *const *values,
		      size_t n)
{
	static const uint8_t string_sig[3] = { 1, 's', 0 };
	struct writer w = body_writer(b);
	size_t len_at, start;

	put_u32(&w, 0);
	len_at = w.pos - 4;
	pad(&w, 8); /* the dict entries' alignment: not counted in the length */
	start = w.pos;
	for (size_t i = 0; i < n; i++) {
		pad(&w, 8);
		put_string(&w, keys[i]);
		put(&w, string_sig, 3);
		put_string(&w, values[i]);
	}
	put_u32_at(&w, len_at, (uint32_t)(w.pos - start));
	body_done(b, &w);
}

size_t dbus_msg_build(uint8_t *buf, size_t size, const struct dbus_out *o)
{
	struct writer w = { buf, 0, size, false };
	uint8_t fixed[4] = { 'l', o->type, o->flags, 1 };
	const char *sig = o->signature ? o->signature : "";
	size_t body_start;

	if (o->body ? o->body->full || !signature_valid(sig) : !body_signature_valid(sig))
		return 0;
	put(&w, fixed, 4);
	put_u32(&w, 0);      /* body length, filled in below */
	put_u32(&w, o->serial);
	put_u32(&w, 0);      /* header fields length, filled in below */
	if (o->path)
		put_field(&w, FIELD_PATH, 'o', o->path);
	if (o->interface)
		put_field(&w, FIELD_INTERFACE, 's', o->interface);
	if (o->member)
		put_field(&w, FIELD_MEMBER, 's', o->member);
	if (o->error_name)
		put_field(&w, FIELD_ERROR_NAME, 's', o->error_name);
	if (o->reply_serial)
		put_u32_field(&w, FIELD_REPLY_SERIAL, o->reply_serial);
	if (o->destination)
		put_field(&w, FIELD_DESTINATION, 's', o->destination);
	if (sig[0])
		put_field(&w, FIELD_SIGNATURE, 'g', sig);
	if (o->unix_fds)
		put_u32_field(&w, FIELD_UNIX_FDS, o->unix_fds);
	put_u32_at(&w, 12, (uint32_t)(w.pos - FIXED_HEADER));
	pad(&w, 8);
	body_start = w.pos;
	if (o->body)
		put(&w, o->body->buf, o->body->len);
	for (size_t i = 0; !o->body && sig[i]; i++) {
		if (sig[i] == 'u') {
			put_u32(&w, o->u32);
		} else if (sig[i] == 'v') { /* a variant holding a string */
			static const uint8_t string_sig[3] = { 1, 's', 0 };
			put(&w, string_sig, 3);
			put_string(&w, o->args[i] ? o->args[i] : "");
		} else
			put_string(&w, o->args[i] ? o->args[i] : "");
	}
	put_u32_at(&w, 4, (uint32_t)(w.pos - body_start));
	return w.full ? 0 : w.pos;
}

size_t dbus_call_build(uint8_t *buf, size_t size, uint32_t serial, const char *member,
		       const char *arg, bool with_u32, uint32_t u32)
{
	struct dbus_out o = { .type = DBUS_METHOD_CALL, .serial = serial, .path = BUS_PATH,
			      .interface = BUS_DRIVER, .member = member, .destination = BUS_DRIVER,
			      .signature = !arg ? NULL : with_u32 ? "su" : "s", .args = { arg },
			      .u32 = u32 };

	if (arg && strlen(arg) > DBUS_NAME_MAX * 4)
		return 0;
	return dbus_msg_build(buf, size, &o);
}

size_t dbus_auth_line(char *buf, size_t size, unsigned long uid)
{
	static const char hex[] = "0123456789abcdef";
	char dec[24];
	int n = snprintf(dec, sizeof dec, "%lu", uid);
	size_t pos;

	pos = (size_t)snprintf(buf, size, "AUTH EXTERNAL ");
	if (pos + (size_t)n * 2 + 3 > size)
		return 0;
	for (int i = 0; i < n; i++) {
		buf[pos++] = hex[(unsigned char)dec[i] >> 4];
		buf[pos++] = hex[(unsigned char)dec[i] & 15];
	}
	memcpy(buf + pos, "\r\n", 3);
	return pos + 2;
}
