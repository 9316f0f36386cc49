#include "cmdline.h"

#include <string.h>

#include "log.h"
#include "parse.h"

#define WORD_MAX 4096

static void set_defaults(struct boot_options *o)
{
	memset(o, 0, sizeof *o);
	str_copy(o->shell, sizeof o->shell, "/bin/sh");
	o->debug_exit = true;
}

static void set_path(char *dst, size_t size, const char *key, const char *value)
{
	if (value[0] != '/' || str_copy(dst, size, value) < 0)
		log_warn("kernel command line: %s=%s: not an absolute path, ignored", key, value);
}

static void apply_word(struct boot_options *o, char *word)
{
	char *eq = strchr(word, '=');
	const char *value = eq ? eq + 1 : NULL;
	bool b;

	if (eq)
		*eq = '\0';
	if (strcmp(word, "ember.run") == 0 && value) {
		set_path(o->run, sizeof o->run, word, value);
	} else if (strcmp(word, "ember.shell") == 0 && value) {
		if (strcmp(value, "none") == 0)
			o->no_shell = true;
		else
			set_path(o->shell, sizeof o->shell, word, value);
	} else if (strcmp(word, "ember.debug") == 0) {
		o->debug = !value || (parse_bool(value, &b) == 0 && b);
	} else if (strcmp(word, "ember.debug_exit") == 0 && value) {
		if (parse_bool(value, &b) == 0)
			o->debug_exit = b;
	}
}

/* Copy the next word (whitespace-separated, "double quotes" group) into buf. */
static const char *next_word(const char *p, char *buf, size_t size)
{
	size_t n = 0;
	bool quoted = false;

	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	if (!*p)
		return NULL;
	for (; *p && (quoted || (*p != ' ' && *p != '\t' && *p != '\n')); p++) {
		if (*p == '"') {
			quoted = !quoted;
			continue;
		}
		if (n + 1 < size)
			buf[n++] = *p;
	}
	buf[n] = '\0';
	return p;
}

void cmdline_parse(const char *cmdline, struct boot_options *o)
{
	char word[WORD_MAX];
	const char *p = cmdline;

	set_defaults(o);
	while ((p = next_word(p, word, sizeof word)))
		apply_word(o, word);
}
