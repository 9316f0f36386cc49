/* pam_limits without PAM (pam.h): limits.conf and limits.d into the limits to set, as
 * Linux-PAM's pam_limits reads them. Pure. */
#include "pam.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

#define BLANKS " \t\r\v\f"
#define LIMITS_SRC_ALLGROUP 2 /* "%group": maxlogins only */
#define LIMITS_SRC_ALL 3      /* "%": maxlogins only */

enum unit { U_COUNT, U_KB, U_MINUTES, U_NICE };
static const struct item {
	const char *name;
	int resource;
	enum unit unit;
} items[] = {
	{ "core", RLIMIT_CORE, U_KB },       { "data", RLIMIT_DATA, U_KB },
	{ "fsize", RLIMIT_FSIZE, U_KB },     { "memlock", RLIMIT_MEMLOCK, U_KB },
	{ "nofile", RLIMIT_NOFILE, U_COUNT }, { "rss", RLIMIT_RSS, U_KB },
	{ "stack", RLIMIT_STACK, U_KB },     { "cpu", RLIMIT_CPU, U_MINUTES },
	{ "nproc", RLIMIT_NPROC, U_COUNT },  { "as", RLIMIT_AS, U_KB },
	{ "locks", RLIMIT_LOCKS, U_COUNT },  { "sigpending", RLIMIT_SIGPENDING, U_COUNT },
	{ "msgqueue", RLIMIT_MSGQUEUE, U_COUNT }, { "nice", RLIMIT_NICE, U_NICE },
	{ "rtprio", RLIMIT_RTPRIO, U_COUNT }, { "rttime", RLIMIT_RTTIME, U_COUNT },
};

void limits_plan_init(struct limits_plan *p, rlim_t nr_open)
{
	memset(p, 0, sizeof *p);
	for (size_t i = 0; i < RLIM_NLIMITS; i++)
		p->lim[i].src_soft = p->lim[i].src_hard = LIMITS_SRC_NONE;
	p->nr_open = nr_open;
}

struct ctx {
	struct limits_plan *p;
	const char *file;
	unsigned line;
	pam_note_fn *note;
	void *note_ctx;
};

static void note(struct ctx *c, const char *why)
{
	c->note(c->note_ctx, c->file, c->line, why);
}

/* A decimal number, all of the word (pam_limits' strtoul would take "10k" as 10: a
 * typo is refused here instead). */
