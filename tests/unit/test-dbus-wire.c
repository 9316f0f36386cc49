// sources:
/* The D-Bus wire subset: names, calls built byte for byte, and the message parser fed
 * hostile input (truncations, lying lengths, bad alignment, missing NULs, unknown types,
 * every single-byte corruption of real messages): it must refuse or parse within the
 * buffer, never read past it (the ASan build checks that). */
#include "harness.h"
#include "dbus-client.h"
#include "dbus-wire.h"

#include <stdlib.h>
#include <string.h>

/* ---- a tiny marshaller for the tests' own messages ---- */
struct w {
	uint8_t b[4096];
	size_t n;
};

static void pad(struct w *w, size_t to)
{
	while (w->n % to)
		w->b[w->n++] = 0;
}

static void u8(struct w *w, uint8_t v) { w->b[w->n++] = v; }

static void u32(struct w *w, uint32_t v)
{
	pad(w, 4);
	for (int i = 0; i < 4; i++)
		w->b[w->n++] = (uint8_t)(v >> (8 * i));
}

static void str(struct w *w, const char *s)
{
	u32(w, (uint32_t)strlen(s));
	memcpy(w->b + w->n, s, strlen(s) + 1);
	w->n += strlen(s) + 1;
}

static void field_s(struct w *w, uint8_t code, char type, const char *s)
{
	pad(w, 8);
	u8(w, code);
	u8(w, 1);
	u8(w, (uint8_t)type);
	u8(w, 0);
	if (type == 'g') {
		u8(w, (uint8_t)strlen(s));
		memcpy(w->b + w->n, s, strlen(s) + 1);
		w->n += strlen(s) + 1;
	} else {
		str(w, s);
	}
}

static void field_u(struct w *w, uint8_t code, uint32_t v)
{
	pad(w, 8);
	u8(w, code);
	u8(w, 1);
	u8(w, 'u');
	u8(w, 0);
	u32(w, v);
}

/* NameOwnerChanged("org.x.Y", "", ":1.7") as the bus sends it. */
static size_t name_owner_changed(uint8_t *out, const char *name, const char *new_owner)
{
	struct w w = { .n = 0 };
	size_t fields_end, body_start;

	u8(&w, 'l'); u8(&w, DBUS_SIGNAL); u8(&w, 0); u8(&w, 1);
	u32(&w, 0); u32(&w, 9); u32(&w, 0);
	field_s(&w, 1, 'o', "/org/freedesktop/DBus");
	field_s(&w, 2, 's', "org.freedesktop.DBus");
	field_s(&w, 3, 's', "NameOwnerChanged");
	field_s(&w, 7, 's', "org.freedesktop.DBus");
	field_s(&w, 8, 'g', "sss");
	fields_end = w.n;
	pad(&w, 8);
	body_start = w.n;
	str(&w, name);
	str(&w, "");
	str(&w, new_owner);
	w.b[4] = (uint8_t)(w.n - body_start);
	w.b[12] = (uint8_t)(fields_end - 16);
	memcpy(out, w.b, w.n);
	return w.n;
}

/* A method return to serial 3 with a boolean. */
static size_t bool_reply(uint8_t *out, uint32_t value)
{
	struct w w = { .n = 0 };
	size_t fields_end, body_start;

	u8(&w, 'l'); u8(&w, DBUS_METHOD_RETURN); u8(&w, 0); u8(&w, 1);
	u32(&w, 0); u32(&w, 5); u32(&w, 0);
	field_u(&w, 5, 3);
	field_s(&w, 8, 'g', "b");
	fields_end = w.n;
	pad(&w, 8);
	body_start = w.n;
	u32(&w, value);
	w.b[4] = (uint8_t)(w.n - body_start);
	w.b[12] = (uint8_t)(fields_end - 16);
	memcpy(out, w.b, w.n);
	return w.n;
}

/* EnableUnitFiles(["a.service", "b.service"], runtime, force) as timedated sends it;
 * count: the array's length in bytes as written (a wrong one is a hostile message). */
