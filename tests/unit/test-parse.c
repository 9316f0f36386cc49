// sources:
#include "harness.h"
#include "parse.h"

#include <errno.h>

static void ulong_accepts_range_bounds(void)
{
	unsigned long v;
	CHECK(parse_ulong("0", 0, 10, &v) == 0 && v == 0);
	CHECK(parse_ulong("10", 0, 10, &v) == 0 && v == 10);
}

static void ulong_rejects_garbage_and_range(void)
{
	unsigned long v = 7;
	CHECK(parse_ulong("", 0, 10, &v) < 0 && errno == EINVAL);
	CHECK(parse_ulong("-1", 0, 10, &v) < 0 && errno == EINVAL);
	CHECK(parse_ulong(" 1", 0, 10, &v) < 0 && errno == EINVAL);
	CHECK(parse_ulong("1x", 0, 10, &v) < 0 && errno == EINVAL);
	CHECK(parse_ulong("11", 0, 10, &v) < 0 && errno == ERANGE);
	CHECK(parse_ulong("99999999999999999999999", 0, ~0UL, &v) < 0 && errno == ERANGE);
	CHECK(v == 7);
}

static void long_accepts_signs(void)
{
	long v;
	CHECK(parse_long("-1000", -1000, 1000, &v) == 0 && v == -1000);
	CHECK(parse_long("+5", -1000, 1000, &v) == 0 && v == 5);
	CHECK(parse_long("-1001", -1000, 1000, &v) < 0 && errno == ERANGE);
	CHECK(parse_long("-", -1000, 1000, &v) < 0 && errno == EINVAL);
}

static void durations_have_units(void)
{
	unsigned long ms;
	CHECK(parse_duration_ms("90", &ms) == 0 && ms == 90000);
	CHECK(parse_duration_ms("500ms", &ms) == 0 && ms == 500);
	CHECK(parse_duration_ms("2min", &ms) == 0 && ms == 120000);
	CHECK(parse_duration_ms("infinity", &ms) == 0 && ms == ~0UL);
	CHECK(parse_duration_ms("5 parsecs", &ms) < 0);
	CHECK(parse_duration_ms("s", &ms) < 0);
	/* systemd.time(7) spans, as Debian's timers write them */
	CHECK(parse_duration_ms("15min", &ms) == 0 && ms == 900000);
	CHECK(parse_duration_ms("1d", &ms) == 0 && ms == 86400000);
	CHECK(parse_duration_ms("12h", &ms) == 0 && ms == 43200000);
	CHECK(parse_duration_ms("60m", &ms) == 0 && ms == 3600000);
	CHECK(parse_duration_ms("6000", &ms) == 0 && ms == 6000000);
	CHECK(parse_duration_ms("2h 30min", &ms) == 0 && ms == 9000000);
	CHECK(parse_duration_ms("1h30m5s", &ms) == 0 && ms == 5405000);
	CHECK(parse_duration_ms("1.5h", &ms) == 0 && ms == 5400000);
	CHECK(parse_duration_ms("0.25s", &ms) == 0 && ms == 250);
	CHECK(parse_duration_ms("1w", &ms) == 0 && ms == 604800000UL);
	CHECK(parse_duration_ms("5 min", &ms) == 0 && ms == 300000);
	CHECK(parse_duration_ms("1us", &ms) == 0 && ms == 1); /* rounds up: only 0 is 0 */
	CHECK(parse_duration_ms("0", &ms) == 0 && ms == 0);
	CHECK(parse_duration_ms("1M", &ms) == 0 && ms == 2629800000UL);
	CHECK(parse_duration_ms("1 mi", &ms) < 0);     /* no such unit */
	CHECK(parse_duration_ms("1minx", &ms) < 0);
	CHECK(parse_duration_ms("-5s", &ms) < 0);
	CHECK(parse_duration_ms("5s -1s", &ms) < 0);
	CHECK(parse_duration_ms(".5s", &ms) < 0);
	CHECK(parse_duration_ms("", &ms) < 0);
	CHECK(parse_duration_ms("99999999999999999999y", &ms) < 0); /* overflow, no wrap */
	CHECK(parse_duration_ms("600000000y", &ms) < 0);
}

static void sizes_have_binary_units(void)
{
	unsigned long long b;
	CHECK(parse_size("64K", &b) == 0 && b == 65536);
	CHECK(parse_size("10M", &b) == 0 && b == 10485760ULL);
	CHECK(parse_size("99999999999T", &b) < 0 && errno == ERANGE);
	CHECK(parse_size("1Q", &b) < 0);
}

static void bools_and_strip(void)
{
	bool b;
	char s[] = "  hello \t\n";
	CHECK(parse_bool("yes", &b) == 0 && b);
	CHECK(parse_bool("off", &b) == 0 && !b);
	CHECK(parse_bool("maybe", &b) < 0);
	CHECK_STR(strip(s), "hello");
}

int main(void)
{
	RUN(ulong_accepts_range_bounds);
	RUN(ulong_rejects_garbage_and_range);
	RUN(long_accepts_signs);
	RUN(durations_have_units);
	RUN(sizes_have_binary_units);
	RUN(bools_and_strip);
	return harness_done();
}
