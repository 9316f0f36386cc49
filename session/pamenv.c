/* pam_env without PAM (pam.h): its options, /etc/environment-style files and
 * pam_env.conf, as Linux-PAM's pam_env reads them. Pure. */
#include "pam.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

#define BLANKS " \t\r\v\f"

/* ---- the environment list ---- */

static bool name_ok(const char *s, size_t n)
{
	if (n == 0 || n > 255)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

static ssize_t find(const struct penv *e, const char *name, size_t n)
{
	for (size_t i = 0; i < e->count; i++)
		if (strncmp(e->vars[i], name, n) == 0 && e->vars[i][n] == '=')
			return (ssize_t)i;
	return -1;
}

/* Append "name=value" to text; the string, or NULL when full. */
static char *store(struct penv *e, const char *name, size_t n, const char *value)
{
	size_t v = strlen(value), need = n + 1 + v + 1;
	char *at = e->text + e->used;

	if (need > sizeof e->text - e->used) {
		/* replaced and unset values leave holes: pack what is live, in a copy (the
		 * strings are not in text order) */
		char copy[PENV_TEXT_MAX];
		size_t used = 0;
		for (size_t i = 0; i < e->count; i++) {
			size_t len = strlen(e->vars[i]) + 1;
			memcpy(copy + used, e->vars[i], len);
			used += len;
		}
		memcpy(e->text, copy, used);
		used = 0;
		for (size_t i = 0; i < e->count; i++) {
			e->vars[i] = e->text + used;
			used += strlen(e->vars[i]) + 1;
		}
		e->used = used;
		at = e->text + used;
		if (need > sizeof e->text - used) {
			e->full = true;
			return NULL;
		}
	}
	memcpy(at, name, n);
	at[n] = '=';
	memcpy(at + n + 1, value, v + 1);
	e->used += need;
	return at;
}

void penv_init(struct penv *e, char *const *envp)
{
	e->count = e->used = 0;
	e->full = false;
	e->vars[0] = NULL;
	for (size_t i = 0; envp && envp[i]; i++) {
		const char *eq = strchr(envp[i], '=');
		if (eq)
			(void)penv_set(e, envp[i], eq + 1); /* full: e->full says so */
	}
}

const char *penv_get(const struct penv *e, const char *name)
{
	ssize_t i = find(e, name, strlen(name));

	return i < 0 ? NULL : e->vars[i] + strlen(name) + 1;
}

/* name may be "NAME=..." (only up to '=' counts) */
int penv_set(struct penv *e, const char *name, const char *value)
{
	size_t n = strcspn(name, "=");
	ssize_t i = find(e, name, n);
	char *s;

	if (i < 0 && e->count >= PENV_VARS_MAX) {
		e->full = true;
		return -1;
	}
	if (!(s = store(e, name, n, value)))
		return -1;
	i = find(e, name, n); /* store may have moved the strings */
	if (i >= 0) {
		e->vars[i] = s;
		return 0;
	}
	e->vars[e->count++] = s;
	e->vars[e->count] = NULL;
	return 0;
}

void penv_unset(struct penv *e, const char *name)
{
	ssize_t i = find(e, name, strlen(name));

	if (i < 0)
		return;
	memmove(e->vars + i, e->vars + i + 1, (e->count - (size_t)i) * sizeof *e->vars);
	e->count--;
}

/* ---- options ---- */

static void copy_path(char *dst, size_t size, const char *v, pam_note_fn *note, void *ctx,
		      const char *file, unsigned line, const char *opt)
{
	char why[96];

	if (!*v || v[0] != '/' || strlen(v) >= size) {
		snprintf(why, sizeof why, "%s: not an absolute path that fits: ignored", opt);
		note(ctx, file, line, why);
		return;
	}
	strcpy(dst, v);
}

/* pam_env reads these with atoi(): "readenv=0" off, anything else that is not 0 on. */
static bool flag(const char *v)
{
	return strtol(v, NULL, 10) != 0;
}

void pam_env_options(const char *args, struct pam_env_options *o, pam_note_fn *note, void *ctx,
		     const char *file, unsigned line)
{
	char buf[PAM_ARGS_MAX], *s = buf, *w, why[PAM_ARGS_MAX + 64];

	strcpy(o->conffile, PAM_ENV_CONFFILE);
	strcpy(o->envfile, PAM_ENV_ENVFILE);
	o->readenv = true;
	o->user_readenv = false;
	snprintf(buf, sizeof buf, "%s", args);
	while ((w = strtok_r(s, BLANKS, &s))) {
		if (str_starts_with(w, "conffile="))
			copy_path(o->conffile, sizeof o->conffile, w + 9, note, ctx, file, line, "conffile=");
		else if (str_starts_with(w, "envfile="))
			copy_path(o->envfile, sizeof o->envfile, w + 8, note, ctx, file, line, "envfile=");
		else if (str_starts_with(w, "readenv="))
			o->readenv = flag(w + 8);
		else if (str_starts_with(w, "user_readenv="))
			o->user_readenv = flag(w + 13);
		else if (strcmp(w, "debug") == 0 || str_starts_with(w, "user_envfile="))
			; /* user_envfile= only matters with user_readenv, which is refused */
		else {
			snprintf(why, sizeof why, "pam_env: unknown option %s: ignored", w);
			note(ctx, file, line, why);
		}
	}
	if (o->user_readenv) {
		/* the user's own file, read as root before the identity switch: refused */
		note(ctx, file, line, "pam_env: user_readenv=1 is not supported: the user's "
		     "~/.pam_environment is not read");
		o->user_readenv = false;
	}
}

/* ---- /etc/environment ---- */

static void env_line(struct penv *e, char *key, const char *file, unsigned line,
		     pam_note_fn *note, void *ctx)
{
	size_t n;
	char *v;

	key += strspn(key, BLANKS);
	if (strncmp(key, "export ", 7) == 0) /* as a shell would source it */
		key += 7;
	n = strcspn(key, "=");
	if (n == 0)
		return;
	if (!name_ok(key, n)) {
		note(ctx, file, line, "not a NAME=VALUE line (the name is letters, digits and _): skipped");
		return;
	}
	if (!key[n]) { /* "NAME" alone unsets it */
		penv_unset(e, key);
		return;
	}
	key[n] = '\0';
	v = key + n + 1;
	/* pam_env's quotes: an opening one is dropped, and a closing one at the very end;
	 * no escapes, quotes inside stay */
	if (*v == '"' || *v == '\'') {
		size_t len = strlen(++v);
		if (len > 0 && (v[len - 1] == '"' || v[len - 1] == '\''))
			v[len - 1] = '\0';
		else
			note(ctx, file, line, "unterminated quote: the value is the rest of the line");
	}
	if (strlen(v) >= PENV_VALUE_MAX) {
		note(ctx, file, line, "value longer than 8191 bytes: skipped");
		return;
	}
	if (penv_set(e, key, v) < 0)
		note(ctx, file, line, "the environment is full: skipped");
}

void pam_env_file_apply(struct penv *e, const char *text, size_t len, const char *file,
			pam_note_fn *note, void *ctx)
{
	char line[PAM_LINE_MAX];
	size_t pos = 0;
	unsigned lineno = 0;
	int r;

	while ((r = pam_next_line(text, len, &pos, &lineno, line, sizeof line)) != 0) {
		if (r < 0)
			note(ctx, file, lineno, "line longer than 8191 bytes: skipped");
		else
			env_line(e, line, file, lineno, note, ctx);
	}
}

/* ---- pam_env.conf ---- */

/* ${VAR} from the environment, @{ITEM} from items, \$ and \@ literal; into out. 0, or
 * -1 with why set (the rest of the file is skipped, as pam_env does). */
static int expand(const struct penv *e, const struct pam_items *it, const char *in, char *out,
		  const char **why, const char **soft)
{
	size_t used = 0;

	out[0] = '\0';
	while (*in) {
		const char *add = NULL, *end;
		char name[256], one[2] = { 0, 0 };
		size_t n;

		if (*in == '\\') {
			in++;
			if (*in == '$' || *in == '@')
				one[0] = *in++;
			else
				*soft = "unrecognized escape: the backslash is dropped";
			add = one;
		} else if ((*in == '$' || *in == '@') && in[1] != '{') {
			*soft = "a variable not wrapped in {}: kept as is";
			one[0] = *in++;
			add = one;
		} else if (*in == '$' || *in == '@') {
			end = strchr(in + 2, '}');
			if (!end) {
				*why = "unterminated ${ or @{: the rest of the file is skipped";
				return -1;
			}
			n = (size_t)(end - in - 2);
			if (n >= sizeof name)
				n = sizeof name - 1;
			memcpy(name, in + 2, n);
			name[n] = '\0';
			if (*in == '$')
				add = penv_get(e, name);
			else if (strcmp(name, "PAM_USER") == 0)
				add = it->user;
			else if (strcmp(name, "HOME") == 0)
				add = it->home;
			else if (strcmp(name, "SHELL") == 0)
				add = it->shell;
			else if (strcmp(name, "PAM_TTY") == 0)
				add = it->tty;
			else if (strcmp(name, "PAM_RHOST") == 0 || strcmp(name, "PAM_RUSER") == 0 ||
				 strcmp(name, "PAM_USER_PROMPT") == 0)
				add = NULL; /* not set for a service */
			else
				*soft = "unknown @{ITEM}: expands to nothing";
			in = end + 1;
		} else {
			one[0] = *in++;
			add = one;
		}
		if (!add)
			continue;
		n = strlen(add);
		if (used + n >= PENV_VALUE_MAX) {
			*why = "value longer than 8191 bytes after expansion: the rest of the file is skipped";
			return -1;
		}
		memcpy(out + used, add, n + 1);
		used += n;
	}
	return 0;
}

/* One option's value: a word, or "..." covering the whole word. NULL (and *s left) for
 * none given, the empty string for "". -1 when bad. */
static int option_value(char **s, char **value, bool *quoted)
{
	char *p = *s, *end;

	*quoted = false;
	if (*p != '"') {
		end = p + strcspn(p, BLANKS);
		*value = end > p ? p : NULL;
	} else {
		if (!(end = strchr(++p, '"')))
			return -1;
		if (end[1] && !strchr(BLANKS, end[1]))
			return -1;
		*end++ = '\0';
		*value = p;
		*quoted = true;
		*s = end;
		return 0;
	}
	if (*end)
		*end++ = '\0';
	*s = end;
	return 0;
}

static void conf_line(struct penv *e, char *s, const struct pam_items *it, const char *file,
		      unsigned line, pam_note_fn *note, void *ctx, bool *stop)
{
	char def_x[PENV_VALUE_MAX], ovr_x[PENV_VALUE_MAX];
	char *name = s, *def = NULL, *ovr = NULL, *value;
	bool q;
	const char *why = NULL, *soft = NULL;
	size_t n = strcspn(s, BLANKS);

	s += n;
	if (*s)
		*s++ = '\0';
	if (!name_ok(name, n)) {
		note(ctx, file, line, "the variable's name is not letters, digits and _: skipped");
		return;
	}
	for (s += strspn(s, BLANKS); *s; s += strspn(s, BLANKS)) {
		char **slot;
		if (str_starts_with(s, "DEFAULT="))
			s += 8, slot = &def;
		else if (str_starts_with(s, "OVERRIDE="))
			s += 9, slot = &ovr;
		else {
			note(ctx, file, line, "unrecognized option (DEFAULT= and OVERRIDE= only): skipped");
			return;
		}
		if (option_value(&s, slot, &q) < 0) {
			note(ctx, file, line, "a quoted value must end in \" and cover the whole word: skipped");
			return;
		}
	}
	if ((def && expand(e, it, def, def_x, &why, &soft) < 0) ||
	    (ovr && expand(e, it, ovr, ovr_x, &why, &soft) < 0)) {
		note(ctx, file, line, why);
		*stop = true;
		return;
	}
	if (soft)
		note(ctx, file, line, soft);
	/* a non-empty OVERRIDE wins; else any DEFAULT, even one expanding to nothing (but
	 * DEFAULT= with no value at all unsets, pam_env.conf(5)) */
	if (ovr && *ovr_x)
		value = ovr_x;
	else if (def)
		value = def_x;
	else {
		penv_unset(e, name);
		return;
	}
	if (penv_set(e, name, value) < 0)
		note(ctx, file, line, "the environment is full: skipped");
}

int pam_env_conf_apply(struct penv *e, const char *text, size_t len, const char *file,
			const struct pam_items *items, pam_note_fn *note, void *ctx)
{
	char line[PAM_LINE_MAX];
	size_t pos = 0;
	unsigned lineno = 0;
	bool stop = false;
	int r;

	while (!stop && (r = pam_next_line(text, len, &pos, &lineno, line, sizeof line)) != 0) {
		if (r < 0)
			note(ctx, file, lineno, "line longer than 8191 bytes: skipped");
		else
			conf_line(e, line, items, file, lineno, note, ctx, &stop);
	}
	return stop ? -1 : 0;
}

/* ---- pam_mail ---- */

int pam_mail_folder(const char *args, const char *user, const char *home, char *out,
		    size_t size, pam_note_fn *note, void *ctx, const char *file, unsigned line)
{
	char buf[PAM_ARGS_MAX], *s = buf, *w, why[PAM_ARGS_MAX + 64];
	const char *dir = PAM_MAIL_DIR, *rest;
	size_t hash = 0, n;
	bool env = true;

	snprintf(buf, sizeof buf, "%s", args);
	while ((w = strtok_r(s, BLANKS, &s))) {
		if (str_starts_with(w, "dir=") && w[4])
			dir = w + 4;
		else if (str_starts_with(w, "hash="))
			hash = strtoul(w + 5, NULL, 10);
		else if (strcmp(w, "noenv") == 0)
			env = false;
		else if (strcmp(w, "debug") && strcmp(w, "quiet") && strcmp(w, "standard") &&
			 strcmp(w, "close") && strcmp(w, "nopen") && strcmp(w, "empty") &&
			 strcmp(w, "dir=")) {
			snprintf(why, sizeof why, "pam_mail: unknown option %s: ignored", w);
			note(ctx, file, line, why);
		}
	}
	if (!env)
		return 0;
	if (dir[0] == '~') { /* the home directory's: "~/x" and "~x" are the same */
		rest = dir[1] == '/' ? dir + 2 : dir + 1;
		if (!*rest) {
			snprintf(why, sizeof why, "pam_mail: dir=%s names no folder: no MAIL", dir);
			note(ctx, file, line, why);
			return -1;
		}
		n = (size_t)snprintf(out, size, "%s/%s", home ? home : "", rest);
		return n < size ? 1 : -1;
	}
	n = (size_t)snprintf(out, size, "%s", dir);
	for (size_t i = 0; i < hash && user[i] && n + 2 < size; i++) { /* "/u/s/user" */
		out[n++] = '/';
		out[n++] = user[i];
		out[n] = '\0';
	}
	n += (size_t)snprintf(out + n, n < size ? size - n : 0, "/%s", user);
	return n < size ? 1 : -1;
}
