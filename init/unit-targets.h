#ifndef EMBER_UNIT_TARGETS_H
#define EMBER_UNIT_TARGETS_H
/* Targets: the built-in definitions of systemd's well-known targets (used when no file
 * defines them: a pure ember system has no systemd files) and the choice of the default
 * target. See docs/services.md "Targets". */
#include <stddef.h>

#define UNIT_DEFAULT_TARGET "default.target"
#define UNIT_FALLBACK_TARGET "multi-user.target"
#define UNIT_BUILTIN_PATH "(built-in)"

/* The unit file text of a well-known target, or NULL when name is not one. */
const char *unit_target_builtin(const char *name);

/* The unit a kernel command line asks for (systemd.unit=, ember.unit=; the last one
 * wins) as a canonical name into out; 0 when found, -1 when none or invalid. */
int unit_default_from_cmdline(const char *cmdline, char *out, size_t size);
#endif
