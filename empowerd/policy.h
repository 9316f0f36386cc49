#ifndef EMBER_EMPOWERD_POLICY_H
#define EMBER_EMPOWERD_POLICY_H
/* empower.conf(5): doas-like rules, the last matching rule wins.
 *
 *   permit|deny [nopass] [persist[=DURATION]] USER|:GROUP [as TARGET] [cmd PATH [args ARG...]]
 *
 * The parser reads a buffer (no I/O) into fixed arrays; the matcher is pure too. The
 * daemon reads the file, checks who owns it, and asks. */
#include <stdbool.h>
#include <stddef.h>

#define POLICY_PATH "/etc/ember/empower.conf"
#define POLICY_FILE_MAX (256 * 1024)     /* bytes of policy text */
#define POLICY_RULES_MAX 256
#define POLICY_WORD_MAX 256              /* a user or group name */
#define POLICY_CMD_MAX 1024              /* cmd PATH */
#define POLICY_ARGS_TEXT_MAX 1024        /* args ... as NUL-separated strings */
#define POLICY_ARGS_MAX 64
#define POLICY_PERSIST_DEFAULT_MS (5UL * 60 * 1000)
#define POLICY_PERSIST_MAX_MS (24UL * 60 * 60 * 1000)

struct policy_rule {
	bool permit;
	bool nopass;
	unsigned long persist_ms;      /* 0: ask every time */
	bool group;                    /* identity is :GROUP */
	char identity[POLICY_WORD_MAX];
	char target[POLICY_WORD_MAX];  /* "": any target user */
	char cmd[POLICY_CMD_MAX];      /* "": any command */
	bool args_set;                 /* args given: the arguments must equal them */
	size_t argc;
	char args[POLICY_ARGS_TEXT_MAX];
	unsigned line;
};

struct policy {
	size_t count;
	struct policy_rule rule[POLICY_RULES_MAX];
};

/* What is asked: the caller (name and the names of its groups), the target user, the
 * command as it will be executed (absolute path) and its arguments after argv[0]. */
struct policy_query {
	const char *user;
	const char *const *groups;
	size_t group_count;
	const char *target;
	const char *cmd;
	const char *const *args;
	size_t argc;
};

/* Parse text (len bytes, need not be NUL-terminated). 0, or -1 with err set to
 * "line N: why" (errno EINVAL, or E2BIG past POLICY_RULES_MAX). */
int policy_parse(const char *text, size_t len, struct policy *p, char *err, size_t err_size);

/* The last rule that matches q, or NULL (no rule: refused). */
const struct policy_rule *policy_match(const struct policy *p, const struct policy_query *q);
#endif
