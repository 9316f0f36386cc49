// sources: emberctl/filter.c emberctl/since.c emberctl/journal.c emberctl/kill.c emberctl/props.c emberctl/records.c init/service.c init/socket-unit.c init/condition.c init/unit-compat.c init/exec-line.c init/unit-runtime-keys.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* emberctl's verbs of issue 17 without PID 1: --since times, list's state and glob
 * filters, kill's signal names, the merge and cut of stamped logs, show's properties. */
#include "harness.h"
#include "filter.h"
#include "journal.h"
#include "kill.h"
#include "props.h"
#include "since.h"

#include <stdlib.h>
#include <time.h>

/* 2026-12-04 10:24:02 UTC, a Friday */
#define NOW (1796379842LL * 1000000)

static long long since(const char *s)
{
	char err[256];
	long long out = -42;
	if (since_parse(s, NOW, &out, err, sizeof err) < 0)
		return -1;
	return out;
}

static void since_absolute_times(void)
{
	CHECK(since("2026-12-04 10:24:02") == NOW);
	CHECK(since("2026-12-04 10:24") == NOW - 2000000);
	CHECK(since("2026-12-04") == NOW - (10 * 3600 + 24 * 60 + 2) * 1000000LL);
	CHECK(since("10:00") == NOW - (24 * 60 + 2) * 1000000LL);
	CHECK(since("10:00:01") == NOW - (24 * 60 + 1) * 1000000LL);
	CHECK(since("@1796379842") == NOW);
	CHECK(since("now") == NOW);
	CHECK(since("today") == since("2026-12-04"));
	CHECK(since("yesterday") == since("2026-12-03"));
}

static void since_relative_times(void)
{
	CHECK(since("-5min") == NOW - 300 * 1000000LL);
	CHECK(since("5 min ago") == NOW - 300 * 1000000LL);
	CHECK(since("5min ago") == NOW - 300 * 1000000LL);
	CHECK(since("-1h 30min") == NOW - 5400 * 1000000LL);
	CHECK(since("1h30min ago") == NOW - 5400 * 1000000LL);
	CHECK(since("2 days ago") == NOW - 2 * 86400 * 1000000LL);
	CHECK(since("-10s") == NOW - 10 * 1000000LL);
	CHECK(since("-250ms") == NOW - 250000);
	CHECK(since("+1w") == NOW + 7 * 86400 * 1000000LL);
}

static void since_rejects_nonsense(void)
{
	char err[256];
	long long out;
	CHECK(since("") == -1);
	CHECK(since("5") == -1);            /* neither relative nor a date */
	CHECK(since("-5 fortnights") == -1);
	CHECK(since("ago") == -1);
	CHECK(since("2026-13-01") == -1);
	CHECK(since("2026-12-04 25:00") == -1);
	CHECK(since("2026-12-04 10:24:02 junk") == -1);
	CHECK(since("10:61") == -1);
	CHECK(since("-99999999999999h") == -1);
	CHECK(since("@x") == -1);
	CHECK(since_parse("\x1b[31m", NOW, &out, err, sizeof err) == -1);
	CHECK(strstr(err, "--since") != NULL);
}

/* A list record as PID 1 sends it, parsed. */
static char text[1024];
static struct ctl_record rec;
static const struct ctl_record *record(const char *name, const char *state, const char *active,
				       const char *sub)
{
	size_t pos = 0;
	char err[128];
	snprintf(text, sizeof text, "name=%s\nstate=%s\nload_state=loaded\nactive_state=%s\n"
		 "sub_state=%s\n\n", name, state, active, sub);
	CHECK(ctl_record_read(text, strlen(text), &pos, &rec, err, sizeof err) == 1);
	return &rec;
}

static void filter_by_state(void)
{
	struct unit_filter f = { 0 };
	char list[] = "failed,running";
	char err[128];
	CHECK(filter_match(&f, record("a", "ready", "active", "running")));
	CHECK(filter_add_states(&f, list, err, sizeof err) == 0 && f.nstates == 2);
	CHECK(filter_match(&f, record("a", "failed", "failed", "failed")));
	CHECK(filter_match(&f, record("a", "permanent-failure", "failed", "failed")));
	CHECK(filter_match(&f, record("a", "ready", "active", "running"))); /* SubState */
	CHECK(!filter_match(&f, record("a", "ready", "active", "exited")));
	CHECK(!filter_match(&f, record("a", "stopped", "inactive", "dead")));
	struct unit_filter g = { 0 };
	char ember_state[] = "permanent-failure";
	CHECK(filter_add_states(&g, ember_state, err, sizeof err) == 0);
	CHECK(filter_match(&g, record("a", "permanent-failure", "failed", "failed")));
	CHECK(!filter_match(&g, record("a", "failed", "failed", "failed")));
}