static size_t enable_unit_files(uint8_t *out, const char *sig, int count_delta, uint32_t flag)
{
	struct w w = { .n = 0 };
	size_t fields_end, body_start, len_at, array_start;

	u8(&w, 'l'); u8(&w, DBUS_METHOD_CALL); u8(&w, 0); u8(&w, 1);
	u32(&w, 0); u32(&w, 5); u32(&w, 0);
	field_s(&w, 1, 'o', "/org/freedesktop/systemd1");
	field_s(&w, 3, 's', "EnableUnitFiles");
	field_s(&w, 8, 'g', sig);
	fields_end = w.n;
	pad(&w, 8);
	body_start = w.n;
	len_at = w.n;
	u32(&w, 0);
	array_start = w.n;
	str(&w, "a.service");
	str(&w, "b.service");
	w.b[len_at] = (uint8_t)((int)(w.n - array_start) + count_delta);
	u32(&w, flag);
	if (strcmp(sig, "asbb") == 0)
		u32(&w, 1);
	w.b[4] = (uint8_t)(w.n - body_start);
	w.b[12] = (uint8_t)(fields_end - 16);
	memcpy(out, w.b, w.n);
	return w.n;
}

static void string_arrays(void)
{
	uint8_t buf[512];
	struct dbus_msg m;
	const char *names[4];
	size_t n, len;

	len = enable_unit_files(buf, "asbb", 0, 0);
	CHECK(dbus_msg_parse(buf, len, &m) == 0);
	CHECK(dbus_body_string_array(&m, "asbb", names, 4, &n) == 0 && n == 2);
	CHECK(n == 2 && strcmp(names[0], "a.service") == 0 && strcmp(names[1], "b.service") == 0);
	CHECK(dbus_body_string_array(&m, "asb", names, 4, &n) < 0);   /* another signature */
	CHECK(dbus_body_string_array(&m, "asbb", names, 1, &n) < 0);  /* more than max */
	len = enable_unit_files(buf, "asbb", 0, 2); /* a boolean is 0 or 1 */
	CHECK(dbus_msg_parse(buf, len, &m) == 0 && dbus_body_string_array(&m, "asbb", names, 4, &n) < 0);
	len = enable_unit_files(buf, "asbb", 40, 0); /* the array says it runs past the body */
	CHECK(dbus_msg_parse(buf, len, &m) == 0 && dbus_body_string_array(&m, "asbb", names, 4, &n) < 0);
	len = enable_unit_files(buf, "asbb", -3, 0); /* it ends inside its last string */
	CHECK(dbus_msg_parse(buf, len, &m) == 0 && dbus_body_string_array(&m, "asbb", names, 4, &n) < 0);
	len = enable_unit_files(buf, "asb", 0, 1);
	CHECK(dbus_msg_parse(buf, len, &m) == 0 && dbus_body_string_array(&m, "asb", names, 4, &n) == 0 && n == 2);
}

static void names(void)
{
	static const char *const good[] = { "org.freedesktop.DBus", "a.b", "org.ex-ample._x9",
					    "com.example.Name_1" };
	static const char *const bad[] = { "", "org", ":1.42", ".a.b", "a.b.", "a..b", "a.1b",
					   "a.b c", "a.b/c", "a.\xc3\xa9" };
	char big[300];

	for (size_t i = 0; i < sizeof good / sizeof *good; i++)
		CHECK(dbus_name_valid(good[i]));
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		CHECK(!dbus_name_valid(bad[i]));
	memset(big, 'a', sizeof big);
	big[1] = '.';
	big[255] = '\0';
	CHECK(dbus_name_valid(big));
	big[255] = 'a';
	big[256] = '\0';
	CHECK(!dbus_name_valid(big));
}

static void call_round_trips(void)
{
	uint8_t buf[1024];
	struct dbus_msg m;
	const char *arg;
	size_t n = dbus_call_build(buf, sizeof buf, 7, "RequestName", "org.example.X", true, 4);

	CHECK(n > 0 && n % 4 == 0);
	CHECK(dbus_msg_size(buf, n) == (long)n);
	CHECK(dbus_msg_parse(buf, n, &m) == 0);
	CHECK(m.type == DBUS_METHOD_CALL && m.serial == 7);
	CHECK_STR(m.member, "RequestName");
	CHECK_STR(m.destination, "org.freedesktop.DBus");
	CHECK_STR(m.path, "/org/freedesktop/DBus");
	CHECK_STR(m.signature, "su");
	CHECK(m.body_len == 4 + 14 + 1 + 1 + 4); /* len, text, NUL, pad to 4, u32 */
	n = dbus_call_build(buf, sizeof buf, 8, "NameHasOwner", "org.example.X", false, 0);
	CHECK(dbus_msg_parse(buf, n, &m) == 0);
	CHECK(dbus_body_strings(&m, &arg, 1) == 0);
	CHECK_STR(arg, "org.example.X");
	n = dbus_call_build(buf, sizeof buf, 1, "Hello", NULL, false, 0);
	CHECK(dbus_msg_parse(buf, n, &m) == 0 && m.body_len == 0 && !m.signature);
	CHECK(dbus_call_build(buf, 40, 1, "Hello", NULL, false, 0) == 0); /* too small */
}

