// sources:
/* Control-protocol requests: every well-formed request parses to the right struct and
 * formats back to the same bytes; every malformed one is rejected with a message that
 * says why, and leaves a zeroed request. */
#include "harness.h"
#include "ctl.h"

#include <stdlib.h>

static struct ctl_request req;
static char err[256];

static int parse(const char *s)
{
	err[0] = '\0';
	return ctl_request_parse(s, strlen(s), &req, err, sizeof err);
}

/* Rejected, with a message containing why. */
static int rejected(const char *s, const char *why)
{
	struct ctl_request zero;
	memset(&zero, 0, sizeof zero);
	if (parse(s) != -1)
		return 0;
	if (memcmp(&req, &zero, sizeof req) != 0)
		return 0;
	if (!strstr(err, why)) {
		printf("  message \"%s\" lacks \"%s\"\n", err, why);
		return 0;
	}
	return 1;
}

static void parses_every_verb(void)
{
	CHECK(parse("list") == 0 && req.verb == CTL_LIST && req.name[0] == '\0');
	CHECK(parse("status sshd") == 0 && req.verb == CTL_STATUS);
	CHECK_STR(req.name, "sshd");
	CHECK(parse("start a") == 0 && req.verb == CTL_START && req.options == 0);
	/* sessions: ember-activator's start of what a scope requires */
	CHECK(parse("start user-runtime-dir@1000 hold") == 0 && req.options == CTL_OPT_HOLD);
	CHECK(parse("stop a hold") < 0 && parse("log a hold") < 0);
	CHECK(parse("stop a") == 0 && req.verb == CTL_STOP);
	CHECK(parse("restart a") == 0 && req.verb == CTL_RESTART);
	CHECK(parse("reload") == 0 && req.verb == CTL_RELOAD);
	CHECK(parse("reload a") == 0 && strcmp(req.name, "a") == 0); /* U2: reload NAME */
	CHECK(parse("reload no-start") == 0 && req.options == CTL_OPT_NO_START && !req.name[0]);
	CHECK(parse("start a no-start") < 0); /* only for reload */
	CHECK(parse("reload ../x") < 0);
	CHECK(parse("reload a b") < 0);
	CHECK(parse("log a") == 0 && req.verb == CTL_LOG && req.options == 0);
	CHECK(parse("log a follow") == 0 && req.verb == CTL_LOG && req.options == CTL_OPT_FOLLOW);
	CHECK(parse("analyze") == 0 && req.verb == CTL_ANALYZE);
	CHECK(parse("poweroff") == 0 && req.verb == CTL_POWEROFF);
	CHECK(parse("reboot") == 0 && req.verb == CTL_REBOOT);
	CHECK(parse("halt") == 0 && req.verb == CTL_HALT);
}

static void accepts_every_name_character(void)
{
	char name[64];
	CHECK(parse("status getty:tty1.serial_0-x") == 0);
	CHECK_STR(req.name, "getty:tty1.serial_0-x");
	memset(name, 'a', 63);
	name[63] = '\0';
	char line[80];
	snprintf(line, sizeof line, "status %s", name);
	CHECK(parse(line) == 0);
	CHECK_STR(req.name, name);
}

static void rejects_empty_and_overlong(void)
{
	char *big = malloc(10241);
	CHECK(ctl_request_parse("", 0, &req, err, sizeof err) == -1);
	CHECK(strstr(err, "empty") != NULL);
	/* 10 KB of an otherwise valid verb, then 513 bytes: both too long. */
	memset(big, 'a', 10240);
	big[10240] = '\0';
	CHECK(rejected(big, "longer than 512"));
	memcpy(big, "status ", 7);
	big[513] = '\0';
	CHECK(rejected(big, "513 bytes"));
	free(big);
}

static void rejects_nul_control_and_non_ascii(void)
{
	CHECK(ctl_request_parse("list\0x", 6, &req, err, sizeof err) == -1);
	CHECK(strstr(err, "NUL byte at offset 4") != NULL);
	CHECK(rejected("list\n", "control byte 0x0a at offset 4"));
	CHECK(rejected("status\tsshd", "control byte 0x09"));
	CHECK(rejected("status ssh\x1b[0m", "control byte 0x1b"));
	CHECK(rejected("status ssh\x7f", "control byte 0x7f"));
	CHECK(rejected("status s\xc3\xa9", "non-ASCII byte 0xc3"));
}

static void rejects_stray_spaces(void)
{
	CHECK(rejected(" list", "stray space at offset 0"));
	CHECK(rejected("list ", "stray space at offset 4"));
	CHECK(rejected("status  sshd", "stray space at offset 7"));
	CHECK(rejected(" ", "stray space"));
}

