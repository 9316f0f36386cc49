// sources: init/generators.c init/rlimits.c
/* systemd's generators run by ember-init, against real programs in a fixture tree: the
 * first directory wins a name, masks (a link to /dev/null, an empty file) are not run,
 * the three output directories are fresh (a planted symlink in them is removed, never
 * followed), a failing generator is counted and the others still run, and one that
 * hangs is killed at the timeout. */
#include "harness.h"
#include "../../init/generators.h"
#include "log.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char root[] = "/tmp/ember-generators-XXXXXX";
static char path[512];
static char out[1024];

static const char *at(const char *rel)
{
	snprintf(path, sizeof path, "%s/%s", root, rel);
	return path;
}

static void put(const char *rel, const char *text, mode_t mode)
{
	FILE *f = fopen(at(rel), "w");
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
	chmod(at(rel), mode);
}

static bool exists(const char *rel)
{
	struct stat st;
	return lstat(at(rel), &st) == 0;
}

static char *slurp(const char *rel)
{
	static char buf[1024];
	FILE *f = fopen(at(rel), "r");
	size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	return buf;
}

static void setup(void)
{
	char script[1024];

	if (!mkdtemp(root))
		exit(1);
	mkdir(at("a"), 0755);
	mkdir(at("b"), 0755);
	mkdir(at("out"), 0755);
	mkdir(at("out/generator"), 0755);
	mkdir(at("out/generator.early"), 0755);
	mkdir(at("out/generator.early/old.service.d"), 0755);
	mkdir(at("outside"), 0755);
	put("outside/keep", "keep\n", 0644);
	put("out/generator/stale.service", "[Service]\n", 0644);
	put("out/generator.early/old.service.d/x.conf", "[Service]\n", 0644);
	{
		char target[512];
		snprintf(target, sizeof target, "%s/outside", root);
		if (symlink(target, at("out/generator/planted")) < 0)
			exit(1);
	}
	snprintf(script, sizeof script,
		 "#!/bin/sh\necho \"$0 $# $1 $2 $3 $SYSTEMD_SCOPE $FACT ${PATH%%%%:*}\" >%s/writer.args\n"
		 "printf '[Service]\\nExecStart=/bin/true\\n' >\"$1/gen.service\"\n"
		 "mkdir -p \"$1/multi-user.target.wants\"\n"
		 "ln -s ../gen.service \"$1/multi-user.target.wants/gen.service\"\n", root);
	put("a/writer", script, 0755);
	snprintf(script, sizeof script, "#!/bin/sh\ntouch %s/b-writer-ran\n", root);
	put("b/writer", script, 0755);
	snprintf(script, sizeof script, "#!/bin/sh\ntouch %s/masked-ran\n", root);
	put("b/masked", script, 0755);
	put("b/empty", script, 0755);
	put("b/plain", script, 0644); /* not executable: not a generator */
	if (symlink("/dev/null", at("a/masked")) < 0)
		exit(1);
	put("a/empty", "", 0755);
	put("a/fails", "#!/bin/sh\nexit 3\n", 0755);
	put("b/hangs", "#!/bin/sh\nexec sleep 30\n", 0755);
}

static void runs_what_it_should(void)
{
	static const char *const env[] = { "SYSTEMD_SCOPE=system", "FACT=told", NULL };
	struct generators_result res;
	char search[600];
	struct timespec t0, t1;

	snprintf(search, sizeof search, "%s/a:%s/b:relative/ignored", root, root);
	snprintf(out, sizeof out, "%s/out", root);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	generators_run(search, out, 300, env, &res);
	clock_gettime(CLOCK_MONOTONIC, &t1);

	CHECK(res.ran == 3);    /* a/writer, a/fails, b/hangs */
	CHECK(res.masked == 2); /* a/masked, a/empty: b's of those names are not run */
	CHECK(res.failed == 1);
	CHECK(res.killed == 1);
	CHECK(t1.tv_sec - t0.tv_sec < 5);
	CHECK(!exists("b-writer-ran"));
	CHECK(!exists("masked-ran"));
	CHECK(exists("out/generator/gen.service"));
	CHECK(exists("out/generator/multi-user.target.wants/gen.service"));
	snprintf(out, sizeof out, "%s/a/writer 3 %s/out/generator %s/out/generator.early "
		 "%s/out/generator.late system told /usr/local/sbin\n", root, root, root, root);
	CHECK_STR(slurp("writer.args"), out);
	CHECK(exists("out/generator.late"));
	/* the last run's output is gone; a planted link went, not what it points to */
	CHECK(!exists("out/generator/stale.service"));
	CHECK(!exists("out/generator.early/old.service.d"));
	CHECK(!exists("out/generator/planted"));
	CHECK(exists("outside/keep"));
}

