/* Calendar events (systemd.time(7)): parsing into sets of allowed values, the next
 * elapse, the normalized form. See calendar.h and docs/calendar.md. */
#include "calendar.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define SEARCH_STEPS_MAX 20000 /* field-by-field steps of one search: ~230 years of Feb 30 */
#define TOKENS_MAX 4           /* weekdays, date, time, zone */

static const char *const weekday_names[7][2] = {
	{ "Mon", "Monday" }, { "Tue", "Tuesday" }, { "Wed", "Wednesday" },
	{ "Thu", "Thursday" }, { "Fri", "Friday" }, { "Sat", "Saturday" }, { "Sun", "Sunday" },
};

static const struct { const char *name, *event; } shorthands[] = {
	{ "minutely", "*-*-* *:*:00" }, { "hourly", "*-*-* *:00:00" },
	{ "daily", "*-*-* 00:00:00" }, { "monthly", "*-*-01 00:00:00" },
	{ "weekly", "Mon *-*-* 00:00:00" }, { "yearly", "*-01-01 00:00:00" },
	{ "annually", "*-01-01 00:00:00" }, { "quarterly", "*-01,04,07,10-01 00:00:00" },
	{ "semiannually", "*-01,07-01 00:00:00" },
};

static int fail(char *err, size_t size, const char *why)
{
	snprintf(err, size, "%s", why);
	return -1;
}

/* ---- bit sets --------------------------------------------------------------------- */

static void set_bit(uint64_t *bits, int i) { bits[i / 64] |= 1ULL << (i % 64); }
static bool has_bit(const uint64_t *bits, int i) { return bits[i / 64] >> (i % 64) & 1; }

/* One field's values as a bit set of up to 256 (index = value - base). */
struct field {
	const char *what; /* for errors: "hour" */
	int min, max, base;
	uint64_t bits[4];
	bool stepped; /* one item, a repetition: "0/15", "8..17/2" */
	bool ranged;  /* ... with a range: "8..17/2" */
};

static const char *number(const char *p, int *out)
{
	int v = 0, digits = 0;

	for (; isdigit((unsigned char)*p) && digits < 5; p++, digits++)
		v = v * 10 + (*p - '0');
	if (digits == 0 || digits == 5)
		return NULL;
	*out = v;
	return p;
}

/* "*", "*\/3", "5", "5..9", "5/3", "5..20/3" (one item of a comma list). */
static int field_item(struct field *f, const char *item, size_t len, char *err, size_t size)
{
	char msg[96];
	const char *p = item, *end = item + len;
	int start = f->min, stop = f->max, step = 1;

	if (len == 0)
		return fail(err, size, "an empty value in a list");
	if (*p == '*') {
		p++;
	} else {
		if (!(p = number(p, &start)))
			goto bad;
		stop = start;
		if (end - p >= 2 && p[0] == '.' && p[1] == '.') {
			if (!(p = number(p + 2, &stop)))
				goto bad;
		} else if (p < end && *p == '/') {
			stop = f->max; /* "5/3": from 5 on, to the end */
		}
	}
	if (p < end && *p == '/') {
		if (!(p = number(p + 1, &step)) || step == 0)
			goto bad;
	}
	if (p != end)
		goto bad;
	if (start < f->min || stop > f->max || start > stop) {
		snprintf(msg, sizeof msg, "%s out of range (%d..%d)", f->what, f->min, f->max);
		return fail(err, size, msg);
	}
	for (int v = start; v <= stop; v += step)
		set_bit(f->bits, v - f->base);
	return 0;
bad:
	snprintf(msg, sizeof msg, "a %s is a number, a range a..b, * or one of them /step",
		 f->what);
	return fail(err, size, msg);
}

static int field_parse(struct field *f, const char *text, size_t len, char *err, size_t size)
{
	memset(f->bits, 0, sizeof f->bits);
	f->stepped = memchr(text, '/', len) && !memchr(text, ',', len);
	f->ranged = f->stepped && memchr(text, '.', len);
	for (size_t at = 0; at <= len;) {
		const char *comma = memchr(text + at, ',', len - at);
		size_t n = comma ? (size_t)(comma - (text + at)) : len - at;
		if (field_item(f, text + at, n, err, size) < 0)
			return -1;
		at += n + 1;
	}
	return 0;
}

