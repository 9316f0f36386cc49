// sources:
/* StartTransientUnit's body as logind sends it for a session's scope: the properties
 * ember reads come out right, every other one is skipped by its type, and hostile bodies
 * (lying lengths, wrong types, deep nesting, every single-byte corruption, every
 * truncation) are refused or parsed within the buffer (the ASan build checks that). */
#include "harness.h"
#include "dbus-wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct w {
	uint8_t b[8192];
	size_t n;
};

static void pad(struct w *w, size_t to)
{
	while (w->n % to)
		w->b[w->n++] = 0;
}

static void u8(struct w *w, uint8_t v) { w->b[w->n++] = v; }

static void u32_at(struct w *w, size_t at, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		w->b[at + (size_t)i] = (uint8_t)(v >> (8 * i));
}

static void u32(struct w *w, uint32_t v)
{
	pad(w, 4);
	u32_at(w, w->n, v);
	w->n += 4;
}

static void str(struct w *w, const char *s)
{
	u32(w, (uint32_t)strlen(s));
	memcpy(w->b + w->n, s, strlen(s) + 1);
	w->n += strlen(s) + 1;
}

static void sig(struct w *w, const char *s)
{
	u8(w, (uint8_t)strlen(s));
	memcpy(w->b + w->n, s, strlen(s) + 1);
	w->n += strlen(s) + 1;
}

static void field(struct w *w, uint8_t code, char type, const char *s)
{
	pad(w, 8);
	u8(w, code);
	sig(w, (char[]){ type, 0 });
	if (type == 'g')
		sig(w, s);
	else
		str(w, s);
}

/* An array's length is known only after its elements: a slot, filled by array_end. */
static size_t array_begin(struct w *w, size_t elem_align)
{
	size_t at;
	u32(w, 0);
	at = w->n - 4;
	pad(w, elem_align);
	return at;
}

static void array_end(struct w *w, size_t at, size_t elem_align)
{
	size_t first = (at + 4 + elem_align - 1) / elem_align * elem_align;
	u32_at(w, at, (uint32_t)(w->n - first));
}

static void prop_begin(struct w *w, const char *name, const char *type)
{
	pad(w, 8);
	str(w, name);
	sig(w, type);
}

static void prop_s(struct w *w, const char *name, const char *value)
{
	prop_begin(w, name, "s");
	str(w, value);
}

static void prop_as(struct w *w, const char *name, const char *const *values, size_t n)
{
	size_t at;
	prop_begin(w, name, "as");
	at = array_begin(w, 4);
	for (size_t i = 0; i < n; i++)
		str(w, values[i]);
	array_end(w, at, 4);
}

static void prop_au(struct w *w, const char *name, const uint32_t *values, size_t n)
{
	size_t at;
	prop_begin(w, name, "au");
	at = array_begin(w, 4);
	for (size_t i = 0; i < n; i++)
		u32(w, values[i]);
	array_end(w, at, 4);
}

/* The message around a body the caller writes with body(w). */
static size_t message(uint8_t *out, const char *signature, void (*body)(struct w *))
{
	static struct w w;
	size_t fields_end, body_start;

	w.n = 0;
	u8(&w, 'l'); u8(&w, DBUS_METHOD_CALL); u8(&w, 0); u8(&w, 1);
	u32(&w, 0); u32(&w, 9); u32(&w, 0);
	field(&w, 1, 'o', "/org/freedesktop/systemd1");
	field(&w, 2, 's', "org.freedesktop.systemd1.Manager");
	field(&w, 3, 's', "StartTransientUnit");
	field(&w, 6, 's', "org.freedesktop.systemd1");
	field(&w, 8, 'g', signature);
	fields_end = w.n;
	pad(&w, 8);
	body_start = w.n;
	body(&w);
	u32_at(&w, 4, (uint32_t)(w.n - body_start));
	u32_at(&w, 12, (uint32_t)(fields_end - 16));
	memcpy(out, w.b, w.n);
	return w.n;
}

static const char *const after[] = { "systemd-logind.service", "user-runtime-dir@1000.service",
				     "user@1000.service" };
static const char *const requires[] = { "user-runtime-dir@1000.service", "user@1000.service" };

