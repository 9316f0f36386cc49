// sources:
/* The control-protocol codec under random input (a fixed seed, so every run is the
 * same): the request parser accepts only what formats back to the same bytes, the
 * record reader never reads outside its buffer (ASan checks) and never returns a
 * record from a stream it then calls malformed, and random values survive the writer
 * and the reader unchanged. */
#include "harness.h"
#include "ctl.h"

#include <stdint.h>
#include <stdlib.h>

#define ROUNDS 20000

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

/* Bytes biased towards the protocol's alphabet so that parsers get past their first
 * checks. */
static char random_byte(const char *alphabet)
{
	if (next() % 8 == 0)
		return (char)(next() & 0xff);
	return alphabet[next() % strlen(alphabet)];
}

static void parsed_requests_format_back_identically(void)
{
	static const char *const words[] = {
		"list", "status", "log", "follow", "sshd", ".x", "a:b", "analyze", "halt", "",
	};
	char buf[CTL_REQUEST_MAX + 64], out[CTL_REQUEST_MAX + 1], err[256];
	struct ctl_request req;
	size_t accepted = 0;

	for (int round = 0; round < ROUNDS; round++) {
		size_t len = 0;
		if (next() % 2) { /* words joined by spaces, sometimes with junk */
			int n = 1 + (int)(next() % 4);
			for (int w = 0; w < n && len < CTL_REQUEST_MAX; w++) {
				const char *word = words[next() % (sizeof words / sizeof *words)];
				if (w > 0)
					buf[len++] = ' ';
				memcpy(buf + len, word, strlen(word));
				len += strlen(word);
				if (next() % 16 == 0)
					buf[len++] = random_byte(" \t\n\x7f");
			}
		} else {
			len = next() % sizeof buf;
			for (size_t i = 0; i < len; i++)
				buf[i] = random_byte("abcdefghijklmnopqrstuvwxyz ._:-");
		}
		if (ctl_request_parse(buf, len, &req, err, sizeof err) < 0)
			continue;
		accepted++;
		int n = ctl_request_format(&req, out, sizeof out, err, sizeof err);
		CHECK(n == (int)len && memcmp(out, buf, len) == 0);
		if (n != (int)len)
			break;
	}
	CHECK(accepted > 100); /* the generator does reach the accepting paths */
}

static void record_reader_survives_random_streams(void)
{
	char *text = malloc(2048);
	struct ctl_record rec;
	char err[256];
	size_t good = 0;

	for (int round = 0; round < ROUNDS; round++) {
		size_t len = next() % 2048, pos = 0;
		int r;
		/* Exactly len bytes on the heap: ASan flags any read past them. */
		for (size_t i = 0; i < len; i++)
			text[i] = random_byte("ab_=\n\n\\nx0f");
		char *exact = malloc(len ? len : 1);
		memcpy(exact, text, len);
		while ((r = ctl_record_read(exact, len, &pos, &rec, err, sizeof err)) == 1) {
			CHECK(pos <= len && rec.count > 0);
			for (size_t f = 0; f < rec.count; f++)
				CHECK(rec.field[f].key >= exact && rec.field[f].value < exact + len);
		}
		CHECK(r == 0 || r == -1);
		good += r == 0;
		free(exact);
	}
	CHECK(good > 0);
	free(text);
}

static int collect(void *ctx, const char *packet, size_t len)
{
	struct { char *buf; size_t len; } *s = ctx;
	CHECK(len <= CTL_PACKET_MAX);
	if (packet[0] == CTL_KIND_RECORD) {
		memcpy(s->buf + s->len, packet + 1, len - 1);
		s->len += len - 1;
	}
	return 0;
}

static void random_values_round_trip(void)
{
	struct { char *buf; size_t len; } stream = { malloc(1 << 20), 0 };
	static char values[8][600];
	struct ctl_writer w;
	struct ctl_record rec;
	char err[256], key[16];

	for (int round = 0; round < 500; round++) {
		size_t pos = 0;
		stream.len = 0;
		ctl_writer_init(&w, collect, &stream);
		ctl_record_begin(&w);
		for (int v = 0; v < 8; v++) {
			size_t len = next() % (sizeof values[v] - 1);
			for (size_t i = 0; i < len; i++) {
				values[v][i] = (char)(next() & 0xff);
				if (values[v][i] == '\0')
					values[v][i] = '\\';
			}
			values[v][len] = '\0';
			snprintf(key, sizeof key, "v%d", v);
			CHECK(ctl_record_add_str(&w, key, values[v]) == 0);
		}
		ctl_record_end(&w);
		CHECK(ctl_write_exit(&w, 0) == 0);
		CHECK(ctl_record_read(stream.buf, stream.len, &pos, &rec, err, sizeof err) == 1);
		CHECK(rec.count == 8);
		for (int v = 0; v < 8 && (size_t)v < rec.count; v++)
			CHECK(strcmp(rec.field[v].value, values[v]) == 0);
		CHECK(ctl_record_read(stream.buf, stream.len, &pos, &rec, err, sizeof err) == 0);
	}
	free(stream.buf);
}

int main(void)
{
	RUN(parsed_requests_format_back_identically);
	RUN(record_reader_survives_random_streams);
	RUN(random_values_round_trip);
	return harness_done();
}
