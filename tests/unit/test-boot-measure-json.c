// sources: boot-measure/jsonread.c
/* The JSON reader under boot-measure's log parser: valid input reads back exactly,
 * anything malformed ends in an error instead of a misread. */
#include "harness.h"
#include "../../boot-measure/jsonread.h"

#include <stdlib.h>
#include <string.h>

static struct json_reader reader(const char *text)
{
	struct json_reader r;
	json_reader_init(&r, text, strlen(text));
	return r;
}

static void reads_object_members_in_order(void)
{
	struct json_reader r = reader("{ \"a\" : 1, \"b\":[true,false,null,{}], \"c\":\"x\" }");
	char key[8], s[8];
	unsigned long long v = 0;
	CHECK(json_object_begin(&r) == 0);
	CHECK(json_object_next(&r, key, sizeof key) == 1);
	CHECK_STR(key, "a");
	CHECK(json_read_uint(&r, 100, &v) == 0 && v == 1);
	CHECK(json_object_next(&r, key, sizeof key) == 1);
	CHECK_STR(key, "b");
	CHECK(json_skip(&r) == 0);
	CHECK(json_object_next(&r, key, sizeof key) == 1);
	CHECK(json_read_string(&r, s, sizeof s, NULL) == 0);
	CHECK_STR(s, "x");
	CHECK(json_object_next(&r, key, sizeof key) == 0);
	CHECK(json_expect_end(&r) == 0);
}

static void decodes_escapes_and_unicode(void)
{
	struct json_reader r = reader("\"q\\\"b\\\\s\\/n\\n\\t\\u0041\\u00e9\\ud83d\\ude00\"");
	char s[64];
	size_t len = 0;
	CHECK(json_read_string(&r, s, sizeof s, &len) == 0);
	CHECK_STR(s, "q\"b\\s/n\n\tA\xc3\xa9\xf0\x9f\x98\x80");
	CHECK(len == strlen(s));
}

static int string_fails(const char *text, size_t size)
{
	struct json_reader r = reader(text);
	char s[64];
	return json_read_string(&r, s, size, NULL) < 0 && r.error != NULL;
}

static void refuses_bad_strings(void)
{
	CHECK(string_fails("\"abc", 64));              /* unterminated */
	CHECK(string_fails("\"a\\", 64));              /* truncated escape */
	CHECK(string_fails("\"\\x41\"", 64));          /* unknown escape */
	CHECK(string_fails("\"\\u12\"", 64));          /* short \u */
	CHECK(string_fails("\"\\u0000\"", 64));        /* NUL would cut the string */
	CHECK(string_fails("\"\\ud800\"", 64));        /* lone high surrogate */
	CHECK(string_fails("\"\\udc00\"", 64));        /* lone low surrogate */
	CHECK(string_fails("\"a\tb\"", 64));           /* raw control character */
	CHECK(string_fails("\"abcdef\"", 4));          /* longer than the buffer */
	CHECK(string_fails("abc", 64));                /* not a string */
}

static void strings_must_be_utf8(void)
{
	struct json_reader r = reader("\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
	char s[64];
	CHECK(json_read_string(&r, s, sizeof s, NULL) == 0);
	CHECK_STR(s, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	CHECK(string_fails("\"\xff\"", 64));              /* never UTF-8 */
	CHECK(string_fails("\"\xc3\"", 64));              /* truncated sequence */
	CHECK(string_fails("\"\xc0\xaf\"", 64));          /* overlong '/' */
	CHECK(string_fails("\"\xed\xa0\x80\"", 64));      /* surrogate */
	CHECK(string_fails("\"\xf4\x90\x80\x80\"", 64));  /* past U+10FFFF */
	CHECK(json_utf8_sequence("\xe2\x82\xac", 3) == 3);
	CHECK(json_utf8_sequence("\xe2\x82\xac", 2) == 0);
}

static void refuses_bad_numbers(void)
{
	const char *bad[] = { "-1", "01", "1.5", "1e3", "", "x", "18446744073709551616" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct json_reader r = reader(bad[i]);
		unsigned long long v;
		CHECK(json_read_uint(&r, ~0ULL, &v) < 0);
	}
	{
		struct json_reader r = reader("24");
		unsigned long long v;
		CHECK(json_read_uint(&r, 23, &v) < 0);
	}
}

static int skip_fails(const char *text)
{
	struct json_reader r = reader(text);
	return json_skip(&r) < 0 || json_expect_end(&r) < 0;
}

static void skip_refuses_malformed_values(void)
{
	CHECK(!skip_fails("{\"a\":[1,-2.5e+3,\"x\",{\"b\":null}]}"));
	CHECK(skip_fails("{\"a\":1,}"));       /* trailing comma */
	CHECK(skip_fails("[1,]"));
	CHECK(skip_fails("[1 2]"));            /* missing comma */
	CHECK(skip_fails("{\"a\" 1}"));        /* missing colon */
	CHECK(skip_fails("{1:2}"));            /* key not a string */
	CHECK(skip_fails("[,1]"));
	CHECK(skip_fails("{\"a\":1"));         /* truncated */
	CHECK(skip_fails("tru"));
	CHECK(skip_fails("{} {}"));            /* trailing data */
	CHECK(skip_fails("-"));
	CHECK(skip_fails("1."));
}

static void bounds_nesting(void)
{
	char deep[2 * JSON_MAX_DEPTH + 8];
	size_t n = 0;
	for (int i = 0; i <= JSON_MAX_DEPTH; i++)
		deep[n++] = '[';
	for (int i = 0; i <= JSON_MAX_DEPTH; i++)
		deep[n++] = ']';
	deep[n] = '\0';
	CHECK(skip_fails(deep));
	CHECK(!skip_fails("[[[[]]]]"));
}

static void huge_input_is_only_read_within_bounds(void)
{
	/* A 1 MiB array of digits, then a missing bracket: read, then refused. */
	size_t size = 1u << 20;
	char *text = malloc(size + 1);
	struct json_reader r;
	CHECK(text != NULL);
	if (!text)
		return;
	text[0] = '[';
	for (size_t i = 1; i < size; i++)
		text[i] = i % 2 ? '1' : ',';
	text[size] = '\0';
	json_reader_init(&r, text, size);
	CHECK(json_skip(&r) < 0);
	free(text);
}

int main(void)
{
	RUN(reads_object_members_in_order);
	RUN(decodes_escapes_and_unicode);
	RUN(refuses_bad_strings);
	RUN(strings_must_be_utf8);
	RUN(refuses_bad_numbers);
	RUN(skip_refuses_malformed_values);
	RUN(bounds_nesting);
	RUN(huge_input_is_only_read_within_bounds);
	return harness_done();
}
