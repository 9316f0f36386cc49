/* emberctl analyze: the critical chain, its JSON, and the SVG boot chart. */
#include "analyze.h"

#include <stdlib.h>
#include <string.h>

#include "json.h"

/* Boot chart geometry, in pixels. */
#define SVG_LEFT 10
#define SVG_TOP 50
#define SVG_CHART_WIDTH 1000
#define SVG_LABEL_WIDTH 320
#define SVG_ROW_HEIGHT 20
#define SVG_BAR_HEIGHT 14
#define SVG_BOTTOM 20
#define SVG_TICKS_MAX 20

static bool is_service(const struct ctl_record *rec)
{
	const char *kind = ctl_record_get(rec, "kind");
	return !kind || strcmp(kind, "service") == 0;
}

static bool is_boot(const struct ctl_record *rec)
{
	const char *kind = ctl_record_get(rec, "kind");
	return kind && strcmp(kind, "boot") == 0;
}

static int find_service(const struct record_set *set, const char *name)
{
	for (size_t i = 0; i < set->count; i++)
		if (is_service(&set->rec[i]) && strcmp(rec_str(&set->rec[i], "name"), name) == 0)
			return (int)i;
	return -1;
}

static bool in_chain(const struct boot_times *bt, size_t idx)
{
	for (size_t k = 0; k < bt->chain_len; k++)
		if (bt->chain[k] == idx)
			return true;
	return false;
}

/* The unit that held service idx up: PID 1 names it ("blocked_by", from every ordering
 * edge); from an older PID 1, the After= dependency that became ready last, no later
 * than idx started. -1 when there is none. */
