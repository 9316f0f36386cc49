// sources: empowerd/policy.c
/* empower.conf: the grammar, its refusals, and last-match-wins matching. */
#include "harness.h"
#include "policy.h"

#include <errno.h>
#include <string.h>

static struct policy P;
static char err[256];

/* A small passwd and group database: names to ids, as the daemon resolves them. "toor"
 * is a second name for uid 0; "wheel" is both a user and a group (different ids). */
static const struct { const char *name; uint32_t id; } users[] = {
	{ "root", 0 }, { "toor", 0 }, { "bob", 1001 }, { "alice", 1002 }, { "wheel", 1003 },
}, groups[] = { { "wheel", 10 }, { "users", 100 } };

static int find(const char *name, uint32_t *id, int group)
{
	size_t n = group ? sizeof groups / sizeof groups[0] : sizeof users / sizeof users[0];
	for (size_t i = 0; i < n; i++)
		if (strcmp(name, group ? groups[i].name : users[i].name) == 0) {
			*id = group ? groups[i].id : users[i].id;
			return 0;
		}
	return -1;
}

static int user_id(const char *name, uint32_t *id) { return find(name, id, 0); }
static int group_id(const char *name, uint32_t *id) { return find(name, id, 1); }

static int parse(const char *text)
{
	int r = policy_parse(text, strlen(text), &P, err, sizeof err);
	if (r == 0)
		policy_resolve(&P, user_id, group_id);
	return r;
}

static const char *none[1];

static const struct policy_rule *ask(const char *user, const char *group, const char *target,
				     const char *cmd, const char *const *args, size_t argc)
{
	uint32_t uid = 99999, gid = 99999, tuid = 99999;
	user_id(user, &uid);
	user_id(target, &tuid);
	if (group)
		group_id(group, &gid);
	struct policy_query q = { .uid = uid, .gids = &gid, .gid_count = group ? 1 : 0,
				  .target_uid = tuid, .cmd = cmd, .args = args ? args : none,
				  .argc = argc };
	return policy_match(&P, &q);
}

/* A deny on root holds for every name of uid 0, and a group rule needs the gid. */
static void matches_ids_not_names(void)
{
	CHECK(parse("permit nopass bob\ndeny bob as root\npermit nopass allow-nnp :users\n") == 0);
	CHECK(ask("bob", NULL, "toor", "/bin/sh", NULL, 0) != NULL);
	CHECK(!ask("bob", NULL, "toor", "/bin/sh", NULL, 0)->permit);
	CHECK(ask("bob", NULL, "bob", "/bin/sh", NULL, 0)->permit);
	CHECK(ask("alice", NULL, "alice", "/bin/sh", NULL, 0) == NULL);
	CHECK(ask("alice", "users", "alice", "/bin/sh", NULL, 0)->allow_nnp);
	CHECK(parse("permit nopass nosuchuser\npermit nopass bob as nosuchuser\n") == 0);
	CHECK(ask("bob", NULL, "bob", "/bin/sh", NULL, 0) == NULL);
}

static void parses_full_rule(void)
{
	CHECK(parse("permit persist=10min :wheel as alice cmd /usr/bin/perf args record -a\n") == 0);
	CHECK(P.count == 1);
	const struct policy_rule *r = &P.rule[0];
	CHECK(r->permit && !r->nopass && r->persist_ms == 600000);
	CHECK(r->group);
	CHECK_STR(r->identity, "wheel");
	CHECK_STR(r->target, "alice");
	CHECK_STR(r->cmd, "/usr/bin/perf");
	CHECK(r->args_set && r->argc == 2);
	CHECK_STR(r->args, "record");
	CHECK_STR(r->args + 7, "-a");
}

static void skips_comments_and_blank_lines(void)
{
	CHECK(parse("# a comment\n\n   \npermit nopass bob # trailing\n") == 0);
	CHECK(P.count == 1);
	CHECK(P.rule[0].nopass && P.rule[0].line == 4);
	CHECK_STR(P.rule[0].identity, "bob");
}

static void persist_default_is_five_minutes(void)
{
	CHECK(parse("permit persist bob") == 0);
	CHECK(P.rule[0].persist_ms == 300000);
}

static void quotes_and_continuations(void)
{
	CHECK(parse("permit nopass bob cmd \"/opt/my tool\" \\\n args \"a b\" c\\ d\n") == 0);
	CHECK(P.count == 1);
	CHECK_STR(P.rule[0].cmd, "/opt/my tool");
	CHECK(P.rule[0].argc == 2);
	CHECK_STR(P.rule[0].args, "a b");
	CHECK_STR(P.rule[0].args + 4, "c d");
}

