/* empower.conf parser and matcher (policy.h). A line is split into words (double quotes
 * group, backslash escapes the next character, '#' starts a comment, a backslash at the
 * end of a line continues it), then read by the grammar in policy.h. */
#include "policy.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"

#define LINE_WORDS_MAX (8 + POLICY_ARGS_MAX)
#define LINE_TEXT_MAX 4096

struct words {
	size_t count;
	char *word[LINE_WORDS_MAX];
	char text[LINE_TEXT_MAX];
};

struct cursor {
	const char *at, *end;
	unsigned line;
};

static int fail(char *err, size_t size, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t size, unsigned line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, size, "line %u: ", line);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < size)
		vsnprintf(err + n, size - (size_t)n, fmt, ap);
	va_end(ap);
	errno = EINVAL;
	return -1;
}

/* Split the next logical line into w. 1 = a line (maybe empty), 0 = end of text. */
static int next_line(struct cursor *c, struct words *w, char *err, size_t err_size)
{
	size_t used = 0;
	bool in_word = false, quoted = false, comment = false;
	if (c->at >= c->end)
		return 0;
	c->line++;
	w->count = 0;
	while (c->at < c->end) {
		char ch = *c->at++;
		if (ch == '\n') {
			if (quoted)
				return fail(err, err_size, c->line, "unterminated quote");
			break;
		}
		if (comment)
			continue;
		if (ch == '\0' || (ch != '\t' && (unsigned char)ch < 0x20) || ch == 0x7f)
			return fail(err, err_size, c->line, "control character in the file");
		if (ch == '\\') {
			if (c->at >= c->end)
				return fail(err, err_size, c->line, "backslash at the end of the file");
			ch = *c->at++;
			if (ch != '\n' && ch != '\t' && ((unsigned char)ch < 0x20 || ch == 0x7f))
				return fail(err, err_size, c->line, "control character in the file");
			if (ch == '\n') { /* continuation: the next line joins this one */
				c->line++;
				if (in_word && !quoted) {
					in_word = false;
					if (used >= sizeof w->text)
						goto too_long;
					w->text[used++] = '\0';
				}
				continue;
			}
		} else if (ch == '"') {
			quoted = !quoted;
			if (!in_word) {
				if (w->count >= LINE_WORDS_MAX)
					return fail(err, err_size, c->line, "too many words");
				w->word[w->count++] = w->text + used;
				in_word = true;
			}
			continue;
		} else if (!quoted && (ch == ' ' || ch == '\t')) {
			if (in_word) {
				in_word = false;
				if (used >= sizeof w->text)
					goto too_long;
				w->text[used++] = '\0';
			}
			continue;
		} else if (!quoted && ch == '#' && !in_word) {
			comment = true;
			continue;
		}
		if (!in_word) {
			if (w->count >= LINE_WORDS_MAX)
				return fail(err, err_size, c->line, "too many words");
			w->word[w->count++] = w->text + used;
			in_word = true;
		}
		if (used + 1 >= sizeof w->text)
			goto too_long;
		w->text[used++] = ch;
	}
	if (quoted)
		return fail(err, err_size, c->line, "unterminated quote");
	if (in_word)
		w->text[used++] = '\0';
	return 1;
too_long:
	return fail(err, err_size, c->line, "line longer than %d bytes", LINE_TEXT_MAX);
}

static bool valid_name(const char *s)
{
	if (!*s || strlen(s) >= POLICY_WORD_MAX)
		return false;
	for (; *s; s++)
		if (*s == ':' || *s == '/' || *s == ' ' || *s == '\t')
			return false;
	return true;
}

static int parse_option(const char *word, struct policy_rule *r, char *err, size_t err_size)
{
	unsigned long ms;
	if (strcmp(word, "nopass") == 0) {
		r->nopass = true;
		return 0;
	}
	if (strcmp(word, "allow-nnp") == 0) {
		r->allow_nnp = true;
		return 0;
	}
	if (strcmp(word, "persist") == 0) {
		r->persist_ms = POLICY_PERSIST_DEFAULT_MS;
		return 0;
	}
	if (str_starts_with(word, "persist=")) {
		if (parse_duration_ms(word + 8, &ms) < 0 || ms == 0 || ms > POLICY_PERSIST_MAX_MS)
			return fail(err, err_size, r->line,
				    "%s: not a duration between 1ms and 24h", word);
		r->persist_ms = ms;
		return 0;
	}
	return 1; /* not an option: the identity */
}

static int parse_args(struct words *w, size_t i, struct policy_rule *r, char *err, size_t err_size)
{
	size_t used = 0;
	r->args_set = true;
	for (; i < w->count; i++) {
		size_t n = strlen(w->word[i]) + 1;
		if (r->argc >= POLICY_ARGS_MAX || used + n > sizeof r->args)
			return fail(err, err_size, r->line, "too many or too long args");
		memcpy(r->args + used, w->word[i], n);
		used += n;
		r->argc++;
	}
	return 0;
}

