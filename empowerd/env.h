#ifndef EMBER_EMPOWERD_ENV_H
#define EMBER_EMPOWERD_ENV_H
/* The session's environment, built from an allowlist: nothing the caller's environment
 * holds reaches the command unless named here. The dynamic loader does not protect a
 * process whose capabilities come from the ambient set (AT_SECURE is 0), so LD_PRELOAD
 * and friends must never pass. Pure functions, fixed buffers. */
#include <stdbool.h>
#include <stddef.h>

#include "passwd.h"

#define ENV_SAFE_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
#define ENV_ENTRIES_MAX 128
#define ENV_TEXT_MAX 32768
#define ENV_VALUE_MAX 4096
#define ENV_TERM_MAX 64     /* TERM, COLORTERM, NO_COLOR values */
#define ENV_LOCALE_MAX 128  /* LANG, LC_* values */

struct env_block {
	size_t count;
	char *envp[ENV_ENTRIES_MAX + 1]; /* NULL-terminated */
	char text[ENV_TEXT_MAX];
};

/* "TERM=xterm": true when the caller may pass it: TERM, COLORTERM, NO_COLOR, LANG and
 * LC_*, each with a value that is a plain name (letters, digits and a little
 * punctuation: TERM [._+-], locales [._@-], NO_COLOR none; no "..", starting with a
 * letter or digit, bounded) or empty. */
bool env_passes(const char *entry);
/* "NAME=VALUE" with NAME a shell identifier: true when --setenv may set it. */
bool env_setenv_valid(const char *entry);

/* The caller's entries that pass, then HOME, USER, LOGNAME, SHELL from target and a
 * fixed PATH, then setenv (already authorised; each replaces an earlier entry of its
 * name). 0, or -1/E2BIG (too large) or EINVAL (an invalid setenv entry). */
int env_build(struct env_block *e, const char *const *caller, size_t caller_count,
	      const struct passwd_user *target, const char *const *setenv, size_t setenv_count);

#endif
