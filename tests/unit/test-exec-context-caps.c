// sources: caps/args.c
/* Capability masks, ember-caps' command line built by exec_caps_build_argv() and read
 * back by ember-caps' parser, and failure records. */
#include "harness.h"
#include "args.h"
#include "exec-context.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#define CAPBIT(n) ((uint64_t)1 << (n))

static void parses_names_numbers_and_hex(void)
{
	uint64_t m = 0;
	char bad[32];

	CHECK(exec_caps_parse("cap_net_bind_service", &m, bad, sizeof bad) == 0 && m == CAPBIT(10));
	CHECK(exec_caps_parse("CAP_NET_RAW,kill,0", &m, bad, sizeof bad) == 0 &&
	      m == (CAPBIT(13) | CAPBIT(5) | CAPBIT(0)));
	CHECK(exec_caps_parse("cap_checkpoint_restore", &m, bad, sizeof bad) == 0 && m == CAPBIT(40));
	CHECK(exec_caps_parse("63", &m, bad, sizeof bad) == 0 && m == CAPBIT(63));
	CHECK(exec_caps_parse("0x400", &m, bad, sizeof bad) == 0 && m == 0x400);
	CHECK(exec_caps_parse("0XFFFFFFFFFFFFFFFF", &m, bad, sizeof bad) == 0 && m == EXEC_CAPS_ALL);
	CHECK(exec_caps_parse("all", &m, bad, sizeof bad) == 0 && m == EXEC_CAPS_ALL);
	CHECK(exec_caps_parse("none", &m, bad, sizeof bad) == 0 && m == 0);
}

static void rejects_bad_masks(void)
{
	uint64_t m = 7;
	char bad[32];

	CHECK(exec_caps_parse("cap_net_raw,cap_bogus", &m, bad, sizeof bad) < 0 && errno == EINVAL);
	CHECK_STR(bad, "cap_bogus");
	CHECK(exec_caps_parse("64", &m, bad, sizeof bad) < 0);
	CHECK(exec_caps_parse("-1", &m, bad, sizeof bad) < 0);
	CHECK(exec_caps_parse("", &m, bad, sizeof bad) < 0);
	CHECK(exec_caps_parse("cap_kill,", &m, bad, sizeof bad) < 0);
	CHECK(exec_caps_parse(",cap_kill", &m, bad, sizeof bad) < 0);
	CHECK(exec_caps_parse("0x", &m, bad, sizeof bad) < 0);
	CHECK(exec_caps_parse("0x10000000000000000", &m, bad, sizeof bad) < 0);
	CHECK(exec_caps_parse("0x4g", &m, bad, sizeof bad) < 0);
	CHECK(exec_caps_parse("ALL", &m, bad, sizeof bad) < 0);
	CHECK(exec_caps_parse("cap_", &m, bad, sizeof bad) < 0);
	CHECK(m == 7);
}

static void names_round_trip(void)
{
	char buf[128];

	for (int c = 0; exec_cap_name(c); c++)
		CHECK(exec_cap_from_name(exec_cap_name(c)) == c);
	CHECK(exec_cap_name(41) == NULL && exec_cap_name(-1) == NULL);
	exec_caps_format(CAPBIT(0) | CAPBIT(10) | CAPBIT(50), buf, sizeof buf);
	CHECK_STR(buf, "cap_chown,cap_net_bind_service,50");
	exec_caps_format(0, buf, sizeof buf);
	CHECK_STR(buf, "none");
	exec_caps_format(EXEC_CAPS_ALL, buf, 24);
	CHECK(strlen(buf) == 23 && strcmp(buf + 20, "...") == 0);
}

static void argv_has(char *const *argv, const char *const *want)
{
	size_t i;

	for (i = 0; want[i]; i++) {
		if (!argv[i] || strcmp(argv[i], want[i]) != 0) {
			printf("  arg %zu: \"%s\" != \"%s\"\n", i, argv[i] ? argv[i] : "(end)", want[i]);
			harness_case_failed = 1;
			return;
		}
	}
	CHECK(argv[i] == NULL);
}

static void builds_full_command_line(void)
{
	static struct exec_caps_args a;
	struct exec_context c;
	char *argv[] = { "sshd", "-D", "--", NULL };

	exec_context_init(&c);
	c.set_ids = true;
	c.uid = 33;
	c.gid = 34;
	c.groups[0] = 34;
	c.groups[1] = 4294967294u;
	c.group_count = 2;
	c.cap_ambient = CAPBIT(10);
	c.cap_bounding_set = true;
	c.cap_bounding = CAPBIT(10) | CAPBIT(13);
	c.no_new_privs = true;
	c.workdir = "/srv/www";
	c.workdir_optional = true;
	c.report_fd = 7;
	c.caps_helper = "/x/ember-caps";
	CHECK(exec_caps_build_argv(&c, "/usr/sbin/sshd", argv, &a) == 0);
	argv_has(a.argv, (const char *const[]){ "/x/ember-caps", "--report-fd", "7", "--uid", "33",
		"--gid", "34", "--groups", "34,4294967294", "--bounding", "0x2400", "--ambient",
		"0x400", "--no-new-privs", "--chdir", "/srv/www", "--chdir-optional", "--",
		"/usr/sbin/sshd", "sshd", "-D", "--", NULL });
}