static void filter_rejects_unknown_states(void)
{
	struct unit_filter f = { 0 };
	char bad[] = "failed,frobbed", empty[] = "failed,,active", err[128];
	CHECK(filter_add_states(&f, bad, err, sizeof err) == -1);
	CHECK(strstr(err, "frobbed") != NULL);
	CHECK(filter_add_states(&f, empty, err, sizeof err) == -1);
	CHECK(filter_state_at(0) != NULL);
}

static void filter_by_glob(void)
{
	char *pats[] = { "ssh*", "*.socket" };
	struct unit_filter f = { .pattern = pats, .npatterns = 1 };
	CHECK(filter_match(&f, record("sshd", "ready", "active", "running")));
	CHECK(!filter_match(&f, record("getty@tty1", "ready", "active", "running")));
	pats[0] = "*.service";
	CHECK(filter_match(&f, record("sshd", "ready", "active", "running"))); /* full name */
	pats[0] = "getty@tty[12]";
	CHECK(filter_match(&f, record("getty@tty1", "ready", "active", "running")));
	CHECK(!filter_match(&f, record("getty@tty3", "ready", "active", "running")));
	f.npatterns = 2;
	CHECK(filter_match(&f, record("dbus.socket", "ready", "active", "listening")));
	/* state and pattern together: both must match */
	char st[] = "failed", err[64];
	CHECK(filter_add_states(&f, st, err, sizeof err) == 0);
	CHECK(!filter_match(&f, record("dbus.socket", "ready", "active", "listening")));
	CHECK(filter_match(&f, record("dbus.socket", "failed", "failed", "failed")));
}

static void kill_signal_names(void)
{
	CHECK(kill_signal_parse("TERM") == 15);
	CHECK(kill_signal_parse("SIGHUP") == 1);
	CHECK(kill_signal_parse("9") == 9);
	CHECK(kill_signal_parse("64") == 64);
	CHECK(kill_signal_parse("RTMIN") == 34);      /* systemd's numbering, not musl's 35 */
	CHECK(kill_signal_parse("SIGRTMIN+3") == 37);
	CHECK(kill_signal_parse("RTMIN+30") == 64);
	CHECK(kill_signal_parse("RTMAX") == 64);
	CHECK(kill_signal_parse("SIGRTMAX-2") == 62);
	CHECK(kill_signal_parse("RTMIN+31") == -1);
	CHECK(kill_signal_parse("RTMIN-1") == -1);
	CHECK(kill_signal_parse("0") == -1);
	CHECK(kill_signal_parse("65") == -1);
	CHECK(kill_signal_parse("SIGFOO") == -1);
	CHECK(kill_signal_parse("") == -1);
}

/* Stamped records of one unit, as a text stream. */
static struct record_set load_set(char *stream)
{
	struct record_set set;
	char err[128];
	CHECK(records_load(stream, strlen(stream), &set, err, sizeof err) == 0);
	return set;
}

static void journal_merges_by_time(void)
{
	char a[] = "t_ms=100\ntext=a1\neol=1\n\nt_ms=300\ntext=a\neol=0\n\nt_ms=300\ntext=3\n"
		   "eol=1\n\nt_ms=500\ntext=partial\neol=0\n\ncursor=77\n\n";
	char b[] = "t_ms=200\ntext=b2\neol=1\n\nt_ms=300\ntext=b3\neol=1\n\ncursor=9\n\n";
	struct record_set sa = load_set(a), sb = load_set(b);
	struct journal j = { 0 };
	unsigned long long cursor;
	char err[64], *buf = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(journal_add(&j, "a", &sa, &cursor, err, sizeof err) == 0 && cursor == 77);
	CHECK(journal_add(&j, "b", &sb, &cursor, err, sizeof err) == 0 && cursor == 9);
	journal_sort(&j);
	CHECK(j.count == 5);
	CHECK_STR(j.line[0].text, "a1");
	CHECK_STR(j.line[1].text, "b2");
	CHECK_STR(j.line[2].text, "a3"); /* a tie keeps arrival order */
	CHECK_STR(j.line[3].text, "b3");
	CHECK_STR(j.line[4].text, "partial");
	CHECK(journal_first(&j, -1, -1) == 0);
	CHECK(journal_first(&j, 250, -1) == 2);
	CHECK(journal_first(&j, -1, 2) == 3);
	CHECK(journal_first(&j, 250, 10) == 2);
	CHECK(journal_first(&j, 1000, -1) == 5);
	CHECK(journal_first(&j, -1, 0) == 5);
	f = open_memstream(&buf, &len);
	journal_print(f, &j, 3, true, 1796379842LL * 1000000 - 300000, false);
	fclose(f);
	CHECK_STR(buf, "2026-12-04 10:24:02 b: b3\n2026-12-04 10:24:02 a: partial\n");
	free(buf);
	journal_free(&j);
	records_free(&sa);
	records_free(&sb);
}

