#include "cmdline.h"

#include "log.h"
#include "names.h"

#include <stdlib.h>
#include <string.h>

#define CMDLINE_SOURCE "kernel command line"

/* Next blank-separated word of *p, honouring double quotes; NULL at the end. */
static char *next_word(char **p)
{
	char *s = *p, *start;
	bool quoted = false;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	if (!*s)
		return NULL;
	start = s;
	for (; *s; s++) {
		if (*s == '"')
			quoted = !quoted;
		else if (!quoted && (*s == ' ' || *s == '\t' || *s == '\n'))
			break;
	}
	if (*s)
		*s++ = '\0';
	*p = s;
	return start;
}

/* Compare a command-line key with '-' and '_' equal. */
static bool key_is(const char *key, size_t len, const char *want)
{
	if (strlen(want) != len)
		return false;
	for (size_t i = 0; i < len; i++) {
		char a = key[i] == '-' ? '_' : key[i];
		if (a != want[i])
			return false;
	}
	return true;
}

static void unquote(char *s)
{
	char *w = s;
	for (; *s; s++)
		if (*s != '"')
			*w++ = *s;
	*w = '\0';
}

/* "a,b,,c" -> each non-empty, valid item. */
static void split_list(char *value, void (*add)(struct cmdline *, const char *), struct cmdline *c)
{
	unquote(value);
	for (char *item = value; item;) {
		char *comma = strchr(item, ',');
		if (comma)
			*comma++ = '\0';
		if (*item && modname_valid(item))
			add(c, item);
		else if (*item)
			log_warn("%s: ignoring invalid module name in list", CMDLINE_SOURCE);
		item = comma;
	}
}

static void add_module(struct cmdline *c, const char *name)
{
	request_add(&c->modules, name, CMDLINE_SOURCE);
}

static void add_blacklist(struct cmdline *c, const char *name)
{
	char *norm = xstrdup(name);
	modname_normalize(norm);
	strvec_add_unique(&c->blacklist, norm);
	free(norm);
}

static void add_option(struct cmdline *c, const char *module, size_t mlen, const char *param)
{
	char *name = xstrndup(module, mlen), *joined;
	char *old;

	if (!modname_valid(name)) {
		free(name);
		return;
	}
	modname_normalize(name);
	old = strmap_get(&c->options, name);
	joined = old ? xconcat(old, " ", param, NULL) : xstrdup(param);
	free(old);
	strmap_put(&c->options, name, joined);
	free(name);
}

static void parse_word(char *word, bool in_initrd, struct cmdline *c)
{
	char *eq, *dot;
	size_t klen;
	bool whole_quoted = word[0] == '"';

	/* The kernel accepts a whole word in quotes: "mod.p=a b". */
	if (whole_quoted)
		unquote(word);
	eq = strchr(word, '=');
	dot = strchr(word, '.');
	klen = eq ? (size_t)(eq - word) : strlen(word);

	if (key_is(word, klen, "modules_load") || (in_initrd && key_is(word, klen, "rd.modules_load"))) {
		if (eq)
			split_list(eq + 1, add_module, c);
		else
			log_warn("%s: %.*s without a value, ignored", CMDLINE_SOURCE, (int)klen, word);
		return;
	}
	if (key_is(word, klen, "modprobe.blacklist") || key_is(word, klen, "module_blacklist")) {
		if (eq)
			split_list(eq + 1, add_blacklist, c);
		return;
	}
	/* MODULE.PARAM[=VALUE]: the dot must come before any '='. "rd." keys are
	 * initramfs options, not module parameters. */
	if (!dot || (eq && dot > eq) || dot == word || dot[1] == '\0' || dot[1] == '=')
		return;
	if (strncmp(word, "rd.", 3) == 0)
		return;
	if (whole_quoted && eq && strpbrk(eq, " \t")) {
		/* Keep the blank inside the value for the module's parameter parser. */
		char *key = xstrndup(dot + 1, (size_t)(eq - dot - 1));
		char *param = xconcat(key, "=\"", eq + 1, "\"", NULL);
		add_option(c, word, (size_t)(dot - word), param);
		free(key);
		free(param);
		return;
	}
	add_option(c, word, (size_t)(dot - word), dot + 1);
}

void cmdline_parse(const char *text, bool in_initrd, struct cmdline *out)
{
	char *copy = xstrdup(text), *p = copy, *word;

	while ((word = next_word(&p)))
		parse_word(word, in_initrd, out);
	free(copy);
}

static void free_option(const char *key, void *val, void *ctx)
{
	(void)key;
	(void)ctx;
	free(val);
}

void cmdline_free(struct cmdline *c)
{
	request_list_free(&c->modules);
	strvec_free(&c->blacklist);
	strmap_each(&c->options, free_option, NULL);
	strmap_free(&c->options);
}
