// sources:
/* Control-protocol replies: what the writer packs into packets reads back exactly,
 * packets never exceed CTL_PACKET_MAX, and the reader refuses every malformed record
 * stream instead of misreading it. */
#include "harness.h"
#include "ctl.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#define PACKETS_MAX 64

/* What a writer sent. */
static struct {
	size_t count;
	size_t len[PACKETS_MAX];
	char data[PACKETS_MAX][CTL_PACKET_MAX + 1];
	int fail_at; /* send number that fails, -1: none */
} sent;

static int collect(void *ctx, const char *packet, size_t len)
{
	(void)ctx;
	if ((int)sent.count == sent.fail_at || sent.count == PACKETS_MAX || len > CTL_PACKET_MAX)
		return -1;
	memcpy(sent.data[sent.count], packet, len);
	sent.data[sent.count][len] = '\0';
	sent.len[sent.count++] = len;
	return 0;
}

static struct ctl_writer w;

static void reset(void)
{
	memset(&sent, 0, sizeof sent);
	sent.fail_at = -1;
	ctl_writer_init(&w, collect, NULL);
}

/* The 'R' payloads, concatenated, as the client collects them. */
static char stream[PACKETS_MAX * CTL_PACKET_MAX];
static size_t stream_len;

static void gather_records(void)
{
	stream_len = 0;
	for (size_t i = 0; i < sent.count; i++) {
		if (sent.data[i][0] != CTL_KIND_RECORD)
			continue;
		memcpy(stream + stream_len, sent.data[i] + 1, sent.len[i] - 1);
		stream_len += sent.len[i] - 1;
	}
}

static char err[256];

static int read_one(const char *text, struct ctl_record *rec)
{
	size_t pos = 0;
	stream_len = strlen(text);
	memcpy(stream, text, stream_len);
	err[0] = '\0';
	return ctl_record_read(stream, stream_len, &pos, rec, err, sizeof err);
}

static int bad(const char *text, const char *why)
{
	struct ctl_record rec;
	size_t pos = 0;
	int r;

	stream_len = strlen(text);
	memcpy(stream, text, stream_len);
	err[0] = '\0';
	while ((r = ctl_record_read(stream, stream_len, &pos, &rec, err, sizeof err)) == 1)
		;
	if (r != -1)
		return 0;
	if (!strstr(err, why)) {
		printf("  message \"%s\" lacks \"%s\"\n", err, why);
		return 0;
	}
	return 1;
}

static void values_round_trip(void)
{
	static const char *const values[] = {
		"", "plain", "back\\slash", "new\nline", "tab\there", "bell\a esc\x1b del\x7f",
		"key=value=more", "utf-8 \xc3\xa9\xe2\x82\xac", "\\n is not a newline", "\r\n",
	};
	char key[24];
	struct ctl_record rec;
	size_t pos = 0;

	reset();
	CHECK(ctl_record_begin(&w) == 0);
	for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
		snprintf(key, sizeof key, "k%zu", i);
		CHECK(ctl_record_add_str(&w, key, values[i]) == 0);
	}
	CHECK(ctl_record_end(&w) == 0);
	CHECK(ctl_write_exit(&w, 0) == 0);
	CHECK(sent.count == 2);
	CHECK(sent.data[0][0] == 'R');
	CHECK_STR(sent.data[1], "X0");
	/* Nothing but the line ends is a raw newline, and no raw control byte at all. */
	for (size_t i = 1; i < sent.len[0]; i++) {
		unsigned char c = (unsigned char)sent.data[0][i];
		CHECK(c == '\n' || (c >= 0x20 && c != 0x7f));
	}
	gather_records();
	CHECK(ctl_record_read(stream, stream_len, &pos, &rec, err, sizeof err) == 1);
	CHECK(rec.count == sizeof values / sizeof *values);
	for (size_t i = 0; i < rec.count; i++) {
		snprintf(key, sizeof key, "k%zu", i);
		CHECK_STR(ctl_record_get(&rec, key), values[i]);
	}
	CHECK(ctl_record_read(stream, stream_len, &pos, &rec, err, sizeof err) == 0);
}

