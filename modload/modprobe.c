#include "modprobe.h"

#include "log.h"
#include "names.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 256

/* Split line into blank-separated words (in place); returns the count, or max + 1
 * when there are more than max. */
static size_t split_words(char *line, char **words, size_t max)
{
	size_t n = 0;
	char *save = NULL;
	for (char *w = strtok_r(line, " \t\r", &save); w; w = strtok_r(NULL, " \t\r", &save)) {
		if (n == max)
			return max + 1;
		words[n++] = w;
	}
	return n;
}

static char *normalized(const char *s)
{
	char *copy = xstrdup(s);
	modname_normalize(copy);
	return copy;
}

static void add_options(struct modprobe_conf *c, char **words, size_t n)
{
	char *name = normalized(words[1]);
	char *old = strmap_get(&c->options, name), *joined = old ? xstrdup(old) : NULL;

	for (size_t i = 2; i < n; i++) {
		char *next = joined ? xconcat(joined, " ", words[i], NULL) : xstrdup(words[i]);
		free(joined);
		joined = next;
	}
	free(old);
	strmap_put(&c->options, name, joined ? joined : xstrdup(""));
	free(name);
}

static void add_alias(struct modprobe_conf *c, const char *pattern, const char *module)
{
	if (c->naliases == c->acap) {
		c->acap = c->acap ? c->acap * 2 : 16;
		c->aliases = xrealloc(c->aliases, c->acap * sizeof *c->aliases);
	}
	c->aliases[c->naliases].pattern = xstrdup(pattern);
	alias_normalize(c->aliases[c->naliases].pattern);
	c->aliases[c->naliases].module = normalized(module);
	c->naliases++;
}

static void add_softdep(struct modprobe_conf *c, char **words, size_t n)
{
	struct softdep_rule *r;
	struct strvec *mode = NULL;

	if (c->nsoftdeps == c->scap) {
		c->scap = c->scap ? c->scap * 2 : 16;
		c->softdeps = xrealloc(c->softdeps, c->scap * sizeof *c->softdeps);
	}
	r = &c->softdeps[c->nsoftdeps++];
	memset(r, 0, sizeof *r);
	r->module = normalized(words[1]);
	/* Words before the first "pre:" or "post:" belong to neither list. */
	for (size_t i = 2; i < n; i++) {
		if (strcmp(words[i], "pre:") == 0)
			mode = &r->pre;
		else if (strcmp(words[i], "post:") == 0)
			mode = &r->post;
		else if (mode && modname_valid(words[i]))
			strvec_push(mode, words[i]);
	}
}

/* One logical line; returns 1 when it was rejected. */
static int parse_command(char *line, const char *file, unsigned lineno, struct modprobe_conf *c)
{
	char *words[MAX_WORDS];
	size_t n = split_words(line, words, MAX_WORDS);

	if (n == 0 || words[0][0] == '#')
		return 0;
	if (n > MAX_WORDS) {
		log_warn("%s:%u: more than %d words, line ignored", file, lineno, MAX_WORDS);
		return 1;
	}
	if (n >= 2 && !modname_valid(words[1])) {
		log_warn("%s:%u: %s: not a module name, line ignored", file, lineno, words[0]);
		return 1;
	}
	if (strcmp(words[0], "blacklist") == 0 && n == 2) {
		char *name = normalized(words[1]);
		strmap_put(&c->blacklist, name, c);
		free(name);
	} else if (strcmp(words[0], "options") == 0 && n >= 2) {
		add_options(c, words, n);
	} else if (strcmp(words[0], "alias") == 0 && n == 3 && modname_valid(words[2])) {
		add_alias(c, words[1], words[2]);
	} else if (strcmp(words[0], "softdep") == 0 && n >= 2) {
		add_softdep(c, words, n);
	} else if (strcmp(words[0], "install") == 0 && n >= 3) {
		char *name = normalized(words[1]);
		strvec_add_unique(&c->install, name);
		free(name);
	} else if (strcmp(words[0], "remove") == 0 || strcmp(words[0], "weakdep") == 0) {
		/* Unloading and weak dependencies are not ember-modload's business. */
	} else {
		log_warn("%s:%u: %s: unknown command or wrong number of words, line ignored", file,
			 lineno, words[0]);
		return 1;
	}
	return 0;
}

int modprobe_conf_parse(const char *text, const char *file, struct modprobe_conf *c)
{
	char *copy = xstrdup(text), *line = copy;
	unsigned lineno = 0;
	int bad = 0;

	while (line) {
		unsigned first = lineno + 1;
		char *end = line;
		/* Join "\"-continued lines in place: the backslash and newline become blanks. */
		for (;;) {
			char *nl = strchr(end, '\n');
			lineno++;
			if (!nl) {
				end = NULL;
				break;
			}
			if (nl > line && nl[-1] == '\\') {
				nl[-1] = ' ';
				*nl = ' ';
				end = nl + 1;
				continue;
			}
			*nl = '\0';
			end = nl + 1;
			break;
		}
		bad += parse_command(line, file, first, c);
		line = end;
	}
	free(copy);
	return bad;
}

bool modprobe_blacklisted(const struct modprobe_conf *c, const char *name)
{
	return strmap_has(&c->blacklist, name);
}

const char *modprobe_options(const struct modprobe_conf *c, const char *name)
{
	return strmap_get(&c->options, name);
}

const struct softdep_rule *modprobe_softdep(const struct modprobe_conf *c, const char *name)
{
	for (size_t i = 0; i < c->nsoftdeps; i++)
		if (strcmp(c->softdeps[i].module, name) == 0)
			return &c->softdeps[i];
	return NULL;
}

size_t modprobe_alias_match(const struct modprobe_conf *c, const char *name, struct strvec *out)
{
	size_t found = 0;
	for (size_t i = 0; i < c->naliases; i++) {
		if (fnmatch(c->aliases[i].pattern, name, 0) == 0) {
			strvec_add_unique(out, c->aliases[i].module);
			found++;
		}
	}
	return found;
}

static void free_val(const char *key, void *val, void *ctx)
{
	(void)key;
	(void)ctx;
	free(val);
}

void modprobe_conf_free(struct modprobe_conf *c)
{
	strmap_free(&c->blacklist);
	strmap_each(&c->options, free_val, NULL);
	strmap_free(&c->options);
	for (size_t i = 0; i < c->naliases; i++) {
		free(c->aliases[i].pattern);
		free(c->aliases[i].module);
	}
	free(c->aliases);
	for (size_t i = 0; i < c->nsoftdeps; i++) {
		free(c->softdeps[i].module);
		strvec_free(&c->softdeps[i].pre);
		strvec_free(&c->softdeps[i].post);
	}
	free(c->softdeps);
	strvec_free(&c->install);
	memset(c, 0, sizeof *c);
}
