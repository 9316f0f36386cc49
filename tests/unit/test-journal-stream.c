// sources: init/journal-stream.c
/* journal: the header of the stream to journald, byte for byte, with names that try to
 * add header lines of their own (the keys that fill it: test-service-execenv.c). */
#include "harness.h"
#include "../../init/journal-stream.h"

#include <string.h>

static char buf[1024];

static const char *header(const struct journal_stream_header *h, size_t size)
{
	size_t n = journal_stream_header(buf, size, h);
	if (n == 0)
		return NULL;
	buf[n] = '\0';
	return buf;
}

static void header_is_seven_lines(void)
{
	struct journal_stream_header h = { "sshd", "ssh.service", 30, true, false };
	CHECK_STR(header(&h, sizeof buf - 1), "sshd\nssh.service\n30\n1\n0\n0\n0\n");
	h.level_prefix = false;
	h.to_console = true;
	h.priority = 19 << 3 | 5;
	CHECK_STR(header(&h, sizeof buf - 1), "sshd\nssh.service\n157\n0\n0\n0\n1\n");
}

static void names_cannot_add_lines(void)
{
	struct journal_stream_header h = { "evil\n\n0\n0\n1", "x\r.service", 30, true, false };
	CHECK_STR(header(&h, sizeof buf - 1), "evil__0_0_1\nx_.service\n30\n1\n0\n0\n0\n");
	h.identifier = "a\x7f" "b";
	h.unit = "";
	CHECK_STR(header(&h, sizeof buf - 1), "a_b\n\n30\n1\n0\n0\n0\n");
}

static void long_names_are_cut_and_small_buffers_refused(void)
{
	char name[600];
	struct journal_stream_header h = { name, "u.service", 30, true, false };
	memset(name, 'n', sizeof name - 1);
	name[sizeof name - 1] = '\0';
	CHECK(header(&h, sizeof buf - 1) != NULL && strlen(strtok(buf, "\n")) == 255);
	h.identifier = "sshd";
	CHECK(header(&h, 10) == NULL);
	CHECK(header(&h, 26) == NULL); /* one byte short of the whole header */
	CHECK(header(&h, 27) != NULL);
}

static void no_journald_no_stream(void)
{
	struct journal_stream_header h = { "sshd", "ssh.service", 30, true, false };
	CHECK(journal_stream_connect("/nonexistent/ember-test/stdout", &h) < 0);
	CHECK(journal_stream_connect("/tmp", &h) < 0); /* not a socket */
}

int main(void)
{
	RUN(header_is_seven_lines);
	RUN(names_cannot_add_lines);
	RUN(long_names_are_cut_and_small_buffers_refused);
	RUN(no_journald_no_stream);
	return harness_done();
}
