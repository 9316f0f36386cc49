#ifndef EMBER_EXEC_LINE_H
#define EMBER_EXEC_LINE_H
/* Splitting an ExecStart=-style command line into argv, by systemd's rules as far as
 * docs/services.md says: words split at whitespace; single and double quotes, also inside
 * a word; C escapes; "$$" is "$"; "${VAR}" becomes the variable's value inside one word;
 * "$VAR" as a whole word becomes its value split at whitespace (zero or more words), and
 * inside a word its value. Prefixes "-", "@" and ":" (see EXEC_* in service.h).
 * No shell is ever involved: a file that wants one writes ExecStart=/bin/sh -c '...'.
 *
 * Nothing is allocated: argv points into the struct's own buffer.
 */
#include <stddef.h>

#include "service.h"

#define EXEC_ARGS_MAX 128   /* words per command line */
#define EXEC_BUF_MAX 8192   /* bytes of all words together, NULs included */
#define EXEC_ERROR_MAX 160

struct exec_argv {
	unsigned flags;   /* EXEC_IGNORE_FAILURE | EXEC_ARGV0 | EXEC_NO_ENV_EXPAND */
	const char *path; /* the program to execute: argv[0], or the first word with "@" */
	size_t argc;
	char *argv[EXEC_ARGS_MAX + 1]; /* NULL-terminated */
	char buf[EXEC_BUF_MAX];
	char error[EXEC_ERROR_MAX]; /* why exec_line_split() failed */
};

/* Split line into out. envp ("NAME=value" strings, NULL-terminated; the last match
 * wins) supplies the variables; NULL means none. The program must be an absolute path
 * after expansion. Returns 0, or -1 with out->error set ("unterminated quote", ...). */
int exec_line_split(const char *line, const char *const *envp, struct exec_argv *out);

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