/* What logind (v252) sends: session-3.scope, "fail", its properties, no aux units. */
static void logind_body(struct w *w)
{
	static const uint32_t pids[] = { 4242 };
	size_t props, aux;

	str(w, "session-3.scope");
	str(w, "fail");
	props = array_begin(w, 8);
	prop_s(w, "Slice", "user-1000.slice");
	prop_s(w, "Description", "Session 3 of User phone");
	prop_as(w, "After", after, 3);
	prop_as(w, "Requires", requires, 2);
	prop_au(w, "PIDs", pids, 1);
	prop_begin(w, "SendSIGHUP", "b");
	u32(w, 1);
	prop_begin(w, "TasksMax", "t");
	pad(w, 8);
	u32(w, 33);
	u32(w, 0);
	prop_begin(w, "Environment", "v"); /* a variant in a variant: skipped by its type */
	sig(w, "(sai)");
	pad(w, 8);
	str(w, "x");
	{
		size_t at = array_begin(w, 4);
		u32(w, 1);
		u32(w, 2);
		array_end(w, at, 4);
	}
	array_end(w, props, 8);
	aux = array_begin(w, 8);
	array_end(w, aux, 8);
}

static void parse(const uint8_t *buf, size_t n, struct dbus_msg *m)
{
	CHECK(dbus_msg_parse(buf, n, m) == 0);
}

/* EMBER_DUMP_SEED=DIR writes the messages built here as seeds for
 * tests/fuzz/fuzz-dbus-message.c (tests/fuzz/corpus/dbus-message/). */
static void dump_seed(const char *name, const uint8_t *buf, size_t n)
{
	const char *dir = getenv("EMBER_DUMP_SEED");
	char path[512];
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((f = fopen(path, "wb"))) {
		fwrite(buf, 1, n, f);
		fclose(f);
	}
}

static void logind_scope_request(void)
{
	uint8_t buf[8192];
	size_t n = message(buf, "ssa(sv)a(sa(sv))", logind_body);
	struct dbus_msg m;
	struct dbus_transient t;

	parse(buf, n, &m);
	dump_seed("logind-scope", buf, n);
	CHECK(dbus_body_transient_unit(&m, &t) == 0);
	CHECK_STR(t.name, "session-3.scope");
	CHECK_STR(t.mode, "fail");
	CHECK_STR(t.slice, "user-1000.slice");
	CHECK_STR(t.description, "Session 3 of User phone");
	CHECK(t.pid_count == 1 && t.pids[0] == 4242 && !t.overflow);
	CHECK(t.want_count == 2);
	CHECK_STR(t.wants[0], "user-runtime-dir@1000.service");
	CHECK_STR(t.wants[1], "user@1000.service");
}

/* A body with one property written by prop(), no aux units. */
static void body_with(struct w *w, const char *name, void (*prop)(struct w *))
{
	size_t props;

	str(w, name);
	str(w, "fail");
	props = array_begin(w, 8);
	prop(w);
	array_end(w, props, 8);
	array_end(w, array_begin(w, 8), 8);
}

static void forty_pids(struct w *w)
{
	uint32_t pids[40];

	for (int i = 0; i < 40; i++)
		pids[i] = 100 + (uint32_t)i;
	prop_au(w, "PIDs", pids, 40);
}

static void pids_as_string(struct w *w) { prop_s(w, "PIDs", "4242"); }

/* logind 257: the leader as a pidfd, index 0 of the message's fds */
static void one_pidfd(struct w *w)
{
	size_t at;
	prop_begin(w, "PIDFDs", "ah");
	at = array_begin(w, 4);
	u32(w, 0);
	array_end(w, at, 4);
	prop_s(w, "Slice", "user-1000.slice");
}

static void pidfds_as_au(struct w *w)
{
	static const uint32_t zero[] = { 0 };
	prop_au(w, "PIDFDs", zero, 1);
}

/* variants 40 deep */
static void deep(struct w *w)
{
	prop_begin(w, "X-Deep", "v");
	for (int i = 0; i < 40; i++)
		sig(w, "v");
	sig(w, "u");
	u32(w, 7);
}

/* an array claiming more bytes than the message has */
static void lying(struct w *w)
{
	prop_begin(w, "PIDs", "au");
	u32(w, 0x7ffffff0);
	u32(w, 1);
}

static void pidfd_body(struct w *w) { body_with(w, "session-8.scope", one_pidfd); }
static void pidfd_wrong_type(struct w *w) { body_with(w, "session-8.scope", pidfds_as_au); }
static void many_pids(struct w *w) { body_with(w, "session-4.scope", forty_pids); }
static void wrong_type(struct w *w) { body_with(w, "session-5.scope", pids_as_string); }
static void deep_variant(struct w *w) { body_with(w, "session-6.scope", deep); }
static void lying_length(struct w *w) { body_with(w, "session-7.scope", lying); }