/* permit|deny [options] identity [as target] [cmd path [args ...]] */
static int parse_rule(struct words *w, struct policy_rule *r, char *err, size_t err_size)
{
	size_t i = 1;
	int rc;
	if (strcmp(w->word[0], "permit") == 0)
		r->permit = true;
	else if (strcmp(w->word[0], "deny") != 0)
		return fail(err, err_size, r->line, "%s: expected permit or deny", w->word[0]);
	for (; i < w->count; i++) {
		rc = parse_option(w->word[i], r, err, err_size);
		if (rc < 0)
			return -1;
		if (rc > 0)
			break;
		if (!r->permit)
			return fail(err, err_size, r->line, "%s: deny takes no options", w->word[i]);
	}
	if (r->nopass && r->persist_ms)
		return fail(err, err_size, r->line, "nopass and persist exclude each other");
	if (i >= w->count)
		return fail(err, err_size, r->line, "missing the user or :group");
	const char *id = w->word[i++];
	r->group = id[0] == ':';
	if (!valid_name(id + r->group))
		return fail(err, err_size, r->line, "%s: not a user or :group name", id);
	strcpy(r->identity, id + r->group);
	if (i < w->count && strcmp(w->word[i], "as") == 0) {
		if (++i >= w->count || !valid_name(w->word[i]))
			return fail(err, err_size, r->line, "as: missing or invalid target user");
		strcpy(r->target, w->word[i++]);
	}
	if (i < w->count && strcmp(w->word[i], "cmd") == 0) {
		if (++i >= w->count || w->word[i][0] != '/')
			return fail(err, err_size, r->line, "cmd: needs an absolute path");
		if (str_copy(r->cmd, sizeof r->cmd, w->word[i++]) < 0)
			return fail(err, err_size, r->line, "cmd: path too long");
		if (i < w->count && strcmp(w->word[i], "args") == 0)
			return parse_args(w, i + 1, r, err, err_size);
	}
	if (i < w->count)
		return fail(err, err_size, r->line, "%s: unexpected word", w->word[i]);
	return 0;
}

int policy_parse(const char *text, size_t len, struct policy *p, char *err, size_t err_size)
{
	static struct words w; /* 4 KiB: off the stack; the parser is not reentrant */
	struct cursor c = { .at = text, .end = text + len, .line = 0 };
	int rc;
	p->count = 0;
	if (err_size)
		err[0] = '\0';
	while ((rc = next_line(&c, &w, err, err_size)) > 0) {
		if (w.count == 0)
			continue;
		if (p->count >= POLICY_RULES_MAX) {
			fail(err, err_size, c.line, "more than %d rules", POLICY_RULES_MAX);
			errno = E2BIG;
			return -1;
		}
		struct policy_rule *r = &p->rule[p->count];
		memset(r, 0, sizeof *r);
		r->line = c.line;
		if (parse_rule(&w, r, err, err_size) < 0)
			return -1;
		p->count++;
	}
	return rc;
}

/* An earlier rule that named the same user or group: its answer, without another lookup
 * (each lookup reads /etc/passwd or /etc/group). */
static const struct policy_rule *same_identity(const struct policy *p, size_t before,
					       const struct policy_rule *r)
{
	for (size_t j = 0; j < before; j++)
		if (p->rule[j].group == r->group && strcmp(p->rule[j].identity, r->identity) == 0)
			return &p->rule[j];
	return NULL;
}

static const struct policy_rule *same_target(const struct policy *p, size_t before,
					     const struct policy_rule *r)
{
	for (size_t j = 0; j < before; j++)
		if (strcmp(p->rule[j].target, r->target) == 0)
			return &p->rule[j];
	return NULL;
}

void policy_resolve(struct policy *p, policy_id_fn user_id, policy_id_fn group_id)
{
	for (size_t i = 0; i < p->count; i++) {
		struct policy_rule *r = &p->rule[i];
		const struct policy_rule *seen = same_identity(p, i, r);
		policy_id_fn id_of = r->group ? group_id : user_id;
		if (seen) {
			r->identity_resolved = seen->identity_resolved;
			r->identity_id = seen->identity_id;
		} else {
			r->identity_resolved = id_of(r->identity, &r->identity_id) == 0;
		}
		seen = r->target[0] ? same_target(p, i, r) : NULL;
		if (seen) {
			r->target_resolved = seen->target_resolved;
			r->target_id = seen->target_id;
		} else {
			r->target_resolved = r->target[0] && user_id(r->target, &r->target_id) == 0;
		}
	}
}

static bool identity_matches(const struct policy_rule *r, const struct policy_query *q)
{
	if (!r->identity_resolved)
		return false;
	if (!r->group)
		return r->identity_id == q->uid;
	for (size_t i = 0; i < q->gid_count; i++)
		if (r->identity_id == q->gids[i])
			return true;
	return false;
}

static bool args_match(const struct policy_rule *r, const struct policy_query *q)
{
	const char *a = r->args;
	if (!r->args_set)
		return true;
	if (r->argc != q->argc)
		return false;
	for (size_t i = 0; i < r->argc; i++, a += strlen(a) + 1)
		if (strcmp(a, q->args[i]) != 0)
			return false;
	return true;
}

static bool rule_matches(const struct policy_rule *r, const struct policy_query *q)
{
	if (!identity_matches(r, q))
		return false;
	if (r->target[0] && (!r->target_resolved || r->target_id != q->target_uid))
		return false;
	if (r->cmd[0] && strcmp(r->cmd, q->cmd) != 0)
		return false;
	return args_match(r, q);
}

const struct policy_rule *policy_match(const struct policy *p, const struct policy_query *q)
{
	const struct policy_rule *hit = NULL;
	for (size_t i = 0; i < p->count; i++)
		if (rule_matches(&p->rule[i], q))
			hit = &p->rule[i];
	return hit;
}
