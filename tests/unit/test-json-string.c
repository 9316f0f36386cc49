// sources:
#include "harness.h"
#include "json.h"

#include <stdlib.h>

/* What json_string() writes for s, in a static buffer. */
static const char *quoted(const char *s)
{
	static char out[256];
	FILE *f = fmemopen(out, sizeof(out), "w");
	if (!f)
		return "(fmemopen failed)";
	json_string(f, s);
	fclose(f);
	return out;
}

static void escapes_quotes_backslash_and_controls(void)
{
	CHECK_STR(quoted("a\"b\\c"), "\"a\\\"b\\\\c\"");
	CHECK_STR(quoted("\n\r\t"), "\"\\n\\r\\t\"");
	CHECK_STR(quoted("\x01\x1b[31m\x7f"), "\"\\u0001\\u001b[31m\\u007f\"");
}

static void keeps_well_formed_utf8(void)
{
	CHECK_STR(quoted("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
	CHECK_STR(quoted("\xe2\x82\xac"), "\"\xe2\x82\xac\"");         /* U+20AC */
	CHECK_STR(quoted("\xf0\x9f\x94\xa5"), "\"\xf0\x9f\x94\xa5\""); /* U+1F525 */
	CHECK_STR(quoted("\xf4\x8f\xbf\xbf"), "\"\xf4\x8f\xbf\xbf\""); /* U+10FFFF */
}

static void replaces_stray_and_truncated_bytes(void)
{
	CHECK_STR(quoted("a\xff" "b"), "\"a\\ufffdb\"");
	CHECK_STR(quoted("\x80"), "\"\\ufffd\"");
	CHECK_STR(quoted("\xc3"), "\"\\ufffd\"");           /* lead byte at the end */
	CHECK_STR(quoted("\xe2\x82" "x"), "\"\\ufffd\\ufffdx\""); /* cut sequence */
}

static void replaces_overlong_surrogate_and_out_of_range(void)
{
	CHECK_STR(quoted("\xc0\xaf"), "\"\\ufffd\\ufffd\"");         /* overlong '/' */
	CHECK_STR(quoted("\xe0\x80\xaf"), "\"\\ufffd\\ufffd\\ufffd\""); /* overlong */
	CHECK_STR(quoted("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\""); /* U+D800 */
	CHECK_STR(quoted("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* > U+10FFFF */
	CHECK_STR(quoted("\xf5\x80\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
}

int main(void)
{
	RUN(escapes_quotes_backslash_and_controls);
	RUN(keeps_well_formed_utf8);
	RUN(replaces_stray_and_truncated_bytes);
	RUN(replaces_overlong_surrogate_and_out_of_range);
	return harness_done();
}
