// sources: init/logbuf.c
#include "harness.h"
#include "logbuf.h"

#include <stdbool.h>
#include <stdlib.h>

static char out[LOGBUF_SIZE * 2];
static size_t out_len;

static void collect(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	memcpy(out + out_len, data, len);
	out_len += len;
	out[out_len] = '\0';
}

static struct logbuf b;

static void keeps_small_output(void)
{
	memset(&b, 0, sizeof b);
	logbuf_append(&b, "one\ntwo\n", 8);
	out_len = 0;
	CHECK(logbuf_read(&b, 0, collect, NULL) == 8 + 2 * LOGBUF_STAMP_LEN);
	CHECK_STR(out, "one\ntwo\n");
}

static void cursor_reads_only_new_bytes(void)
{
	unsigned long long c;
	memset(&b, 0, sizeof b);
	logbuf_append(&b, "a\n", 2);
	out_len = 0;
	c = logbuf_read(&b, 0, collect, NULL);
	logbuf_append(&b, "b\n", 2);
	out_len = 0;
	logbuf_read(&b, c, collect, NULL);
	CHECK_STR(out, "b\n");
}

static void flood_keeps_the_newest_whole_lines(void)
{
	char line[64];
	memset(&b, 0, sizeof b);
	for (int i = 0; i < 10000; i++) {
		int n = snprintf(line, sizeof line, "line %05d\n", i);
		logbuf_append(&b, line, (size_t)n);
	}
	out_len = 0;
	logbuf_read(&b, 0, collect, NULL);
	/* 11 bytes of text per line, each with its stamp */
	CHECK(out_len <= LOGBUF_SIZE * 11 / (11 + LOGBUF_STAMP_LEN));
	CHECK(out_len > LOGBUF_SIZE * 11 / (11 + LOGBUF_STAMP_LEN) - 64);
	CHECK(strncmp(out, "line ", 5) == 0);
	CHECK(strcmp(out + out_len - 11, "line 09999\n") == 0);
}

static void one_huge_write(void)
{
	char *big = malloc(LOGBUF_SIZE * 3);
	memset(big, 'x', LOGBUF_SIZE * 3);
	big[LOGBUF_SIZE * 3 - 1] = '\n';
	memset(&b, 0, sizeof b);
	logbuf_append(&b, big, LOGBUF_SIZE * 3);
	CHECK(b.used == LOGBUF_SIZE && b.total == LOGBUF_SIZE * 3 + LOGBUF_STAMP_LEN);
	out_len = 0;
	logbuf_read(&b, 0, collect, NULL);
	CHECK(out_len <= LOGBUF_SIZE);
	free(big);
}

/* emberctl verbs (issue 17): each line's time, for log --since and --all. */
struct piece { long long t; char text[64]; bool eol; };
static struct piece pieces[16];
static size_t npieces;

static void collect_stamped(void *ctx, long long t, const char *data, size_t len, bool eol)
{
	(void)ctx;
	if (npieces == 16 || len >= 64)
		return;
	pieces[npieces].t = t;
	memcpy(pieces[npieces].text, data, len);
	pieces[npieces].text[len] = '\0';
	pieces[npieces++].eol = eol;
}

static void lines_keep_their_time(void)
{
	memset(&b, 0, sizeof b);
	logbuf_append_at(&b, "one\ntw", 6, 1000);
	logbuf_append_at(&b, "o\nthree", 7, 2000); /* "two" began at 1000 */
	npieces = 0;
	logbuf_read_stamped(&b, 0, collect_stamped, NULL);
	CHECK(npieces == 3);
	CHECK(pieces[0].t == 1000 && pieces[0].eol);
	CHECK_STR(pieces[0].text, "one\n");
	CHECK(pieces[1].t == 1000 && pieces[1].eol);
	CHECK_STR(pieces[1].text, "two\n");
	CHECK(pieces[2].t == 2000 && !pieces[2].eol);
	CHECK_STR(pieces[2].text, "three");
	out_len = 0;
	logbuf_read(&b, 0, collect, NULL);
	CHECK_STR(out, "one\ntwo\nthree");
}

/* A service cannot forge a stamp: bytes with the high bit set are text. */
static void text_never_poses_as_a_stamp(void)
{
	const char forged[] = "\x80\x80\x80\x80\x80\x81x\n";
	memset(&b, 0, sizeof b);
	logbuf_append_at(&b, forged, sizeof forged - 1, 5000);
	npieces = 0;
	logbuf_read_stamped(&b, 0, collect_stamped, NULL);
	CHECK(npieces == 1 && pieces[0].t == 5000);
	CHECK(memcmp(pieces[0].text, forged, sizeof forged - 1) == 0);
}

/* A follower's cursor inside a line: the rest of the line, time unknown. */
static void cursor_inside_a_line(void)
{
	unsigned long long c;
	memset(&b, 0, sizeof b);
	logbuf_append_at(&b, "par", 3, 7);
	c = b.total;
	logbuf_append_at(&b, "tial\nnext\n", 10, 9);
	npieces = 0;
	logbuf_read_stamped(&b, c, collect_stamped, NULL);
	CHECK(npieces == 2 && pieces[0].t == -1 && pieces[1].t == 9);
	CHECK_STR(pieces[0].text, "tial\n");
	CHECK_STR(pieces[1].text, "next\n");
}

/* Times beyond what a stamp holds are clamped, never wrapped. */
static void huge_times_clamp(void)
{
	memset(&b, 0, sizeof b);
	logbuf_append_at(&b, "a\n", 2, -5);
	logbuf_append_at(&b, "b\n", 2, 1LL << 60);
	npieces = 0;
	logbuf_read_stamped(&b, 0, collect_stamped, NULL);
	CHECK(npieces == 2 && pieces[0].t == 0);
	CHECK(pieces[1].t == (1LL << (7 * LOGBUF_STAMP_LEN)) - 1);
}

/* A line split by the ring's end comes in two pieces, one time, eol on the last. */
static void wrapped_line_comes_in_pieces(void)
{
	char fill[LOGBUF_SIZE];
	memset(&b, 0, sizeof b);
	memset(fill, 'f', sizeof fill);
	/* the next stamp fits before the ring's end, then 3 bytes of text */
	fill[LOGBUF_SIZE - LOGBUF_STAMP_LEN - 10] = '\n';
	logbuf_append_at(&b, fill, LOGBUF_SIZE - LOGBUF_STAMP_LEN - 9, 1);
	logbuf_append_at(&b, "wrapped\n", 8, 42);
	npieces = 0;
	logbuf_read_stamped(&b, 0, collect_stamped, NULL);
	CHECK(npieces == 2);
	CHECK(pieces[0].t == 42 && !pieces[0].eol && pieces[1].t == 42 && pieces[1].eol);
	CHECK(strcmp(pieces[0].text, "wrapped\n") != 0);
	char joined[128];
	snprintf(joined, sizeof joined, "%s%s", pieces[0].text, pieces[1].text);
	CHECK_STR(joined, "wrapped\n");
}

int main(void)
{
	RUN(lines_keep_their_time);
	RUN(text_never_poses_as_a_stamp);
	RUN(cursor_inside_a_line);
	RUN(huge_times_clamp);
	RUN(wrapped_line_comes_in_pieces);
	RUN(keeps_small_output);
	RUN(cursor_reads_only_new_bytes);
	RUN(flood_keeps_the_newest_whole_lines);
	RUN(one_huge_write);
	return harness_done();
}
