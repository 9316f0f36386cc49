/* Times for log --since (see since.h). */
#include "since.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define USEC_PER_SEC 1000000LL

static const struct {
	const char *name;
	long long usec;
} units[] = {
	{ "us", 1 }, { "usec", 1 }, { "ms", 1000 }, { "msec", 1000 },
	{ "s", USEC_PER_SEC }, { "sec", USEC_PER_SEC }, { "second", USEC_PER_SEC },
	{ "seconds", USEC_PER_SEC },
	{ "m", 60 * USEC_PER_SEC }, { "min", 60 * USEC_PER_SEC },
	{ "minute", 60 * USEC_PER_SEC }, { "minutes", 60 * USEC_PER_SEC },
	{ "h", 3600 * USEC_PER_SEC }, { "hr", 3600 * USEC_PER_SEC },
	{ "hour", 3600 * USEC_PER_SEC }, { "hours", 3600 * USEC_PER_SEC },
	{ "d", 86400 * USEC_PER_SEC }, { "day", 86400 * USEC_PER_SEC },
	{ "days", 86400 * USEC_PER_SEC },
	{ "w", 7 * 86400 * USEC_PER_SEC }, { "week", 7 * 86400 * USEC_PER_SEC },
	{ "weeks", 7 * 86400 * USEC_PER_SEC },
	/* systemd's month and year: 30.44 and 365.25 days */
	{ "M", 2629800 * USEC_PER_SEC }, { "month", 2629800 * USEC_PER_SEC },
	{ "months", 2629800 * USEC_PER_SEC },
	{ "y", 31557600 * USEC_PER_SEC }, { "year", 31557600 * USEC_PER_SEC },
	{ "years", 31557600 * USEC_PER_SEC },
};

static int fail(char *err, size_t errlen, const char *s, const char *why)
{
	snprintf(err, errlen, "--since=%.60s: %s", s, why);
	return -1;
}

/* "5min 3s", "1h30min", "5 min": the sum in µs; -1 when it is not a span. */
static long long parse_span(const char *p)
{
	long long total = 0;
	bool any = false;

	while (*p) {
		char *end;
		long long n;
		size_t len = 0;
		bool found = false;
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		if (!isdigit((unsigned char)*p))
			return -1;
		n = strtoll(p, &end, 10);
		if (n < 0 || n > 1000000000LL)
			return -1;
		p = end;
		while (*p == ' ')
			p++;
		while (isalpha((unsigned char)p[len]))
			len++;
		if (len == 0) { /* a bare number is seconds, as in systemd */
			total += n * USEC_PER_SEC;
			any = true;
			continue;
		}
		for (size_t i = 0; i < sizeof units / sizeof *units && !found; i++)
			if (strlen(units[i].name) == len && strncmp(p, units[i].name, len) == 0) {
				if (n > (4000000000000000000LL - total) / units[i].usec)
					return -1;
				total += n * units[i].usec;
				found = true;
			}
		if (!found)
			return -1;
		p += len;
		any = true;
	}
	return any ? total : -1;
}

/* A relative time: "-SPAN", "+SPAN", "SPAN ago". */
static int parse_relative(const char *s, long long now, long long *out)
{
	size_t len = strlen(s);
	char buf[128];
	long long span;
	int sign;

	if (s[0] == '-' || s[0] == '+') {
		sign = s[0] == '-' ? -1 : 1;
		span = parse_span(s + 1);
	} else if (len > 4 && strcmp(s + len - 4, " ago") == 0 && len - 4 < sizeof buf) {
		sign = -1;
		memcpy(buf, s, len - 4);
		buf[len - 4] = '\0';
		span = parse_span(buf);
	} else {
		return -1;
	}
	if (span < 0)
		return -1;
	*out = now + sign * span;
	return 0;
}

/* Midnight (local time) of the day of now, days later (negative: earlier). */
static long long midnight(long long now, int days)
{
	time_t t = (time_t)(now / USEC_PER_SEC);
	struct tm tm;

	localtime_r(&t, &tm);
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_mday += days;
	tm.tm_isdst = -1;
	return (long long)mktime(&tm) * USEC_PER_SEC;
}

/* ":SS" at the end of s, or nothing: the seconds (0 when absent), or -1. */
static int seconds_tail(const char *s)
{
	int sec = 0, n = 0;

	if (*s == '\0')
		return 0;
	if (sscanf(s, ":%2d%n", &sec, &n) != 1 || s[n] != '\0')
		return -1;
	return sec;
}

/* "YYYY-MM-DD[ HH:MM[:SS]]" or "HH:MM[:SS]" (today), local time. */
static int parse_absolute(const char *s, long long now, long long *out)
{
	time_t t = (time_t)(now / USEC_PER_SEC);
	struct tm tm;
	int y = 0, mo = 1, d = 1, h = 0, mi = 0, sec = 0, n = 0;
	bool dated = false;

	localtime_r(&t, &tm);
	if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &n) == 3 && n == 10) {
		const char *rest = s + n;
		dated = true;
		if (*rest) {
			if (sscanf(rest, " %2d:%2d%n", &h, &mi, &n) != 2)
				return -1;
			sec = seconds_tail(rest + n);
		}
	} else if (sscanf(s, "%2d:%2d%n", &h, &mi, &n) == 2) {
		sec = seconds_tail(s + n);
	} else {
		return -1;
	}
	if ((dated && (mo < 1 || mo > 12 || d < 1 || d > 31 || y < 1970)) || h < 0 || h > 23 ||
	    mi < 0 || mi > 59 || sec < 0 || sec > 60)
		return -1;
	if (dated) {
		tm.tm_year = y - 1900;
		tm.tm_mon = mo - 1;
		tm.tm_mday = d;
	}
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	tm.tm_isdst = -1;
	*out = (long long)mktime(&tm) * USEC_PER_SEC;
	return 0;
}

int since_parse(const char *s, long long now_us, long long *out, char *err, size_t errlen)
{
	char *end;

	if (!*s)
		return fail(err, errlen, s, "empty time");
	if (strcmp(s, "now") == 0) {
		*out = now_us;
		return 0;
	}
	if (strcmp(s, "today") == 0 || strcmp(s, "yesterday") == 0 || strcmp(s, "tomorrow") == 0) {
		*out = midnight(now_us, s[0] == 'y' ? -1 : s[0] == 't' && s[2] == 'm' ? 1 : 0);
		return 0;
	}
	if (s[0] == '@') {
		long long sec = strtoll(s + 1, &end, 10);
		if (end == s + 1 || *end || sec < 0 || sec > 100000000000LL)
			return fail(err, errlen, s, "expected @SECONDS since the epoch");
		*out = sec * USEC_PER_SEC;
		return 0;
	}
	if (parse_relative(s, now_us, out) == 0 || parse_absolute(s, now_us, out) == 0)
		return 0;
	return fail(err, errlen, s, "expected \"YYYY-MM-DD HH:MM:SS\", \"HH:MM\", \"-5min\", "
		    "\"5 min ago\", today, yesterday or @SECONDS");
}
