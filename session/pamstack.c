/* The pam_env and pam_limits lines of a PAM service's stack (pam.h). Pure: files come
 * through the caller's reader. */
#include "pam.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "parse.h"

#define BLANKS " \t\r\v\f"

int pam_next_line(const char *text, size_t len, size_t *pos, unsigned *lineno, char *out,
		  size_t size)
{
	size_t used = 0;
	bool overflow = false;

	while (*pos < len) {
		const char *s = text + *pos, *nl = memchr(s, '\n', len - *pos);
		size_t n = nl ? (size_t)(nl - s) : len - *pos, keep;
		const char *hash = memchr(s, '#', n);
		bool more;

		*pos += n + (nl != NULL);
		*lineno += 1;
		keep = hash ? (size_t)(hash - s) : n;
		if (!hash) { /* "\\" then blanks: goes on; other trailing blanks stay, as in pam_env */
			size_t b = keep;
			while (b > 0 && s[b - 1] && strchr(BLANKS, s[b - 1]))
				b--;
			more = b > 0 && s[b - 1] == '\\';
			if (more)
				keep = b - 1;
		} else {
			more = false;
		}
		if (overflow || used + keep >= size)
			overflow = true;
		else {
			memcpy(out + used, s, keep);
			used += keep;
		}
		if (more)
			continue;
		if (overflow)
			break;
		out[used] = '\0';
		if (strspn(out, BLANKS) < used) /* not only blanks or a comment */
			return 1;
		used = 0;
	}
	if (size)
		out[0] = '\0';
	if (overflow)
		return -1;
	return 0;
}

/* The next blank-separated word of *s (a "[...]" control word keeps its blanks). */
static const char *word(char **s)
{
	char *w = *s + strspn(*s, BLANKS), *end;

	if (!*w)
		return NULL;
	if (*w == '[' && (end = strchr(w, ']')))
		end++;
	else
		end = w + strcspn(w, BLANKS);
	if (*end)
		*end++ = '\0';
	*s = end;
	return w;
}

struct walk {
	struct pam_stack *st;
	pam_read_fn *read;
	void *read_ctx;
	pam_note_fn *note;
	void *note_ctx;
	struct pam_entry auth[PAM_ENTRIES_MAX]; /* put before the session entries at the end */
	size_t nauth;
};

enum filter { ALL, AUTH_ONLY, SESSION_ONLY }; /* "@include", "auth include", "session include" */

static void note(struct walk *w, const char *file, unsigned line, const char *fmt, const char *arg)
{
	char why[320];

	snprintf(why, sizeof why, fmt, arg);
	w->note(w->note_ctx, file, line, why);
}

static int walk_file(struct walk *w, const char *path, int level, enum filter f);

/* A stack file by name as Linux-PAM finds it: PAM_DIR/name, else the distribution's
 * PAM_VENDOR_DIR/name (Debian 12's systemd-user is there); an absolute name as it is.
 * path gets the file read, or the last one tried. */
static int walk_named(struct walk *w, const char *name, int level, enum filter f, char *path,
		      size_t size)
{
	int r;

	if (name[0] == '/') {
		snprintf(path, size, "%s", name);
		return walk_file(w, path, level, f);
	}
	snprintf(path, size, "%s/%s", PAM_DIR, name);
	r = walk_file(w, path, level, f);
	if (r < 0 && errno == ENOENT) {
		snprintf(path, size, "%s/%s", PAM_VENDOR_DIR, name);
		r = walk_file(w, path, level, f);
		if (r < 0 && errno == ENOENT) /* the message names the administrator's file */
			snprintf(path, size, "%s/%s", PAM_DIR, name);
	}
	return r;
}

static void include(struct walk *w, const char *from, unsigned line, const char *name, int level,
		    enum filter f)
{
	char path[300];

	if (!*name || strlen(name) > 255) {
		note(w, from, line, "include of a bad file name skipped%s", "");
		return;
	}
	if (level + 1 >= PAM_DEPTH_MAX) {
		snprintf(path, sizeof path, "%s%s%s", name[0] == '/' ? "" : PAM_DIR,
			 name[0] == '/' ? "" : "/", name);
		note(w, from, line, "%s: includes nested too deep (a loop?), skipped", path);
		return;
	}
	if (walk_named(w, name, level + 1, f, path, sizeof path) < 0)
		note(w, from, line, "%s: cannot be read, skipped", path);
}

static bool module_is(const char *path, const char *name)
{
	const char *base = strrchr(path, '/');

	return strcmp(base ? base + 1 : path, name) == 0;
}

