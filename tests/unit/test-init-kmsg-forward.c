// sources: init/kmsg-forward.c
/* StandardOutput=kmsg: output bytes -> kernel log records, with the rate limit. */
#include "harness.h"
#include "../../init/kmsg-forward.h"

#include <stdio.h>
#include <string.h>

#define RECORDS_MAX 64

static char records[RECORDS_MAX][KMSG_FORWARD_RECORD_MAX + 1];
static size_t record_len[RECORDS_MAX];
static unsigned count, total;

static void collect(void *ctx, const char *record, size_t len)
{
	(void)ctx;
	total++;
	if (count >= RECORDS_MAX)
		return;
	memcpy(records[count], record, len);
	records[count][len] = '\0';
	record_len[count++] = len;
}

static struct kmsg_forward f;
static const struct kmsg_forward_sink sink = { "demo", 42, collect, NULL };
static const struct kmsg_forward_limit unlimited = { 0, 0 };
static const struct kmsg_forward_limit ten_per_second = { 10, 1000 };

static void reset(void)
{
	memset(&f, 0, sizeof f);
	count = total = 0;
}

static void feed(enum kmsg_stream s, const char *text, long long now,
		 const struct kmsg_forward_limit *l)
{
	kmsg_forward_feed(&f, s, text, strlen(text), now, l, &sink);
}

static void complete_lines_become_records(void)
{
	reset();
	feed(KMSG_STDOUT, "hello\nworld\n", 1000, &unlimited);
	CHECK(count == 2);
	CHECK_STR(records[0], "<6>demo[42]: hello\n");
	CHECK_STR(records[1], "<6>demo[42]: world\n");
}

static void empty_lines_are_skipped(void)
{
	reset();
	feed(KMSG_STDOUT, "\n\na\n\n", 1000, &unlimited);
	CHECK(count == 1);
	CHECK_STR(records[0], "<6>demo[42]: a\n");
}

static void partial_line_is_held_until_its_newline(void)
{
	reset();
	feed(KMSG_STDOUT, "par", 1000, &unlimited);
	CHECK(count == 0);
	feed(KMSG_STDOUT, "tial", 1000, &unlimited);
	CHECK(count == 0);
	feed(KMSG_STDOUT, " line\nnext", 1000, &unlimited);
	CHECK(count == 1);
	CHECK_STR(records[0], "<6>demo[42]: partial line\n");
	CHECK(f.stream[KMSG_STDOUT].len == 4);
}

static void flush_sends_the_partial_line(void)
{
	reset();
	feed(KMSG_STDOUT, "no newline", 1000, &unlimited);
	feed(KMSG_STDERR, "err half", 1000, &unlimited);
	kmsg_forward_flush(&f, 1000, &unlimited, &sink);
	CHECK(count == 2);
	CHECK_STR(records[0], "<6>demo[42]: no newline\n");
	CHECK_STR(records[1], "<3>demo[42]: err half\n");
	kmsg_forward_flush(&f, 1000, &unlimited, &sink);
	CHECK(count == 2); /* nothing held any more */
}

static void overlong_line_is_split(void)
{
	static char line[KMSG_FORWARD_TEXT_MAX * 2 + 12];
	char expect[KMSG_FORWARD_RECORD_MAX];

	reset();
	memset(line, 'x', KMSG_FORWARD_TEXT_MAX * 2 + 10);
	line[KMSG_FORWARD_TEXT_MAX * 2 + 10] = '\n';
	kmsg_forward_feed(&f, KMSG_STDOUT, line, KMSG_FORWARD_TEXT_MAX * 2 + 11, 1000, &unlimited,
			  &sink);
	CHECK(count == 3);
	CHECK(record_len[0] == strlen("<6>demo[42]: ") + KMSG_FORWARD_TEXT_MAX + 1);
	CHECK(record_len[1] == record_len[0]);
	CHECK_STR(records[2], "<6>demo[42]: xxxxxxxxxx\n");
	/* A line of exactly the maximum: one record, no empty one after it. */
	reset();
	line[KMSG_FORWARD_TEXT_MAX] = '\n';
	kmsg_forward_feed(&f, KMSG_STDOUT, line, KMSG_FORWARD_TEXT_MAX + 1, 1000, &unlimited, &sink);
	CHECK(count == 1);
	snprintf(expect, sizeof expect, "<6>demo[42]: %.*s\n", KMSG_FORWARD_TEXT_MAX, line);
	CHECK_STR(records[0], expect);
}

static void records_fit_the_kernel_limit(void)
{
	/* Linux 6.1 refuses /dev/kmsg writes over 976 bytes. */
	static char line[KMSG_FORWARD_TEXT_MAX + 1];
	char name[64];
	struct kmsg_forward_sink big = { name, 2147483647, collect, NULL };

	reset();
	memset(name, 'n', 63);
	name[63] = '\0';
	memset(line, 'y', KMSG_FORWARD_TEXT_MAX);
	line[KMSG_FORWARD_TEXT_MAX] = '\n';
	kmsg_forward_feed(&f, KMSG_STDERR, line, sizeof line, 1000, &unlimited, &big);
	CHECK(count == 1 && record_len[0] <= 976);
}

