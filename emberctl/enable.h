#ifndef EMBERCTL_ENABLE_H
#define EMBERCTL_ENABLE_H
/* emberctl enable | disable | mask | unmask | is-enabled: offline file operations on the
 * unit directories, as systemctl does them (see man/emberctl.8.scd). */
#include <stdbool.h>
#include <stddef.h>

/* Is word one of the verbs above? */
bool enable_is_verb(const char *word);
/* Run the verb; argv as main's. Returns the exit code. */
int enable_main(int argc, char **argv);
/* emberctl verbs (issue 17): lookups show and cat share with enable, on the running
 * system. The state is-enabled prints for a canonical name ("enabled", "static",
 * "disabled", "masked", "not-found"). */
const char *enable_unit_file_state(const char *name);
/* The unit file of a canonical name (its own, else its template's) into path. Returns
 * the index of its directory in enable_search_dirs(), or -1. */
int enable_find_unit_file(const char *name, char *path, size_t size);
/* The directories unit files are looked up in, highest priority first. */
const char *const *enable_search_dirs(size_t *n);
/* A link to /dev/null or an empty file. */
bool enable_is_masked(const char *path);
/* An alias: name's unit file is a symlink to a unit file of another name of the same
 * kind (Debian's udev.service -> systemd-udevd.service); that name, canonical, into
 * target. ember-init loads the alias as that unit, as systemd does. */
bool enable_alias_of(const char *name, char *target, size_t size);
#endif