static void integers_round_trip(void)
{
	static const long long values[] = { 0, 1, -1, 412, LLONG_MAX, LLONG_MIN, -1000000 };
	char key[24];
	struct ctl_record rec;
	size_t pos = 0;
	long long v;

	reset();
	ctl_record_begin(&w);
	for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
		snprintf(key, sizeof key, "i%zu", i);
		CHECK(ctl_record_add_int(&w, key, values[i]) == 0);
	}
	ctl_record_end(&w);
	ctl_writer_flush(&w);
	gather_records();
	CHECK(ctl_record_read(stream, stream_len, &pos, &rec, err, sizeof err) == 1);
	CHECK_STR(ctl_record_get(&rec, "i5"), "-9223372036854775808");
	for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
		snprintf(key, sizeof key, "i%zu", i);
		CHECK(ctl_record_get_int(&rec, key, &v) == 0 && v == values[i]);
	}
	CHECK(ctl_record_get_int(&rec, "missing", &v) == -1);
}

static void get_int_is_strict(void)
{
	struct ctl_record rec;
	long long v;
	CHECK(read_one("a=12x\nb=\nc=9223372036854775808\nd=-\ne= 1\nf=+1\ng=-0\n\n", &rec) == 1);
	CHECK(ctl_record_get_int(&rec, "a", &v) == -1);
	CHECK(ctl_record_get_int(&rec, "b", &v) == -1);
	CHECK(ctl_record_get_int(&rec, "c", &v) == -1);
	CHECK(ctl_record_get_int(&rec, "d", &v) == -1);
	CHECK(ctl_record_get_int(&rec, "e", &v) == -1);
	CHECK(ctl_record_get_int(&rec, "f", &v) == -1);
	CHECK(ctl_record_get_int(&rec, "g", &v) == 0 && v == 0);
}

static void many_records_span_packets(void)
{
	char name[16];
	struct ctl_record rec;
	size_t pos = 0, n = 0;

	reset();
	for (int i = 0; i < 300; i++) {
		snprintf(name, sizeof name, "svc%d", i);
		ctl_record_begin(&w);
		ctl_record_add_str(&w, "name", name);
		ctl_record_add_str(&w, "description", "a service with a description of some length");
		ctl_record_add_int(&w, "main_pid", 1000 + i);
		ctl_record_end(&w);
	}
	CHECK(ctl_write_exit(&w, 0) == 0);
	CHECK(sent.count > 3);
	for (size_t i = 0; i < sent.count; i++) {
		CHECK(sent.len[i] <= CTL_PACKET_MAX);
		if (sent.data[i][0] == 'R') /* a line never spans packets */
			CHECK(sent.data[i][sent.len[i] - 1] == '\n');
	}
	CHECK_STR(sent.data[sent.count - 1], "X0");
	gather_records();
	while (ctl_record_read(stream, stream_len, &pos, &rec, err, sizeof err) == 1) {
		long long pid;
		snprintf(name, sizeof name, "svc%zu", n);
		CHECK_STR(ctl_record_get(&rec, "name"), name);
		CHECK(ctl_record_get_int(&rec, "main_pid", &pid) == 0 && pid == 1000 + (long long)n);
		n++;
	}
	CHECK(n == 300);
}

static void overlong_value_is_cut_at_an_escape_boundary(void)
{
	char *big = malloc(10001);
	struct ctl_record rec;
	size_t pos = 0;

	/* Every byte needs a 4-byte escape: the cut must not split one. */
	memset(big, '\x01', 10000);
	big[10000] = '\0';
	reset();
	ctl_record_begin(&w);
	CHECK(ctl_record_add_str(&w, "name", "x") == 0);
	CHECK(ctl_record_add_str(&w, "status_text", big) == 0);
	ctl_record_end(&w);
	ctl_writer_flush(&w);
	CHECK(sent.count == 2);
	CHECK(sent.len[1] <= CTL_PACKET_MAX);
	gather_records();
	CHECK(ctl_record_read(stream, stream_len, &pos, &rec, err, sizeof err) == 1);
	const char *v = ctl_record_get(&rec, "status_text");
	CHECK(v && strlen(v) > 1000 && strlen(v) < 1024);
	CHECK(v && strspn(v, "\x01") == strlen(v));
	free(big);
}

