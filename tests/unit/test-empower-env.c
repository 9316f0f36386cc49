// sources: empowerd/env.c
/* The session environment is an allowlist, and log text has no control characters. */
#include "env.h"
#include "escape.h"
#include "harness.h"

#include <string.h>

static struct env_block E;

static const char *get(const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < E.count; i++)
		if (strncmp(E.envp[i], name, n) == 0 && E.envp[i][n] == '=')
			return E.envp[i] + n + 1;
	return NULL;
}

static const struct passwd_user target = { .name = "alice", .uid = 1000, .gid = 1000,
					   .home = "/home/alice", .shell = "/bin/sh" };

static void keeps_only_the_allowlist(void)
{
	static const char *caller[] = {
		"TERM=xterm-256color", "COLORTERM=truecolor", "NO_COLOR=1", "LANG=de_DE.UTF-8",
		"LC_ALL=C", "LD_PRELOAD=/tmp/evil.so", "LD_LIBRARY_PATH=/tmp", "PATH=/tmp:/bin",
		"HOME=/tmp/fake", "USER=root", "GCONV_PATH=/tmp", "IFS=x", "SHELL=/tmp/sh",
		"TERMINFO=/tmp", "LC_=x", "LC_all=x", "BASH_ENV=/tmp/x", "TERM",
	};
	CHECK(env_build(&E, caller, sizeof caller / sizeof caller[0], &target, NULL, 0) == 0);
	CHECK_STR(get("TERM"), "xterm-256color");
	CHECK_STR(get("COLORTERM"), "truecolor");
	CHECK_STR(get("NO_COLOR"), "1");
	CHECK_STR(get("LANG"), "de_DE.UTF-8");
	CHECK_STR(get("LC_ALL"), "C");
	CHECK_STR(get("HOME"), "/home/alice");
	CHECK_STR(get("USER"), "alice");
	CHECK_STR(get("LOGNAME"), "alice");
	CHECK_STR(get("SHELL"), "/bin/sh");
	CHECK_STR(get("PATH"), ENV_SAFE_PATH);
	CHECK(E.count == 10);
	CHECK(E.envp[E.count] == NULL);
	CHECK(get("LD_PRELOAD") == NULL && get("GCONV_PATH") == NULL && get("TERMINFO") == NULL);
}

static void refuses_slashes_and_controls_in_values(void)
{
	CHECK(!env_passes("LANG=../../tmp/x"));
	CHECK(!env_passes("LC_MESSAGES=/tmp/x"));
	CHECK(!env_passes("TERM=../../tmp/term"));
	CHECK(!env_passes("TERM=xterm\033]0;x"));
	CHECK(!env_passes("TERM=%n%n%n"));
	CHECK(!env_passes("TERM=.."));
	CHECK(!env_passes("LANG=.."));
	CHECK(!env_passes("LC_ALL=C%s"));
	CHECK(!env_passes("LANG=de_DE$(id)"));
	CHECK(!env_passes("LC_CTYPE=..\\x"));
	CHECK(!env_passes("TERM=-xterm"));
	CHECK(!env_passes("NO_COLOR=%n"));
	CHECK(env_passes("LANG=en_US.UTF-8@euro"));
	CHECK(env_passes("TERM=xterm-256color"));
	CHECK(env_passes("LANG=C.UTF-8"));
	CHECK(env_passes("NO_COLOR="));
}

static void setenv_names_must_be_identifiers(void)
{
	CHECK(env_setenv_valid("FOO=bar"));
	CHECK(env_setenv_valid("_x1=/tmp"));
	CHECK(env_setenv_valid("EMPTY="));
	CHECK(!env_setenv_valid("=x"));
	CHECK(!env_setenv_valid("1A=x"));
	CHECK(!env_setenv_valid("A-B=x"));
	CHECK(!env_setenv_valid("NOVALUE"));
}

static void setenv_replaces(void)
{
	static const char *caller[] = { "TERM=xterm" };
	static const char *set[] = { "TERM=vt100", "FOO=1", "PATH=/opt/bin" };
	CHECK(env_build(&E, caller, 1, &target, set, 3) == 0);
	CHECK_STR(get("TERM"), "vt100");
	CHECK_STR(get("FOO"), "1");
	CHECK_STR(get("PATH"), "/opt/bin");
	CHECK(E.count == 7);
}

static void setenv_invalid_fails(void)
{
	static const char *set[] = { "BAD NAME=1" };
	CHECK(env_build(&E, NULL, 0, &target, set, 1) == -1);
}

static void too_large_fails(void)
{
	static char big[ENV_VALUE_MAX + 8];
	static const char *set[32];
	memcpy(big, "A=", 2);
	memset(big + 2, 'x', ENV_VALUE_MAX);
	for (int i = 0; i < 32; i++)
		set[i] = big; /* each replaces the last, but the text still grows */
	CHECK(env_build(&E, NULL, 0, &target, set, 32) == -1);
}

static void escapes_for_logs(void)
{
	char out[64];
	escape_text("a\nb\033[31m\\'\x7f\xc3\xa9\xc2\x9b\xff\"", out, sizeof out);
	CHECK_STR(out, "a\\x0ab\\x1b[31m\\x5c\\x27\\x7f\xc3\xa9\\xc2\\x9b\\xff\\x22");
	escape_text("\xe2\x80\xae\xc0\xaf", out, sizeof out); /* RLO, overlong '/' */
	CHECK_STR(out, "\\xe2\\x80\\xae\\xc0\\xaf");
	escape_text("0123456789abcdef", out, 10);
	CHECK_STR(out, "012345..."); /* 9 bytes and the NUL */
	escape_text("", out, sizeof out);
	CHECK_STR(out, "");
}

int main(void)
{
	RUN(keeps_only_the_allowlist);
	RUN(refuses_slashes_and_controls_in_values);
	RUN(setenv_names_must_be_identifiers);
	RUN(setenv_replaces);
	RUN(setenv_invalid_fails);
	RUN(too_large_fails);
	RUN(escapes_for_logs);
	return harness_done();
}
