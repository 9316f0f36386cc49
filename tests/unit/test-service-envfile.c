// sources: init/service.c init/unit-runtime-keys.c init/exec-line.c init/socket-unit.c init/condition.c init/unit-compat.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* EnvironmentFile= contents: NAME=value lines with comments, quotes and escapes. */
#include "harness.h"
#include "../../init/service.h"

#include <string.h>

static char got[16][256];
static int count;
static char err[128];

static int add(void *ctx, const char *assignment)
{
	int *limit = ctx;

	if (count >= (limit ? *limit : 16))
		return -1;
	strncpy(got[count], assignment, sizeof got[0] - 1);
	got[count][sizeof got[0] - 1] = '\0';
	count++;
	return 0;
}

static int parse(const char *text)
{
	count = 0;
	err[0] = '\0';
	return service_envfile_parse(text, strlen(text), add, NULL, err, sizeof err);
}

static void plain_assignments_and_comments(void)
{
	CHECK(parse("# comment\n; also\n\nA=1\n  B = two words  \nexport C=3\nEMPTY=\n") == 0);
	CHECK(count == 4);
	CHECK_STR(got[0], "A=1");
	CHECK_STR(got[1], "B=two words");
	CHECK_STR(got[2], "C=3");
	CHECK_STR(got[3], "EMPTY=");
}

/* As systemd's parser: a quote opens a quoted part where the value starts or after one
 * (blanks between them passed over); after bare text it is kept as it is. */
static void quotes(void)
{
	CHECK(parse("S='single $X \\n'\nD=\"dq \\\"in\\\" \\$X \\\\ \\n\"\nM=a'b c'\"d\"e\n"
		    "J='a' \"b\"  c\nO=-f '/etc/x y' -s \"/var/z\"\n") == 0);
	CHECK(count == 5);
	CHECK_STR(got[0], "S=single $X \\n");
	CHECK_STR(got[1], "D=dq \"in\" $X \\ \\n");
	CHECK_STR(got[2], "M=a'b c'\"d\"e");
	CHECK_STR(got[3], "J=abc");
	CHECK_STR(got[4], "O=-f '/etc/x y' -s \"/var/z\"");
}

static void multi_line_values(void)
{
	CHECK(parse("Q='line1\nline2'\nC=one \\\ntwo\nN=next\n") == 0);
	CHECK(count == 3);
	CHECK_STR(got[0], "Q=line1\nline2");
	CHECK_STR(got[1], "C=one two");
	CHECK_STR(got[2], "N=next");
}

static void crlf_and_no_final_newline(void)
{
	CHECK(parse("A=1\r\nB=2") == 0);
	CHECK(count == 2);
	CHECK_STR(got[0], "A=1");
	CHECK_STR(got[1], "B=2");
}

static void errors_name_the_line(void)
{
	CHECK(parse("A=1\n\nB='open\n") < 0);
	CHECK_STR(err, "line 3: unterminated ' quote");
	CHECK(parse("A=\"x\n") < 0);
}

/* As systemd: what is no assignment is passed over, and the rest is kept. Debian's
 * /etc/default/i2pd ends with "ulimit -n 4096", a shell command, and i2pd.service reads it. */
static void shell_lines_are_passed_over(void)
{
	CHECK(parse("A=1\nulimit -n 4096\nB=2\n") == 0);
	CHECK(count == 2);
	CHECK_STR(got[0], "A=1");
	CHECK_STR(got[1], "B=2");
	CHECK_STR(err, "line 2: no NAME=value, ignored");
	CHECK(parse("1X=y\nC=3\na b=c\n") == 0);
	CHECK(count == 1);
	CHECK_STR(got[0], "C=3");
	CHECK_STR(err, "line 1: NAME is not of letters, digits and _, ignored");
	CHECK(parse("NOEQ") == 0 && count == 0);
	CHECK_STR(err, "line 1: no NAME=value, ignored");
	/* a skipped line's quoted value spans lines as any other: what follows it is kept */
	CHECK(parse("[ -x y ] && X='a\nb'\nD=4\n") == 0);
	CHECK(count == 1);
	CHECK_STR(got[0], "D=4");
	CHECK(parse("A=1\n") == 0 && err[0] == '\0');
}

static void nul_is_rejected(void)
{
	static const char text[] = "A=x\0y\n";
	count = 0;
	CHECK(service_envfile_parse(text, sizeof text - 1, add, NULL, err, sizeof err) < 0);
	CHECK_STR(err, "line 1: a NUL byte");
}

static void callback_refusal_stops(void)
{
	int limit = 1;
	count = 0;
	CHECK(service_envfile_parse("A=1\nB=2\n", 8, add, &limit, err, sizeof err) < 0);
	CHECK_STR(err, "line 2: too many assignments");
}

int main(void)
{
	RUN(plain_assignments_and_comments);
	RUN(quotes);
	RUN(multi_line_values);
	RUN(crlf_and_no_final_newline);
	RUN(shell_lines_are_passed_over);
	RUN(errors_name_the_line);
	RUN(nul_is_rejected);
	RUN(callback_refusal_stops);
	return harness_done();
}
