/* emberctl list and emberctl status: tables and systemctl-like text, or JSON. */
#include "show.h"
#include "json.h"
#include "timers.h"

#include <string.h>
#include <time.h>

#define COLUMN_GAP 2

static void pad(FILE *f, const char *s, size_t width)
{
	print_safe(f, s);
	for (size_t w = safe_width(s); w < width + COLUMN_GAP; w++)
		fputc(' ', f);
}

static size_t max_size(size_t a, size_t b)
{
	return a > b ? a : b;
}

/* "3min 2s ago", or "-" when unset. */
static void format_age(char *buf, size_t size, long long since_us, long long now_us)
{
	char d[32];

	if (since_us < 0 || now_us < since_us) {
		snprintf(buf, size, "-");
		return;
	}
	format_duration(d, sizeof d, now_us - since_us);
	snprintf(buf, size, "%s ago", d);
}

static void format_pid(char *buf, size_t size, long long pid)
{
	if (pid > 0)
		snprintf(buf, size, "%lld", pid);
	else
		snprintf(buf, size, "-");
}

/* The description, and why the service failed when it did. */
static void print_description(FILE *f, const struct ctl_record *r)
{
	const char *description = rec_str(r, "description"), *error = rec_str(r, "error");

	print_safe(f, description);
	if (*error) {
		fputs(*description ? " (" : "(", f);
		print_safe(f, error);
		fputc(')', f);
	}
	fputc('\n', f);
}

void show_list(FILE *f, const struct record_set *set, long long now_us)
{
	size_t wname = strlen("NAME"), wstate = strlen("STATE"), wpid = strlen("PID");
	size_t wrestarts = strlen("RESTARTS"), wsince = strlen("SINCE");
	char buf[64];

	for (size_t i = 0; i < set->count; i++) {
		const struct ctl_record *r = &set->rec[i];
		wname = max_size(wname, safe_width(rec_str(r, "name")));
		wstate = max_size(wstate, safe_width(rec_str(r, "state")));
		format_pid(buf, sizeof buf, rec_int(r, "main_pid"));
		wpid = max_size(wpid, strlen(buf));
		format_age(buf, sizeof buf, rec_int(r, "since_us"), now_us);
		wsince = max_size(wsince, strlen(buf));
	}
	pad(f, "NAME", wname);
	pad(f, "STATE", wstate);
	pad(f, "PID", wpid);
	pad(f, "RESTARTS", wrestarts);
	pad(f, "SINCE", wsince);
	fputs("DESCRIPTION\n", f);
	for (size_t i = 0; i < set->count; i++) {
		const struct ctl_record *r = &set->rec[i];
		long long restarts = rec_int(r, "restarts");
		pad(f, rec_str(r, "name"), wname);
		pad(f, rec_str(r, "state"), wstate);
		format_pid(buf, sizeof buf, rec_int(r, "main_pid"));
		pad(f, buf, wpid);
		snprintf(buf, sizeof buf, "%lld", restarts < 0 ? 0 : restarts);
		pad(f, buf, wrestarts);
		format_age(buf, sizeof buf, rec_int(r, "since_us"), now_us);
		pad(f, buf, wsince);
		print_description(f, r);
	}
	fprintf(f, "\n%zu service%s listed.\n", set->count, set->count == 1 ? "" : "s");
}

void show_list_json(FILE *f, const struct record_set *set)
{
	fputc('[', f);
	for (size_t i = 0; i < set->count; i++) {
		if (i > 0)
			fputc(',', f);
		record_json(f, &set->rec[i]);
	}
	fputs("]\n", f);
}

bool status_running(const struct ctl_record *rec)
{
	const char *state = rec_str(rec, "state");
	return strcmp(state, "running") == 0 || strcmp(state, "ready") == 0;
}

/* "   Label: " right-aligned like systemctl status. */
static void label(FILE *f, const char *name)
{
	fprintf(f, "%12s: ", name);
}

static void line_str(FILE *f, const char *name, const char *value)
{
	if (!*value)
		return;
	label(f, name);
	print_safe(f, value);
	fputc('\n', f);
}

static void line_int(FILE *f, const char *name, long long value)
{
	if (value < 0)
		return;
	label(f, name);
	fprintf(f, "%lld\n", value);
}

/* "after" lists: "a, b, c". */
static void line_names(FILE *f, const char *name, const char *list)
{
	if (!*list)
		return;
	label(f, name);
	for (const char *p = list; *p; p++) {
		if (*p == ',')
			fputs(", ", f);
		else
			print_safe_n(f, p, 1);
	}
	fputc('\n', f);
}