static void nothing_to_run(void)
{
	struct generators_result res;
	char search[600], base[520];

	snprintf(search, sizeof search, "%s/none", root);
	snprintf(base, sizeof base, "%s/out2", root);
	mkdir(at("out2"), 0755);
	mkdir(at("out2/generator"), 0755);
	put("out2/generator/stale.service", "[Service]\n", 0644); /* a generator since removed */
	generators_run(search, base, 300, NULL, &res);
	CHECK(res.ran == 0 && res.failed == 0 && res.killed == 0);
	/* none made: an empty systemd directory would switch the loader to the default
	 * target on a system of ember's own units */
	CHECK(!exists("out2/generator") && !exists("out2/generator.early"));
}

/* What PID 1 logs while fn runs, read back from a file standing in for the console. */
static char *captured(void (*fn)(void))
{
	static char buf[4096];
	FILE *f = tmpfile();
	size_t n = 0;

	if (!f)
		return strcpy(buf, "(no tmpfile)");
	log_set_console(fileno(f));
	fn();
	log_set_console(2);
	rewind(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static struct generators_result hostile_res;

static void run_hostile(void)
{
	char search[600], base[600];

	snprintf(search, sizeof search, "%s/c\033d", root);
	snprintf(base, sizeof base, "%s/out3", root);
	generators_run(search, base, 2000, NULL, &hostile_res);
}

/* File names (and a directory) with ESC and a newline: every one is named escaped, so no
 * control byte reaches the log and no line can be forged; the others still run. */
static void control_bytes_in_names_are_escaped(void)
{
	char script[600], longname[96], *log;
	size_t lines = 0;

	mkdir(at("c\033d"), 0755);
	mkdir(at("out3"), 0755);
	put("c\033d/bad\033[31m\nname", "#!/bin/sh\nexit 5\n", 0755);
	snprintf(longname, sizeof longname, "c\033d/%s\033%s", "long-name-with-an-escape-",
		 "and-more-than-sixty-four-bytes-in-all-of-it");
	put(longname, "#!/bin/sh\nexit 0\n", 0755);
	snprintf(script, sizeof script, "#!/bin/sh\ntouch %s/c-good-ran\n", root);
	put("c\033d/good", script, 0755);
	log = captured(run_hostile);
	CHECK(hostile_res.ran == 2 && hostile_res.failed == 1 && hostile_res.skipped == 1);
	CHECK(exists("c-good-ran"));
	CHECK(strstr(log, "generator bad\\x1b[31m\\x0aname exited with status 5\n") != NULL);
	CHECK(strstr(log, "c\\x1bd/long-name-with-an-escape-\\x1band-more") != NULL);
	CHECK(strstr(log, "skipped: name too long\n") != NULL);
	CHECK(!strchr(log, '\033'));
	for (const char *p = log; (p = strchr(p, '\n')); p++)
		lines++;
	CHECK(lines == 3); /* the failure, the skip, the summary */
	if (strchr(log, '\033') || lines != 3)
		printf("  log: %s\n", log);
}

int main(void)
{
	setup();
	RUN(runs_what_it_should);
	RUN(nothing_to_run);
	RUN(control_bytes_in_names_are_escaped);
	{
		char cmd[600];
		snprintf(cmd, sizeof cmd, "rm -rf %s", root);
		if (system(cmd) != 0)
			return 1;
	}
	return harness_done();
}