static int last_blocker(const struct record_set *set, size_t idx)
{
	const char *by = ctl_record_get(&set->rec[idx], "blocked_by");
	if (by)
		return *by ? find_service(set, by) : -1;
	const char *p = rec_str(&set->rec[idx], "after");
	long long started = rec_int(&set->rec[idx], "started_us");
	long long best_ready = -1;
	int best = -1;

	while (*p) {
		char name[CTL_NAME_MAX];
		size_t n = strcspn(p, ",");
		if (n < sizeof name) {
			memcpy(name, p, n);
			name[n] = '\0';
			int j = find_service(set, name);
			long long ready = j >= 0 ? rec_int(&set->rec[j], "ready_us") : -1;
			if (ready >= 0 && (started < 0 || ready <= started) && ready > best_ready) {
				best = j;
				best_ready = ready;
			}
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return best;
}

void analyze_compute(const struct record_set *set, struct boot_times *bt)
{
	long long last_ready = -1;
	int cur = -1;
	long long boot_ready;

	memset(bt, 0, sizeof *bt);
	for (size_t i = 0; i < set->count; i++)
		if (is_boot(&set->rec[i]) && !bt->boot)
			bt->boot = &set->rec[i];
	/* A service restarted since boot carries its latest times: it did not hold the boot
	 * up, so the chain ends at the last service ready by the time the boot was. */
	boot_ready = bt->boot ? rec_int(bt->boot, "ready_us") : -1;
	for (size_t i = 0; i < set->count; i++) {
		const struct ctl_record *r = &set->rec[i];
		if (boot_ready >= 0 && rec_int(r, "ready_us") > boot_ready)
			continue;
		if (is_service(r) && rec_int(r, "ready_us") > last_ready) {
			last_ready = rec_int(r, "ready_us");
			cur = (int)i;
		}
	}
	if (bt->boot && rec_int(bt->boot, "userspace_start_us") >= 0)
		bt->base_us = rec_int(bt->boot, "userspace_start_us");
	while (cur >= 0 && bt->chain_len < ANALYZE_CHAIN_MAX && !in_chain(bt, (size_t)cur)) {
		bt->chain[bt->chain_len++] = (size_t)cur;
		cur = last_blocker(set, (size_t)cur);
	}
}

/* A time relative to the start of userspace. */
static void format_at(char *buf, size_t size, const struct boot_times *bt, long long us)
{
	format_duration(buf, size, us < 0 ? -1 : us - bt->base_us);
}

static void print_header(FILE *f, const struct boot_times *bt)
{
	char d[32];
	long long ready = bt->boot ? rec_int(bt->boot, "ready_us") : -1;

	if (ready >= 0) {
		format_at(d, sizeof d, bt, ready);
		fprintf(f, "Userspace ready after %s", d);
		format_duration(d, sizeof d, bt->base_us);
		fprintf(f, " (PID 1 started %s after boot).\n", d);
	} else {
		fputs("Boot not finished yet.\n", f);
	}
}

static void print_failed(FILE *f, const struct record_set *set, const struct boot_times *bt)
{
	char d[32];

	for (size_t i = 0; i < set->count; i++) {
		const struct ctl_record *r = &set->rec[i];
		if (!is_service(r) || rec_int(r, "failed_us") < 0)
			continue;
		format_at(d, sizeof d, bt, rec_int(r, "failed_us"));
		fputs("Failed: ", f);
		print_safe(f, rec_str(r, "name"));
		fprintf(f, " @%s\n", d);
	}
}

void analyze_print(FILE *f, const struct record_set *set, const struct boot_times *bt)
{
	char at[32], took[32];

	print_header(f, bt);
	if (bt->chain_len == 0) {
		fputs("No service has become ready yet.\n", f);
		print_failed(f, set, bt);
		return;
	}
	fputs("The time a service became ready is printed after \"@\" (counted from PID 1's\n"
	      "start), the time it took to start after \"+\".\n\n", f);
	for (size_t k = 0; k < bt->chain_len; k++) {
		const struct ctl_record *r = &set->rec[bt->chain[k]];
		long long started = rec_int(r, "started_us"), ready = rec_int(r, "ready_us");
		for (size_t i = 1; i < k; i++)
			fputs("  ", f);
		if (k > 0)
			fputs("`-", f);
		print_safe(f, rec_str(r, "name"));
		format_at(at, sizeof at, bt, ready);
		fprintf(f, " @%s", at);
		if (started >= 0 && ready >= started) {
			format_duration(took, sizeof took, ready - started);
			fprintf(f, " +%s", took);
		}
		fputc('\n', f);
	}
	print_failed(f, set, bt);
}

void analyze_json(FILE *f, const struct record_set *set, const struct boot_times *bt)
{
	bool first = true;

	fputs("{\"boot\":", f);
	if (bt->boot)
		record_json(f, bt->boot);
	else
		fputs("null", f);
	fputs(",\"services\":[", f);
	for (size_t i = 0; i < set->count; i++) {
		if (!is_service(&set->rec[i]))
			continue;
		if (!first)
			fputc(',', f);
		first = false;
		record_json(f, &set->rec[i]);
	}
	fputs("],\"critical_chain\":[", f);
	for (size_t k = 0; k < bt->chain_len; k++) {
		const struct ctl_record *r = &set->rec[bt->chain[k]];
		if (k > 0)
			fputc(',', f);
		fputc('{', f);
		json_kv_string(f, "name", rec_str(r, "name"));
		fputc(',', f);
		json_kv_int(f, "started_us", rec_int(r, "started_us"));
		fputc(',', f);
		json_kv_int(f, "ready_us", rec_int(r, "ready_us"));
		fputc('}', f);
	}
	fputs("]}\n", f);
}

/* ---- the boot chart ------------------------------------------------------------------ */

struct bar {
	size_t idx;
	long long start, end; /* end -1: still starting */
	const char *class;
};

static int bar_order(const void *a, const void *b)
{
	const struct bar *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Text for XML: markup characters as entities, control bytes (not allowed in XML 1.0)
 * as '?'. */
static void svg_text(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default: fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, f);
		}
	}
}

static void bar_of(const struct ctl_record *r, size_t idx, struct bar *b)
{
	long long ready = rec_int(r, "ready_us"), failed = rec_int(r, "failed_us");
	long long stopped = rec_int(r, "stopped_us");

	b->idx = idx;
	b->start = rec_int(r, "started_us");
	b->end = ready >= 0 ? ready : failed >= 0 ? failed : stopped >= 0 ? stopped : -1;
	b->class = ready >= 0 ? "ready" : failed >= 0 ? "failed" : stopped >= 0 ? "stopped"
									 : "starting";
	if (b->end >= 0 && b->end < b->start)
		b->end = b->start;
}