/* ember-activator's messages: what it builds, the parser reads back field by field. */
static void built_messages_round_trip(void)
{
	uint8_t buf[1024];
	struct dbus_msg m;
	const char *args[3];
	uint32_t u;
	struct dbus_out sig = { .type = DBUS_SIGNAL, .serial = 9, .path = "/org/freedesktop/DBus",
				.interface = "org.freedesktop.systemd1.Activator",
				.member = "ActivationFailure", .destination = "org.freedesktop.DBus",
				.signature = "sss", .args = { "x.service", "org.a.Error", "why" } };
	struct dbus_out err = { .type = DBUS_ERROR, .serial = 10, .reply_serial = 77,
				.destination = ":1.5", .error_name = "org.a.Error", .signature = "s",
				.args = { "text" } };
	struct dbus_out ret = { .type = DBUS_METHOD_RETURN, .serial = 11, .reply_serial = 78,
				.destination = ":1.6", .signature = "o", .args = { "/a/b" } };
	struct dbus_out empty = { .type = DBUS_METHOD_RETURN, .serial = 12, .reply_serial = 79 };
	struct dbus_out num = { .type = DBUS_METHOD_RETURN, .serial = 13, .reply_serial = 80,
				.signature = "u", .u32 = 1000 };
	size_t n = dbus_msg_build(buf, sizeof buf, &sig);

	CHECK(n > 0 && dbus_msg_parse(buf, n, &m) == 0);
	CHECK(m.type == DBUS_SIGNAL && m.serial == 9 && m.reply_serial == 0);
	CHECK_STR(m.member, "ActivationFailure");
	CHECK_STR(m.interface, "org.freedesktop.systemd1.Activator");
	CHECK_STR(m.destination, "org.freedesktop.DBus");
	CHECK(dbus_body_strings(&m, args, 3) == 0);
	CHECK_STR(args[0], "x.service");
	CHECK_STR(args[2], "why");
	n = dbus_msg_build(buf, sizeof buf, &err);
	CHECK(n > 0 && dbus_msg_parse(buf, n, &m) == 0);
	CHECK(m.type == DBUS_ERROR && m.reply_serial == 77 && !m.path && !m.member);
	CHECK_STR(m.error_name, "org.a.Error");
	n = dbus_msg_build(buf, sizeof buf, &ret);
	CHECK(n > 0 && dbus_msg_parse(buf, n, &m) == 0);
	CHECK_STR(m.signature, "o");
	CHECK(dbus_body_strings(&m, args, 1) < 0); /* an object path is not a string */
	n = dbus_msg_build(buf, sizeof buf, &empty);
	CHECK(n > 0 && dbus_msg_parse(buf, n, &m) == 0 && m.body_len == 0 && !m.signature);
	n = dbus_msg_build(buf, sizeof buf, &num);
	CHECK(n > 0 && dbus_msg_parse(buf, n, &m) == 0 && dbus_body_u32(&m, &u) == 0 && u == 1000);
	CHECK(dbus_body_bool(&m, &(bool){ false }) < 0);
	/* A property's value: a variant holding a string, as Properties.Get returns it. */
	ret.signature = "v";
	ret.args[0] = "loaded";
	n = dbus_msg_build(buf, sizeof buf, &ret);
	CHECK(n > 0 && dbus_msg_parse(buf, n, &m) == 0);
	CHECK_STR(m.signature, "v");
	CHECK(m.body_len == 3 + 1 + 4 + 7 && memcmp(m.body, "\1s\0", 3) == 0);
	CHECK(memcmp(m.body + 8, "loaded", 7) == 0);
	/* Only what the builder knows: at most three arguments of s, o, v and one u. */
	sig.signature = "sssss"; /* more than DBUS_ARGS_MAX */
	CHECK(dbus_msg_build(buf, sizeof buf, &sig) == 0);
	{ /* JobRemoved(u job, o path, s unit, s result): the u takes u32, the rest args[i] */
		struct dbus_out jr = { .type = DBUS_SIGNAL, .serial = 11, .path = "/org/freedesktop/systemd1",
				       .interface = "org.freedesktop.systemd1.Manager", .member = "JobRemoved",
				       .signature = "uoss", .u32 = 7,
				       .args = { NULL, "/org/freedesktop/systemd1/job/7", "session-3.scope", "done" } };
		n = dbus_msg_build(buf, sizeof buf, &jr);
		CHECK(n > 0 && dbus_msg_parse(buf, n, &m) == 0);
		CHECK_STR(m.signature, "uoss");
		/* 4 + (4 + 31 + 1) + (4 + 15 + 1) + (4 + 4 + 1) = 69 bytes */
		CHECK(m.body_len == 69 && m.body[0] == 7 && memcmp(m.body + 8, "/org/", 5) == 0);
	}
	sig.signature = "a";
	CHECK(dbus_msg_build(buf, sizeof buf, &sig) == 0);
	sig.signature = "uu";
	CHECK(dbus_msg_build(buf, sizeof buf, &sig) == 0);
	sig.signature = "sss";
	CHECK(dbus_msg_build(buf, 64, &sig) == 0); /* too small */
}

