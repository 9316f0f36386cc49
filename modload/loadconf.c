#include "loadconf.h"

#include "log.h"
#include "names.h"
#include "parse.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool request_add(struct request_list *l, const char *name, const char *source)
{
	char *norm = xstrdup(name);

	modname_normalize(norm);
	if (strmap_has(&l->seen, norm)) {
		free(norm);
		return false;
	}
	strmap_put(&l->seen, norm, l);
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n].name = norm;
	l->v[l->n].source = xstrdup(source);
	l->n++;
	return true;
}

static int parse_line(char *line, const char *file, unsigned lineno, struct request_list *out)
{
	char *s = strip(line);
	char where[64];

	if (*s == '\0' || *s == '#' || *s == ';')
		return 0;
	if (!modname_valid(s)) {
		log_error("%s:%u: not a module name (%s)", file, lineno,
			  strlen(s) >= MODNAME_MAX ? "too long" : "blank, control character or '/'");
		return 1;
	}
	snprintf(where, sizeof where, ":%u", lineno);
	{
		char *source = xconcat(file, where, NULL);
		request_add(out, s, source);
		free(source);
	}
	return 0;
}

int modules_load_parse(const char *text, const char *file, struct request_list *out)
{
	char *copy = xstrdup(text), *line = copy;
	unsigned lineno = 0;
	int bad = 0;

	while (line) {
		char *next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		bad += parse_line(line, file, lineno, out);
		line = next;
	}
	free(copy);
	return bad;
}

void request_list_free(struct request_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].source);
	}
	free(l->v);
	strmap_free(&l->seen);
	l->v = NULL;
	l->n = l->cap = 0;
}
