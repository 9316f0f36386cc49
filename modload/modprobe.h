#ifndef EMBER_MODLOAD_MODPROBE_H
#define EMBER_MODLOAD_MODPROBE_H
/* modprobe.d configuration, the part ember-modload honours:
 *   blacklist MODULE              refuse MODULE when it is requested (not as a dependency)
 *   options MODULE PARAM...       parameters passed to finit_module (lines accumulate)
 *   softdep MODULE pre: A... post: B...   load A before and B after MODULE
 *   alias PATTERN MODULE          a name (fnmatch pattern) that stands for MODULE
 * "install" and "remove" commands are recorded but never run (no fork per module).
 * A line ending in '\' continues on the next; '#' starts a comment line. */
#include <stdbool.h>
#include <stddef.h>

#include "util.h"

struct alias_rule {
	char *pattern; /* alias_normalize()d */
	char *module;  /* normalized */
};

struct softdep_rule {
	char *module;
	struct strvec pre, post; /* as written (they may be aliases) */
};

struct modprobe_conf {
	struct strmap blacklist; /* normalized name -> non-NULL */
	struct strmap options;   /* normalized name -> char* "a=1 b=2" */
	struct alias_rule *aliases;
	size_t naliases, acap;
	struct softdep_rule *softdeps;
	size_t nsoftdeps, scap;
	struct strvec install;   /* modules whose install command is ignored */
};

/* Returns the number of rejected lines (each logged with FILE:LINE). */
int modprobe_conf_parse(const char *text, const char *file, struct modprobe_conf *c);
bool modprobe_blacklisted(const struct modprobe_conf *c, const char *name);
const char *modprobe_options(const struct modprobe_conf *c, const char *name);
/* The first softdep rule for name (modprobe.d is parsed before modules.softdep, so
 * the administrator's rule wins), or NULL. */
const struct softdep_rule *modprobe_softdep(const struct modprobe_conf *c, const char *name);
/* Append the module of every alias rule whose pattern matches name; returns how many. */
size_t modprobe_alias_match(const struct modprobe_conf *c, const char *name, struct strvec *out);
void modprobe_conf_free(struct modprobe_conf *c);
#endif
