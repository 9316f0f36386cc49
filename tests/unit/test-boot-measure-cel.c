// sources: boot-measure/cel.c boot-measure/jsonread.c boot-measure/algs.c
/* The log's record format: what the writer produces reads back identically, and hostile
 * logs (truncated, malformed, oversized, forged fields) are refused with a reason. */
#include "harness.h"
#include "../../boot-measure/cel.h"

#include <stdlib.h>
#include <string.h>

static struct cel_record sample(void)
{
	struct cel_record rec;
	memset(&rec, 0, sizeof rec);
	rec.pcr = 11;
	strcpy(rec.content_type, CEL_CONTENT_TYPE);
	strcpy(rec.event_type, "phase");
	rec.has_string = true;
	strcpy(rec.string, "sysinit");
	rec.string_len = 7;
	strcpy(rec.boot_id, "0123456789abcdef0123456789abcdef");
	rec.timestamp = 123456;
	rec.n_digests = 2;
	rec.digests[0].alg = 0x0004; /* sha1 */
	memset(rec.digests[0].bytes, 0xab, 20);
	rec.digests[1].alg = 0x000B; /* sha256 */
	memset(rec.digests[1].bytes, 0x01, 32);
	return rec;
}

static int parse(const char *json, struct cel_record *rec, const char **why)
{
	return cel_parse_record(json, strlen(json), rec, why);
}

static void record_round_trips(void)
{
	struct cel_record in = sample(), out;
	char *text;
	size_t len;
	const char *why = NULL;
	CHECK(cel_format_record(&in, &text, &len) == 0);
	CHECK(text[0] == CEL_RS && text[len - 1] == '\n');
	CHECK(memchr(text, '\n', len - 1) == NULL); /* one line */
	CHECK(cel_parse_record(text + 1, len - 2, &out, &why) == 0);
	CHECK(out.pcr == 11 && out.n_digests == 2 && out.timestamp == 123456);
	CHECK_STR(out.event_type, "phase");
	CHECK_STR(out.string, "sysinit");
	CHECK_STR(out.boot_id, in.boot_id);
	CHECK(memcmp(out.digests, in.digests, sizeof in.digests[0] * 2) == 0);
	CHECK(cel_digest_covers_string(&out));
	free(text);
}

/* Timestamps and sizes are unsigned 64-bit: the largest values read back unchanged. */
static void huge_numbers_round_trip(void)
{
	static const unsigned long long values[] = { 1ULL << 63, (1ULL << 63) + 1, ~0ULL };
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
		struct cel_record in = sample(), out;
		char *text;
		size_t len;
		const char *why = NULL;
		in.timestamp = values[i];
		in.has_path = true;
		strcpy(in.path, "/boot/x");
		in.size = values[i];
		CHECK(cel_format_record(&in, &text, &len) == 0);
		CHECK(strchr(text, '-') == NULL);
		CHECK(cel_parse_record(text + 1, len - 2, &out, &why) == 0);
		CHECK(out.timestamp == values[i] && out.size == values[i]);
		free(text);
	}
}

static void awkward_strings_round_trip(void)
{
	struct cel_record in = sample(), out;
	char *text;
	size_t len;
	const char *why;
	const char *s = "quote\" back\\ nl\n tab\t ctl\x01 del\x7f utf8 \xc3\xa9";
	strcpy(in.string, s);
	in.string_len = strlen(s);
	CHECK(cel_format_record(&in, &text, &len) == 0);
	CHECK(cel_parse_record(text + 1, len - 2, &out, &why) == 0);
	CHECK_STR(out.string, s);
	CHECK(out.string_len == strlen(s));
	free(text);
}

static void file_record_round_trips(void)
{
	struct cel_record in = sample(), out;
	char *text;
	size_t len;
	const char *why;
	in.has_string = false;
	in.has_path = true;
	strcpy(in.event_type, "file");
	strcpy(in.path, "/boot/vmlinuz");
	in.size = 9999;
	CHECK(cel_format_record(&in, &text, &len) == 0);
	CHECK(cel_parse_record(text + 1, len - 2, &out, &why) == 0);
	CHECK(out.has_path && !out.has_string && out.size == 9999);
	CHECK_STR(out.path, "/boot/vmlinuz");
	CHECK(!cel_digest_covers_string(&out));
	free(text);
}

#define D1 "\"digests\":[{\"hashAlg\":\"sha1\",\"digest\":\"0000000000000000000000000000000000000000\"}]"
#define TAIL ",\"content_type\":\"ember\",\"content\":{\"eventType\":\"phase\",\"string\":\"x\"}}"

static void accepts_unknown_fields_and_banks(void)
{
	struct cel_record rec;
	const char *why;
	CHECK(parse("{\"recnum\":4,\"pcr\":23,\"extra\":{\"a\":[1,2]},"
		    "\"digests\":[{\"hashAlg\":\"whirlpool\",\"digest\":\"zz\"},"
		    "{\"hashAlg\":\"sha1\",\"digest\":\"00000000000000000000000000000000000000FF\"}]" TAIL,
		    &rec, &why) == 0);
	CHECK(rec.pcr == 23 && rec.n_digests == 1 && rec.digests[0].bytes[19] == 0xff);
}

static void refuses(const char *json, const char *expect_why)
{
	struct cel_record rec;
	const char *why = NULL;
	CHECK(parse(json, &rec, &why) < 0);
	CHECK(why != NULL);
	if (expect_why && why)
		CHECK_STR(why, expect_why);
}

