// sources: init/notify-msg.c
#include "harness.h"
#include "notify-msg.h"

static int parse(const char *s, struct notify_msg *m) { return notify_parse(s, strlen(s), m); }

static void ready_status_mainpid(void)
{
	struct notify_msg m;
	CHECK(parse("READY=1\nSTATUS=Serving 3 clients\nMAINPID=4242\n", &m) == 0);
	CHECK(m.ready && !m.stopping && m.mainpid == 4242 && m.has_status);
	CHECK_STR(m.status, "Serving 3 clients");
}

static void unknown_variables_are_ignored(void)
{
	struct notify_msg m;
	CHECK(parse("WATCHDOG=1\nX_CUSTOM=yes\nnonsense", &m) == 0);
	CHECK(!m.ready && !m.has_status && m.mainpid == 0 && !m.reloading);
}

/* U2: Type=notify-reload */
static void reloading_and_monotonic_usec(void)
{
	struct notify_msg m;
	CHECK(parse("RELOADING=1\nMONOTONIC_USEC=123456789012", &m) == 0);
	CHECK(m.reloading && !m.ready && m.monotonic_usec == 123456789012ULL);
	CHECK(parse("READY=1", &m) == 0 && !m.reloading && m.monotonic_usec == 0);
	CHECK(parse("RELOADING=0", &m) < 0);
	CHECK(parse("RELOADING=1\nMONOTONIC_USEC=", &m) < 0);
	CHECK(parse("RELOADING=1\nMONOTONIC_USEC=12x", &m) < 0);
	CHECK(parse("MONOTONIC_USEC=99999999999999999999", &m) < 0); /* over 2^64 */
	CHECK(parse("MONOTONIC_USEC=18446744073709551615", &m) < 0 ||
	      m.monotonic_usec == 18446744073709551615ULL);
}

static void stopping(void)
{
	struct notify_msg m;
	CHECK(parse("STOPPING=1", &m) == 0 && m.stopping);
}

static void bad_values_drop_the_message(void)
{
	struct notify_msg m;
	CHECK(parse("READY=2", &m) < 0);
	CHECK(parse("READY=", &m) < 0);
	CHECK(parse("STOPPING=yes", &m) < 0);
	CHECK(parse("MAINPID=0", &m) < 0);
	CHECK(parse("MAINPID=-5", &m) < 0);
	CHECK(parse("MAINPID=12x", &m) < 0);
	CHECK(parse("MAINPID=99999999999999999999", &m) < 0);
	CHECK(parse("", &m) < 0);
	CHECK(notify_parse("READY=1\0MAINPID=1", 17, &m) < 0);
}

static void oversized_and_control_bytes(void)
{
	static char big[NOTIFY_MSG_MAX + 2];
	struct notify_msg m;
	memset(big, 'A', sizeof big);
	CHECK(notify_parse(big, sizeof big, &m) < 0);
	memcpy(big, "STATUS=", 7);
	CHECK(notify_parse(big, NOTIFY_MSG_MAX, &m) == 0);
	CHECK(strlen(m.status) == NOTIFY_STATUS_MAX - 1);
	CHECK(parse("STATUS=a\tb\033[2Jc", &m) == 0);
	CHECK_STR(m.status, "a b [2Jc");
}

int main(void)
{
	RUN(ready_status_mainpid);
	RUN(unknown_variables_are_ignored);
	RUN(stopping);
	RUN(reloading_and_monotonic_usec);
	RUN(bad_values_drop_the_message);
	RUN(oversized_and_control_bytes);
	return harness_done();
}