static void rejects_unknown_verbs(void)
{
	CHECK(rejected("LIST", "unknown verb 'LIST'"));
	CHECK(rejected("lis", "unknown verb"));
	CHECK(rejected("signal sshd", "unknown verb 'signal'"));
}

/* emberctl verbs (issue 17): kill's signal= and whom=, log's stamped and from=. */
static void parses_valued_options(void)
{
	char buf[CTL_REQUEST_MAX + 1];
	CHECK(parse("kill sshd signal=15") == 0 && req.verb == CTL_KILL && req.signal == 15 &&
	      req.whom == CTL_WHOM_ALL);
	CHECK_STR(req.name, "sshd");
	CHECK(ctl_request_format(&req, buf, sizeof buf, err, sizeof err) > 0);
	CHECK_STR(buf, "kill sshd signal=15");
	CHECK(parse("kill sshd signal=64 whom=main") == 0 && req.signal == 64 &&
	      req.whom == CTL_WHOM_MAIN);
	CHECK(ctl_request_format(&req, buf, sizeof buf, err, sizeof err) > 0);
	CHECK_STR(buf, "kill sshd signal=64 whom=main");
	CHECK(parse("kill sshd signal=1 whom=control") == 0 && req.whom == CTL_WHOM_CONTROL);
	CHECK(rejected("kill sshd whom=control signal=1", "out of order"));
	CHECK(parse("log a stamped") == 0 && req.options == CTL_OPT_STAMPED);
	CHECK(parse("log a follow from=123") == 0 && req.from == 123 &&
	      req.options == CTL_OPT_FOLLOW);
	CHECK(ctl_request_format(&req, buf, sizeof buf, err, sizeof err) > 0);
	CHECK_STR(buf, "log a follow from=123");
}

static void rejects_bad_valued_options(void)
{
	struct ctl_request r = { .verb = CTL_STOP, .signal = 9 };
	char buf[CTL_REQUEST_MAX + 1];
	CHECK(rejected("kill sshd", "missing 'signal='"));
	CHECK(rejected("kill", "missing service name"));
	CHECK(rejected("kill sshd signal=0", "signal="));
	CHECK(rejected("kill sshd signal=65", "signal="));
	CHECK(rejected("kill sshd signal=015", "signal="));
	CHECK(rejected("kill sshd signal=-9", "signal="));
	CHECK(rejected("kill sshd signal=9 signal=9", "signal="));
	CHECK(rejected("kill sshd signal=9 whom=everyone", "whom="));
	CHECK(rejected("kill sshd signal=9 whom=all", "default"));
	CHECK(rejected("kill sshd signal=9 whom=main whom=control", "whom="));
	CHECK(rejected("stop sshd signal=9", "not valid for this verb"));
	CHECK(rejected("log a from=5", "needs 'follow'"));
	CHECK(rejected("log a follow stamped", "do not go together"));
	CHECK(rejected("log a follow from=0", "from="));
	CHECK(rejected("log a follow from=99999999999999999999999", "from="));
	CHECK(rejected("kill sshd signal=9 =x", "not valid"));
	/* the formatter refuses what the parser would refuse */
	memcpy(r.name, "a", 2);
	CHECK(ctl_request_format(&r, buf, sizeof buf, err, sizeof err) < 0);
	r.verb = CTL_KILL;
	r.signal = 0;
	CHECK(ctl_request_format(&r, buf, sizeof buf, err, sizeof err) < 0);
	r.signal = 65;
	CHECK(ctl_request_format(&r, buf, sizeof buf, err, sizeof err) < 0);
}

static void rejects_missing_and_extra_names(void)
{
	CHECK(rejected("status", "status: missing service name"));
	CHECK(rejected("log", "log: missing service name"));
	CHECK(rejected("list sshd", "list: unexpected argument 'sshd'"));
	CHECK(rejected("reboot now", "reboot: unexpected argument 'now'"));
	CHECK(rejected("status a b", "status: unexpected argument 'b'"));
}

static void rejects_invalid_names(void)
{
	char line[100] = "status ";
	CHECK(rejected("status .hidden", "invalid service name '.hidden'"));
	CHECK(rejected("status -rf", "invalid service name"));
	CHECK(rejected("status ../etc", "invalid service name"));
	CHECK(rejected("stop a/b", "invalid service name"));
	CHECK(rejected("stop a*", "invalid service name"));
	memset(line + 7, 'a', 64);
	line[71] = '\0';
	CHECK(rejected(line, "invalid service name"));
}