static void text_is_split_and_errors_are_single_packets(void)
{
	char *text = malloc(10000);
	char *long_msg = malloc(5001);
	size_t total = 0;

	for (int i = 0; i < 10000; i++)
		text[i] = (char)('a' + i % 26);
	memset(long_msg, 'e', 5000);
	long_msg[5000] = '\0';
	reset();
	CHECK(ctl_write_text(&w, text, 4000) == 0);
	CHECK(ctl_write_text(&w, text + 4000, 6000) == 0);
	CHECK(ctl_write_error(&w, "sshd: no such service") == 0);
	CHECK(ctl_write_error(&w, long_msg) == 0);
	CHECK(ctl_write_exit(&w, 4) == 0);
	CHECK(sent.count == 6);
	for (size_t i = 0; i < 3; i++) {
		CHECK(sent.data[i][0] == 'T');
		CHECK(memcmp(sent.data[i] + 1, text + total, sent.len[i] - 1) == 0);
		total += sent.len[i] - 1;
	}
	CHECK(total == 10000);
	CHECK_STR(sent.data[3], "Esshd: no such service");
	CHECK(sent.data[4][0] == 'E' && sent.len[4] == CTL_PACKET_MAX);
	CHECK_STR(sent.data[5], "X4");
	free(text);
	free(long_msg);
}

static void misuse_is_refused(void)
{
	reset();
	CHECK(ctl_record_add_str(&w, "name", "x") == -1);  /* outside a record */
	CHECK(ctl_record_end(&w) == -1);
	CHECK(ctl_record_begin(&w) == 0);
	CHECK(ctl_record_begin(&w) == -1);
	CHECK(ctl_record_add_str(&w, "Name", "x") == -1);  /* keys are lower case */
	CHECK(ctl_record_add_str(&w, "", "x") == -1);
	CHECK(ctl_record_add_str(&w, "a=b", "x") == -1);
	CHECK(ctl_record_add_str(&w, "abcdefghijklmnopqrstuvwxyz0123456", "x") == -1);
	CHECK(ctl_write_text(&w, "x", 1) == -1);           /* inside a record */
	CHECK(ctl_write_error(&w, "x") == -1);
	CHECK(ctl_record_add_str(&w, NULL, "x") == -1);
	CHECK(ctl_record_add_str(&w, "name", "x") == 0);
	CHECK(ctl_record_add_str(&w, "none", NULL) == 0);
	CHECK(ctl_write_exit(&w, 256) == -1);
	CHECK(ctl_write_exit(&w, -1) == -1);
	/* The exit closes the open record, so the reply stays readable. */
	CHECK(ctl_write_exit(&w, 1) == 0);
	CHECK(sent.count == 2);
	CHECK_STR(sent.data[0], "Rname=x\nnone=\n\n");
	CHECK_STR(sent.data[1], "X1");
	CHECK(ctl_write_exit(&w, 0) == -1); /* nothing after the exit */
	CHECK(ctl_write_text(&w, "x", 1) == -1);
	CHECK(sent.count == 2);
}

static void failed_send_is_sticky(void)
{
	reset();
	sent.fail_at = 0;
	CHECK(ctl_write_text(&w, "line\n", 5) == 0); /* buffered: nothing sent yet */
	CHECK(ctl_writer_flush(&w) == -1);
	CHECK(w.failed);
	CHECK(ctl_record_begin(&w) == -1);
	CHECK(ctl_write_exit(&w, 0) == -1);
	CHECK(sent.count == 0);
}

static void exit_status_is_strict(void)
{
	int st = -1;
	CHECK(ctl_parse_exit("0", 1, &st) == 0 && st == 0);
	CHECK(ctl_parse_exit("255", 3, &st) == 0 && st == 255);
	CHECK(ctl_parse_exit("4", 1, &st) == 0 && st == 4);
	CHECK(ctl_parse_exit("", 0, &st) == -1);
	CHECK(ctl_parse_exit("256", 3, &st) == -1);
	CHECK(ctl_parse_exit("01", 2, &st) == -1);
	CHECK(ctl_parse_exit("-1", 2, &st) == -1);
	CHECK(ctl_parse_exit("1a", 2, &st) == -1);
	CHECK(ctl_parse_exit("1000", 4, &st) == -1);
	CHECK(ctl_parse_exit("1\n", 2, &st) == -1);
	CHECK(ctl_parse_exit("1\0", 2, &st) == -1);
}

