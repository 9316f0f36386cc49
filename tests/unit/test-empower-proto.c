// sources: empower/proto.c empowerd/shadow.c
/* The empower wire format round-trips, and garbage never decodes; the shadow lookup. */
#include "auth.h"
#include "harness.h"
#include "proto.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static char buf[EMPOWER_MSG_MAX];
static struct empower_request in, out;

static void request_round_trips(void)
{
	memset(&in, 0, sizeof in);
	in.flags = EMPOWER_F_TTY | EMPOWER_F_PTY;
	in.user = "alice";
	in.chdir = "/srv";
	in.env[in.envc++] = "TERM=xterm";
	in.setenv[in.setenvc++] = "A=b";
	in.argv[in.argc++] = "printf";
	in.argv[in.argc++] = "%s\n";
	in.argv[in.argc++] = "";          /* empty arguments survive */
	in.argv[in.argc++] = "\\x\\\" \t\xff"; /* bytes pass untouched */
	long n = empower_request_encode(&in, buf, sizeof buf);
	CHECK(n > 0);
	CHECK(empower_request_decode(buf, (size_t)n, &out) == 0);
	CHECK(out.flags == in.flags && out.argc == 4 && out.envc == 1 && out.setenvc == 1);
	CHECK_STR(out.user, "alice");
	CHECK_STR(out.chdir, "/srv");
	CHECK_STR(out.argv[1], "%s\n");
	CHECK_STR(out.argv[2], "");
	CHECK_STR(out.argv[3], "\\x\\\" \t\xff");
	CHECK(out.argv[4] == NULL);
	CHECK(empower_request_fds(out.flags) == 3);
}

static void truncated_requests_fail(void)
{
	memset(&in, 0, sizeof in);
	in.flags = EMPOWER_F_PIPE;
	in.user = in.chdir = "";
	in.argv[in.argc++] = "true";
	long n = empower_request_encode(&in, buf, sizeof buf);
	CHECK(n > 0);
	for (long cut = 0; cut < n; cut++)
		CHECK(empower_request_decode(buf, (size_t)cut, &out) == -1 && errno == EBADMSG);
	/* trailing bytes are not ignored */
	buf[n] = 'x';
	CHECK(empower_request_decode(buf, (size_t)n + 1, &out) == -1);
}

static void bad_flags_fail(void)
{
	CHECK(empower_request_fds(0) == -1);
	CHECK(empower_request_fds(EMPOWER_F_PIPE | EMPOWER_F_PTY) == -1);
	CHECK(empower_request_fds(EMPOWER_F_PIPE | 0x100) == -1);
	CHECK(empower_request_fds(EMPOWER_F_PIPE) == 4);
}

static void huge_counts_fail(void)
{
	uint32_t words[5] = { EMPOWER_REQUEST, EMPOWER_F_PIPE, 0, 0, 0xffffffffu };
	CHECK(empower_request_decode((char *)words, sizeof words, &out) == -1 && errno == E2BIG);
	words[4] = 0;
	words[2] = EMPOWER_ENV_MAX + 1;
	CHECK(empower_request_decode((char *)words, sizeof words, &out) == -1 && errno == E2BIG);
}

static void too_many_arguments_do_not_encode(void)
{
	memset(&in, 0, sizeof in);
	in.flags = EMPOWER_F_PIPE;
	in.user = in.chdir = "";
	in.argc = EMPOWER_ARGS_MAX + 1;
	CHECK(empower_request_encode(&in, buf, sizeof buf) == -1 && errno == E2BIG);
	in.argc = 1;
	in.argv[0] = "x";
	CHECK(empower_request_encode(&in, buf, 10) == -1 && errno == E2BIG);
}

static void messages_round_trip(void)
{
	struct empower_msg m;
	long n = empower_msg_encode(EMPOWER_EXIT, -9, "", buf, sizeof buf);
	CHECK(empower_msg_decode(buf, (size_t)n, &m) == 0);
	CHECK(m.type == EMPOWER_EXIT && m.value == -9);
	CHECK_STR(m.text, "");
	n = empower_msg_encode(EMPOWER_REFUSED, 125, "no", buf, sizeof buf);
	CHECK(empower_msg_decode(buf, (size_t)n - 1, &m) == -1); /* text without its NUL */
	CHECK(empower_msg_decode(buf, 3, &m) == -1);
}

static void random_garbage_never_decodes_wrongly(void)
{
	srand(7);
	for (int round = 0; round < 20000; round++) {
		size_t len = (size_t)(rand() % 96);
		for (size_t i = 0; i < len; i++)
			buf[i] = (char)(rand() % 4 ? rand() % 8 : rand());
		if (empower_request_decode(buf, len, &out) == 0) {
			/* whatever decodes is consistent: strings inside, counts bounded */
			CHECK(out.argc <= EMPOWER_ARGS_MAX && out.argv[out.argc] == NULL);
			for (size_t i = 0; i < out.argc; i++)
				CHECK(out.argv[i] >= buf && out.argv[i] < buf + len);
		}
		struct empower_msg m;
		if (empower_msg_decode(buf, len, &m) == 0)
			CHECK(m.text >= buf && m.text < buf + len);
	}
}

static void shadow_hash_lookup(void)
{
	static const char text[] = "root:*:1::::::\nbobby:x:1\nbob:$6$salt$hash:19000:0:99999:7:::\n"
				   "carol::1\ndave";
	char hash[64];
	CHECK(auth_shadow_hash(text, sizeof text - 1, "bob", hash, sizeof hash) == 0);
	CHECK_STR(hash, "$6$salt$hash");
	CHECK(auth_shadow_hash(text, sizeof text - 1, "carol", hash, sizeof hash) == 0);
	CHECK_STR(hash, "");
	CHECK(auth_shadow_hash(text, sizeof text - 1, "bo", hash, sizeof hash) == -1 && errno == ENOENT);
	CHECK(auth_shadow_hash(text, sizeof text - 1, "dave", hash, sizeof hash) == -1);
	CHECK(auth_shadow_hash(text, sizeof text - 1, "bob", hash, 4) == -1 && errno == ENAMETOOLONG);
}

int main(void)
{
	RUN(request_round_trips);
	RUN(truncated_requests_fail);
	RUN(bad_flags_fail);
	RUN(huge_counts_fail);
	RUN(too_many_arguments_do_not_encode);
	RUN(messages_round_trip);
	RUN(random_garbage_never_decodes_wrongly);
	RUN(shadow_hash_lookup);
	return harness_done();
}