static void line_state(FILE *f, const struct ctl_record *rec, long long now_us)
{
	long long since = rec_int(rec, "since_us");
	char at[32], age[48];

	label(f, "State");
	print_safe(f, *rec_str(rec, "state") ? rec_str(rec, "state") : "unknown");
	/* failed, and Restart= brings it back: systemctl's "activating (auto-restart)" */
	if (strcmp(rec_str(rec, "sub_state"), "auto-restart") == 0)
		fputs(" (auto-restart)", f);
	if (since >= 0) {
		format_duration(at, sizeof at, since);
		format_age(age, sizeof age, since, now_us);
		fprintf(f, " since %s after boot (%s)", at, age);
	}
	fputc('\n', f);
}

static void line_memory(FILE *f, const struct ctl_record *rec)
{
	long long current = rec_int(rec, "memory_current");
	long long peak = rec_int(rec, "memory_peak");
	long long hugetlb = rec_int(rec, "hugetlb_bytes");
	char buf[32];

	if (current < 0)
		return;
	label(f, "Memory");
	format_bytes(buf, sizeof buf, current);
	fputs(buf, f);
	if (peak >= 0) {
		format_bytes(buf, sizeof buf, peak);
		fprintf(f, " (peak %s)", buf);
	}
	if (hugetlb > 0) {
		format_bytes(buf, sizeof buf, hugetlb);
		fprintf(f, ", hugetlb %s", buf);
	}
	fputc('\n', f);
}

static void line_exit(FILE *f, const struct ctl_record *rec)
{
	long long code = rec_int(rec, "exit_status");
	long long sig = rec_int(rec, "exit_signal");

	if (sig > 0) {
		label(f, "Exit");
		fprintf(f, "killed by signal %lld\n", sig);
	} else if (code >= 0) {
		label(f, "Exit");
		fprintf(f, "status %lld\n", code);
	}
}

void show_status(FILE *f, const struct ctl_record *rec, long long now_us)
{
	const char *description = rec_str(rec, "description");
	char buf[32];

	print_safe(f, rec_str(rec, "name"));
	if (*description) {
		fputs(" - ", f);
		print_safe(f, description);
	}
	fputc('\n', f);
	line_state(f, rec, now_us);
	line_str(f, "Type", rec_str(rec, "type"));
	show_timer_lines(f, rec, (long long)time(NULL)); /* timer units */
	if (strcmp(rec_str(rec, "type"), "path") == 0) { /* path units */
		fprintf(f, "%12s: ", "Triggers");
		print_safe(f, rec_str(rec, "triggers"));
		fputc('\n', f);
	}
	if (rec_int(rec, "main_pid") > 0)
		line_int(f, "Main PID", rec_int(rec, "main_pid"));
	if (rec_int(rec, "dynamic_uid") > 0) /* DynamicUser= */
		line_int(f, "Dynamic UID", rec_int(rec, "dynamic_uid"));
	line_int(f, "Restarts", rec_int(rec, "restarts"));
	line_str(f, "Status", rec_str(rec, "status_text"));
	line_str(f, "Error", rec_str(rec, "error"));
	line_exit(f, rec);
	line_memory(f, rec);
	line_int(f, "Tasks", rec_int(rec, "pids_current"));
	if (rec_int(rec, "cpu_usage_usec") >= 0) {
		format_duration(buf, sizeof buf, rec_int(rec, "cpu_usage_usec"));
		line_str(f, "CPU", buf);
	}
	line_str(f, "CGroup", rec_str(rec, "cgroup"));
	line_names(f, "After", rec_str(rec, "after"));
	line_names(f, "Requires", rec_str(rec, "requires"));
}

void show_status_json(FILE *f, const struct ctl_record *rec)
{
	record_json(f, rec);
	fputc('\n', f);
}

void show_not_loaded(FILE *f, const char *name, const char *fragment, const char *file_state)
{
	print_safe(f, name);
	fputc('\n', f);
	line_str(f, "State", "stopped (not loaded)");
	label(f, "File");
	print_safe(f, fragment);
	fputs(" (", f);
	print_safe(f, file_state);
	fputs(")\n", f);
}

void show_not_loaded_json(FILE *f, const char *name, const char *fragment, const char *file_state)
{
	fputc('{', f);
	json_kv_string(f, "name", name);
	fputc(',', f);
	json_kv_string(f, "state", "stopped");
	fputc(',', f);
	json_kv_string(f, "load_state", "not-loaded");
	fputc(',', f);
	json_kv_string(f, "fragment_path", fragment);
	fputc(',', f);
	json_kv_string(f, "unit_file_state", file_state);
	fputs("}\n", f);
}