static void auth_line(void)
{
	char line[64];

	CHECK(dbus_auth_line(line, sizeof line, 0) == 18);
	CHECK_STR(line, "AUTH EXTERNAL 30\r\n");
	CHECK(dbus_auth_line(line, sizeof line, 1000) > 0);
	CHECK_STR(line, "AUTH EXTERNAL 31303030\r\n");
	CHECK(dbus_auth_line(line, 16, 1000) == 0);
}

static void bus_messages_parsed(void)
{
	uint8_t buf[512];
	struct dbus_msg m;
	const char *args[3];
	bool b;
	size_t n = name_owner_changed(buf, "org.x.Y", ":1.7");

	CHECK(dbus_msg_parse(buf, n, &m) == 0);
	CHECK(m.type == DBUS_SIGNAL);
	CHECK_STR(m.member, "NameOwnerChanged");
	CHECK_STR(m.sender, "org.freedesktop.DBus");
	CHECK(dbus_body_strings(&m, args, 3) == 0);
	CHECK_STR(args[0], "org.x.Y");
	CHECK_STR(args[1], "");
	CHECK_STR(args[2], ":1.7");
	CHECK(dbus_body_bool(&m, &b) < 0); /* wrong signature */
	n = bool_reply(buf, 1);
	CHECK(dbus_msg_parse(buf, n, &m) == 0 && m.reply_serial == 3);
	CHECK(dbus_body_bool(&m, &b) == 0 && b);
	n = bool_reply(buf, 2);
	CHECK(dbus_msg_parse(buf, n, &m) == 0 && dbus_body_bool(&m, &b) < 0); /* not 0/1 */
	CHECK(dbus_body_strings(&m, args, 1) < 0);
}

/* Lying sizes: bigger than the limit, bigger than the buffer, overflowing sums. */
static void hostile_headers(void)
{
	uint8_t buf[64] = { 'l', 2, 0, 1 };
	struct dbus_msg m;

	CHECK(dbus_msg_size(buf, 15) == 0);
	buf[4] = 0xff; buf[5] = 0xff; buf[6] = 0xff; buf[7] = 0xff; /* body 4 GiB */
	CHECK(dbus_msg_size(buf, 16) == -1);
	memset(buf + 4, 0, 12);
	buf[12] = 0xf8; buf[13] = 0xff; buf[14] = 0; buf[15] = 0;  /* fields 65528 */
	buf[4] = 0xff; buf[5] = 0x00;                               /* body 255 */
	CHECK(dbus_msg_size(buf, 16) == -1);
	memset(buf + 4, 0, 12);
	buf[0] = 'x';
	CHECK(dbus_msg_size(buf, 16) == -1);          /* endianness */
	buf[0] = 'l';
	buf[3] = 2;
	CHECK(dbus_msg_size(buf, 16) == -1);          /* version */
	buf[3] = 1;
	buf[8] = 1;                                    /* serial 1, no fields, no body */
	CHECK(dbus_msg_size(buf, 16) == 16);
	CHECK(dbus_msg_parse(buf, 16, &m) == 0);
	CHECK(dbus_msg_parse(buf, 15, &m) < 0);        /* shorter than it says */
	CHECK(dbus_msg_parse(buf, 24, &m) < 0);        /* longer than it says */
	buf[8] = 0;
	CHECK(dbus_msg_parse(buf, 16, &m) < 0);        /* serial 0 */
	buf[8] = 1;
	buf[1] = 9;
	CHECK(dbus_msg_parse(buf, 16, &m) < 0);        /* unknown type */
	buf[1] = 2;
	buf[4] = 4;                                    /* a body without a signature */
	CHECK(dbus_msg_parse(buf, 24, &m) < 0);
	CHECK(dbus_msg_parse(buf, 0, &m) < 0);
}