static uint64_t mask_of(const struct field *f)
{
	return f->bits[0];
}

/* For the normalized form: was the field with CALENDAR_STEPPED_* bit `bit` one
 * repetition, and with a range? One that gives a single value ("45/15") is written as
 * that value: its step is not kept, and the form must read back to the same spec. */
static void note_form(struct calendar_spec *spec, const struct field *f, unsigned bit)
{
	int values = 0;

	for (size_t i = 0; i < sizeof f->bits / sizeof *f->bits; i++)
		values += __builtin_popcountll(f->bits[i]);
	if (!f->stepped || values < 2)
		return;
	spec->stepped |= (uint8_t)bit;
	if (f->ranged)
		spec->ranged |= (uint8_t)bit;
}

/* ---- the parts of an event -------------------------------------------------------- */

static int weekday_of(const char *s, size_t len)
{
	for (int d = 0; d < 7; d++)
		for (int k = 0; k < 2; k++)
			if (strlen(weekday_names[d][k]) == len &&
			    strncasecmp(weekday_names[d][k], s, len) == 0)
				return d;
	return -1;
}

/* "Mon", "Mon,Fri", "Mon..Fri", "Sat,Sun" */
static int parse_weekdays(const char *text, struct calendar_spec *spec, char *err, size_t size)
{
	spec->weekdays = 0;
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, ",");
		const char *dots = memchr(p, '.', n);
		int a, b;
		if (dots && (size_t)(dots - p) + 2 <= n && dots[1] == '.') {
			a = weekday_of(p, (size_t)(dots - p));
			b = weekday_of(dots + 2, n - (size_t)(dots - p) - 2);
		} else {
			a = b = weekday_of(p, n);
		}
		if (a < 0 || b < 0 || a > b)
			return fail(err, size, "expected weekdays: Mon..Sun, a list or a range Mon..Fri");
		for (int d = a; d <= b; d++)
			spec->weekdays |= (uint8_t)(1u << d);
		p += n;
		if (*p == ',' && !*++p)
			return fail(err, size, "an empty value in a list");
	}
	return 0;
}

static int parse_date(const char *text, struct calendar_spec *spec, char *err, size_t size)
{
	struct field year = { .what = "year", .min = CALENDAR_YEAR_MIN, .max = CALENDAR_YEAR_MAX,
			      .base = CALENDAR_YEAR_MIN };
	struct field month = { .what = "month", .min = 1, .max = 12 };
	struct field day = { .what = "day", .min = 1, .max = 31 };
	const char *tilde = strchr(text, '~'), *parts[3];
	size_t lens[3], n = 0, len = tilde ? (size_t)(tilde - text) : strlen(text);

	for (size_t at = 0; n < 3;) {
		const char *dash = memchr(text + at, '-', len - at);
		parts[n] = text + at;
		lens[n++] = dash ? (size_t)(dash - (text + at)) : len - at;
		if (!dash)
			break;
		at = (size_t)(dash - text) + 1;
	}
	if (tilde) { /* "Y-M~D" or "M~D": the day counts from the month's end */
		if (n > 2 || strchr(tilde + 1, '-'))
			return fail(err, size, "expected a date YYYY-MM~DD or MM~DD");
		parts[n] = tilde + 1;
		lens[n++] = strlen(tilde + 1);
	} else if (memchr(parts[n - 1], '-', strlen(parts[n - 1]))) {
		return fail(err, size, "expected a date YYYY-MM-DD or MM-DD");
	}
	if (n < 2)
		return fail(err, size, "expected a date YYYY-MM-DD or MM-DD");
	if (n == 3 && field_parse(&year, parts[0], lens[0], err, size) < 0)
		return -1;
	if (n == 2)
		for (int y = 0; y <= CALENDAR_YEAR_MAX - CALENDAR_YEAR_MIN; y++)
			set_bit(year.bits, y);
	if (field_parse(&month, parts[n - 2], lens[n - 2], err, size) < 0 ||
	    field_parse(&day, parts[n - 1], lens[n - 1], err, size) < 0)
		return -1;
	memcpy(spec->years, year.bits, sizeof spec->years);
	note_form(spec, &year, CALENDAR_STEPPED_YEAR);
	note_form(spec, &month, CALENDAR_STEPPED_MONTH);
	note_form(spec, &day, CALENDAR_STEPPED_DAY);
	spec->months = (uint16_t)mask_of(&month);
	spec->days = tilde ? 0 : (uint32_t)mask_of(&day);
	spec->days_end = tilde ? (uint32_t)mask_of(&day) : 0;
	return 0;
}