static void refuses_bad_rules(void)
{
	static const char *bad[] = {
		"allow bob",                 /* unknown verb */
		"permit",                    /* no identity */
		"permit nopass",             /* no identity after options */
		"deny nopass bob",           /* deny takes no options */
		"permit nopass persist bob", /* contradiction */
		"permit persist=0 bob",      /* zero duration */
		"permit persist=2d bob",     /* beyond the maximum */
		"permit persist=soon bob",
		"permit bob as",             /* missing target */
		"permit bob as a/b",
		"permit bob cmd perf",       /* relative command */
		"permit bob cmd",
		"permit bob extra",
		"permit bob cmd /bin/x extra",
		"permit \"bob",              /* unterminated quote */
		"permit :",                  /* empty group */
		"permit b:ob",
		"permit bob\\",              /* backslash at the end */
		"permit bob\x01",            /* control character */
		"permit bob\\\x1b",          /* escaped control character */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int rc = parse(bad[i]);
		if (rc != -1 || errno != EINVAL || strncmp(err, "line 1: ", 8) != 0) {
			printf("  accepted or bad error for \"%s\": %s\n", bad[i], err);
			CHECK(0);
		}
	}
}

static void names_the_line(void)
{
	CHECK(parse("permit bob\n\npermit\n") == -1);
	CHECK_STR(err, "line 3: missing the user or :group");
}

static void refuses_too_many_rules(void)
{
	static char text[POLICY_RULES_MAX * 12 + 64];
	size_t n = 0;
	for (int i = 0; i <= POLICY_RULES_MAX; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "permit u%d\n", i);
	CHECK(policy_parse(text, n, &P, err, sizeof err) == -1 && errno == E2BIG);
}

static void refuses_nul_byte(void)
{
	CHECK(policy_parse("permit bob\0\n", 12, &P, err, sizeof err) == -1);
}

static void no_rule_means_no(void)
{
	CHECK(parse("permit alice\n") == 0);
	CHECK(ask("bob", NULL, "bob", "/bin/true", NULL, 0) == NULL);
	CHECK(parse("") == 0);
	CHECK(ask("bob", NULL, "bob", "/bin/true", NULL, 0) == NULL);
}

static void last_match_wins(void)
{
	CHECK(parse("permit nopass bob\ndeny bob\n") == 0);
	const struct policy_rule *r = ask("bob", NULL, "bob", "/bin/true", NULL, 0);
	CHECK(r && !r->permit && r->line == 2);
	CHECK(parse("deny bob\npermit nopass bob\n") == 0);
	r = ask("bob", NULL, "bob", "/bin/true", NULL, 0);
	CHECK(r && r->permit);
}

static void group_rules_match_members(void)
{
	CHECK(parse("permit nopass :wheel\n") == 0);
	CHECK(ask("bob", "wheel", "bob", "/bin/true", NULL, 0) != NULL);
	CHECK(ask("bob", "users", "bob", "/bin/true", NULL, 0) == NULL);
	/* A user named like the group is not a member. */
	CHECK(ask("wheel", NULL, "wheel", "/bin/true", NULL, 0) == NULL);
}

static void target_and_command_restrict(void)
{
	static const char *rec[] = { "record", "-a" };
	static const char *other[] = { "top" };
	CHECK(parse("permit nopass bob as alice cmd /usr/bin/perf args record -a\n") == 0);
	CHECK(ask("bob", NULL, "alice", "/usr/bin/perf", rec, 2) != NULL);
	CHECK(ask("bob", NULL, "bob", "/usr/bin/perf", rec, 2) == NULL);
	CHECK(ask("bob", NULL, "alice", "/usr/bin/perf", other, 1) == NULL);
	CHECK(ask("bob", NULL, "alice", "/usr/bin/perf", rec, 1) == NULL);
	CHECK(ask("bob", NULL, "alice", "/tmp/perf", rec, 2) == NULL);
	CHECK(parse("permit nopass bob cmd /usr/bin/perf args\n") == 0);
	CHECK(ask("bob", NULL, "bob", "/usr/bin/perf", NULL, 0) != NULL);
	CHECK(ask("bob", NULL, "bob", "/usr/bin/perf", other, 1) == NULL);
	CHECK(parse("permit nopass bob cmd /usr/bin/perf\n") == 0);
	CHECK(ask("bob", NULL, "bob", "/usr/bin/perf", other, 1) != NULL);
}

int main(void)
{
	RUN(matches_ids_not_names);
	RUN(parses_full_rule);
	RUN(skips_comments_and_blank_lines);
	RUN(persist_default_is_five_minutes);
	RUN(quotes_and_continuations);
	RUN(refuses_bad_rules);
	RUN(names_the_line);
	RUN(refuses_too_many_rules);
	RUN(refuses_nul_byte);
	RUN(no_rule_means_no);
	RUN(last_match_wins);
	RUN(group_rules_match_members);
	RUN(target_and_command_restrict);
	return harness_done();
}
