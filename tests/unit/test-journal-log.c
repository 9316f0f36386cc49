// sources: init/journal-log.c lib/unit-name.c lib/log.c
/* The datagram ember-init sends journald (its native protocol): the fields, MESSAGE= in
 * the binary form whatever it holds, UNIT= and INVOCATION_ID= only for a unit, and
 * nothing when it does not fit. */
#include "harness.h"
#include "journal-log.h"
#include "supervisor.h"

#include <string.h>

/* The sink's lookups are not under test here. */
const struct unit *supervisor_find(const char *name)
{
	(void)name;
	return NULL;
}

static char buf[2048];

static size_t format(const char *unit, const char *inv, const char *text)
{
	struct journal_log_entry e = { LOG_LEVEL_WARN, "ember-init", unit, inv, text, strlen(text) };
	return journal_log_format(buf, sizeof buf, &e);
}

static void fields_in_order(void)
{
	static const char want[] = "PRIORITY=4\nSYSLOG_FACILITY=3\nSYSLOG_IDENTIFIER=ember-init\n"
				   "UNIT=sshd.service\nINVOCATION_ID=0123abcd\nMESSAGE\n"
				   "\x0b\0\0\0\0\0\0\0sshd: ready\n";
	size_t n = format("sshd.service", "0123abcd", "sshd: ready");

	CHECK(n == sizeof want - 1);
	CHECK(memcmp(buf, want, sizeof want - 1) == 0);
}

static void no_unit_no_unit_fields(void)
{
	size_t n = format(NULL, "0123abcd", "ready: boot took 3 ms");

	CHECK(n > 0);
	buf[n] = '\0';
	CHECK(strstr(buf, "UNIT=") == NULL);
	CHECK(strstr(buf, "INVOCATION_ID=") == NULL);
}

static void no_invocation_yet(void)
{
	size_t n = format("x.target", "", "x.target: reached");

	CHECK(n > 0);
	buf[n] = '\0';
	CHECK(strstr(buf, "UNIT=x.target\n") != NULL);
	CHECK(strstr(buf, "INVOCATION_ID=") == NULL);
}

/* A newline in the text stays inside MESSAGE: it cannot start a field of its own. */
static void newline_cannot_forge_a_field(void)
{
	const char *text = "x: evil\nUNIT=other.service";
	size_t n = format("x.service", NULL, text);
	const char *m = memchr(buf, 'M', n);

	CHECK(n > 0);
	CHECK(m && memcmp(m, "MESSAGE\n", 8) == 0);
	CHECK((unsigned char)m[8] == strlen(text) && m[9] == 0);
	CHECK(memcmp(m + 16, text, strlen(text)) == 0);
	CHECK(m + 16 + strlen(text) + 1 == buf + n);
}

static void too_long_is_nothing(void)
{
	static char text[sizeof buf];
	struct journal_log_entry e = { LOG_LEVEL_INFO, "ember-init", NULL, NULL, text, sizeof text };

	memset(text, 'a', sizeof text);
	CHECK(journal_log_format(buf, sizeof buf, &e) == 0);
}

int main(void)
{
	RUN(fields_in_order);
	RUN(no_unit_no_unit_fields);
	RUN(no_invocation_yet);
	RUN(newline_cannot_forge_a_field);
	RUN(too_long_is_nothing);
	return harness_done();
}
