/* Session environment and log escaping (env.h). */
#include "env.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"

static bool name_is(const char *entry, const char *name)
{
	size_t n = strlen(name);
	return strncmp(entry, name, n) == 0 && entry[n] == '=';
}

static bool lc_name(const char *entry)
{
	if (!str_starts_with(entry, "LC_"))
		return false;
	for (const char *p = entry + 3; *p != '='; p++)
		if (!(*p >= 'A' && *p <= 'Z') && *p != '_')
			return false;
	return entry[3] != '=';
}

static bool alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* A value made only of letters, digits and the given punctuation, starting with a
 * letter or digit, without "..", at most max bytes. Terminal and locale names are
 * looked up as path components and printed by programs that trust them: '/', '%',
 * '$', quotes, spaces and control characters have no place in them. */
static bool word_value(const char *v, const char *punct, size_t max)
{
	size_t n = 0;
	if (!*v)
		return true;
	if (!alnum(*v) || strstr(v, ".."))
		return false;
	for (; *v; v++, n++)
		if (!alnum(*v) && !strchr(punct, *v))
			return false;
	return n <= max;
}

static bool clean_value(const char *entry, const char *v)
{
	if (name_is(entry, "TERM") || name_is(entry, "COLORTERM"))
		return word_value(v, "._+-", ENV_TERM_MAX);
	if (name_is(entry, "NO_COLOR"))
		return word_value(v, "", ENV_TERM_MAX);
	return word_value(v, "._@-", ENV_LOCALE_MAX); /* en_US.UTF-8@euro */
}

bool env_passes(const char *entry)
{
	const char *eq = strchr(entry, '=');
	if (!eq)
		return false;
	if (!(name_is(entry, "TERM") || name_is(entry, "COLORTERM") || name_is(entry, "NO_COLOR") ||
	      name_is(entry, "LANG") || lc_name(entry)))
		return false;
	return clean_value(entry, eq + 1);
}

bool env_setenv_valid(const char *entry)
{
	const char *p = entry;
	if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || *p == '_'))
		return false;
	for (p++; *p && *p != '='; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	return *p == '=' && strlen(p + 1) <= ENV_VALUE_MAX;
}

/* Append "name=value" (value NULL: entry is already "name=value"), replacing an entry
 * of the same name. */
static int env_put(struct env_block *e, size_t *used, const char *name, const char *value)
{
	char entry[ENV_VALUE_MAX + 512];
	int n = value ? snprintf(entry, sizeof entry, "%s=%s", name, value)
		      : snprintf(entry, sizeof entry, "%s", name);
	if (n < 0 || (size_t)n >= sizeof entry || *used + (size_t)n + 1 > sizeof e->text) {
		errno = E2BIG;
		return -1;
	}
	size_t name_len = (size_t)(strchr(entry, '=') - entry) + 1;
	size_t slot = e->count;
	for (size_t i = 0; i < e->count; i++)
		if (strncmp(e->envp[i], entry, name_len) == 0)
			slot = i;
	if (slot == e->count) {
		if (e->count >= ENV_ENTRIES_MAX) {
			errno = E2BIG;
			return -1;
		}
		e->count++;
	}
	e->envp[slot] = memcpy(e->text + *used, entry, (size_t)n + 1);
	*used += (size_t)n + 1;
	e->envp[e->count] = NULL;
	return 0;
}

int env_build(struct env_block *e, const char *const *caller, size_t caller_count,
	      const struct passwd_user *target, const char *const *setenv, size_t setenv_count)
{
	size_t used = 0;
	e->count = 0;
	e->envp[0] = NULL;
	for (size_t i = 0; i < caller_count; i++)
		if (env_passes(caller[i]) && env_put(e, &used, caller[i], NULL) < 0)
			return -1;
	if (env_put(e, &used, "HOME", target->home) < 0 ||
	    env_put(e, &used, "USER", target->name) < 0 ||
	    env_put(e, &used, "LOGNAME", target->name) < 0 ||
	    env_put(e, &used, "SHELL", target->shell) < 0 ||
	    env_put(e, &used, "PATH", ENV_SAFE_PATH) < 0)
		return -1;
	for (size_t i = 0; i < setenv_count; i++) {
		if (!env_setenv_valid(setenv[i])) {
			errno = EINVAL;
			return -1;
		}
		if (env_put(e, &used, setenv[i], NULL) < 0)
			return -1;
	}
	return 0;
}
