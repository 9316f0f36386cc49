// sources: init/exec-line.c
/* ExecStart= lines -> argv: quoting, escapes, prefixes, $VAR and ${VAR}. */
#include "harness.h"
#include "../../init/exec-line.h"

#include <stdio.h>
#include <string.h>

static struct exec_argv out;

static const char *const env[] = {
	"HOME=/root", "WORDS=one  two\tthree", "EMPTY=", "CMD=/usr/bin/tool", "REL=tool",
	"DUP=first", "DUP=second", "SPACED= padded ",
	"QUOTED=-f '/etc/x y' -s \"/var/z\" a\\ b '' \"open", NULL,
};

static int split(const char *line)
{
	return exec_line_split(line, env, &out);
}

/* argv joined with '|' for compact comparisons. */
static const char *joined(void)
{
	static char buf[EXEC_BUF_MAX + EXEC_ARGS_MAX];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < out.argc; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? "|" : "", out.argv[i]);
	return buf;
}

static void plain_words(void)
{
	CHECK(split("/bin/echo a  b\tc") == 0);
	CHECK(out.argc == 4);
	CHECK_STR(joined(), "/bin/echo|a|b|c");
	CHECK_STR(out.path, "/bin/echo");
	CHECK(out.argv[4] == NULL);
	CHECK(out.flags == 0);
}

static void leading_and_trailing_blanks(void)
{
	CHECK(split("   /bin/true   ") == 0);
	CHECK_STR(joined(), "/bin/true");
}

static void double_and_single_quotes(void)
{
	CHECK(split("/bin/echo \"a b\" 'c d' \"it's\" 'say \"hi\"'") == 0);
	CHECK_STR(joined(), "/bin/echo|a b|c d|it's|say \"hi\"");
}

static void quotes_inside_a_word(void)
{
	CHECK(split("/bin/echo a\"b c\"d --opt='x y'") == 0);
	CHECK_STR(joined(), "/bin/echo|ab cd|--opt=x y");
}

static void empty_quotes_make_an_empty_word(void)
{
	CHECK(split("/bin/echo \"\" ''") == 0);
	CHECK(out.argc == 3);
	CHECK_STR(out.argv[1], "");
	CHECK_STR(out.argv[2], "");
}

static void c_escapes(void)
{
	CHECK(split("/bin/printf a\\tb \"q\\\"q\" \\x41\\102 back\\\\slash sp\\ ace \\s") == 0);
	CHECK(out.argc == 7);
	CHECK_STR(out.argv[1], "a\tb");
	CHECK_STR(out.argv[2], "q\"q");
	CHECK_STR(out.argv[3], "AB");
	CHECK_STR(out.argv[4], "back\\slash");
	CHECK_STR(out.argv[5], "sp\\ ace"); /* systemd 252 knows no "\ ": kept, one word */
	CHECK_STR(out.argv[6], " ");
	CHECK(out.relaxed);
	CHECK(split("/bin/echo '\\n'") == 0);
	CHECK_STR(out.argv[1], "\n");
	CHECK(!out.relaxed);
}

/* An unknown escape, or one that would give a NUL byte, is kept as written (backslash
 * and all), as systemd corrects the line (with a warning: service.c). */
static void relaxed_escapes(void)
{
	CHECK(split("/bin/echo \\q 's/\\d/x/' \\x00 \\000 \\x4") == 0 && out.relaxed);
	CHECK(out.argc == 6);
	CHECK_STR(out.argv[1], "\\q");
	CHECK_STR(out.argv[2], "s/\\d/x/");
	CHECK_STR(out.argv[3], "\\x00");
	CHECK_STR(out.argv[4], "\\000");
	CHECK_STR(out.argv[5], "\\x4");
	CHECK(split("/bin/echo trailing\\") < 0);
	CHECK(strstr(out.error, "a backslash ends the line") != NULL);
}

