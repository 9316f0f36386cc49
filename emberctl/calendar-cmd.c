/* emberctl calendar: an event's normalized form and next elapses; see calendar-cmd.h. */
#include "calendar-cmd.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calendar.h"
#include "exitcode.h"
#include "json.h"
#include "log.h"
#include "parse.h"
#include "records.h"

#define ITERATIONS_MAX 1000

struct calendar_options {
	bool json;
	unsigned long iterations;
	int first; /* argv index of the first event */
};

static void usage(FILE *f)
{
	fputs("usage: emberctl calendar [--iterations N] [--json] EVENT...\n"
	      "Show a calendar event (OnCalendar=) normalized and its next elapses, as\n"
	      "systemd-analyze calendar does. Times in local time and in UTC.\n", f);
}

static void parse_options(int argc, char **argv, struct calendar_options *o)
{
	*o = (struct calendar_options){ .iterations = 1 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		if (strcmp(a, "--") == 0) {
			o->first = i + 1;
			break;
		}
		if (a[0] != '-' || !a[1]) {
			o->first = i;
			break;
		}
		if (strcmp(a, "--json") == 0) {
			o->json = true;
			continue;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			exit(EXIT_OK);
		}
		if (strncmp(a, "--iterations=", 13) == 0)
			v = a + 13;
		else if (strcmp(a, "--iterations") == 0 && i + 1 < argc)
			v = argv[++i];
		if (!v || parse_ulong(v, 1, ITERATIONS_MAX, &o->iterations) < 0) {
			fprintf(stderr, "emberctl: calendar: ");
			print_safe(stderr, a);
			fprintf(stderr, ": %s\n", v ? "expected --iterations 1..1000" : "unknown option");
			exit(EXIT_USAGE);
		}
	}
	if (o->first == 0 || o->first >= argc) {
		usage(stderr);
		exit(EXIT_USAGE);
	}
}

static void format_time(char *buf, size_t size, long long t, bool utc)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!(utc ? gmtime_r(&tt, &tm) : localtime_r(&tt, &tm)) ||
	    strftime(buf, size, "%a %Y-%m-%d %H:%M:%S %Z", &tm) == 0)
		snprintf(buf, size, "?");
}

/* "(in UTC):" follows a local time only where local time is not UTC, and the original
 * form only where it differs from the normalized one, as systemd-analyze prints them. */
static void put_elapse(const char *label, long long t)
{
	char local[64], utc[64];

	format_time(local, sizeof local, t, false);
	format_time(utc, sizeof utc, t, true);
	printf("%15s: %s\n", label, local);
	if (strcmp(local, utc) != 0)
		printf("%15s: %s\n", "(in UTC)", utc);
}

static void show_text(const char *event, const char *normal, const long long *next,
		      unsigned n)
{
	char left[48], label[32];

	if (strcmp(event, normal) != 0) {
		printf("  Original form: ");
		print_safe(stdout, event);
		fputc('\n', stdout);
	}
	printf("Normalized form: %s\n", normal);
	if (n == 0) {
		printf("    Next elapse: never\n");
		return;
	}
	put_elapse("Next elapse", next[0]);
	format_duration(left, sizeof left, (next[0] - (long long)time(NULL)) * 1000000LL);
	printf("       From now: %s left\n", left);
	for (unsigned i = 1; i < n; i++) {
		snprintf(label, sizeof label, "Iter. #%u", i + 1);
		put_elapse(label, next[i]);
	}
}

static void show_json(const char *event, const char *normal, const long long *next,
		      unsigned n, bool first)
{
	printf("%s{", first ? "" : ",");
	json_kv_string(stdout, "original", event);
	fputc(',', stdout);
	json_kv_string(stdout, "normalized", normal);
	printf(",\"next_elapse_s\":[");
	for (unsigned i = 0; i < n; i++)
		printf("%s%lld", i ? "," : "", next[i]);
	printf("]}");
}

int calendar_main(int argc, char **argv)
{
	static long long next[ITERATIONS_MAX];
	struct calendar_options o;
	int code = EXIT_OK;

	parse_options(argc, argv, &o);
	if (o.json)
		fputc('[', stdout);
	for (int i = o.first; i < argc; i++) {
		struct calendar_spec spec;
		char err[128], normal[CALENDAR_TEXT_MAX];
		long long t = (long long)time(NULL);
		unsigned n = 0;
		if (calendar_parse(argv[i], &spec, err, sizeof err) < 0 ||
		    calendar_format(&spec, normal, sizeof normal) < 0) {
			fprintf(stderr, "emberctl: calendar: \"");
			print_safe(stderr, argv[i]);
			fprintf(stderr, "\": %s\n", err);
			code = 1;
			continue;
		}
		while (n < o.iterations && calendar_next(&spec, t, &next[n]) == 0)
			t = next[n++];
		if (o.json)
			show_json(argv[i], normal, next, n, i == o.first);
		else
			show_text(argv[i], normal, next, n);
		if (!o.json && i + 1 < argc)
			fputc('\n', stdout);
	}
	if (o.json)
		fputs("]\n", stdout);
	return code;
}
