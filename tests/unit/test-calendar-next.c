// sources:
/* Calendar events (lib/calendar.c) as timer units use them: Debian's own OnCalendar=
 * lines, the next elapse across month ends, leap years, "~" days, weekdays and the
 * days the clocks change (Europe/Berlin, from the host's tzdata, or its POSIX rule), the
 * normalized forms systemd prints, and refusals with a reason. Expected times were
 * checked against systemd-analyze calendar (systemd 252). */
#include "harness.h"
#include "calendar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct calendar_spec spec;
static char err[128];

/* "YYYY-MM-DD HH:MM:SS" in the current TZ -> seconds */
static long long at(const char *when)
{
	struct tm tm = { .tm_isdst = -1 };

	if (sscanf(when, "%d-%d-%d %d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
		   &tm.tm_min, &tm.tm_sec) != 6)
		abort();
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (long long)mktime(&tm);
}

static const char *show(long long t)
{
	static char buf[64];
	time_t tt = (time_t)t;
	struct tm tm;

	localtime_r(&tt, &tm);
	strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %Z", &tm);
	return buf;
}

/* The elapses of event after `from`, one per expected string. */
static void expect_next(const char *event, const char *from, const char *const *want, int n)
{
	long long t = at(from), next;

	if (calendar_parse(event, &spec, err, sizeof err) < 0) {
		printf("  %s: refused: %s\n", event, err);
		CHECK(0);
		return;
	}
	for (int i = 0; i < n; i++) {
		if (calendar_next(&spec, t, &next) < 0) {
			printf("  %s: never, expected %s\n", event, want[i]);
			CHECK(0);
			return;
		}
		if (strcmp(show(next), want[i]) != 0) {
			printf("  %s after %s: %s, expected %s\n", event, show(t), show(next), want[i]);
			CHECK(0);
		}
		t = next;
	}
}

#define EXPECT(event, from, ...) do { \
	static const char *const w_[] = { __VA_ARGS__ }; \
	expect_next(event, from, w_, (int)(sizeof w_ / sizeof *w_)); \
} while (0)

static void debian_timers(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	EXPECT("*-*-* 6,18:00", "2026-12-05 08:49:00", /* apt-daily */
	       "2026-12-05 18:00:00 UTC", "2026-12-06 06:00:00 UTC", "2026-12-06 18:00:00 UTC");
	EXPECT("*-*-* 6:00", "2026-12-05 08:49:00", /* apt-daily-upgrade */
	       "2026-12-06 06:00:00 UTC", "2026-12-07 06:00:00 UTC");
	EXPECT("daily", "2026-12-31 23:59:59", "2027-01-01 00:00:00 UTC"); /* dpkg-db-backup */
	EXPECT("weekly", "2026-12-05 08:49:00", /* fstrim: Mondays */
	       "2026-12-07 00:00:00 UTC", "2026-12-14 00:00:00 UTC");
	EXPECT("Sun *-*-* 03:10:00", "2026-12-05 08:49:00", /* e2scrub_all */
	       "2026-12-06 03:10:00 UTC", "2026-12-13 03:10:00 UTC");
}

static void strictly_after(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	/* at the elapse itself: the next one, not the same again */
	EXPECT("*-*-* 06:00:00", "2026-12-06 06:00:00", "2026-12-07 06:00:00 UTC");
	EXPECT("*:*:0/2", "2026-12-05 08:49:57", "2026-12-05 08:49:58 UTC",
	       "2026-12-05 08:50:00 UTC", "2026-12-05 08:50:02 UTC");
}

static void calendar_edges(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	EXPECT("*-02-29 12:00", "2026-12-05 08:49:00", "2028-02-29 12:00:00 UTC",
	       "2032-02-29 12:00:00 UTC");
	EXPECT("*-02~03", "2026-12-05 08:49:00", "2027-02-26 00:00:00 UTC",
	       "2028-02-27 00:00:00 UTC"); /* third-last day: leap years differ */
	EXPECT("*-*~01 23:00", "2027-02-27 00:00:00", "2027-02-28 23:00:00 UTC",
	       "2027-03-31 23:00:00 UTC", "2027-04-30 23:00:00 UTC");
	EXPECT("*-*-31", "2027-04-01 00:00:00", "2027-05-31 00:00:00 UTC",
	       "2027-07-31 00:00:00 UTC"); /* months without a 31st are skipped */
	EXPECT("Mon..Fri 8..17:0/15", "2026-12-05 08:49:00", "2026-12-07 08:00:00 UTC",
	       "2026-12-07 08:15:00 UTC");
	EXPECT("Fri *-*-13", "2026-12-05 00:00:00", "2027-08-13 00:00:00 UTC");
	EXPECT("quarterly", "2026-12-05 00:00:00", "2027-01-01 00:00:00 UTC",
	       "2027-04-01 00:00:00 UTC");
	EXPECT("2027-*-* 00:00 UTC", "2026-12-05 00:00:00", "2027-01-01 00:00:00 UTC");
}

static void never_again(void)
{
	long long next;

	setenv("TZ", "UTC", 1);
	tzset();
	CHECK(calendar_parse("*-02-30", &spec, err, sizeof err) == 0);
	CHECK(calendar_next(&spec, at("2026-12-05 00:00:00"), &next) < 0);
	CHECK(calendar_parse("2020-*-* 00:00", &spec, err, sizeof err) == 0);
	CHECK(calendar_next(&spec, at("2026-12-05 00:00:00"), &next) < 0);
	CHECK(calendar_parse("2199-12-31 23:59:59", &spec, err, sizeof err) == 0);
	CHECK(calendar_next(&spec, at("2199-12-31 23:59:59"), &next) < 0);
}