static void logind_257_pidfd(void)
{
	uint8_t buf[8192];
	struct dbus_msg m;
	struct dbus_transient t;
	size_t n = message(buf, "ssa(sv)a(sa(sv))", pidfd_body);

	dump_seed("logind-257-pidfd", buf, n);
	parse(buf, n, &m);
	m.unix_fds = 1; /* as the header's UNIX_FDS field says when the fd comes along */
	CHECK(dbus_body_transient_unit(&m, &t) == 0);
	CHECK(t.pid_count == 0 && t.pidfd_count == 1 && t.pidfds[0] == 0 && !t.overflow);
	CHECK_STR(t.slice, "user-1000.slice");
	m.unix_fds = 0; /* an index past the fds the message carries */
	CHECK(dbus_body_transient_unit(&m, &t) < 0);
	n = message(buf, "ssa(sv)a(sa(sv))", pidfd_wrong_type);
	parse(buf, n, &m);
	m.unix_fds = 1;
	CHECK(dbus_body_transient_unit(&m, &t) < 0);
}

static void hostile_bodies(void)
{
	uint8_t buf[8192];
	struct dbus_msg m;
	struct dbus_transient t;
	size_t n = message(buf, "ssa(sv)a(sa(sv))", many_pids);

	dump_seed("many-pids", buf, n);
	parse(buf, n, &m);
	CHECK(dbus_body_transient_unit(&m, &t) == 0);
	CHECK(t.pid_count == DBUS_TRANSIENT_PIDS_MAX && t.overflow && t.pids[15] == 115);
	n = message(buf, "ssa(sv)a(sa(sv))", wrong_type);
	parse(buf, n, &m);
	CHECK(dbus_body_transient_unit(&m, &t) < 0);
	n = message(buf, "ssa(sv)a(sa(sv))", deep_variant);
	dump_seed("deep-variant", buf, n);
	parse(buf, n, &m);
	CHECK(dbus_body_transient_unit(&m, &t) < 0);
	n = message(buf, "ssa(sv)a(sa(sv))", lying_length);
	parse(buf, n, &m);
	CHECK(dbus_body_transient_unit(&m, &t) < 0);
	n = message(buf, "ssa(sv)", logind_body); /* another method's signature */
	parse(buf, n, &m);
	CHECK(dbus_body_transient_unit(&m, &t) < 0);
}

static void every_corruption_and_truncation(void)
{
	uint8_t good[8192];
	size_t n = message(good, "ssa(sv)a(sa(sv))", logind_body), body_at;
	struct dbus_msg m;
	int parsed = 0;

	parse(good, n, &m);
	body_at = (size_t)(m.body - good);
	for (size_t at = body_at; at < n; at++) {
		static const uint8_t values[] = { 0, 1, 4, 0x7f, 0x80, 0xff, 'v', 'a', '(', '{' };
		for (size_t v = 0; v < sizeof values; v++) {
			uint8_t *copy = malloc(n); /* exact size: ASan sees any overread */
			struct dbus_transient t;
			memcpy(copy, good, n);
			copy[at] = values[v];
			if (dbus_msg_parse(copy, n, &m) == 0 && dbus_body_transient_unit(&m, &t) == 0) {
				parsed++;
				CHECK(t.pid_count <= DBUS_TRANSIENT_PIDS_MAX);
				CHECK(t.want_count <= DBUS_TRANSIENT_UNITS_MAX);
			}
			free(copy);
		}
	}
	CHECK(parsed > 0);
	/* a body cut short, its length field made to match: refused */
	for (size_t len = body_at; len < n; len++) {
		uint8_t *copy = malloc(len);
		struct dbus_transient t;
		memcpy(copy, good, len);
		copy[4] = (uint8_t)(len - body_at);
		copy[5] = (uint8_t)((len - body_at) >> 8);
		copy[6] = copy[7] = 0;
		if (dbus_msg_parse(copy, len, &m) == 0)
			CHECK(dbus_body_transient_unit(&m, &t) < 0);
		free(copy);
	}
}

int main(void)
{
	RUN(logind_scope_request);
	RUN(logind_257_pidfd);
	RUN(hostile_bodies);
	RUN(every_corruption_and_truncation);
	return harness_done();
}