static void unterminated_quotes(void)
{
	CHECK(split("/bin/echo \"abc") < 0);
	CHECK_STR(out.error, "unterminated \" quote");
	CHECK(split("/bin/echo 'abc") < 0);
	CHECK_STR(out.error, "unterminated ' quote");
	CHECK(split("/bin/echo \"it's") < 0);
}

static void prefix_ignore_failure(void)
{
	CHECK(split("-/bin/false x") == 0);
	CHECK(out.flags == EXEC_IGNORE_FAILURE);
	CHECK_STR(joined(), "/bin/false|x");
}

static void prefix_argv0(void)
{
	CHECK(split("@/bin/busybox sh -c true") == 0);
	CHECK(out.flags == EXEC_ARGV0);
	CHECK_STR(out.path, "/bin/busybox");
	CHECK_STR(joined(), "sh|-c|true");
	CHECK(out.argv[out.argc] == NULL);
	CHECK(split("@/bin/busybox") < 0);
	CHECK(strstr(out.error, "'@' needs a program and its argv[0]") != NULL);
}

static void prefix_no_expansion(void)
{
	CHECK(split(":/bin/echo $HOME ${HOME} $$") == 0);
	CHECK(out.flags == EXEC_NO_ENV_EXPAND);
	CHECK_STR(joined(), "/bin/echo|$HOME|${HOME}|$$");
}

static void prefixes_combine_in_any_order(void)
{
	CHECK(split(":-@/bin/sh x $HOME") == 0);
	CHECK(out.flags == (EXEC_IGNORE_FAILURE | EXEC_ARGV0 | EXEC_NO_ENV_EXPAND));
	CHECK_STR(out.path, "/bin/sh");
	CHECK_STR(joined(), "x|$HOME");
}

static void prefixes_without_splitting(void)
{
	CHECK(exec_line_prefixes("/bin/true") == 0);
	CHECK(exec_line_prefixes("  -/bin/false") == EXEC_IGNORE_FAILURE);
	CHECK(exec_line_prefixes("@-/bin/sh sh") == (EXEC_ARGV0 | EXEC_IGNORE_FAILURE));
	CHECK(exec_line_prefixes(":/bin/echo -x") == EXEC_NO_ENV_EXPAND);
}

/* U2: "+", "!", "!!" (their run-time meaning is spawn.c's) and bare program names. */
static void privilege_prefixes(void)
{
	CHECK(split("+/bin/true") == 0 && out.flags == EXEC_PRIVILEGED);
	CHECK_STR(out.path, "/bin/true");
	CHECK(split("!/bin/true") == 0 && out.flags == EXEC_NO_SETUID);
	CHECK(split("!!/bin/true") == 0 && out.flags == EXEC_NO_SETUID_AMBIENT);
	CHECK(split("-@!!/bin/sh shell") == 0);
	CHECK(out.flags == (EXEC_IGNORE_FAILURE | EXEC_ARGV0 | EXEC_NO_SETUID_AMBIENT));
	CHECK_STR(joined(), "shell");
	CHECK(exec_line_prefixes("!!-/bin/x") == (EXEC_NO_SETUID_AMBIENT | EXEC_IGNORE_FAILURE));
	CHECK(exec_line_prefixes("+:/bin/x") == (EXEC_PRIVILEGED | EXEC_NO_ENV_EXPAND));
	CHECK(split("+!/bin/true") < 0);
	CHECK_STR(out.error, "prefixes '+', '!' and '!!' exclude each other");
	CHECK(split("!!!/bin/true") < 0);
	CHECK(split("!+/bin/true") < 0);
	CHECK(split("|/bin/true") < 0);
	CHECK(strstr(out.error, "'|'") != NULL);
}

static const char *fake_found;
static bool fake_executable(const char *path)
{
	return fake_found && strcmp(path, fake_found) == 0;
}

