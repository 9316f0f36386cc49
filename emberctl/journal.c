/* Merging and cutting stamped log replies (see journal.h). */
#include "journal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static int push(struct journal *j, long long t_ms, const char *unit, char *text)
{
	if (j->count == j->cap) {
		size_t ncap = j->cap ? j->cap * 2 : 64;
		struct journal_line *n = realloc(j->line, ncap * sizeof *n);
		if (!n)
			return -1;
		j->line = n;
		j->cap = ncap;
	}
	j->line[j->count] = (struct journal_line){ t_ms, unit, text, j->count };
	j->count++;
	return 0;
}

/* text + more, reallocated. */
static char *grow(char *text, const char *more)
{
	size_t a = text ? strlen(text) : 0, b = strlen(more);
	char *n = realloc(text, a + b + 1);

	if (!n)
		return NULL;
	memcpy(n + a, more, b + 1);
	return n;
}

int journal_add(struct journal *j, const char *unit, const struct record_set *set,
		unsigned long long *cursor, char *err, size_t errlen)
{
	char *text = NULL;
	long long t_ms = -1;

	*cursor = 0;
	for (size_t i = 0; i < set->count; i++) {
		const struct ctl_record *r = &set->rec[i];
		const char *piece = ctl_record_get(r, "text");
		char *n;
		if (!piece) {
			long long c = rec_int(r, "cursor");
			*cursor = c > 0 ? (unsigned long long)c : 0;
			continue;
		}
		if (!text)
			t_ms = rec_int(r, "t_ms");
		n = grow(text, piece);
		if (!n)
			goto oom;
		text = n;
		if (rec_int(r, "eol") == 1) {
			if (push(j, t_ms, unit, text) < 0)
				goto oom;
			text = NULL;
		}
	}
	if (text && push(j, t_ms, unit, text) < 0) /* the last line, still being written */
		goto oom;
	return 0;
oom:
	free(text);
	snprintf(err, errlen, "out of memory for the log of %s", unit);
	return -1;
}

static int by_time(const void *a, const void *b)
{
	const struct journal_line *x = a, *y = b;

	if (x->t_ms != y->t_ms)
		return x->t_ms < y->t_ms ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void journal_sort(struct journal *j)
{
	if (j->count > 1)
		qsort(j->line, j->count, sizeof *j->line, by_time);
}

size_t journal_first(const struct journal *j, long long since_ms, long lines)
{
	size_t first = 0;

	if (since_ms >= 0)
		while (first < j->count && j->line[first].t_ms < since_ms)
			first++;
	if (lines >= 0 && j->count - first > (size_t)lines)
		first = j->count - (size_t)lines;
	return first;
}

static void put_text(FILE *f, const char *s, bool tty)
{
	if (!tty) {
		fputs(s, f);
		return;
	}
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p >= 0x20 && *p != 0x7f) || *p == '\t')
			fputc(*p, f);
		else
			fprintf(f, "\\x%02x", *p);
}

void journal_print(FILE *f, const struct journal *j, size_t first, bool with_unit,
		   long long boot_to_real_us, bool tty)
{
	for (size_t i = first; i < j->count; i++) {
		const struct journal_line *l = &j->line[i];
		if (with_unit) {
			char when[32] = "-";
			time_t t = (time_t)((l->t_ms * 1000 + boot_to_real_us) / 1000000);
			struct tm tm;
			if (l->t_ms >= 0 && localtime_r(&t, &tm))
				strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
			fprintf(f, "%s ", when);
			put_text(f, l->unit, true);
			fputs(": ", f);
		}
		put_text(f, l->text, tty);
		fputc('\n', f);
	}
}

void journal_free(struct journal *j)
{
	for (size_t i = 0; i < j->count; i++)
		free(j->line[i].text);
	free(j->line);
	memset(j, 0, sizeof *j);
}