static void rejects_unknown_and_misplaced_options(void)
{
	CHECK(rejected("log sshd tail", "log: unexpected argument 'tail'"));
	CHECK(rejected("log sshd FOLLOW", "unexpected argument"));
	CHECK(rejected("status sshd follow", "option 'follow' is not valid"));
	CHECK(rejected("list follow", "option 'follow' is not valid"));
	CHECK(rejected("log sshd follow follow", "given twice"));
	CHECK(rejected("log a follow follow follow follow follow follow follow follow follow",
		       "more than 10 words"));
}

static void error_messages_quote_only_a_short_excerpt(void)
{
	char line[600];
	memset(line, 'x', 500);
	line[500] = '\0';
	CHECK(rejected(line, "unknown verb"));
	CHECK(strlen(err) < 100);
}

static void formats_what_it_parses(void)
{
	static const char *const requests[] = {
		"list", "status sshd", "start a", "stop a", "restart a", "reload", "log a",
		"log a follow", "analyze", "poweroff", "reboot", "halt",
	};
	char buf[CTL_REQUEST_MAX + 1];
	for (size_t i = 0; i < sizeof requests / sizeof *requests; i++) {
		CHECK(parse(requests[i]) == 0);
		CHECK(ctl_request_format(&req, buf, sizeof buf, err, sizeof err) ==
		      (int)strlen(requests[i]));
		CHECK_STR(buf, requests[i]);
	}
}

static void format_refuses_what_parse_would_reject(void)
{
	char buf[CTL_REQUEST_MAX + 1];
	struct ctl_request r = { .verb = CTL_STATUS };

	CHECK(ctl_request_format(&r, buf, sizeof buf, err, sizeof err) == -1);
	CHECK(strstr(err, "invalid service name") != NULL);
	strcpy(r.name, ".x");
	CHECK(ctl_request_format(&r, buf, sizeof buf, err, sizeof err) == -1);
	r.verb = CTL_LIST;
	strcpy(r.name, "sshd");
	CHECK(ctl_request_format(&r, buf, sizeof buf, err, sizeof err) == -1);
	CHECK(strstr(err, "takes no service name") != NULL);
	r.verb = CTL_STATUS;
	r.options = CTL_OPT_FOLLOW;
	CHECK(ctl_request_format(&r, buf, sizeof buf, err, sizeof err) == -1);
	r.verb = CTL_LOG;
	r.options = 0x80;
	CHECK(ctl_request_format(&r, buf, sizeof buf, err, sizeof err) == -1);
	r.verb = CTL_VERB_COUNT;
	r.options = 0;
	CHECK(ctl_request_format(&r, buf, sizeof buf, err, sizeof err) == -1);
	r.verb = CTL_LOG;
	r.options = CTL_OPT_FOLLOW;
	CHECK(ctl_request_format(&r, buf, 10, err, sizeof err) == -1);
	CHECK(ctl_request_format(&r, buf, 16, err, sizeof err) == 15);
	CHECK_STR(buf, "log sshd follow");
}

static void names_and_verbs(void)
{
	CHECK(ctl_name_valid("a"));
	CHECK(!ctl_name_valid(""));
	CHECK(!ctl_name_valid("a b"));
	CHECK_STR(ctl_verb_name(CTL_ANALYZE), "analyze");
	CHECK(ctl_verb_name(CTL_VERB_COUNT) == NULL);
	CHECK(ctl_verb_name((enum ctl_verb)-1) == NULL);
	CHECK(ctl_verb_takes_name(CTL_LOG) && !ctl_verb_takes_name(CTL_LIST));
	CHECK(ctl_verb_from_name("halt") == CTL_HALT);
	CHECK(ctl_verb_from_name("Halt") == -1);
	CHECK(ctl_verb_from_name("") == -1);
}

int main(void)
{
	RUN(parses_every_verb);
	RUN(accepts_every_name_character);
	RUN(rejects_empty_and_overlong);
	RUN(rejects_nul_control_and_non_ascii);
	RUN(rejects_stray_spaces);
	RUN(rejects_unknown_verbs);
	RUN(parses_valued_options);
	RUN(rejects_bad_valued_options);
	RUN(rejects_missing_and_extra_names);
	RUN(rejects_invalid_names);
	RUN(rejects_unknown_and_misplaced_options);
	RUN(error_messages_quote_only_a_short_excerpt);
	RUN(formats_what_it_parses);
	RUN(format_refuses_what_parse_would_reject);
	RUN(names_and_verbs);
	return harness_done();
}