static void add_entry(struct walk *w, const char *file, unsigned line, enum pam_module mod,
		      bool auth, const char *control, char *rest)
{
	struct pam_entry *e;
	size_t n;

	if (w->st->count + w->nauth >= PAM_ENTRIES_MAX) {
		note(w, file, line, "more than 16 pam_env/pam_limits lines: this one skipped%s", "");
		return;
	}
	rest += strspn(rest, BLANKS);
	n = strlen(rest);
	while (n > 0 && strchr(BLANKS, rest[n - 1]))
		rest[--n] = '\0';
	if (n >= PAM_ARGS_MAX) {
		note(w, file, line, "module arguments too long: line skipped%s", "");
		return;
	}
	e = auth ? &w->auth[w->nauth++] : &w->st->entries[w->st->count++];
	e->module = mod;
	e->auth = auth;
	e->optional = strcasecmp(control, "optional") == 0;
	memcpy(e->args, rest, n + 1);
	snprintf(e->file, sizeof e->file, "%s", file);
	e->line = line;
}

static void one_line(struct walk *w, const char *file, unsigned lineno, char *line, int level,
		     enum filter f)
{
	char *s = line;
	const char *type = word(&s), *control, *module;
	bool auth;

	if (!type) /* a NUL byte first */
		return;
	if (strcmp(type, "@include") == 0) {
		if ((module = word(&s)))
			include(w, file, lineno, module, level, f);
		return;
	}
	if (*type == '-')
		type++;
	if (strcasecmp(type, "auth") == 0)
		auth = true;
	else if (strcasecmp(type, "session") == 0)
		auth = false;
	else
		return; /* account, password: nothing pam_env, pam_limits or pam_mail does for us */
	control = word(&s);
	module = word(&s);
	if (!control || !module || (auth ? f == SESSION_ONLY : f == AUTH_ONLY))
		return;
	if (strcasecmp(control, "include") == 0 || strcasecmp(control, "substack") == 0) {
		include(w, file, lineno, module, level, auth ? AUTH_ONLY : SESSION_ONLY);
		return;
	}
	if (module_is(module, "pam_env.so"))
		add_entry(w, file, lineno, PAM_MOD_ENV, auth, control, s);
	else if (module_is(module, "pam_limits.so") && !auth) /* it has no auth part */
		add_entry(w, file, lineno, PAM_MOD_LIMITS, auth, control, s);
	else if (module_is(module, "pam_mail.so")) /* setcred and open_session set MAIL */
		add_entry(w, file, lineno, PAM_MOD_MAIL, auth, control, s);
	else if (module_is(module, "pam_lastlog.so") && !auth) /* its records: a session's */
		add_entry(w, file, lineno, PAM_MOD_LASTLOG, auth, control, s);
}

static int walk_file(struct walk *w, const char *path, int level, enum filter f)
{
	char *text = w->st->buf[level], line[PAM_LINE_MAX];
	ssize_t len = w->read(w->read_ctx, path, text, PAM_FILE_MAX + 1);
	size_t pos = 0;
	unsigned lineno = 0;
	int r;

	if (len < 0)
		return -1;
	while ((r = pam_next_line(text, (size_t)len, &pos, &lineno, line, sizeof line)) != 0) {
		if (r < 0)
			note(w, path, lineno, "line longer than 8191 bytes skipped%s", "");
		else
			one_line(w, path, lineno, line, level, f);
	}
	return 0;
}

int pam_stack_load(const char *service, pam_read_fn *read, void *read_ctx, pam_note_fn *note_fn,
		   void *note_ctx, struct pam_stack *out, char *err, size_t err_size)
{
	struct walk w = { .st = out, .read = read, .read_ctx = read_ctx, .note = note_fn,
			  .note_ctx = note_ctx };
	char path[300];
	int r;

	out->count = 0;
	r = walk_named(&w, service, 0, ALL, path, sizeof path);
	if (r < 0 && errno == ENOENT) { /* as PAM: a service without a file is "other" */
		r = walk_named(&w, "other", 0, ALL, path, sizeof path);
		if (r < 0 && errno == ENOENT)
			return 1;
	}
	if (r < 0) {
		snprintf(err, err_size, "%s: %s", path,
			 errno == EFBIG ? "larger than 64 KiB" :
			 errno == EINVAL ? "not a regular file" : strerror(errno));
		return -1;
	}
	snprintf(out->service_file, sizeof out->service_file, "%s", path);
	/* pam_setcred (the auth stack) comes before pam_open_session under systemd */
	memmove(out->entries + w.nauth, out->entries, out->count * sizeof *out->entries);
	memcpy(out->entries, w.auth, w.nauth * sizeof *out->entries);
	out->count += w.nauth;
	return 0;
}