static int parse_time(const char *text, struct calendar_spec *spec, char *err, size_t size)
{
	struct field hour = { .what = "hour", .max = 23 }, minute = { .what = "minute", .max = 59 };
	struct field second = { .what = "second", .max = 59 };
	const char *c1 = strchr(text, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

	if (!c1 || (c2 && strchr(c2 + 1, ':')))
		return fail(err, size, "expected a time HH:MM or HH:MM:SS");
	for (const char *p = c2; p && *p; p++) /* a lone '.' in the seconds: "05.5" */
		if (*p == '.' && p[1] != '.' && p[-1] != '.')
			return fail(err, size, "fractions of a second are not supported");
	if (field_parse(&hour, text, (size_t)(c1 - text), err, size) < 0 ||
	    field_parse(&minute, c1 + 1, (size_t)((c2 ? c2 : c1 + 1 + strlen(c1 + 1)) - (c1 + 1)),
			err, size) < 0)
		return -1;
	if (c2 && field_parse(&second, c2 + 1, strlen(c2 + 1), err, size) < 0)
		return -1;
	if (!c2)
		set_bit(second.bits, 0);
	note_form(spec, &hour, CALENDAR_STEPPED_HOUR);
	note_form(spec, &minute, CALENDAR_STEPPED_MINUTE);
	note_form(spec, &second, CALENDAR_STEPPED_SECOND);
	spec->hours = (uint32_t)mask_of(&hour);
	spec->minutes = mask_of(&minute);
	spec->seconds = mask_of(&second);
	return 0;
}

static void spec_defaults(struct calendar_spec *spec)
{
	memset(spec, 0, sizeof *spec);
	for (int y = 0; y <= CALENDAR_YEAR_MAX - CALENDAR_YEAR_MIN; y++)
		set_bit(spec->years, y);
	spec->months = 0x1ffe;    /* 1..12 */
	spec->days = 0xfffffffe;  /* 1..31 */
	spec->hours = spec->minutes = spec->seconds = 1; /* 00:00:00 */
	spec->weekdays = 0x7f;
}

/* Split text at blanks into at most TOKENS_MAX words (copied into buf). */
static int split(const char *text, char *buf, size_t size, char **words)
{
	int n = 0;

	if (strlen(text) >= size)
		return -1;
	strcpy(buf, text);
	for (char *p = buf; *p;) {
		while (*p == ' ' || *p == '\t')
			*p++ = '\0';
		if (!*p)
			break;
		if (n == TOKENS_MAX)
			return -1;
		words[n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	return n;
}

static bool is_alpha_word(const char *w)
{
	return isalpha((unsigned char)w[0]);
}

int calendar_parse(const char *text, struct calendar_spec *spec, char *err, size_t err_size)
{
	char buf[CALENDAR_TEXT_MAX];
	char *words[TOKENS_MAX];
	int n, i = 0;
	bool date = false, time = false;

	for (size_t k = 0; k < sizeof shorthands / sizeof *shorthands; k++)
		if (strcmp(text, shorthands[k].name) == 0)
			text = shorthands[k].event;
	spec_defaults(spec);
	if (text[0] == '@')
		return fail(err, err_size, "a timestamp (@SECONDS) is not a repeating event");
	n = split(text, buf, sizeof buf, words);
	if (n < 0)
		return fail(err, err_size, "too long, or more than weekdays, a date, a time and UTC");
	if (n == 0)
		return fail(err, err_size, "an empty event");
	if (n > 1 && strcmp(words[n - 1], "UTC") == 0) {
		spec->utc = true;
		n--;
	}
	if (is_alpha_word(words[0]) && weekday_of(words[0], strcspn(words[0], ",.")) >= 0) {
		if (parse_weekdays(words[0], spec, err, err_size) < 0)
			return -1;
		i = 1;
	}
	for (; i < n; i++) {
		const char *w = words[i];
		if (is_alpha_word(w))
			return fail(err, err_size, strcmp(w, "UTC") == 0 ? "UTC comes last"
				    : "a word that is no weekday, date or time (time zones other "
				      "than UTC are not supported)");
		if (strchr(w, ':') && !time) {
			if (parse_time(w, spec, err, err_size) < 0)
				return -1;
			time = true;
		} else if ((strchr(w, '-') || strchr(w, '~')) && !date && !time) {
			if (parse_date(w, spec, err, err_size) < 0)
				return -1;
			date = true;
		} else {
			return fail(err, err_size, "expected [WEEKDAYS] [YYYY-MM-DD] [HH:MM:SS] [UTC]");
		}
	}
	return 0;
}

/* ---- the next elapse -------------------------------------------------------------- */

static bool leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static int month_days(int year, int mon0)
{
	static const int days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	return days[mon0] + (mon0 == 1 && leap(year));
}

static bool day_allowed(const struct calendar_spec *s, const struct tm *tm)
{
	int year = tm->tm_year + 1900, last = month_days(year, tm->tm_mon);
	bool day = s->days_end ? (s->days_end >> (last - tm->tm_mday + 1) & 1)
			       : (s->days >> tm->tm_mday & 1);

	return day && (s->weekdays >> ((tm->tm_wday + 6) % 7) & 1);
}

/* The first value >= from that mask allows, up to max; -1 none. */
static int first_from(uint64_t mask, int from, int max)
{
	for (int v = from; v <= max; v++)
		if (mask >> v & 1)
			return v;
	return -1;
}

static bool to_tm(const struct calendar_spec *s, long long t, struct tm *tm)
{
	time_t tt = (time_t)t;

	return s->utc ? gmtime_r(&tt, tm) != NULL : localtime_r(&tt, tm) != NULL;
}

static bool same_time(const struct tm *a, const struct tm *b)
{
	return a->tm_year == b->tm_year && a->tm_mon == b->tm_mon && a->tm_mday == b->tm_mday &&
	       a->tm_hour == b->tm_hour && a->tm_min == b->tm_min && a->tm_sec == b->tm_sec;
}

/* tm (possibly out of range: the 32nd day) as a time after floor. A local time that
 * comes twice (the hour the clocks go back) is taken at its first occurrence after
 * floor; one that does not exist (the hour they go forward) comes out as mktime()
 * moves it, and the search goes on from there. */
static long long from_tm(const struct calendar_spec *s, struct tm *tm, long long floor)
{
	struct tm norm = *tm;
	long long best;

	norm.tm_isdst = -1;
	if (s->utc)
		return (long long)timegm(&norm);
	best = (long long)mktime(&norm);
	for (int dst = 0; dst <= 1; dst++) {
		struct tm c = norm, back;
		time_t r;
		c.tm_isdst = dst;
		r = mktime(&c);
		if (r == (time_t)-1 || !localtime_r(&r, &back) || back.tm_isdst != dst ||
		    !same_time(&back, &norm))
			continue;
		if ((long long)r > floor && ((long long)r < best || best <= floor))
			best = (long long)r;
	}
	return best;
}

/* Move tm to the start of the next unit of the field that did not match. */
enum unit_of { NEXT_YEAR, NEXT_MONTH, NEXT_DAY, NEXT_HOUR, NEXT_MINUTE };

static void advance(struct tm *tm, enum unit_of what)
{
	switch (what) {
	case NEXT_YEAR: tm->tm_year++; tm->tm_mon = 0; /* fall through */
	case NEXT_MONTH: if (what == NEXT_MONTH) tm->tm_mon++; tm->tm_mday = 1; /* fall through */
	case NEXT_DAY: if (what == NEXT_DAY) tm->tm_mday++; tm->tm_hour = 0; /* fall through */
	case NEXT_HOUR: if (what == NEXT_HOUR) tm->tm_hour++; tm->tm_min = 0; /* fall through */
	case NEXT_MINUTE: if (what == NEXT_MINUTE) tm->tm_min++; tm->tm_sec = 0;
	}
}

/* One step: 0 when t matches every field, else 1 with t moved on to the next candidate
 * (-1: no year left). */
static int step(const struct calendar_spec *s, long long *t)
{
	struct tm tm;
	int year, v;
	long long moved;

	if (!to_tm(s, *t, &tm))
		return -1;
	year = tm.tm_year + 1900;
	if (year > CALENDAR_YEAR_MAX)
		return -1;
	if (year < CALENDAR_YEAR_MIN || !has_bit(s->years, year - CALENDAR_YEAR_MIN)) {
		advance(&tm, NEXT_YEAR);
	} else if (!(s->months >> (tm.tm_mon + 1) & 1)) {
		v = first_from(s->months, tm.tm_mon + 2, 12);
		if (v < 0) {
			advance(&tm, NEXT_YEAR);
		} else {
			tm.tm_mon = v - 2; /* advance() adds the one month */
			advance(&tm, NEXT_MONTH);
		}
	} else if (!day_allowed(s, &tm)) {
		advance(&tm, NEXT_DAY);
	} else if (!(s->hours >> tm.tm_hour & 1)) {
		v = first_from(s->hours, tm.tm_hour, 23);
		if (v < 0) {
			advance(&tm, NEXT_DAY);
		} else {
			tm.tm_hour = v - 1;
			advance(&tm, NEXT_HOUR);
		}
	} else if (!(s->minutes >> tm.tm_min & 1)) {
		v = first_from(s->minutes, tm.tm_min, 59);
		if (v < 0) {
			advance(&tm, NEXT_HOUR);
		} else {
			tm.tm_min = v - 1;
			advance(&tm, NEXT_MINUTE);
		}
	} else if (!(s->seconds >> tm.tm_sec & 1)) {
		v = first_from(s->seconds, tm.tm_sec, 59);
		if (v < 0)
			advance(&tm, NEXT_MINUTE);
		else
			tm.tm_sec = v;
	} else {
		return 0;
	}
	moved = from_tm(s, &tm, *t);
	/* A local time that does not exist or comes twice (DST) may map back: go on. */
	*t = moved > *t ? moved : *t + 1;
	return 1;
}

int calendar_next(const struct calendar_spec *spec, long long after, long long *next)
{
	long long t = after + 1;

	for (int i = 0; i < SEARCH_STEPS_MAX; i++) {
		int r = step(spec, &t);
		if (r < 0)
			return -1;
		if (r == 0) {
			*next = t;
			return 0;
		}
	}
	return -1;
}

/* ---- the normalized form ---------------------------------------------------------- */

struct out {
	char *p;
	size_t size, len;
	bool full;
};

static void put_n(struct out *o, int n)
{
	if (n < 0 || (size_t)n >= o->size - o->len)
		o->full = true;
	else
		o->len += (size_t)n;
}

static void put(struct out *o, const char *s)
{
	put_n(o, snprintf(o->p + o->len, o->size - o->len, "%s", s));
}

enum { FORM_STEPPED = 1, FORM_RANGED = 2 };

/* One value, or a range a..b (b >= 0), or a repetition a/step or a..b/step (step > 0). */
static void put_value(struct out *o, int width, int a, int b, int step)
{
	put_n(o, snprintf(o->p + o->len, o->size - o->len, "%0*d", width, a));
	if (b >= 0)
		put_n(o, snprintf(o->p + o->len, o->size - o->len, "..%0*d", width, b));
	if (step > 0)
		put_n(o, snprintf(o->p + o->len, o->size - o->len, "/%d", step));
}

/* A field written as one repetition, as systemd writes it back: "00/15", or "05..45/20"
 * (to its last value) when it was written with a range. False when the set is no such
 * progression (a single value). */
static bool put_progression(struct out *o, const int *values, int n, bool ranged, int width)
{
	int step = n >= 2 ? values[1] - values[0] : 0;

	for (int i = 2; step > 0 && i < n; i++)
		if (values[i] - values[i - 1] != step)
			return false;
	if (step <= 0)
		return false;
	put_value(o, width, values[0], ranged ? values[n - 1] : -1, step);
	return true;
}

/* A field's set as systemd writes it: "*", "06,18", "08..17", or as the repetition it
 * was written as ("00/30", where the set alone would give "00,30"). */
static void put_values(struct out *o, const uint64_t *bits, int min, int max, int base,
		       int width, unsigned form)
{
	int values[256], n = 0;

	for (int v = min; v <= max; v++)
		if (has_bit(bits, v - base))
			values[n++] = v;
	if ((form & FORM_STEPPED) && put_progression(o, values, n, form & FORM_RANGED, width))
		return;
	if (n == max - min + 1) {
		put(o, "*");
		return;
	}
	for (int i = 0; i < n;) {
		int j = i;
		while (j + 1 < n && values[j + 1] == values[j] + 1)
			j++;
		if (i > 0)
			put(o, ",");
		if (j - i >= 2) {
			put_value(o, width, values[i], values[j], 0);
			i = j + 1;
		} else {
			put_value(o, width, values[i], -1, 0);
			i++;
		}
	}
}

static void put_mask(struct out *o, uint64_t mask, int min, int max, unsigned form)
{
	uint64_t bits[4] = { mask, 0, 0, 0 };

	put_values(o, bits, min, max, 0, 2, form);
}

/* How the field with CALENDAR_STEPPED_* bit `field` was written: FORM_* */
static unsigned form_of(const struct calendar_spec *spec, unsigned field)
{
	return (spec->stepped & field ? FORM_STEPPED : 0) | (spec->ranged & field ? FORM_RANGED : 0);
}

static void put_weekdays(struct out *o, uint8_t days)
{
	bool first = true;

	for (int d = 0; d < 7;) {
		int e = d;
		if (!(days >> d & 1)) {
			d++;
			continue;
		}
		while (e + 1 < 7 && days >> (e + 1) & 1)
			e++;
		put(o, first ? "" : ",");
		first = false;
		put(o, weekday_names[d][0]);
		if (e - d >= 2) {
			put(o, "..");
			put(o, weekday_names[e][0]);
			d = e + 1;
		} else {
			d++;
		}
	}
	put(o, " ");
}

int calendar_format(const struct calendar_spec *spec, char *out, size_t size)
{
	struct out o = { out, size, 0, false };

	if (size == 0)
		return -1;
	out[0] = '\0';
	if (spec->weekdays != 0x7f)
		put_weekdays(&o, spec->weekdays);
	put_values(&o, spec->years, CALENDAR_YEAR_MIN, CALENDAR_YEAR_MAX, CALENDAR_YEAR_MIN, 4,
		   form_of(spec, CALENDAR_STEPPED_YEAR));
	put(&o, "-");
	put_mask(&o, spec->months, 1, 12, form_of(spec, CALENDAR_STEPPED_MONTH));
	put(&o, spec->days_end ? "~" : "-");
	put_mask(&o, spec->days_end ? spec->days_end : spec->days, 1, 31,
		 form_of(spec, CALENDAR_STEPPED_DAY));
	put(&o, " ");
	put_mask(&o, spec->hours, 0, 23, form_of(spec, CALENDAR_STEPPED_HOUR));
	put(&o, ":");
	put_mask(&o, spec->minutes, 0, 59, form_of(spec, CALENDAR_STEPPED_MINUTE));
	put(&o, ":");
	put_mask(&o, spec->seconds, 0, 59, form_of(spec, CALENDAR_STEPPED_SECOND));
	if (spec->utc)
		put(&o, " UTC");
	return o.full ? -1 : 0;
}
