#ifndef EMBER_EXEC_LINE_H
#define EMBER_EXEC_LINE_H
/* Splitting an ExecStart=-style command line into argv, by systemd's rules as far as
 * docs/services.md says: words split at whitespace; single and double quotes, also inside
 * a word; C escapes; "$$" is "$"; "${VAR}" becomes the variable's value inside one word;
 * "$VAR" as a whole word becomes its value split at whitespace (zero or more words), and
 * inside a word its value. Prefixes "-", "@", ":", "+", "!" and "!!" (EXEC_* in service.h;
 * what each means at run time: docs/services.md "Command lines"). A program given as a
 * bare name ("sshd") is looked up in EXEC_SEARCH_PATH by exec_path_resolve().
 * No shell is ever involved: a file that wants one writes ExecStart=/bin/sh -c '...'.
 *
 * Nothing is allocated: argv points into the struct's own buffer.
 */
#include <stdbool.h>
#include <stddef.h>

#include "service.h"

#define EXEC_ARGS_MAX 128   /* words per command line */
#define EXEC_BUF_MAX 8192   /* bytes of all words together, NULs included */
#define EXEC_ERROR_MAX 160
/* systemd's fixed search path for bare program names (not the service's $PATH). */
#define EXEC_SEARCH_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

struct exec_argv {
	unsigned flags;   /* EXEC_IGNORE_FAILURE | EXEC_ARGV0 | EXEC_NO_ENV_EXPAND */
	const char *path; /* the program to execute: argv[0], or the first word with "@" */
	size_t argc;
	char *argv[EXEC_ARGS_MAX + 1]; /* NULL-terminated */
	char buf[EXEC_BUF_MAX];
	char error[EXEC_ERROR_MAX]; /* why exec_line_split() failed */
	bool relaxed;               /* an unknown escape was kept as written */
	char resolved[256];         /* path found by exec_path_resolve() */
};

/* Split line into out. envp ("NAME=value" strings, NULL-terminated; the last match
 * wins) supplies the variables; NULL means none. The program must be an absolute path
 * after expansion, or a bare name for exec_path_resolve(). Returns 0, or -1 with out->error set ("unterminated quote", ...). */
int exec_line_split(const char *line, const char *const *envp, struct exec_argv *out);

/* A bare program name in out->path -> the first executable EXEC_SEARCH_PATH entry
 * (is_executable decides: access(X_OK) in PID 1, a fake in tests); argv[0] stays as
 * written. An absolute path is left alone. Returns 0, or -1 with out->error naming the
 * path searched. */
int exec_path_resolve(struct exec_argv *out, bool (*is_executable)(const char *path));

/* The prefix flags of a line that passed exec_line_check() (EXEC_IGNORE_FAILURE, ...),
 * without splitting it: e.g. whether a failed ExecStartPre= counts. */
unsigned exec_line_prefixes(const char *line);

/* Only the word splitting (quotes and escapes, no prefixes, no expansion), for keys
 * such as Environment= that share the quoting rules. Returns 0, or -1 with out->error. */
int exec_words_split(const char *s, struct exec_argv *out);

/* Parse-time check without an environment: quoting, escapes, prefixes, and the program
 * path when it does not come from a variable. Returns 0, or -1 with out->error set. */
int exec_line_check(const char *line, struct exec_argv *scratch);
#endif