static void both_pipes_keep_their_own_lines(void)
{
	reset();
	feed(KMSG_STDOUT, "out-a", 1000, &unlimited);
	feed(KMSG_STDERR, "err-a", 1000, &unlimited);
	feed(KMSG_STDOUT, "\n", 1000, &unlimited);
	feed(KMSG_STDERR, "\n", 1000, &unlimited);
	CHECK(count == 2);
	CHECK_STR(records[0], "<6>demo[42]: out-a\n");
	CHECK_STR(records[1], "<3>demo[42]: err-a\n");
}

static void no_pid_leaves_out_the_brackets(void)
{
	struct kmsg_forward_sink nopid = { "demo", 0, collect, NULL };

	reset();
	kmsg_forward_feed(&f, KMSG_STDOUT, "x\n", 2, 1000, &unlimited, &nopid);
	CHECK_STR(records[0], "<6>demo: x\n");
}

static void burst_passes_then_lines_are_dropped(void)
{
	reset();
	for (int i = 0; i < 25; i++)
		feed(KMSG_STDOUT, "flood\n", 1000, &ten_per_second);
	CHECK(count == 10);
	CHECK(f.suppressed == 15);
}

static void suppressed_count_comes_once_the_bucket_is_full(void)
{
	reset();
	for (int i = 0; i < 25; i++)
		feed(KMSG_STDOUT, "flood\n", 1000, &ten_per_second);
	/* Half refilled: still muted, so a steady flood does not get a record per token. */
	feed(KMSG_STDOUT, "half\n", 1500, &ten_per_second);
	CHECK(count == 10 && f.suppressed == 16);
	/* Full again: the count, then the line. */
	feed(KMSG_STDOUT, "again\n", 2000, &ten_per_second);
	CHECK(count == 12);
	CHECK_STR(records[10], "<4>demo: 16 lines suppressed\n");
	CHECK_STR(records[11], "<6>demo[42]: again\n");
	CHECK(f.suppressed == 0);
}

static void steady_flood_stays_within_the_rate(void)
{
	/* 100 lines per ms for 10 s: at most burst + 10 s worth, plus a count per interval. */
	reset();
	for (long long ms = 1000; ms < 11000; ms++)
		for (int i = 0; i < 100; i++)
			feed(KMSG_STDOUT, "y\n", ms, &ten_per_second);
	CHECK(total <= 10 + 100 + 10);
	CHECK(total >= 10);
}

static void slow_writer_is_never_limited(void)
{
	reset();
	for (long long ms = 1000; ms < 5000; ms += 100)
		feed(KMSG_STDOUT, "tick\n", ms, &ten_per_second);
	CHECK(count == 40 && f.suppressed == 0);
}

static void flush_reports_what_was_suppressed(void)
{
	reset();
	for (int i = 0; i < 12; i++)
		feed(KMSG_STDERR, "e\n", 1000, &ten_per_second);
	feed(KMSG_STDERR, "tail", 1000, &ten_per_second);
	kmsg_forward_flush(&f, 1000, &ten_per_second, &sink);
	CHECK(count == 11);
	CHECK_STR(records[10], "<4>demo: 3 lines suppressed\n");
	reset();
	for (int i = 0; i < 11; i++)
		feed(KMSG_STDOUT, "o\n", 1000, &ten_per_second);
	kmsg_forward_flush(&f, 1000, &ten_per_second, &sink);
	CHECK_STR(records[10], "<4>demo: 1 line suppressed\n");
}

static void lifting_the_limit_reports_at_once(void)
{
	reset();
	for (int i = 0; i < 11; i++)
		feed(KMSG_STDOUT, "o\n", 1000, &ten_per_second);
	feed(KMSG_STDOUT, "free\n", 1001, &unlimited);
	CHECK(count == 12);
	CHECK_STR(records[10], "<4>demo: 1 line suppressed\n");
	CHECK_STR(records[11], "<6>demo[42]: free\n");
}

static void huge_limits_do_not_overflow(void)
{
	const struct kmsg_forward_limit huge = { ~0u, ~0UL };

	reset();
	for (int i = 0; i < 50; i++)
		feed(KMSG_STDOUT, "z\n", 1000 + i, &huge);
	CHECK(count == 50);
}

int main(void)
{
	RUN(complete_lines_become_records);
	RUN(empty_lines_are_skipped);
	RUN(partial_line_is_held_until_its_newline);
	RUN(flush_sends_the_partial_line);
	RUN(overlong_line_is_split);
	RUN(records_fit_the_kernel_limit);
	RUN(both_pipes_keep_their_own_lines);
	RUN(no_pid_leaves_out_the_brackets);
	RUN(burst_passes_then_lines_are_dropped);
	RUN(suppressed_count_comes_once_the_bucket_is_full);
	RUN(steady_flood_stays_within_the_rate);
	RUN(slow_writer_is_never_limited);
	RUN(flush_reports_what_was_suppressed);
	RUN(lifting_the_limit_reports_at_once);
	RUN(huge_limits_do_not_overflow);
	return harness_done();
}
