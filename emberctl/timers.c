/* emberctl list-timers, list-paths and the timer lines of status; see timers.h. */
#include "timers.h"

#include <string.h>
#include <time.h>

static bool is_timer(const struct ctl_record *rec)
{
	return strcmp(rec_str(rec, "type"), "timer") == 0;
}

/* As systemctl list-timers: the timers that are active (waiting to elapse). */
static bool listed(const struct ctl_record *rec)
{
	return is_timer(rec) && strcmp(rec_str(rec, "state"), "ready") == 0;
}

/* "Sat 2026-12-05 06:00:00 UTC", or "n/a" when unset. */
static void format_wall(char *buf, size_t size, long long at)
{
	time_t t = (time_t)at;
	struct tm tm;

	if (at < 0 || !localtime_r(&t, &tm) ||
	    strftime(buf, size, "%a %Y-%m-%d %H:%M:%S %Z", &tm) == 0)
		snprintf(buf, size, "n/a");
}

/* How far at is from now: "3h 2min", "n/a" when unset. */
static void format_gap(char *buf, size_t size, long long at, long long now)
{
	if (at < 0) {
		snprintf(buf, size, "n/a");
		return;
	}
	format_duration(buf, size, (at > now ? at - now : now - at) * 1000000LL);
}

static void pad(FILE *f, const char *s, size_t width)
{
	print_safe(f, s);
	for (size_t w = safe_width(s); w < width; w++)
		fputc(' ', f);
}

void show_timers(FILE *f, const struct record_set *set, long long now)
{
	char next[48], left[32], last[48], passed[32];
	size_t shown = 0;

	fprintf(f, "%-28s %-12s %-28s %-12s %-28s %s\n", "NEXT", "LEFT", "LAST", "PASSED",
		"UNIT", "ACTIVATES");
	for (size_t i = 0; i < set->count; i++) {
		const struct ctl_record *r = &set->rec[i];
		if (!listed(r))
			continue;
		format_wall(next, sizeof next, rec_int(r, "next_elapse_s"));
		format_gap(left, sizeof left, rec_int(r, "next_elapse_s"), now);
		format_wall(last, sizeof last, rec_int(r, "last_elapse_s"));
		format_gap(passed, sizeof passed, rec_int(r, "last_elapse_s"), now);
		fprintf(f, "%-28s %-12s %-28s %-12s ", next, left, last, passed);
		pad(f, rec_str(r, "name"), 28);
		fputc(' ', f); /* a longer name keeps its space before ACTIVATES */
		print_safe(f, rec_str(r, "triggers"));
		fputc('\n', f);
		shown++;
	}
	fprintf(f, "\n%zu timer%s listed.\n", shown, shown == 1 ? "" : "s");
}

/* One JSON array of the records keep() accepts. */
static void show_json(FILE *f, const struct record_set *set,
		      bool (*keep)(const struct ctl_record *rec))
{
	bool first = true;

	fputc('[', f);
	for (size_t i = 0; i < set->count; i++) {
		if (!keep(&set->rec[i]))
			continue;
		if (!first)
			fputc(',', f);
		record_json(f, &set->rec[i]);
		first = false;
	}
	fputs("]\n", f);
}

void show_timers_json(FILE *f, const struct record_set *set)
{
	show_json(f, set, listed);
}

/* "Trigger: Sun 2026-12-06 06:00:00 UTC (in 3h 2min)", "Last: ... (5min ago)", "n/a" */
static void timer_line(FILE *f, const char *label, long long at, long long now, bool future)
{
	char when[48], gap[32];

	format_wall(when, sizeof when, at);
	format_gap(gap, sizeof gap, at, now);
	if (at < 0)
		fprintf(f, "%12s: %s\n", label, when);
	else
		fprintf(f, "%12s: %s (%s%s%s)\n", label, when, future ? "in " : "", gap,
			future ? "" : " ago");
}

void show_timer_lines(FILE *f, const struct ctl_record *rec, long long now)
{
	if (!is_timer(rec))
		return;
	timer_line(f, "Trigger", rec_int(rec, "next_elapse_s"), now, true);
	fprintf(f, "%12s: ", "Triggers");
	print_safe(f, rec_str(rec, "triggers"));
	fputc('\n', f);
	timer_line(f, "Last", rec_int(rec, "last_elapse_s"), now, false);
}

/* ---- path units: list-paths ---------------------------------------------------------- */

static bool is_active_path(const struct ctl_record *rec)
{
	return strcmp(rec_str(rec, "type"), "path") == 0 &&
	       strcmp(rec_str(rec, "state"), "ready") == 0;
}

/* One row per entry of "paths" ("PathExists=/x\nPathChanged=/y"). */
static size_t path_rows(FILE *f, const struct ctl_record *r)
{
	char line[512];
	size_t rows = 0;

	for (const char *p = rec_str(r, "paths"); *p; rows++) {
		size_t len = strcspn(p, "\n");
		char *eq;
		snprintf(line, sizeof line, "%.*s", (int)len, p);
		p += len + (p[len] == '\n');
		if (!(eq = strchr(line, '=')))
			continue;
		*eq = '\0';
		pad(f, eq + 1, 40);
		fputc(' ', f);
		pad(f, line, 18);
		fputc(' ', f);
		pad(f, rec_str(r, "name"), 29);
		fputc(' ', f);
		print_safe(f, rec_str(r, "triggers"));
		fputc('\n', f);
	}
	return rows;
}

void show_paths(FILE *f, const struct record_set *set)
{
	size_t shown = 0;

	fprintf(f, "%-40s %-18s %-29s %s\n", "PATH", "CONDITION", "UNIT", "ACTIVATES");
	for (size_t i = 0; i < set->count; i++)
		if (is_active_path(&set->rec[i]))
			shown += path_rows(f, &set->rec[i]);
	fprintf(f, "\n%zu path%s listed.\n", shown, shown == 1 ? "" : "s");
}

void show_paths_json(FILE *f, const struct record_set *set)
{
	show_json(f, set, is_active_path);
}
