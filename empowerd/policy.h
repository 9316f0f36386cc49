#ifndef EMBER_EMPOWERD_POLICY_H
#define EMBER_EMPOWERD_POLICY_H
/* empower.conf(5): doas-like rules, the last matching rule wins.
 *
 *   permit|deny [nopass] [persist[=DURATION]] [allow-nnp] USER|:GROUP [as TARGET]
 *               [cmd PATH [args ARG...]]
 *
 * The parser reads a buffer (no I/O) into fixed arrays; the matcher is pure too. The
 * daemon reads the file, checks who owns it, and asks. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
	bool allow_nnp;                /* allow-nnp: callers under no_new_privs may use it */
	char identity[POLICY_WORD_MAX];
	char target[POLICY_WORD_MAX];  /* "": any target user */
	/* Filled by policy_resolve(): rules match numeric ids, never names (a second
	 * passwd name for uid 0 is still uid 0). An unresolved name matches nobody. */
	bool identity_resolved, target_resolved;
	uint32_t identity_id, target_id;
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

/* What is asked, in numbers the kernel gave: the caller's uid and its real groups at
 * connect (primary and supplementary, SO_PEERCRED/SO_PEERGROUPS), the target uid, the
 * command as it will be executed (absolute path) and its arguments after argv[0]. */
struct policy_query {
	uint32_t uid;
	const uint32_t *gids;
	size_t gid_count;
	uint32_t target_uid;
	const char *cmd;
	const char *const *args;
	size_t argc;
};

/* Parse text (len bytes, need not be NUL-terminated). 0, or -1 with err set to
 * "line N: why" (errno EINVAL, or E2BIG past POLICY_RULES_MAX). */
int policy_parse(const char *text, size_t len, struct policy *p, char *err, size_t err_size);

/* A name to an id: 0, or -1 when there is no such user or group. */
typedef int (*policy_id_fn)(const char *name, uint32_t *id);
/* Resolve every rule's user, :group and target name to its id. */
void policy_resolve(struct policy *p, policy_id_fn user_id, policy_id_fn group_id);

/* The last rule that matches q, or NULL (no rule: refused). */
const struct policy_rule *policy_match(const struct policy *p, const struct policy_query *q);
#endif