static void hostile_fields(void)
{
	uint8_t good[512], buf[512];
	struct dbus_msg m;
	size_t n = name_owner_changed(good, "org.x.Y", ":1.7");

	/* A string length running past the header fields. */
	memcpy(buf, good, n);
	buf[20] = 0xff; buf[21] = 0xff; /* PATH's length */
	CHECK(dbus_msg_parse(buf, n, &m) < 0);
	/* A missing NUL after a string. */
	memcpy(buf, good, n);
	buf[24 + strlen("/org/freedesktop/DBus")] = 'X';
	CHECK(dbus_msg_parse(buf, n, &m) < 0);
	/* A variant of a type ember does not read (an array). */
	memcpy(buf, good, n);
	buf[18] = 'a';
	CHECK(dbus_msg_parse(buf, n, &m) < 0);
	/* A signature length of 2 for a one-type variant. */
	memcpy(buf, good, n);
	buf[17] = 2;
	CHECK(dbus_msg_parse(buf, n, &m) < 0);
	/* A NUL inside a body string. */
	memcpy(buf, good, n);
	buf[n - 3] = 0;
	CHECK(dbus_msg_parse(buf, n, &m) < 0 || dbus_body_strings(&m, (const char *[3]){ 0 }, 3) < 0);
}

/* Every single-byte change of real messages, and every truncation: never a read past
 * the buffer (checked by the ASan build), and what parses stays inside it. */
static void every_corruption(void)
{
	uint8_t good[512], buf[512];
	size_t sizes[2];
	uint8_t msgs[2][512];
	int parsed = 0;

	sizes[0] = name_owner_changed(msgs[0], "org.x.Y", ":1.7");
	sizes[1] = bool_reply(msgs[1], 1);
	for (int k = 0; k < 2; k++) {
		size_t n = sizes[k];
		memcpy(good, msgs[k], n);
		for (size_t at = 0; at < n; at++) {
			static const uint8_t values[] = { 0, 1, 0x7f, 0x80, 0xff, 's', 'g', 'u', 'a', 'v' };
			for (size_t v = 0; v < sizeof values; v++) {
				struct dbus_msg m;
				const char *args[3];
				bool b;
				uint8_t *copy = malloc(n); /* exact size: ASan sees any overread */
				memcpy(buf, good, n);
				buf[at] = values[v];
				memcpy(copy, buf, n);
				if (dbus_msg_parse(copy, n, &m) == 0) {
					parsed++;
					CHECK(m.body >= copy && m.body + m.body_len <= copy + n);
					(void)dbus_body_strings(&m, args, 3);
					(void)dbus_body_bool(&m, &b);
				}
				free(copy);
			}
		}
		for (size_t len = 0; len < n; len++) {
			struct dbus_msg m;
			uint8_t *copy = malloc(len ? len : 1);
			memcpy(copy, good, len);
			CHECK(len == 0 || dbus_msg_size(copy, len) != (long)len);
			CHECK(dbus_msg_parse(copy, len, &m) < 0);
			free(copy);
		}
	}
	CHECK(parsed > 0); /* harmless changes (e.g. in a name's letters) still parse */
}

static void addresses(void)
{
	char path[108];

	CHECK(dbus_address_unix("unix:path=/run/dbus/system_bus_socket", path, sizeof path) == 0);
	CHECK_STR(path, "/run/dbus/system_bus_socket");
	CHECK(dbus_address_unix("tcp:host=x;unix:guid=1,path=/tmp/a%2cb", path, sizeof path) == 0);
	CHECK_STR(path, "/tmp/a,b");
	CHECK(dbus_address_unix("unix:abstract=bus", path, sizeof path) == 0);
	CHECK_STR(path, "@bus");
	CHECK(dbus_address_unix("unix:path=/x%00y", path, sizeof path) < 0);
	CHECK(dbus_address_unix("unix:path=/x%zz", path, sizeof path) < 0);
	CHECK(dbus_address_unix("tcp:host=localhost,port=1", path, sizeof path) < 0);
	CHECK(dbus_address_unix("unix:path=", path, sizeof path) < 0);
	CHECK(dbus_address_unix("unix:path=/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
				"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", path, sizeof path) < 0);
}

int main(void)
{
	RUN(string_arrays);
	RUN(names);
	RUN(call_round_trips);
	RUN(built_messages_round_trip);
	RUN(auth_line);
	RUN(bus_messages_parsed);
	RUN(hostile_headers);
	RUN(hostile_fields);
	RUN(every_corruption);
	RUN(addresses);
	return harness_done();
}
