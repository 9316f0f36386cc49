#include "passwd.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "parse.h"

#define PASSWD_FIELDS 7 /* name:password:uid:gid:gecos:home:shell */
#define GROUP_FIELDS 4  /* name:password:gid:member,member,... */
#define FIELDS_MAX PASSWD_FIELDS /* the longer of the two */

/* ---- reading lines without stdio or malloc ---- */

struct line_reader {
	int fd;
	size_t len, pos;   /* buf[pos..len) is not yet returned */
	bool eof;
	bool skipping;     /* inside an overlong line: drop bytes up to its newline */
	bool overlong;     /* at least one overlong line was dropped */
	char buf[PASSWD_LINE_MAX];
};

static int reader_open(struct line_reader *r, const char *root, const char *file)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof path, "%s/%s", root && *root ? root : "", file);

	if (n < 0 || (size_t)n >= sizeof path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	r->fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	r->len = r->pos = 0;
	r->eof = r->skipping = r->overlong = false;
	return r->fd < 0 ? -1 : 0;
}

static void reader_close(struct line_reader *r)
{
	int saved = errno;
	close(r->fd);
	errno = saved;
}

/* Move the unread tail to the front of the buffer. */
static void reader_compact(struct line_reader *r)
{
	memmove(r->buf, r->buf + r->pos, r->len - r->pos);
	r->len -= r->pos;
	r->pos = 0;
}