static void builds_minimal_command_line(void)
{
	static struct exec_caps_args a;
	struct exec_context c;
	char *argv[] = { "sh", NULL };

	exec_context_init(&c);
	c.cap_ambient = EXEC_CAPS_ALL;
	c.workdir_fd = 9;
	c.set_ids = true; /* no groups: an explicit empty list */
	CHECK(exec_caps_build_argv(&c, "/bin/sh", argv, &a) == 0);
	argv_has(a.argv, (const char *const[]){ EXEC_CAPS_HELPER, "--uid", "0", "--gid", "0",
		"--groups", "", "--ambient", "all", "--chdir-fd", "9", "--", "/bin/sh", "sh", NULL });
}

static void too_many_arguments_is_e2big(void)
{
	static struct exec_caps_args a;
	static char *argv[EXEC_CAPS_ARGV_MAX + 1];
	struct exec_context c;

	exec_context_init(&c);
	c.cap_ambient = 1;
	for (size_t i = 0; i < EXEC_CAPS_ARGV_MAX; i++)
		argv[i] = "x";
	CHECK(exec_caps_build_argv(&c, "/bin/x", argv, &a) < 0 && errno == E2BIG);
	argv[EXEC_CAPS_ARGV_MAX - 8] = NULL;
	CHECK(exec_caps_build_argv(&c, "/bin/x", argv, &a) == 0);
}

/* What the builder writes, ember-caps' parser reads back unchanged. */
static void parser_reads_what_builder_writes(void)
{
	static struct exec_caps_args a;
	static struct caps_request r;
	struct exec_context c;
	char *argv[] = { "cmd", "--uid", "0", NULL };
	char err[256];
	int argc = 0;

	exec_context_init(&c);
	c.set_ids = true;
	c.uid = 1000;
	c.gid = 100;
	c.group_count = 3;
	c.groups[0] = 100;
	c.groups[1] = 27;
	c.groups[2] = 44;
	c.cap_ambient = EXEC_CAPS_ALL;
	c.cap_bounding_set = true;
	c.cap_bounding = 0;
	c.workdir_fd = 5;
	c.report_fd = 6;
	CHECK(exec_caps_build_argv(&c, "/bin/cmd", argv, &a) == 0);
	while (a.argv[argc])
		argc++;
	CHECK(caps_parse_args(argc, a.argv, &r, err, sizeof err) == 0);
	CHECK_STR(err, "");
	CHECK(r.uid_set && r.uid == 1000 && r.gid_set && r.gid == 100);
	CHECK(r.groups_set && r.group_count == 3 && r.groups[1] == 27 && r.groups[2] == 44);
	CHECK(r.ambient == EXEC_CAPS_ALL && r.bounding_set && r.bounding == 0);
	CHECK(r.chdir_fd == 5 && r.report_fd == 6 && !r.chdir_path && !r.no_new_privs);
	CHECK_STR(r.path, "/bin/cmd");
	CHECK_STR(r.argv[0], "cmd");
	CHECK_STR(r.argv[1], "--uid"); /* the command's own arguments stay its own */
	CHECK(r.argv[3] == NULL);
}

static int parse(const char *const *args, struct caps_request *r, char *err, size_t size)
{
	int argc = 0;
	while (args[argc])
		argc++;
	return caps_parse_args(argc, (char **)args, r, err, size);
}

static void parser_refuses_bad_command_lines(void)
{
	static struct caps_request r;
	const char *const *const bad[] = {
		(const char *const[]){ "ember-caps", NULL },
		(const char *const[]){ "ember-caps", "--", "/bin/true", NULL },
		(const char *const[]){ "ember-caps", "/bin/true", "true", NULL },
		(const char *const[]){ "ember-caps", "--uid", "1", "--", "/x", "x", NULL },
		(const char *const[]){ "ember-caps", "--uid", "4294967295", "--gid", "0", "--", "/x", "x", NULL },
		(const char *const[]){ "ember-caps", "--uid=-1", "--gid", "0", "--", "/x", "x", NULL },
		(const char *const[]){ "ember-caps", "--gid", "1", "--gid", "2", "--", "/x", "x", NULL },
		(const char *const[]){ "ember-caps", "--groups", "1,,2", "--", "/x", "x", NULL },
		(const char *const[]){ "ember-caps", "--ambient", "cap_nope", "--", "/x", "x", NULL },
		(const char *const[]){ "ember-caps", "--chdir", "/", "--chdir-fd", "3", "--", "/x", "x", NULL },
		(const char *const[]){ "ember-caps", "--chdir-optional", "--", "/x", "x", NULL },
		(const char *const[]){ "ember-caps", "--no-new-privs=1", "--", "/x", "x", NULL },
		(const char *const[]){ "ember-caps", "--bogus", "--", "/x", "x", NULL },
		(const char *const[]){ "ember-caps", "--ambient", NULL },
		(const char *const[]){ "ember-caps", "--report-fd", "x", "--", "/x", "x", NULL },
	};
	char err[256];

	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		err[0] = '\0';
		if (parse(bad[i], &r, err, sizeof err) == 0) {
			printf("  case %zu accepted\n", i);
			harness_case_failed = 1;
		}
		CHECK(err[0] != '\0');
	}
	CHECK(parse((const char *const[]){ "ember-caps", "--uid", "4294967295", "--gid", "0",
			"--", "/x", "x", NULL }, &r, err, sizeof err) < 0);
	CHECK(strstr(err, "4294967295") != NULL);
}