static void bare_names(void)
{
	CHECK(split("sshd -D") == 0);
	CHECK_STR(out.path, "sshd");
	fake_found = "/usr/sbin/sshd";
	CHECK(exec_path_resolve(&out, fake_executable) == 0);
	CHECK_STR(out.path, "/usr/sbin/sshd");
	CHECK_STR(joined(), "sshd|-D"); /* argv[0] as written, as systemd */
	fake_found = "/usr/local/sbin/sshd"; /* the first directory wins */
	CHECK(split("sshd") == 0 && exec_path_resolve(&out, fake_executable) == 0);
	CHECK_STR(out.path, "/usr/local/sbin/sshd");
	fake_found = NULL;
	CHECK(split("sshd") == 0 && exec_path_resolve(&out, fake_executable) < 0);
	CHECK_STR(out.error, "program \"sshd\" not found in "
			     "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
	CHECK(split("@tool argv0") == 0 && strcmp(out.path, "tool") == 0); /* "@" too */
	CHECK(split("/bin/x") == 0 && exec_path_resolve(&out, fake_executable) == 0);
	CHECK_STR(out.path, "/bin/x"); /* absolute: untouched */
	CHECK(split("bin/x") < 0);
	CHECK(strstr(out.error, "neither an absolute path nor a bare name") != NULL);
	CHECK(split("$REL") == 0 && strcmp(out.path, "tool") == 0); /* from a variable */
	CHECK(exec_line_check("sshd -D", &out) == 0);
	CHECK(exec_line_check("./sshd", &out) < 0);
}

static void bad_prefixes(void)
{
	CHECK(split("--/bin/true") < 0);
	CHECK_STR(out.error, "prefix '-' given twice");
	CHECK(split("-") < 0);
	CHECK_STR(out.error, "empty command line");
}

static void lone_variable_splits_into_words(void)
{
	CHECK(split("/bin/echo $WORDS end") == 0);
	CHECK_STR(joined(), "/bin/echo|one|two|three|end");
	CHECK(split("/bin/echo $SPACED") == 0);
	CHECK_STR(joined(), "/bin/echo|padded");
}

static void lone_unset_or_empty_variable_is_no_word(void)
{
	CHECK(split("/bin/echo $NOPE $EMPTY end") == 0);
	CHECK_STR(joined(), "/bin/echo|end");
}

static void braced_variable_is_one_word(void)
{
	CHECK(split("/bin/echo ${WORDS} ${SPACED}") == 0);
	CHECK(out.argc == 3);
	CHECK_STR(out.argv[1], "one  two\tthree");
	CHECK_STR(out.argv[2], " padded ");
}

static void braced_unset_variable_is_an_empty_word(void)
{
	CHECK(split("/bin/echo ${NOPE}") == 0);
	CHECK(out.argc == 2);
	CHECK_STR(out.argv[1], "");
}

static void braced_variable_inside_a_word(void)
{
	CHECK(split("/bin/echo --home=${HOME}/x pre${NOPE}post") == 0);
	CHECK_STR(joined(), "/bin/echo|--home=/root/x|prepost");
}

static void bare_variable_inside_a_word_stays_literal(void)
{
	/* systemd's rule: $NAME is expanded only as a word of its own. */
	CHECK(split("/bin/echo --home=$HOME a$HOME") == 0);
	CHECK_STR(joined(), "/bin/echo|--home=$HOME|a$HOME");
}

static void double_dollar_is_a_dollar(void)
{
	CHECK(split("/bin/echo $$ $$HOME cost$$5 ${HOME}$$") == 0);
	CHECK_STR(joined(), "/bin/echo|$|$HOME|cost$5|/root$");
}

static void lone_dollar_and_odd_dollars_stay(void)
{
	CHECK(split("/bin/echo $ a$ $1 $-") == 0);
	CHECK_STR(joined(), "/bin/echo|$|a$|$1|$-");
}

static void quotes_do_not_stop_expansion(void)
{
	/* As in systemd: words are unquoted first, then expanded. */
	CHECK(split("/bin/echo \"$WORDS\" '${HOME}'") == 0);
	CHECK_STR(joined(), "/bin/echo|one|two|three|/root");
}

static void the_last_assignment_wins(void)
{
	CHECK(split("/bin/echo ${DUP}") == 0);
	CHECK_STR(out.argv[1], "second");
}

/* A lone $NAME is split as systemd splits it: quotes group and go, a backslash escapes,
 * an empty quoted word stays, an open quote ends with the value (Debian's /etc/default
 * files hold such values: run-time round 8). */
static void lone_variable_honours_quotes(void)
{
	CHECK(split("/bin/prog $QUOTED") == 0);
	CHECK(out.argc == 8);
	CHECK_STR(joined(), "/bin/prog|-f|/etc/x y|-s|/var/z|a b||open");
}

/* What systemd does not read as a reference it leaves as text, for the shell a line often
 * runs: Debian's bip.service has ExecStartPre=/bin/sh -c '[ ${ENABLED:-1} != 0 ]'. */
static void references_systemd_keeps_as_text(void)
{
	CHECK(split("/bin/sh -c '[ ${ENABLED:-1} != 0 ]'") == 0);
	CHECK_STR(joined(), "/bin/sh|-c|[ ${ENABLED:-1} != 0 ]");
	CHECK(split("/bin/echo ${HOME:+set} ${HOME") == 0);
	CHECK_STR(joined(), "/bin/echo|${HOME:+set}|${HOME");
	/* text up to the ':' is kept as it is, "$$" there too; what follows is read again */
	CHECK(split("/bin/echo ${A$$B:-${HOME}}") == 0);
	CHECK_STR(joined(), "/bin/echo|${A$$B:-/root}");
}

/* A name no variable can have is looked up like any other, and found by none. */
static void references_to_no_variable_are_empty(void)
{
	CHECK(split("/bin/echo x${1X}y ${}z") == 0);
	CHECK_STR(joined(), "/bin/echo|xy|z");
}

static void program_from_a_variable(void)
{
	CHECK(split("$CMD --flag") == 0);
	CHECK_STR(out.path, "/usr/bin/tool");
	CHECK_STR(joined(), "/usr/bin/tool|--flag");
	CHECK(split("${CMD}") == 0);
	CHECK(split("$REL") == 0); /* U2: a bare name, looked up when it starts */
	CHECK_STR(out.path, "tool");
	CHECK(split("$NOPE") < 0);
	CHECK_STR(out.error, "empty command line");
}

static void relative_program_is_rejected(void)
{
	CHECK(split("echo hi") == 0); /* U2: a bare name is not a relative path */
	CHECK(split("./run") < 0);
	CHECK_STR(out.error, "program \"./run\" is neither an absolute path nor a bare name to "
			     "look up in /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
}

static void empty_lines(void)
{
	CHECK(split("") < 0);
	CHECK(split("   ") < 0);
	CHECK_STR(out.error, "empty command line");
}

static void lone_semicolon_is_refused(void)
{
	CHECK(split("/bin/a ; /bin/b") < 0);
	CHECK(strstr(out.error, "lone ';'") != NULL);
	CHECK(split("/bin/a \\; ';' a;b") == 0);
	CHECK_STR(joined(), "/bin/a|;|;|a;b");
}

static void no_environment_at_all(void)
{
	CHECK(exec_line_split("/bin/echo $HOME ${HOME}", NULL, &out) == 0);
	CHECK(out.argc == 2);
	CHECK_STR(out.argv[1], "");
}

static void too_many_words(void)
{
	static char line[EXEC_ARGS_MAX * 3 + 32];
	size_t n = (size_t)snprintf(line, sizeof line, "/bin/echo");

	for (int i = 0; i < EXEC_ARGS_MAX - 1; i++)
		n += (size_t)snprintf(line + n, sizeof line - n, " x");
	CHECK(split(line) == 0);
	CHECK(out.argc == EXEC_ARGS_MAX);
	strcpy(line + n, " y");
	CHECK(split(line) < 0);
	CHECK(strstr(out.error, "more than 128 words") != NULL);
}

static void expansion_overflowing_the_buffer(void)
{
	static char value[EXEC_BUF_MAX + 16];
	static char line[64];
	const char *big_env[] = { value, NULL };

	memcpy(value, "BIG=", 4);
	memset(value + 4, 'b', EXEC_BUF_MAX / 2);
	snprintf(line, sizeof line, "/bin/echo ${BIG} ${BIG}");
	CHECK(exec_line_split(line, big_env, &out) < 0);
	CHECK(strstr(out.error, "longer than 8192 bytes") != NULL);
	snprintf(line, sizeof line, "/bin/echo ${BIG}");
	CHECK(exec_line_split(line, big_env, &out) == 0);
}

static void expansion_into_too_many_words(void)
{
	static char value[EXEC_ARGS_MAX * 2 + 16];
	const char *many_env[] = { value, NULL };
	size_t n = (size_t)snprintf(value, sizeof value, "MANY=");

	for (int i = 0; i < EXEC_ARGS_MAX; i++)
		n += (size_t)snprintf(value + n, sizeof value - n, "w ");
	CHECK(exec_line_split("/bin/echo $MANY", many_env, &out) < 0);
	CHECK(strstr(out.error, "more than 128 words after expansion") != NULL);
}

static void check_without_environment(void)
{
	CHECK(exec_line_check("/bin/echo $HOME", &out) == 0);
	CHECK(exec_line_check("$CMD --x", &out) == 0);
	CHECK(exec_line_check("${CMD}/sub", &out) == 0);
	CHECK(exec_line_check("@$CMD", &out) == 0);
	CHECK(exec_line_check("echo", &out) == 0); /* a bare name */
	CHECK(exec_line_check("./echo", &out) < 0);
	CHECK(exec_line_check("/bin/echo ${X", &out) == 0); /* as systemd: text */
	CHECK(exec_line_check("@/bin/sh", &out) < 0);
	CHECK(exec_line_check("", &out) < 0);
	CHECK(exec_line_check("/bin/echo 'x", &out) < 0);
}

static void words_only(void)
{
	CHECK(exec_words_split("A=1 \"B=2 3\" 'C=$X' D=\\x41", &out) == 0);
	CHECK_STR(joined(), "A=1|B=2 3|C=$X|D=A");
	CHECK(exec_words_split("", &out) == 0 && out.argc == 0);
	CHECK(exec_words_split("\"open", &out) < 0);
}

int main(void)
{
	RUN(plain_words);
	RUN(leading_and_trailing_blanks);
	RUN(double_and_single_quotes);
	RUN(quotes_inside_a_word);
	RUN(empty_quotes_make_an_empty_word);
	RUN(c_escapes);
	RUN(relaxed_escapes);
	RUN(unterminated_quotes);
	RUN(prefix_ignore_failure);
	RUN(prefix_argv0);
	RUN(prefix_no_expansion);
	RUN(prefixes_combine_in_any_order);
	RUN(prefixes_without_splitting);
	RUN(bad_prefixes);
	RUN(privilege_prefixes);
	RUN(bare_names);
	RUN(lone_variable_splits_into_words);
	RUN(lone_unset_or_empty_variable_is_no_word);
	RUN(braced_variable_is_one_word);
	RUN(braced_unset_variable_is_an_empty_word);
	RUN(braced_variable_inside_a_word);
	RUN(bare_variable_inside_a_word_stays_literal);
	RUN(double_dollar_is_a_dollar);
	RUN(lone_dollar_and_odd_dollars_stay);
	RUN(quotes_do_not_stop_expansion);
	RUN(the_last_assignment_wins);
	RUN(lone_variable_honours_quotes);
	RUN(references_systemd_keeps_as_text);
	RUN(references_to_no_variable_are_empty);
	RUN(program_from_a_variable);
	RUN(relative_program_is_rejected);
	RUN(empty_lines);
	RUN(lone_semicolon_is_refused);
	RUN(no_environment_at_all);
	RUN(too_many_words);
	RUN(expansion_overflowing_the_buffer);
	RUN(expansion_into_too_many_words);
	RUN(check_without_environment);
	RUN(words_only);
	return harness_done();
}