/* Refill after compacting. 0, or -1/errno. */
static int reader_fill(struct line_reader *r)
{
	ssize_t n;

	reader_compact(r);
	do
		n = read(r->fd, r->buf + r->len, sizeof r->buf - r->len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	if (n == 0)
		r->eof = true;
	r->len += (size_t)n;
	return 0;
}

/* The next line, NUL-terminated in place, without its newline. Returns 1 with *line and
 * *len set, 0 at end of file, -1/errno on a read error. Lines that do not fit the buffer
 * are dropped whole (never parsed in pieces) and remembered in r->overlong. */
static int reader_next(struct line_reader *r, char **line, size_t *len)
{
	for (;;) {
		char *start = r->buf + r->pos;
		char *nl = memchr(start, '\n', r->len - r->pos);

		if (nl) {
			r->pos = (size_t)(nl - r->buf) + 1;
			if (r->skipping) {
				r->skipping = false;
				continue;
			}
			*nl = '\0';
			*line = start;
			*len = (size_t)(nl - start);
			return 1;
		}
		if (r->eof) {
			if (r->pos == r->len || r->skipping)
				return 0;
			if (r->len == sizeof r->buf && r->pos == 0) { /* no room for the NUL */
				r->overlong = true;
				return 0;
			}
			if (r->len == sizeof r->buf) {
				reader_compact(r);
				continue;
			}
			r->buf[r->len] = '\0';
			*line = start;
			*len = r->len - r->pos;
			r->pos = r->len;
			return 1;
		}
		if (r->pos == 0 && r->len == sizeof r->buf) {
			r->overlong = true;
			r->skipping = true;
			r->len = 0;
		}
		if (reader_fill(r) < 0)
			return -1;
	}
}

/* ---- parsing one line ---- */

/* Split line at ':' into exactly n fields; comments, blank lines, a wrong field count and
 * an empty name are all "not an entry". */
static bool split_fields(char *line, char **field, int n)
{
	int count = 0;
	char *p = line;

	if (*line == '\0' || *line == '#')
		return false;
	for (;;) {
		char *colon = strchr(p, ':');
		if (count == n)
			return false;
		field[count++] = p;
		if (!colon)
			break;
		*colon = '\0';
		p = colon + 1;
	}
	return count == n && *field[0] != '\0';
}

int passwd_parse_id(const char *s, uint32_t *id)
{
	unsigned long v;

	if (parse_ulong(s, 0, UINT32_MAX - 1, &v) < 0)
		return -1;
	if (v == 65535) {
		errno = ERANGE;
		return -1;
	}
	*id = (uint32_t)v;
	return 0;
}

static bool is_numeric(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* reader_next() returns the line's length: a NUL byte inside makes strlen() shorter, and
 * such a line is invalid (libc would cut it there; we drop it). */
static bool line_has_nul(const char *line, size_t len)
{
	return strlen(line) != len;
}

/* Called with the fields of each entry; returns 0 to go on, 1 to stop (found), -1/errno
 * to stop on an error. */
typedef int entry_fn(void *ctx, char **field);

/* Hand each entry of root/file (a line without NUL bytes that splits into exactly
 * nfields fields) to fn until it returns nonzero. Returns what fn returned, 0 at the
 * end of the file, or -1/errno when the file cannot be opened or read. *overlong (may
 * be NULL) tells whether a line too long to read was dropped. */
static int scan_entries(const char *root, const char *file, int nfields, entry_fn *fn,
			void *ctx, bool *overlong)
{
	struct line_reader r;
	char *field[FIELDS_MAX];
	char *line;
	size_t len;
	int got = 0, ret = 0;

	if (reader_open(&r, root, file) < 0)
		return -1;
	while (ret == 0 && (got = reader_next(&r, &line, &len)) > 0)
		if (!line_has_nul(line, len) && split_fields(line, field, nfields))
			ret = fn(ctx, field);
	if (ret == 0 && got < 0)
		ret = -1;
	if (overlong)
		*overlong = r.overlong;
	reader_close(&r);
	return ret;
}

/* What a lookup looks for: an entry by name (name != NULL) or by id, copied to out. */
struct entry_query {
	const char *name;
	uint32_t id;
	void *out;
};

static bool query_matches(const struct entry_query *q, const char *name, uint32_t id)
{
	return q->name ? strcmp(name, q->name) == 0 : id == q->id;
}

/* name_or_id as User= and Group= read it: a string of digits is an id, anything else a
 * name. 0, or -1/errno for a number that is not a valid id. */
static int query_parse(const char *name_or_id, void *out, struct entry_query *q)
{
	q->out = out;
	q->name = NULL;
	q->id = 0;
	if (!is_numeric(name_or_id)) {
		q->name = name_or_id;
		return 0;
	}
	return passwd_parse_id(name_or_id, &q->id);
}

/* 0 when fn found the entry, else -1/errno: ENOENT when the file has none. */
static int find_entry(const char *root, const char *file, int nfields, entry_fn *fn,
		      void *ctx)
{
	int ret = scan_entries(root, file, nfields, fn, ctx, NULL);

	if (ret == 0)
		errno = ENOENT; /* the parsers may have set errno on lines they skipped */
	return ret > 0 ? 0 : -1;
}

struct user_fields {
	char *name, *home, *shell;
	uint32_t uid, gid;
};

static bool parse_user(char **f, struct user_fields *u)
{
	if (passwd_parse_id(f[2], &u->uid) < 0 || passwd_parse_id(f[3], &u->gid) < 0)
		return false;
	u->name = f[0];
	u->home = f[5];
	u->shell = f[6];
	return true;
}

static int fill_user(const struct user_fields *u, struct passwd_user *out)
{
	if (str_copy(out->name, sizeof out->name, u->name) < 0 ||
	    str_copy(out->home, sizeof out->home, u->home) < 0 ||
	    str_copy(out->shell, sizeof out->shell, u->shell) < 0)
		return -1;
	out->uid = u->uid;
	out->gid = u->gid;
	return 0;
}

static int match_user(void *ctx, char **field)
{
	struct entry_query *q = ctx;
	struct user_fields u;

	if (!parse_user(field, &u) || !query_matches(q, u.name, u.uid))
		return 0;
	return fill_user(&u, q->out) < 0 ? -1 : 1;
}

/* The first valid passwd entry that matches. */
static int find_user(const char *root, struct entry_query *q)
{
	return find_entry(root, "etc/passwd", PASSWD_FIELDS, match_user, q);
}

int passwd_user_by_name(const char *root, const char *name, struct passwd_user *out)
{
	struct entry_query q = { name, 0, out };
	return find_user(root, &q);
}

int passwd_user_by_uid(const char *root, uid_t uid, struct passwd_user *out)
{
	struct entry_query q = { NULL, uid, out };
	return find_user(root, &q);
}

int passwd_user_lookup(const char *root, const char *name_or_id, struct passwd_user *out)
{
	struct entry_query q;
	return query_parse(name_or_id, out, &q) < 0 ? -1 : find_user(root, &q);
}

struct group_fields {
	char *name, *members;
	uint32_t gid;
};

static bool parse_group(char **f, struct group_fields *g)
{
	if (passwd_parse_id(f[2], &g->gid) < 0)
		return false;
	g->name = f[0];
	g->members = f[3];
	return true;
}

static int match_group(void *ctx, char **field)
{
	struct entry_query *q = ctx;
	struct passwd_group *out = q->out;
	struct group_fields g;

	if (!parse_group(field, &g) || !query_matches(q, g.name, g.gid))
		return 0;
	out->gid = g.gid;
	return str_copy(out->name, sizeof out->name, g.name) < 0 ? -1 : 1;
}

/* The first valid group entry that matches. */
static int find_group(const char *root, struct entry_query *q)
{
	return find_entry(root, "etc/group", GROUP_FIELDS, match_group, q);
}

int passwd_group_by_name(const char *root, const char *name, struct passwd_group *out)
{
	struct entry_query q = { name, 0, out };
	return find_group(root, &q);
}

int passwd_group_by_gid(const char *root, gid_t gid, struct passwd_group *out)
{
	struct entry_query q = { NULL, gid, out };
	return find_group(root, &q);
}

int passwd_group_lookup(const char *root, const char *name_or_id, struct passwd_group *out)
{
	struct entry_query q;
	return query_parse(name_or_id, out, &q) < 0 ? -1 : find_group(root, &q);
}

static bool member_of(const char *members, const char *user)
{
	size_t len = strlen(user);

	for (const char *p = members; *p;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		if (n == len && memcmp(p, user, len) == 0)
			return true;
		if (!comma)
			break;
		p = comma + 1;
	}
	return false;
}

/* Append gid unless present. 0, or -1/ERANGE when full. */
static int add_gid(gid_t *groups, size_t cap, size_t *count, gid_t gid)
{
	for (size_t i = 0; i < *count; i++)
		if (groups[i] == gid)
			return 0;
	if (*count == cap) {
		errno = ERANGE;
		return -1;
	}
	groups[(*count)++] = gid;
	return 0;
}

/* Where passwd_user_groups() collects the groups user is a member of. */
struct member_query {
	const char *user;
	gid_t *groups;
	size_t cap, *count;
};

static int add_if_member(void *ctx, char **field)
{
	struct member_query *q = ctx;
	struct group_fields g;

	if (!parse_group(field, &g) || !member_of(g.members, q->user))
		return 0;
	return add_gid(q->groups, q->cap, q->count, g.gid);
}

int passwd_user_groups(const char *root, const char *user, gid_t primary, gid_t *groups,
		       size_t cap, size_t *count)
{
	struct member_query q = { user, groups, cap, count };
	bool overlong = false;
	int ret;

	*count = 0;
	if (add_gid(groups, cap, count, primary) < 0)
		return -1;
	ret = scan_entries(root, "etc/group", GROUP_FIELDS, add_if_member, &q, &overlong);
	if (ret < 0)
		return errno == ENOENT ? 0 : -1; /* no /etc/group: no supplementary groups */
	if (overlong) {
		errno = EOVERFLOW;
		return -1;
	}
	return 0;
}