static int number(const char *s, unsigned long long *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

static int signed_number(const char *s, long *v)
{
	char *end;
	const char *d = *s == '-' || *s == '+' ? s + 1 : s;

	if (!isdigit((unsigned char)*d))
		return -1;
	errno = 0;
	*v = strtol(s, &end, 10);
	return errno || *end ? -1 : 0;
}

static bool unlimited(const char *v)
{
	return strcmp(v, "-1") == 0 || strcmp(v, "-") == 0 || strcmp(v, "unlimited") == 0 ||
	       strcmp(v, "infinity") == 0;
}

/* The item's value in the kernel's units; -1 when it is not a value. */
static int rlimit_value(struct ctx *c, const struct item *it, const char *v, rlim_t *out)
{
	unsigned long long n;
	long s;

	if (it->unit == U_NICE) {
		if (signed_number(v, &s) < 0)
			return -1;
		s = s > 19 ? 19 : s < -20 ? -20 : s;
		*out = (rlim_t)(20 - s);
		return 0;
	}
	if (unlimited(v)) {
		*out = RLIM_INFINITY;
		if (it->resource == RLIMIT_NOFILE) /* the kernel refuses infinity there */
			*out = c->p->nr_open ? c->p->nr_open : RLIM_INFINITY;
		return 0;
	}
	if (number(v, &n) < 0)
		return -1;
	if (n >= RLIM_INFINITY)
		n = RLIM_INFINITY;
	else if (it->unit == U_KB)
		n = n >= RLIM_INFINITY / 1024 ? RLIM_INFINITY : n * 1024;
	else if (it->unit == U_MINUTES)
		n = n >= RLIM_INFINITY / 60 ? RLIM_INFINITY : n * 60;
	*out = (rlim_t)n;
	return 0;
}

static void set(struct ctx *c, int src, const char *type, const char *item, const char *value)
{
	const struct item *it = NULL;
	rlim_t v;
	long pri;
	bool soft = strcmp(type, "soft") == 0 || strcmp(type, "-") == 0;
	bool hard = strcmp(type, "hard") == 0 || strcmp(type, "-") == 0;

	if (strcmp(item, "maxlogins") == 0 || strcmp(item, "maxsyslogins") == 0) {
		note(c, "maxlogins and maxsyslogins are not enforced (no utmp count): ignored");
		return;
	}
	if (src == LIMITS_SRC_ALL || src == LIMITS_SRC_ALLGROUP)
		return; /* '%' domains: maxlogins only */
	if (strcmp(item, "nonewprivs") == 0) {
		if (strcmp(value, "0") == 0 || strcmp(value, "1") == 0)
			c->p->nonewprivs = value[0] == '1';
		else
			note(c, "nonewprivs takes 0 or 1: skipped");
		return;
	}
	if (!soft && !hard) {
		note(c, "the type is not soft, hard or -: skipped");
		return;
	}
	if (strcmp(item, "priority") == 0) {
		if (signed_number(value, &pri) < 0 || pri < -20 || pri > 19) {
			note(c, "priority is a number from -20 to 19: skipped");
			return;
		}
		c->p->priority = (int)pri;
		c->p->priority_set = true;
		return;
	}
	for (size_t i = 0; i < sizeof items / sizeof *items; i++)
		if (strcmp(items[i].name, item) == 0)
			it = &items[i];
	if (!it) {
		note(c, "unknown item: skipped");
		return;
	}
	if (rlimit_value(c, it, value, &v) < 0) {
		note(c, "the value is not a number, unlimited or infinity: skipped");
		return;
	}
	/* the most specific domain wins; among equals, the later line */
	if (soft && c->p->lim[it->resource].src_soft >= src) {
		c->p->lim[it->resource].cur = v;
		c->p->lim[it->resource].src_soft = (uint8_t)src;
	}
	if (hard && c->p->lim[it->resource].src_hard >= src) {
		c->p->lim[it->resource].max = v;
		c->p->lim[it->resource].src_hard = (uint8_t)src;
	}
}

static bool in_group_named(const struct limits_user *u, const char *name)
{
	for (size_t i = 0; i < u->ngroups; i++)
		if (u->group_names[i] && strcmp(u->group_names[i], name) == 0)
			return true;
	return false;
}

static bool in_gid(const struct limits_user *u, unsigned long gid)
{
	for (size_t i = 0; i < u->ngroups; i++)
		if (u->groups[i] == gid)
			return true;
	return false;
}

/* "min:max", ":id", "min:" (after any '@' or '%'). 1 parsed, 0 not a range, -1 bad. */
static int range(const char *d, unsigned long long *lo, unsigned long long *hi, bool *exact)
{
	const char *colon = strchr(d, ':');
	char buf[32];
	size_t n;

	if (!colon)
		return 0;
	*exact = colon == d;
	n = (size_t)(colon - d);
	if (n >= sizeof buf)
		return -1;
	memcpy(buf, d, n);
	buf[n] = '\0';
	*lo = 0;
	*hi = ULLONG_MAX;
	if (n && number(buf, lo) < 0)
		return -1;
	if (colon[1] && number(colon + 1, hi) < 0)
		return -1;
	if (*exact) {
		if (!colon[1])
			return -1;
		*lo = *hi;
	}
	return 1;
}

/* The domain's source when it matches the user, else -1; -2 when it is malformed. */
static int match(const char *domain, const struct limits_user *u)
{
	unsigned long long lo, hi;
	bool exact;
	bool group = domain[0] == '@', pct = domain[0] == '%';
	int r = range(domain + (group || pct), &lo, &hi, &exact);

	if (r < 0)
		return -2;
	if (strcmp(domain, u->name) == 0)
		return LIMITS_SRC_USER;
	if (group) {
		if (r == 0)
			return in_group_named(u, domain + 1) ? LIMITS_SRC_GROUP : -1;
		if (exact) /* every group of the user; a range only the primary one */
			return in_gid(u, lo) ? LIMITS_SRC_GROUP : -1;
		return u->gid >= lo && u->gid <= hi ? LIMITS_SRC_GROUP : -1;
	}
	if (pct) {
		if (strcmp(domain, "%") == 0)
			return LIMITS_SRC_ALL;
		if (r == 0)
			return in_group_named(u, domain + 1) ? LIMITS_SRC_ALLGROUP : -1;
		return exact && in_gid(u, lo) ? LIMITS_SRC_ALLGROUP : -1;
	}
	if (r == 1)
		return u->uid >= lo && u->uid <= hi ? LIMITS_SRC_USER : -1;
	return strcmp(domain, "*") == 0 ? LIMITS_SRC_DEFAULT : -1;
}

static void lower(char *s)
{
	for (; s && *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

static void conf_line(struct ctx *c, char *line, const struct limits_user *u)
{
	char *save = NULL, *domain, *type, *item, *value;
	int src;

	domain = strtok_r(line, BLANKS, &save);
	type = strtok_r(NULL, BLANKS, &save);
	item = strtok_r(NULL, BLANKS, &save);
	value = strtok_r(NULL, BLANKS, &save);
	lower(type);
	lower(item);
	lower(value);
	if (!domain || !type) {
		note(c, "not \"domain type item value\": skipped");
		return;
	}
	src = match(domain, u);
	if (src == -2) {
		note(c, "invalid uid or gid range: skipped");
		return;
	}
	if (!item && strcmp(type, "-") == 0) { /* "DOMAIN -": no limits at all for them */
		if (src == LIMITS_SRC_USER || src == LIMITS_SRC_GROUP)
			c->p->no_limits = true;
		return;
	}
	if (!item || !value || strtok_r(NULL, BLANKS, &save)) {
		note(c, "not \"domain type item value\": skipped");
		return;
	}
	if (src >= 0)
		set(c, src, type, item, value);
}

void limits_conf_apply(struct limits_plan *p, const char *text, size_t len, const char *file,
		       const struct limits_user *u, pam_note_fn *note_fn, void *note_ctx)
{
	struct ctx c = { p, file, 0, note_fn, note_ctx };
	char line[PAM_LINE_MAX];
	size_t pos = 0;
	unsigned lineno = 0;
	int r;

	while ((r = pam_next_line(text, len, &pos, &lineno, line, sizeof line)) != 0) {
		c.line = lineno;
		if (r < 0)
			note(&c, "line longer than 8191 bytes: skipped");
		else
			conf_line(&c, line, u);
	}
}

/* /proc/PID/limits names them so (fs/proc/base.c) */
static const struct {
	const char *name;
	int resource;
} proc_names[] = {
	{ "Max cpu time", RLIMIT_CPU },	      { "Max file size", RLIMIT_FSIZE },
	{ "Max data size", RLIMIT_DATA },     { "Max stack size", RLIMIT_STACK },
	{ "Max core file size", RLIMIT_CORE }, { "Max resident set", RLIMIT_RSS },
	{ "Max processes", RLIMIT_NPROC },    { "Max open files", RLIMIT_NOFILE },
	{ "Max locked memory", RLIMIT_MEMLOCK }, { "Max address space", RLIMIT_AS },
	{ "Max file locks", RLIMIT_LOCKS },   { "Max pending signals", RLIMIT_SIGPENDING },
	{ "Max msgqueue size", RLIMIT_MSGQUEUE }, { "Max nice priority", RLIMIT_NICE },
	{ "Max realtime priority", RLIMIT_RTPRIO }, { "Max realtime timeout", RLIMIT_RTTIME },
};

static int proc_value(const char *word, size_t len, rlim_t *v)
{
	char buf[32];
	unsigned long long n;

	if (len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, word, len);
	buf[len] = '\0';
	if (strcmp(buf, "unlimited") == 0) {
		*v = RLIM_INFINITY;
		return 0;
	}
	if (number(buf, &n) < 0 || n >= (unsigned long long)RLIM_INFINITY)
		return -1;
	*v = (rlim_t)n;
	return 0;
}

/* "NAME   SOFT   HARD   [UNITS]": the name is the row's first words, padded to the
 * column of the soft value. */
static void pid1_line(struct limits_plan *p, const char *line, size_t len)
{
	for (size_t i = 0; i < sizeof proc_names / sizeof *proc_names; i++) {
		size_t n = strlen(proc_names[i].name), w;
		const char *at = line + n, *end = line + len;
		rlim_t soft, hard;
		int r = proc_names[i].resource;

		if (len <= n || strncmp(line, proc_names[i].name, n) != 0 || *at != ' ')
			continue;
		at += strspn(at, " ");
		w = strcspn(at, " \n");
		if (at + w > end || proc_value(at, w, &soft) < 0)
			return;
		at += w;
		at += strspn(at, " ");
		w = strcspn(at, " \n");
		if (at + w > end || proc_value(at, w, &hard) < 0 || soft > hard)
			return;
		if (r == RLIMIT_NOFILE && soft > LIMITS_PID1_NOFILE_SOFT_MAX)
			soft = LIMITS_PID1_NOFILE_SOFT_MAX;
		p->lim[r].cur = soft;
		p->lim[r].max = hard;
		p->lim[r].src_soft = p->lim[r].src_hard = LIMITS_SRC_KERNEL;
		return;
	}
}

void limits_pid1_apply(struct limits_plan *p, const char *text)
{
	while (*text) {
		size_t len = strcspn(text, "\n");
		pid1_line(p, text, len);
		text += len;
		if (*text)
			text++;
	}
}

bool pam_limits_options(const char *args, char *conf, size_t size, pam_note_fn *note_fn,
			void *ctx, const char *file, unsigned line)
{
	char buf[PAM_ARGS_MAX], *s = buf, *w, why[PAM_ARGS_MAX + 64];
	bool set_all = false;

	conf[0] = '\0';
	snprintf(buf, sizeof buf, "%s", args);
	while ((w = strtok_r(s, BLANKS, &s))) {
		if (str_starts_with(w, "conf=")) {
			if (w[5] == '/' && strlen(w + 5) < size)
				strcpy(conf, w + 5);
			else
				note_fn(ctx, file, line, "pam_limits: conf= is not an absolute path that fits: ignored");
		} else if (strcmp(w, "set_all") == 0) {
			set_all = true;
		} else if (strcmp(w, "debug") == 0 || strcmp(w, "utmp_early") == 0 ||
			   strcmp(w, "noaudit") == 0) {
			; /* nothing they change here */
		} else {
			snprintf(why, sizeof why, "pam_limits: option %s is not supported: ignored", w);
			note_fn(ctx, file, line, why);
		}
	}
	return set_all;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t limits_dir_order(char **names, size_t n)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(names[i]);
		if (names[i][0] != '.' && len > 5 && strcmp(names[i] + len - 5, ".conf") == 0)
			names[kept++] = names[i];
	}
	qsort(names, kept, sizeof *names, by_name);
	return kept;
}