static void journal_escapes_on_a_terminal(void)
{
	char a[] = "t_ms=1\ntext=\\x1b[2Jgone\\x07\neol=1\n\n";
	struct record_set sa = load_set(a);
	struct journal j = { 0 };
	unsigned long long cursor;
	char err[64], *buf = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(journal_add(&j, "a", &sa, &cursor, err, sizeof err) == 0);
	f = open_memstream(&buf, &len);
	journal_print(f, &j, 0, false, 0, true);
	fclose(f);
	CHECK_STR(buf, "\\x1b[2Jgone\\x07\n");
	free(buf);
	journal_free(&j);
	records_free(&sa);
}

static char *show(const struct props_in *in, char **want, size_t nwant, bool value)
{
	struct props_filter pf = { want, nwant, value };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	props_print(f, in, &pf);
	fclose(f);
	return buf;
}

static void show_properties(void)
{
	char stream[] = "name=sshd\nstate=ready\nmain_pid=412\nrestarts=2\nsince_us=2000000\n"
			"description=OpenSSH \\x1b[31mserver\nload_state=loaded\nactive_state=active\n"
			"sub_state=running\nexit_status=-1\nready_us=2000000\nafter=network,dbus.socket\n"
			"result=success\nmemory_current=-1\n\n";
	struct record_set set = load_set(stream);
	struct props_in in = { "sshd", &set.rec[0], NULL, "enabled", 1796379842LL * 1000000 - 2000000 };
	char *all = show(&in, NULL, 0, false);
	char *want[] = { "ActiveState", "MainPID", "Nonexistent" };
	char *some = show(&in, want, 3, false), *values = show(&in, want, 2, true);

	CHECK(strstr(all, "Id=sshd.service\n") != NULL);
	CHECK(strstr(all, "\nDescription=OpenSSH \\x1b[31mserver\n") != NULL);
	CHECK(strstr(all, "\nSubState=running\n") != NULL);
	CHECK(strstr(all, "\nNRestarts=2\n") != NULL);
	CHECK(strstr(all, "\nUnitFileState=enabled\n") != NULL);
	CHECK(strstr(all, "\nActiveEnterTimestamp=Fri 2026-12-04 10:24:02 UTC\n") != NULL);
	CHECK(strstr(all, "\nActiveEnterTimestampMonotonic=2000000\n") != NULL);
	CHECK(strstr(all, "\nInactiveEnterTimestamp=\n") != NULL);
	CHECK(strstr(all, "\nMemoryCurrent=[not set]\n") != NULL);
	CHECK(strstr(all, "\nAfter=network.service dbus.socket\n") != NULL);
	CHECK(strstr(all, "\nExecMainCode=0\nExecMainStatus=0\n") != NULL);
	CHECK_STR(some, "ActiveState=active\nMainPID=412\n");
	CHECK_STR(values, "active\n412\n");
	free(all);
	free(some);
	free(values);
	records_free(&set);
}

static void show_unit_not_loaded(void)
{
	struct props_in in = { "nosuch", NULL, NULL, "not-found", 0 };
	char *want[] = { "LoadState", "ActiveState", "SubState", "UnitFileState" };
	char *out = show(&in, want, 4, false);
	CHECK_STR(out, "LoadState=not-found\nActiveState=inactive\nSubState=dead\n"
		       "UnitFileState=not-found\n");
	free(out);
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	RUN(since_absolute_times);
	RUN(since_relative_times);
	RUN(since_rejects_nonsense);
	RUN(filter_by_state);
	RUN(filter_rejects_unknown_states);
	RUN(filter_by_glob);
	RUN(kill_signal_names);
	RUN(journal_merges_by_time);
	RUN(journal_escapes_on_a_terminal);
	RUN(show_properties);
	RUN(show_unit_not_loaded);
	return harness_done();
}
