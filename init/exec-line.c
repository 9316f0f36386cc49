/* ExecStart=-style command lines -> argv, without a shell. Two stages, as in systemd:
 * split the line into words (quotes, escapes), then expand variables word by word. */
#include "exec-line.h"
#include "parse.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Stage 1 output: unquoted words, before variable expansion. */
struct words {
	size_t count;
	size_t used;
	const char *word[EXEC_ARGS_MAX];
	char buf[EXEC_BUF_MAX];
};

static int fail(struct exec_argv *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct exec_argv *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out->error, sizeof out->error, fmt, ap);
	va_end(ap);
	return -1;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_name_start(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static bool is_name_char(char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
}

/* Decode the escape after a backslash at *p; advances *p past it. Returns the byte, or
 * -1 when the escape is unknown or would produce a NUL byte. */
static int unescape(const char **p)
{
	static const char plain[] = "abfnrtv\\\"';s";
	static const char value[] = "\a\b\f\n\r\t\v\\\"'; ";
	const char *s = *p;
	const char *hit = *s ? strchr(plain, *s) : NULL;
	int v;

	if (hit) {
		*p = s + 1;
		return (unsigned char)value[hit - plain];
	}
	if (*s == 'x' && hex_digit_value(s[1]) >= 0 && hex_digit_value(s[2]) >= 0) {
		v = hex_digit_value(s[1]) * 16 + hex_digit_value(s[2]);
		*p = s + 3;
		return v ? v : -1;
	}
	if (*s >= '0' && *s <= '3' && s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7') {
		v = (s[0] - '0') * 64 + (s[1] - '0') * 8 + (s[2] - '0');
		*p = s + 3;
		return v ? v : -1;
	}
	return -1;
}

/* One prefix at p: its bit and length ("!!" is two bytes), or 0 when p holds none. */
static unsigned prefix_at(const char *p, size_t *len)
{
	*len = 1;
	switch (*p) {
	case '-': return EXEC_IGNORE_FAILURE;
	case '@': return EXEC_ARGV0;
	case ':': return EXEC_NO_ENV_EXPAND;
	case '+': return EXEC_PRIVILEGED;
	case '!':
		if (p[1] == '!') {
			*len = 2;
			return EXEC_NO_SETUID_AMBIENT;
		}
		return EXEC_NO_SETUID;
	default: return 0;
	}
}

#define EXEC_PRIVILEGE_BITS (EXEC_PRIVILEGED | EXEC_NO_SETUID | EXEC_NO_SETUID_AMBIENT)

static int parse_prefixes(const char **line, unsigned *flags, struct exec_argv *out)
{
	const char *p = *line;
	size_t len;

	for (;; p += len) {
		unsigned bit = prefix_at(p, &len);
		if (*p == '|')
			return fail(out, "prefix '|' (run through the user's shell) is not supported; "
					 "write /bin/sh -c '...'");
		if (!bit)
			break;
		if (*flags & bit)
			return fail(out, "prefix '%.*s' given twice", (int)len, p);
		/* As systemd: "+", "!" and "!!" exclude each other. */
		if ((bit & EXEC_PRIVILEGE_BITS) && (*flags & EXEC_PRIVILEGE_BITS))
			return fail(out, "prefixes '+', '!' and '!!' exclude each other");
		*flags |= bit;
	}
	*line = p;
	return 0;
}

static int push_byte(struct words *w, char c, struct exec_argv *out)
{
	if (w->used >= sizeof w->buf)
		return fail(out, "command line longer than %d bytes", EXEC_BUF_MAX);
	w->buf[w->used++] = c;
	return 0;
}

/* Read one word starting at *p (not blank, not end) into w. */
static int split_word(const char **p, struct words *w, struct exec_argv *out)
{
	const char *s = *p;
	char quote = 0;
	bool lone_semicolon = s[0] == ';' && (s[1] == '\0' || is_blank(s[1]));

	if (lone_semicolon)
		return fail(out, "a lone ';' (several commands in one line) is not supported; "
				 "use one line per command");
	if (w->count >= EXEC_ARGS_MAX)
		return fail(out, "more than %d words", EXEC_ARGS_MAX);
	w->word[w->count++] = w->buf + w->used;
	while (*s && (quote || !is_blank(*s))) {
		int c = (unsigned char)*s;
		if (!quote && (c == '"' || c == '\'')) {
			quote = (char)c;
			s++;
			continue;
		}
		if (quote && c == quote) {
			quote = 0;
			s++;
			continue;
		}
		if (c == '\\') {
			s++;
			if (*s == '\0')
				return fail(out, "a backslash ends the line");
			const char *escape = s;
			c = unescape(&s);
			if (c < 0) { /* as systemd corrects it: the backslash and the byte */
				out->relaxed = true;
				if (push_byte(w, '\\', out) < 0)
					return -1;
				s = escape;
				c = (unsigned char)*s++;
			}
		} else {
			s++;
		}
		if (push_byte(w, (char)c, out) < 0)
			return -1;
	}
	if (quote)
		return fail(out, "unterminated %c quote", quote);
	*p = s;
	return push_byte(w, '\0', out);
}

static int split_words(const char *line, struct words *w, struct exec_argv *out)
{
	const char *p = line;

	w->count = 0;
	w->used = 0;
	for (;;) {
		while (is_blank(*p))
			p++;
		if (*p == '\0')
			return 0;
		if (split_word(&p, w, out) < 0)
			return -1;
	}
}

static const char *env_lookup(const char *const *envp, const char *name, size_t len)
{
	const char *found = NULL;

	for (size_t i = 0; envp && envp[i]; i++)
		if (strncmp(envp[i], name, len) == 0 && envp[i][len] == '=')
			found = envp[i] + len + 1;
	return found;
}

/* "$NAME" as a whole word: the NAME length, or 0 when the word is something else. */
static size_t lone_variable(const char *word)
{
	size_t n = 1;

	if (word[0] != '$' || !is_name_start(word[1]))
		return 0;
	while (is_name_char(word[n]))
		n++;
	return word[n] == '\0' ? n - 1 : 0;
}

/* Output argv under construction. */
struct argv_out {
	struct exec_argv *out;
	size_t used;
};

static int out_byte(struct argv_out *a, char c)
{
	if (a->used >= sizeof a->out->buf)
		return fail(a->out, "expanded command line longer than %d bytes", EXEC_BUF_MAX);
	a->out->buf[a->used++] = c;
	return 0;
}

static int out_begin(struct argv_out *a)
{
	if (a->out->argc >= EXEC_ARGS_MAX)
		return fail(a->out, "more than %d words after expansion", EXEC_ARGS_MAX);
	a->out->argv[a->out->argc++] = a->out->buf + a->used;
	return 0;
}

static int out_end(struct argv_out *a)
{
	return out_byte(a, '\0');
}

/* One word of a lone $NAME's value, as systemd splits it (relaxed and unquoting): blanks
 * end it, '...' and "..." group (the quotes go), a backslash takes the next character as
 * it is, a quote left open ends with the value. */
static int value_word(struct argv_out *a, const char **at)
{
	const char *p = *at;
	char quote = 0;

	if (out_begin(a) < 0)
		return -1;
	for (; *p; p++) {
		char c = *p;
		if (c == '\\' && p[1]) {
			c = *++p;
		} else if (quote ? c == quote : c == '\'' || c == '"') {
			quote = quote ? 0 : c;
			continue;
		} else if (!quote && is_blank(c)) {
			break;
		}
		if (out_byte(a, c) < 0)
			return -1;
	}
	*at = p;
	return out_end(a);
}

/* A lone $NAME: the value split into zero or more words (EnvironmentFile= keeps quotes
 * after bare text for this: A=-f '/etc/x y' gives "-f" and "/etc/x y"). */
static int expand_split(struct argv_out *a, const char *value)
{
	const char *p = value ? value : "";

	for (;;) {
		while (is_blank(*p))
			p++;
		if (*p == '\0')
			return 0;
		if (value_word(a, &p) < 0)
			return -1;
	}
}

/* "${" at s, read as systemd reads it, so that a package's line means the same under both:
 * the name runs to the first '}' and is looked up (a name no variable has gives nothing).
 * A ':' before it ("${NAME:-default}", meant for the shell the line runs) or the word's end
 * makes it text. Returns the offset of that '}', ':' or end. */
static size_t reference_end(const char *s)
{
	size_t n = 2;

	while (s[n] && s[n] != '}' && s[n] != ':')
		n++;
	return n;
}

static int out_text(struct argv_out *a, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (out_byte(a, s[i]) < 0)
			return -1;
	return 0;
}

/* Any other word: "$$" -> "$", "${NAME}" -> value, everything else as is. */
static int expand_inline(struct argv_out *a, const char *word, const char *const *envp)
{
	const char *s = word;

	if (out_begin(a) < 0)
		return -1;
	while (*s) {
		const char *value;
		size_t end;
		if (s[0] == '$' && s[1] == '$') {
			s += 2;
			if (out_byte(a, '$') < 0)
				return -1;
			continue;
		}
		if (s[0] != '$' || s[1] != '{') {
			if (out_byte(a, *s++) < 0)
				return -1;
			continue;
		}
		end = reference_end(s);
		if (s[end] != '}') {
			end += s[end] == ':';
			if (out_text(a, s, end) < 0)
				return -1;
			s += end;
			continue;
		}
		value = env_lookup(envp, s + 2, end - 2);
		if (value && out_text(a, value, strlen(value)) < 0)
			return -1;
		s += end + 1;
	}
	return out_end(a);
}

static int copy_word(struct argv_out *a, const char *word)
{
	if (out_begin(a) < 0 || out_text(a, word, strlen(word)) < 0)
		return -1;
	return out_end(a);
}

static int expand_words(const struct words *w, const char *const *envp, struct exec_argv *out)
{
	struct argv_out a = { .out = out, .used = 0 };

	for (size_t i = 0; i < w->count; i++) {
		const char *word = w->word[i];
		size_t name_len = lone_variable(word);
		int r;
		if (out->flags & EXEC_NO_ENV_EXPAND)
			r = copy_word(&a, word);
		else if (name_len)
			r = expand_split(&a, env_lookup(envp, word + 1, name_len));
		else
			r = expand_inline(&a, word, envp);
		if (r < 0)
			return -1;
	}
	out->argv[out->argc] = NULL;
	return 0;
}

/* An absolute path, or a bare name that exec_path_resolve() looks up; "bin/x" is
 * neither (systemd refuses it too). */
static int check_program(const char *path, struct exec_argv *out)
{
	if (path[0] != '/' && strchr(path, '/'))
		return fail(out, "program \"%.64s\" is neither an absolute path nor a bare name "
				 "to look up in " EXEC_SEARCH_PATH, path);
	if (!*path)
		return fail(out, "empty program name");
	return 0;
}

int exec_path_resolve(struct exec_argv *out, bool (*is_executable)(const char *path))
{
	const char *dir = EXEC_SEARCH_PATH;

	if (out->path[0] == '/')
		return 0;
	while (*dir) {
		size_t n = strcspn(dir, ":");
		int len = snprintf(out->resolved, sizeof out->resolved, "%.*s/%s", (int)n, dir,
				   out->path);
		if (len > 0 && (size_t)len < sizeof out->resolved && is_executable(out->resolved)) {
			out->path = out->resolved;
			return 0;
		}
		dir += n + (dir[n] == ':');
	}
	return fail(out, "program \"%.64s\" not found in " EXEC_SEARCH_PATH, out->path);
}

static int split_common(const char *line, struct words *w, struct exec_argv *out)
{
	out->flags = 0;
	out->path = NULL;
	out->argc = 0;
	out->argv[0] = NULL;
	out->error[0] = '\0';
	out->relaxed = false;
	while (is_blank(*line))
		line++;
	if (parse_prefixes(&line, &out->flags, out) < 0)
		return -1;
	return split_words(line, w, out);
}

int exec_line_split(const char *line, const char *const *envp, struct exec_argv *out)
{
	struct words w;

	if (split_common(line, &w, out) < 0 || expand_words(&w, envp, out) < 0)
		return -1;
	if (out->argc == 0)
		return fail(out, "empty command line");
	if (out->flags & EXEC_ARGV0) {
		if (out->argc < 2)
			return fail(out, "'@' needs a program and its argv[0]");
		out->path = out->argv[0];
		memmove(out->argv, out->argv + 1, out->argc * sizeof *out->argv);
		out->argc--;
	} else {
		out->path = out->argv[0];
	}
	return check_program(out->path, out);
}

unsigned exec_line_prefixes(const char *line)
{
	unsigned flags = 0;

	while (is_blank(*line))
		line++;
	for (;;) {
		size_t len;
		unsigned bit = prefix_at(line, &len);
		if (!bit)
			break;
		flags |= bit;
		line += len;
	}
	return flags;
}

int exec_words_split(const char *s, struct exec_argv *out)
{
	struct words w;
	struct argv_out a = { .out = out, .used = 0 };

	out->flags = EXEC_NO_ENV_EXPAND;
	out->path = NULL;
	out->argc = 0;
	out->argv[0] = NULL;
	out->error[0] = '\0';
	if (split_words(s, &w, out) < 0)
		return -1;
	for (size_t i = 0; i < w.count; i++)
		if (copy_word(&a, w.word[i]) < 0)
			return -1;
	out->argv[out->argc] = NULL;
	return 0;
}

static bool has_expansion(const char *word, unsigned flags)
{
	return !(flags & EXEC_NO_ENV_EXPAND) && strchr(word, '$') != NULL;
}

int exec_line_check(const char *line, struct exec_argv *scratch)
{
	struct words w;

	if (split_common(line, &w, scratch) < 0)
		return -1;
	if (w.count == 0)
		return fail(scratch, "empty command line");
	scratch->argc = 0;
	if ((scratch->flags & EXEC_ARGV0) && w.count < 2 && !has_expansion(w.word[0], scratch->flags))
		return fail(scratch, "'@' needs a program and its argv[0]");
	if (has_expansion(w.word[0], scratch->flags))
		return 0; /* the program comes from a variable: checked when it starts */
	return check_program(w.word[0], scratch);
}