static void parser_accepts_equals_and_flags(void)
{
	static struct caps_request r;
	char err[256];

	CHECK(parse((const char *const[]){ "ember-caps", "--user=www", "--ambient=cap_kill",
			"--bounding", "none", "--no-new-privs", "--chdir=/srv", "--chdir-optional",
			"--groups=", "--", "/x", "x", NULL }, &r, err, sizeof err) == 0);
	CHECK_STR(r.user, "www");
	CHECK(r.ambient == CAPBIT(5) && r.bounding_set && r.bounding == 0);
	CHECK(r.no_new_privs && r.chdir_optional && r.groups_set && r.group_count == 0);
	CHECK_STR(r.chdir_path, "/srv");
	CHECK(parse((const char *const[]){ "ember-caps", "--help", NULL }, &r, err, sizeof err) == 0 &&
	      r.help);
}

static void failure_records_cross_a_pipe(void)
{
	struct exec_failure in = { .step = EXEC_STEP_SETGID, .err = EPERM, .arg = 33 }, out;
	int p[2];

	CHECK(pipe(p) == 0);
	CHECK(exec_failure_write(p[1], &in) == 0);
	close(p[1]);
	CHECK(exec_failure_read(p[0], &out) == 1);
	CHECK(out.step == EXEC_STEP_SETGID && out.err == EPERM && out.arg == 33);
	CHECK(exec_failure_read(p[0], &out) == 0); /* end of file: the exec succeeded */
	close(p[0]);

	CHECK(pipe(p) == 0);
	CHECK(write(p[1], "abc", 3) == 3); /* short record */
	close(p[1]);
	CHECK(exec_failure_read(p[0], &out) < 0 && errno == EIO);
	close(p[0]);
}

static void failures_read_well(void)
{
	struct exec_context c;
	struct exec_failure f = { .step = EXEC_STEP_SETGID, .err = EPERM, .arg = 33 };
	char buf[256];

	exec_context_init(&c);
	c.workdir = "/srv/www";
	exec_failure_format(&f, &c, "/usr/sbin/sshd", buf, sizeof buf);
	CHECK_STR(buf, "setgid(33): Operation not permitted");
	f = (struct exec_failure){ .step = EXEC_STEP_CHDIR, .err = ENOENT, .arg = -1 };
	exec_failure_format(&f, &c, NULL, buf, sizeof buf);
	CHECK_STR(buf, "chdir(/srv/www): No such file or directory");
	f = (struct exec_failure){ .step = EXEC_STEP_RLIMIT, .err = EPERM, .arg = RLIMIT_NOFILE };
	exec_failure_format(&f, &c, NULL, buf, sizeof buf);
	CHECK_STR(buf, "setrlimit(RLIMIT_NOFILE): Operation not permitted");
	f = (struct exec_failure){ .step = EXEC_STEP_CAP_UNAVAILABLE, .err = EPERM, .arg = 24 };
	exec_failure_format(&f, NULL, NULL, buf, sizeof buf);
	CHECK_STR(buf, "ambient cap_sys_resource: not in the bounding and permitted sets");
	f = (struct exec_failure){ .step = EXEC_STEP_EXECVE, .err = ENOENT };
	exec_failure_format(&f, NULL, "/usr/sbin/sshd", buf, sizeof buf);
	CHECK_STR(buf, "execve(/usr/sbin/sshd): No such file or directory");
	CHECK_STR(exec_step_name(EXEC_STEP_COUNT), "unknown step");
}

int main(void)
{
	RUN(parses_names_numbers_and_hex);
	RUN(rejects_bad_masks);
	RUN(names_round_trip);
	RUN(builds_full_command_line);
	RUN(builds_minimal_command_line);
	RUN(too_many_arguments_is_e2big);
	RUN(parser_reads_what_builder_writes);
	RUN(parser_refuses_bad_command_lines);
	RUN(parser_accepts_equals_and_flags);
	RUN(failure_records_cross_a_pipe);
	RUN(failures_read_well);
	return harness_done();
}