/* The bars, sorted by start; *span_end: the latest time the chart shows. */
static struct bar *collect_bars(const struct record_set *set, const struct boot_times *bt,
				size_t *count, long long *span_end)
{
	struct bar *bars = calloc(set->count ? set->count : 1, sizeof *bars);
	long long ready = bt->boot ? rec_int(bt->boot, "ready_us") : -1;

	*count = 0;
	*span_end = ready > bt->base_us ? ready : bt->base_us;
	if (!bars)
		return NULL;
	for (size_t i = 0; i < set->count; i++) {
		struct bar *b = &bars[*count];
		if (!is_service(&set->rec[i]) || rec_int(&set->rec[i], "started_us") < 0)
			continue;
		bar_of(&set->rec[i], i, b);
		if (b->start > *span_end)
			*span_end = b->start;
		if (b->end > *span_end)
			*span_end = b->end;
		(*count)++;
	}
	qsort(bars, *count, sizeof *bars, bar_order);
	return bars;
}

static long long tick_step(long long span)
{
	static const long long steps[] = {
		1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000,
		2000000, 5000000, 10000000, 30000000, 60000000, 300000000, 600000000,
	};
	for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
		if (span / steps[i] <= SVG_TICKS_MAX)
			return steps[i];
	return span / SVG_TICKS_MAX + 1;
}

static double x_of(long long t, long long base, long long span)
{
	if (t < base)
		t = base;
	return SVG_LEFT + (double)(t - base) * SVG_CHART_WIDTH / (double)span;
}

static void svg_grid(FILE *f, long long span, int height)
{
	long long step = tick_step(span);
	char d[32];

	for (long long t = 0; t <= span; t += step) {
		double x = x_of(t, 0, span);
		format_duration(d, sizeof d, t);
		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n",
			x, SVG_TOP - 12, x, height - SVG_BOTTOM);
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\">%s</text>\n", x + 2,
			SVG_TOP - 14, d);
	}
}

static void svg_bar(FILE *f, const struct record_set *set, const struct bar *b, int row,
		    long long base, long long span, long long span_end)
{
	const struct ctl_record *r = &set->rec[b->idx];
	double x1 = x_of(b->start, base, span);
	double x2 = x_of(b->end >= 0 ? b->end : span_end, base, span);
	int y = SVG_TOP + row * SVG_ROW_HEIGHT;
	char took[32];

	if (x2 - x1 < 1)
		x2 = x1 + 1;
	format_duration(took, sizeof took, b->end >= 0 ? b->end - b->start : -1);
	fprintf(f, "<rect class=\"%s\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\">",
		b->class, x1, y, x2 - x1, SVG_BAR_HEIGHT);
	fputs("<title>", f);
	svg_text(f, rec_str(r, "name"));
	fprintf(f, ": %s %s</title></rect>\n", b->class, took);
	fprintf(f, "<text x=\"%.1f\" y=\"%d\">", x2 + 4, y + SVG_BAR_HEIGHT - 3);
	svg_text(f, rec_str(r, "name"));
	if (b->end >= 0)
		fprintf(f, " (%s)", took);
	else
		fputs(" (still starting)", f);
	if (strcmp(b->class, "failed") == 0)
		fputs(" failed", f);
	fputs("</text>\n", f);
}

void analyze_svg(FILE *f, const struct record_set *set, const struct boot_times *bt)
{
	size_t count;
	long long span_end, span;
	struct bar *bars = collect_bars(set, bt, &count, &span_end);
	int height = SVG_TOP + (int)count * SVG_ROW_HEIGHT + SVG_BOTTOM;
	int width = SVG_LEFT + SVG_CHART_WIDTH + SVG_LABEL_WIDTH;
	char d[32];

	span = span_end - bt->base_us;
	if (span <= 0)
		span = 1;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\">\n", width, height, width, height);
	fputs("<style>text{font:12px sans-serif}.tick{fill:#666}.grid{stroke:#ddd}"
	      ".ready{fill:#5a5}.failed{fill:#c33}.stopped{fill:#999}.starting{fill:#e93}"
	      "</style>\n", f);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", width, height);
	fprintf(f, "<text x=\"%d\" y=\"16\">ember boot chart: ", SVG_LEFT);
	if (bt->boot && rec_int(bt->boot, "ready_us") >= 0) {
		format_duration(d, sizeof d, rec_int(bt->boot, "ready_us") - bt->base_us);
		fprintf(f, "userspace ready after %s", d);
	} else {
		fputs("boot not finished", f);
	}
	fprintf(f, ", %zu service%s; times from PID 1's start</text>\n", count,
		count == 1 ? "" : "s");
	svg_grid(f, span, height);
	for (size_t i = 0; bars && i < count; i++)
		svg_bar(f, set, &bars[i], (int)i, bt->base_us, span, span_end);
	fputs("</svg>\n", f);
	free(bars);
}
