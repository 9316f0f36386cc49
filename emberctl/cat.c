/* emberctl cat, and the file facts of show: fragment and drop-ins (see cat.h). */
#include "cat.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "enable.h"
#include "log.h"
#include "records.h"
#include "unit-name.h"

#define DIRS_MAX 16

/* The directories drop-ins are looked up in. */
static size_t dropin_dirs(const char *fragment, const char **dirs, char *own, size_t size)
{
	size_t n;
	const char *const *search = enable_search_dirs(&n);
	const char *slash = strrchr(fragment, '/');

	if (slash && (size_t)(slash - fragment) < size) {
		memcpy(own, fragment, (size_t)(slash - fragment));
		own[slash - fragment] = '\0';
		bool known = false;
		for (size_t i = 0; i < n; i++)
			known |= strcmp(own, search[i]) == 0;
		if (!known) { /* ember.services=DIR: that directory only */
			dirs[0] = own;
			return 1;
		}
	}
	for (size_t i = 0; i < n && i < DIRS_MAX; i++)
		dirs[i] = search[i];
	return n < DIRS_MAX ? n : DIRS_MAX;
}

static bool seen_base(const struct unit_files *uf, const char *base)
{
	for (size_t i = 0; i < uf->ndropins; i++) {
		const char *b = strrchr(uf->dropin[i], '/');
		if (b && strcmp(b + 1, base) == 0)
			return true;
	}
	return false;
}

static bool has_control_bytes(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/* The *.conf files of dir/sub, a base name seen already (higher priority) skipped. */
static void collect(struct unit_files *uf, const char *dir, const char *sub)
{
	char path[PATH_MAX];
	DIR *d;
	struct dirent *e;

	if (snprintf(path, sizeof path, "%s/%s", dir, sub) >= (int)sizeof path || !(d = opendir(path)))
		return;
	while ((e = readdir(d)) && uf->ndropins < UNIT_DROPINS_MAX) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len <= 5 || strcmp(e->d_name + len - 5, ".conf") != 0 ||
		    has_control_bytes(e->d_name) || seen_base(uf, e->d_name))
			continue;
		snprintf(uf->dropin[uf->ndropins++], PATH_MAX, "%.2000s/%.255s", path, e->d_name);
	}
	closedir(d);
}

static int by_base(const void *a, const void *b)
{
	const char *x = strrchr(a, '/'), *y = strrchr(b, '/');
	return strcmp(x ? x + 1 : a, y ? y + 1 : b);
}

/* Masked drop-ins (empty, or links to /dev/null) hide lower ones and add nothing. */
static void drop_masked(struct unit_files *uf)
{
	size_t k = 0;

	for (size_t i = 0; i < uf->ndropins; i++)
		if (!enable_is_masked(uf->dropin[i]) && k++ != i)
			memcpy(uf->dropin[k - 1], uf->dropin[i], PATH_MAX);
	uf->ndropins = k;
}

int unit_files_find(const char *name, const char *fragment, struct unit_files *uf)
{
	const char *dirs[DIRS_MAX];
	char own[PATH_MAX], full[UNIT_NAME_MAX + 8], tmpl[UNIT_NAME_MAX], subs[3][UNIT_NAME_MAX + 16];
	size_t ndirs, nsubs = 0;

	memset(uf, 0, sizeof *uf);
	if (fragment && *fragment)
		snprintf(uf->fragment, sizeof uf->fragment, "%s", fragment);
	else if (enable_find_unit_file(name, uf->fragment, sizeof uf->fragment) < 0)
		uf->fragment[0] = '\0';
	if (!uf->fragment[0])
		return -1;
	uf->masked = enable_is_masked(uf->fragment);
	if (uf->masked || unit_name_full(name, full, sizeof full) < 0)
		return 0;
	ndirs = dropin_dirs(uf->fragment, dirs, own, sizeof own);
	snprintf(subs[nsubs++], sizeof subs[0], "%s.d", full);
	if (unit_name_is_instance(name) && unit_name_template_of(name, tmpl, sizeof tmpl) == 0 &&
	    unit_name_full(tmpl, full, sizeof full) == 0)
		snprintf(subs[nsubs++], sizeof subs[0], "%s.d", full);
	snprintf(subs[nsubs++], sizeof subs[0], "%s.d", unit_kind_suffix(unit_name_kind(name)) + 1);
	for (size_t d = 0; d < ndirs; d++)
		for (size_t s = 0; s < nsubs; s++)
			collect(uf, dirs[d], subs[s]);
	qsort(uf->dropin, uf->ndropins, PATH_MAX, by_base);
	drop_masked(uf);
	return 0;
}

/* Contents as they are, but never a raw control byte on a terminal. */
static void put_contents(FILE *out, const char *buf, size_t n, bool tty)
{
	size_t start = 0;

	if (!tty) {
		fwrite(buf, 1, n, out);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];
		if ((c >= 0x20 && c != 0x7f) || c == '\n' || c == '\t')
			continue;
		fwrite(buf + start, 1, i - start, out);
		print_safe_n(out, buf + i, 1);
		start = i + 1;
	}
	fwrite(buf + start, 1, n - start, out);
}

static int print_file(FILE *out, const char *path, bool tty, bool first)
{
	FILE *f = fopen(path, "re");
	char buf[4096];
	size_t n;
	bool newline = true;

	if (!f) {
		log_error("%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	if (!first)
		fputc('\n', out);
	fputs("# ", out);
	print_safe(out, path); /* a path is shown escaped, always: it is one line */
	fputc('\n', out);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
		put_contents(out, buf, n, tty);
		newline = buf[n - 1] == '\n';
	}
	if (!newline)
		fputc('\n', out);
	fclose(f);
	return 0;
}

int unit_files_print(FILE *out, const struct unit_files *uf, bool tty)
{
	int rc = print_file(out, uf->fragment, tty, true);

	for (size_t i = 0; i < uf->ndropins; i++)
		rc |= print_file(out, uf->dropin[i], tty, false);
	return rc;
}
