// sources: init/journal-stream.c init/service.c init/unit-runtime-keys.c init/exec-line.c init/socket-unit.c init/condition.c init/unit-compat.c init/unit-kinds.c
/* journal: the header of the stream to journald, byte for byte, with names that try to
 * add header lines of their own; and the keys that fill it (StandardOutput=, Syslog*=). */
#include "harness.h"
#include "../../init/journal-stream.h"
#include "../../init/service.h"

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

/* ---- the keys ---- */

static struct service svc;
static int warnings, errors;

static void record(void *ctx, enum service_severity severity, const char *file, unsigned line,
		   const char *message)
{
	(void)ctx; (void)file; (void)line; (void)message;
	if (severity == SERVICE_WARNING)
		warnings++;
	else
		errors++;
}

static const struct service_diag diag = { record, NULL, false };

static int parse(const char *text)
{
	warnings = errors = 0;
	service_init(&svc, "ssh", "/lib/systemd/system/ssh.service");
	return service_parse(&svc, text, strlen(text), &diag);
}

static void journal_is_the_default(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\n") == 0);
	CHECK(svc.std_output.kind == OUTPUT_LOG && svc.std_output.journal);
	CHECK(svc.std_error.kind == OUTPUT_INHERIT);
	CHECK(svc.syslog_priority == (3 << 3 | 6) && svc.syslog_level_prefix);
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardOutput=log\nStandardError=syslog\n") == 0);
	CHECK(!svc.std_output.journal && svc.std_error.journal);
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardOutput=log\nStandardOutput=\n") == 0);
	CHECK(svc.std_output.journal); /* empty: back to the default */
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardOutput=journal+console\n") == 0);
	CHECK(svc.std_output.journal && svc.std_output.also_console);
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardOutput=kmsg\n") == 0);
	CHECK(!svc.std_output.journal);
}

static void syslog_keys(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nSyslogIdentifier=my-%N\nSyslogLevel=warning\n"
		    "SyslogFacility=local7\nSyslogLevelPrefix=no\n") == 0 && warnings == 0);
	CHECK_STR(service_str(&svc, svc.syslog_identifier), "my-ssh");
	CHECK(svc.syslog_priority == (23 << 3 | 4) && !svc.syslog_level_prefix);
	/* the level and the facility are independent, in either order */
	CHECK(parse("[Service]\nExecStart=/bin/a\nSyslogFacility=auth\nSyslogLevel=debug\n") == 0);
	CHECK(svc.syslog_priority == (4 << 3 | 7));
	CHECK(parse("[Service]\nExecStart=/bin/a\nSyslogLevel=debug\nSyslogLevel=\n"
		    "SyslogIdentifier=x\nSyslogIdentifier=\n") == 0);
	CHECK(svc.syslog_priority == (3 << 3 | 6) && svc.syslog_identifier == 0);
}

static void bad_syslog_values_are_errors(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nSyslogLevel=loud\n") < 0 && errors > 0);
	CHECK(parse("[Service]\nExecStart=/bin/a\nSyslogFacility=local8\n") < 0 && errors > 0);
	CHECK(parse("[Service]\nExecStart=/bin/a\nSyslogFacility=12\n") < 0 && errors > 0);
	CHECK(parse("[Service]\nExecStart=/bin/a\nSyslogLevelPrefix=maybe\n") < 0 && errors > 0);
}

int main(void)
{
	RUN(header_is_seven_lines);
	RUN(names_cannot_add_lines);
	RUN(long_names_are_cut_and_small_buffers_refused);
	RUN(no_journald_no_stream);
	RUN(journal_is_the_default);
	RUN(syslog_keys);
	RUN(bad_syslog_values_are_errors);
	return harness_done();
}