static void refuses_forged_or_broken_records(void)
{
	refuses("{\"pcr\":24," D1 TAIL, "number out of range");
	refuses("{\"pcr\":-1," D1 TAIL, NULL);
	refuses("{\"pcr\":\"11\"," D1 TAIL, NULL);
	refuses("{" D1 TAIL, NULL);                                     /* no pcr */
	refuses("{\"pcr\":1,\"digests\":[]" TAIL, "a record has no digest of a known bank");
	refuses("{\"pcr\":1,\"digests\":[{\"hashAlg\":\"sha1\",\"digest\":\"00\"}]" TAIL,
		"a digest is not hex of its algorithm's length");
	refuses("{\"pcr\":1,\"digests\":[{\"hashAlg\":\"sha1\",\"digest\":"
		"\"000000000000000000000000000000000000000g\"}]" TAIL, NULL);
	refuses("{\"pcr\":1,\"digests\":[{\"hashAlg\":\"sha1\"}]" TAIL, NULL);
	refuses("{\"pcr\":1,\"digests\":[{\"hashAlg\":\"sha1\",\"digest\":"
		"\"0000000000000000000000000000000000000000\"},{\"hashAlg\":\"sha1\",\"digest\":"
		"\"0000000000000000000000000000000000000000\"}]" TAIL, "two digests for one bank");
	refuses("{\"nv_index\":1," D1 TAIL, "NV index records are not supported");
	refuses("{\"pcr\":1," D1 "}", NULL);                            /* no content */
	refuses("{\"pcr\":1," D1 TAIL "x", "trailing characters");
	refuses("{\"pcr\":1," D1 ",\"content_type\":\"ember\",\"content\":{\"string\":\"a\\u0000b\"}}",
		"string holds U+0000");
	refuses("[]", "expected an object");
	refuses("", NULL);
}

static void refuses_overlong_content(void)
{
	size_t n = CEL_STRING_MAX + 1;
	char *json = malloc(n + 200);
	char *p = json;
	p += sprintf(p, "{\"pcr\":1," D1 ",\"content_type\":\"ember\",\"content\":{\"string\":\"");
	memset(p, 'a', n);
	strcpy(p + n, "\"}}");
	refuses(json, "string too long");
	free(json);
}

/* ---- whole logs --------------------------------------------------------------------- */

static char *two_records(size_t *len)
{
	struct cel_record a = sample(), b = sample();
	char *ta, *tb, *all;
	size_t la, lb;
	b.pcr = 15;
	cel_format_record(&a, &ta, &la);
	cel_format_record(&b, &tb, &lb);
	all = malloc(la + lb + 1);
	memcpy(all, ta, la);
	memcpy(all + la, tb, lb);
	all[la + lb] = '\0';
	*len = la + lb;
	free(ta);
	free(tb);
	return all;
}

static void reader_walks_records_in_order(void)
{
	size_t len;
	char *log = two_records(&len);
	struct cel_reader r;
	struct cel_record rec;
	const char *json, *why;
	size_t json_len;
	cel_reader_init(&r, log, len);
	CHECK(cel_next(&r, &rec, &json, &json_len, &why) == 1 && r.recnum == 1 && rec.pcr == 11);
	CHECK(json[0] == '{' && json[json_len - 1] == '}');
	CHECK(cel_next(&r, &rec, NULL, NULL, &why) == 1 && r.recnum == 2 && rec.pcr == 15);
	CHECK(cel_next(&r, &rec, NULL, NULL, &why) == 0);
	free(log);
}

static void reader_error(const char *log, size_t len, unsigned recnum, const char *expect_why)
{
	struct cel_reader r;
	struct cel_record rec;
	const char *why = NULL;
	int got;
	cel_reader_init(&r, log, len);
	while ((got = cel_next(&r, &rec, NULL, NULL, &why)) > 0)
		;
	CHECK(got < 0);
	CHECK(r.recnum == recnum);
	if (why && expect_why)
		CHECK_STR(why, expect_why);
}

static void reader_reports_truncated_records(void)
{
	size_t len;
	char *log = two_records(&len);
	/* Cut inside the second record, then just before its newline. */
	reader_error(log, len - 10, 2, "truncated (no newline at the end)");
	reader_error(log, len - 1, 2, "truncated (no newline at the end)");
	free(log);
}

static void reader_reports_missing_separator_and_garbage(void)
{
	size_t len;
	char *log = two_records(&len);
	char *second = strchr(log + 1, CEL_RS);
	*second = ' ';
	reader_error(log, len, 2, "does not start with the record separator 0x1E");
	reader_error("\x1e{not json}\n", 12, 1, NULL);
	reader_error("\x1e\n", 2, 1, "expected an object");
	reader_error("\x1e{\"pcr\":1,\x1e}\n", 13, 1, NULL);
	free(log);
}

static void reader_refuses_huge_lines(void)
{
	size_t len = CEL_RECORD_MAX + 100;
	char *log = malloc(len);
	log[0] = CEL_RS;
	memset(log + 1, ' ', len - 1);
	log[len - 1] = '\n';
	reader_error(log, len, 1, "longer than the 65536-byte record limit");
	free(log);
}

static void reader_skips_nothing_after_embedded_nul(void)
{
	static const char log[] = "\x1e{\"pcr\":1,\0" D1 TAIL "\n";
	reader_error(log, sizeof log - 1, 1, NULL);
}

int main(void)
{
	RUN(record_round_trips);
	RUN(huge_numbers_round_trip);
	RUN(awkward_strings_round_trip);
	RUN(file_record_round_trips);
	RUN(accepts_unknown_fields_and_banks);
	RUN(refuses_forged_or_broken_records);
	RUN(refuses_overlong_content);
	RUN(reader_walks_records_in_order);
	RUN(reader_reports_truncated_records);
	RUN(reader_reports_missing_separator_and_garbage);
	RUN(reader_refuses_huge_lines);
	RUN(reader_skips_nothing_after_embedded_nul);
	return harness_done();
}
