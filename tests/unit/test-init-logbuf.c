// sources: init/logbuf.c
#include "harness.h"
#include "logbuf.h"

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
	CHECK(logbuf_read(&b, 0, collect, NULL) == 8);
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
	CHECK(out_len <= LOGBUF_SIZE);
	CHECK(out_len > LOGBUF_SIZE - 64);
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
	CHECK(b.used == LOGBUF_SIZE && b.total == LOGBUF_SIZE * 3);
	out_len = 0;
	logbuf_read(&b, 0, collect, NULL);
	CHECK(out_len <= LOGBUF_SIZE);
	free(big);
}

int main(void)
{
	RUN(keeps_small_output);
	RUN(cursor_reads_only_new_bytes);
	RUN(flood_keeps_the_newest_whole_lines);
	RUN(one_huge_write);
	return harness_done();
}