/* Local time: the night the clocks go forward an hour that does not exist is skipped;
 * the night they go back an hour that comes twice elapses once. */
static void daylight_saving(void)
{
	setenv("TZ", "Europe/Berlin", 1);
	tzset();
	if (strcmp(show(at("2027-07-01 12:00:00")), "2027-07-01 12:00:00 CEST") != 0) {
		setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3", 1); /* no tzdata: the same rule */
		tzset();
	}
	EXPECT("*-*-* 02:30", "2027-03-27 12:00:00", "2027-03-29 02:30:00 CEST");
	EXPECT("*:0/30", "2027-03-28 01:20:00", "2027-03-28 01:30:00 CET",
	       "2027-03-28 03:00:00 CEST");
	EXPECT("*-*-* 02:30", "2027-10-30 12:00:00", "2027-10-31 02:30:00 CEST",
	       "2027-11-01 02:30:00 CET");
	EXPECT("*:0/30", "2027-10-31 01:50:00", "2027-10-31 02:00:00 CEST",
	       "2027-10-31 02:30:00 CEST", "2027-10-31 03:00:00 CET");
	/* UTC ignores the local zone */
	EXPECT("*-*-* 06:00 UTC", "2027-07-01 00:00:00", "2027-07-01 08:00:00 CEST");
}

static void normalized(const char *event, const char *want)
{
	char out[CALENDAR_TEXT_MAX];
	struct calendar_spec again;

	if (calendar_parse(event, &spec, err, sizeof err) < 0 ||
	    calendar_format(&spec, out, sizeof out) < 0 || strcmp(out, want) != 0) {
		printf("  %s: \"%s\", expected \"%s\" (%s)\n", event, out, want, err);
		CHECK(0);
		return;
	}
	/* the normalized form reads back to the same event */
	CHECK(calendar_parse(out, &again, err, sizeof err) == 0);
	CHECK(memcmp(&again, &spec, sizeof spec) == 0);
}

static void normalized_forms(void)
{
	normalized("daily", "*-*-* 00:00:00");
	normalized("weekly", "Mon *-*-* 00:00:00");
	normalized("monthly", "*-*-01 00:00:00");
	normalized("quarterly", "*-01,04,07,10-01 00:00:00");
	normalized("semiannually", "*-01,07-01 00:00:00");
	normalized("minutely", "*-*-* *:*:00");
	normalized("*-*-* 6,18:00", "*-*-* 06,18:00:00");
	normalized("*-*-* 6:00", "*-*-* 06:00:00");
	normalized("Sun *-*-* 03:10:00", "Sun *-*-* 03:10:00");
	normalized("Mon..Fri 8..17:0/15", "Mon..Fri *-*-* 08..17:00/15:00");
	normalized("sat,sunday 10:00", "Sat,Sun *-*-* 10:00:00");
	normalized("*:*:0/2", "*-*-* *:*:00/2");
	normalized("*-02~03", "*-02~03 00:00:00");
	normalized("2027..2029-*-* 12:00 UTC", "2027..2029-*-* 12:00:00 UTC");
	normalized("Mon,Wed..Fri 1:2:3", "Mon,Wed..Fri *-*-* 01:02:03");
	/* a repetition stays one, a list a list, whatever their sets (systemd 252's
	 * systemd-analyze calendar gives these) */
	normalized("*:0/30", "*-*-* *:00/30:00");
	normalized("*:00,30", "*-*-* *:00,30:00");
	normalized("*:0,20,40", "*-*-* *:00,20,40:00");
	normalized("*:5..50/20", "*-*-* *:05..45/20:00");
	normalized("*:55/2", "*-*-* *:55/2:00");
	normalized("*-*-1/2", "*-*-01/2 00:00:00");
	normalized("*-1/3-01", "*-01/3-01 00:00:00");
	normalized("*-*-* 0/2:00", "*-*-* 00/2:00:00");
	/* one value: its step is not kept (systemd: 04..17:45/15:00); found by fuzz-calendar */
	normalized("4..17:45/15", "*-*-* 04..17:45:00");
}

static void refused(const char *event, const char *why)
{
	if (calendar_parse(event, &spec, err, sizeof err) == 0 || !strstr(err, why)) {
		printf("  \"%s\": %s\n", event, calendar_parse(event, &spec, err, sizeof err) == 0
		       ? "accepted" : err);
		CHECK(0);
	}
	CHECK(strchr(err, '\x1b') == NULL);
}

static void refusals_say_why(void)
{
	char huge[600];

	refused("", "empty");
	refused("Someday 25:61", "no weekday");
	refused("25:00", "hour out of range");
	refused("*-13-01", "month out of range");
	refused("*-02-32", "day out of range");
	refused("1969-01-01", "year out of range");
	refused("*:*:5.5", "fractions of a second");
	refused("*-*-* 6:00 Europe/Berlin", "time zones other than UTC");
	refused("@1700000000", "timestamp");
	refused("*:0/0", "number");
	refused("*:5..1", "out of range");
	refused("*:1,,2", "empty value");
	refused("Fri..Mon", "weekdays");
	refused("Mon,", "empty value");
	refused("*:99999999999", "number");
	refused("1-2-3-4", "date");
	refused("1:2:3:4", "time");
	refused("06:00 *-*-*", "expected");
	refused("a b c d e", "too long");
	refused("\x1b[31m", "expected");
	memset(huge, '1', sizeof huge - 1);
	huge[sizeof huge - 1] = '\0';
	refused(huge, "too long");
}

int main(void)
{
	RUN(debian_timers);
	RUN(strictly_after);
	RUN(calendar_edges);
	RUN(never_again);
	RUN(daylight_saving);
	RUN(normalized_forms);
	RUN(refusals_say_why);
	return harness_done();
}