static void reader_refuses_truncated_streams(void)
{
	CHECK(bad("name=a\n", "truncated record"));
	CHECK(bad("name=a\nstate=run", "line without a newline"));
	CHECK(bad("name=a\n\nname=b", "truncated record"));
	CHECK(bad("name", "truncated record"));
}

static void reader_refuses_bad_lines(void)
{
	CHECK(bad("name\n\n", "without '='"));
	CHECK(bad("=x\n\n", "key of 0 bytes"));
	CHECK(bad("Name=x\n\n", "bad key character 0x4e"));
	CHECK(bad("na me=x\n\n", "bad key character 0x20"));
	CHECK(bad("abcdefghijklmnopqrstuvwxyz0123456=x\n\n", "key of 33 bytes"));
	CHECK(bad("a=tab\there\n\n", "raw control byte 0x09"));
	CHECK(bad("a=cr\r\n\n", "raw control byte 0x0d"));
	CHECK(bad("a=x\x1b[2J\n\n", "raw control byte 0x1b"));
	CHECK(bad("a=1\na=2\n\n", "duplicate key 'a'"));
	CHECK(bad("\n", "empty record at byte 0"));
	CHECK(bad("a=1\n\n\n", "empty record at byte 5"));
}

static void reader_refuses_bad_escapes(void)
{
	CHECK(bad("a=x\\q\n\n", "unknown escape '\\q'"));
	CHECK(bad("a=x\\\n\n", "backslash at the end"));
	CHECK(bad("a=\\x0\n\n", "bad \\x escape"));
	CHECK(bad("a=\\x\n\n", "bad \\x escape"));
	CHECK(bad("a=\\xzz\n\n", "bad \\x escape"));
	CHECK(bad("a=\\x00\n\n", "bad \\x escape"));
	CHECK(bad("a=\\\x01\n\n", "unknown escape '\\?'"));
}

static void reader_refuses_too_many_fields(void)
{
	char text[2000];
	size_t n = 0;
	for (int i = 0; i <= CTL_RECORD_FIELDS_MAX; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "k%d=v\n", i);
	snprintf(text + n, sizeof text - n, "\n");
	CHECK(bad(text, "more than 64 fields"));
}

static void reader_accepts_escapes_and_reads_in_place(void)
{
	struct ctl_record rec;
	CHECK(read_one("a=\\\\\\n\\t\\x7f\\x1B end\nb=\xc3\xa9\n\n", &rec) == 1);
	CHECK_STR(ctl_record_get(&rec, "a"), "\\\n\t\x7f\x1b end");
	CHECK_STR(ctl_record_get(&rec, "b"), "\xc3\xa9");
	CHECK(rec.field[0].key >= stream && rec.field[0].key < stream + sizeof stream);
	CHECK(ctl_record_get(&rec, "c") == NULL);
}

static void empty_stream_has_no_records(void)
{
	struct ctl_record rec;
	size_t pos = 0;
	CHECK(ctl_record_read(stream, 0, &pos, &rec, err, sizeof err) == 0);
}

static void escape_helpers(void)
{
	char out[64];
	CHECK(ctl_escaped_len("a\\b\n\x01") == 1 + 2 + 1 + 2 + 4);
	ctl_escape("a\\b\n\x01", out);
	CHECK_STR(out, "a\\\\b\\n\\x01");
}

int main(void)
{
	RUN(values_round_trip);
	RUN(integers_round_trip);
	RUN(get_int_is_strict);
	RUN(many_records_span_packets);
	RUN(overlong_value_is_cut_at_an_escape_boundary);
	RUN(text_is_split_and_errors_are_single_packets);
	RUN(misuse_is_refused);
	RUN(failed_send_is_sticky);
	RUN(exit_status_is_strict);
	RUN(reader_refuses_truncated_streams);
	RUN(reader_refuses_bad_lines);
	RUN(reader_refuses_bad_escapes);
	RUN(reader_refuses_too_many_fields);
	RUN(reader_accepts_escapes_and_reads_in_place);
	RUN(empty_stream_has_no_records);
	RUN(escape_helpers);
	return harness_done();
}
