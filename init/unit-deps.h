#ifndef EMBER_UNIT_DEPS_H
#define EMBER_UNIT_DEPS_H
/* Dependencies at run time (U1): what Requires= BindsTo= Requisite= PartOf= Conflicts=
 * mean while units start and stop. The supervisor asks, and acts on the answers; this
 * file only decides. See docs/services.md "Dependencies". */
#include <stdbool.h>
#include <stddef.h>

#include "service.h"

struct unit;

/* Requires= BindsTo= Requisite= together: the units whose failure fails s. The i-th
 * name may be copied into buf (SERVICE_NAME_MAX bytes): a list's names past
 * SERVICE_DEPS_MAX are not stored one by one. */
size_t unit_requirement_count(const struct service *s);
const char *unit_requirement(const struct service *s, size_t i, char *buf);

/* The first Requisite= of u that is not active now (the start must fail), or NULL; buf
 * (SERVICE_NAME_MAX bytes) may hold the name. */
const char *unit_requisite_inactive(const struct unit *u, char *buf);

/* Units to stop because u starts (Conflicts= either way); returns how many. */
size_t unit_conflicting(const struct unit *u, struct unit **out, size_t max);

/* Units to stop because u goes down (BindsTo= u; PartOf= u only when stopped is true,
 * i.e. a stop rather than a failure). Only units that are up and not already stopping. */
size_t unit_bound_to(const struct unit *u, bool stopped, struct unit **out, size_t max);

/* Should a start of another unit by name pull r in (r is in its Wants=, Requires=,
 * BindsTo=)? As systemd's start job: yes when r is down (a oneshot that ran and ended
 * included); not when it is up or waiting, masked or invalid. */
bool unit_pull_in_wanted(const struct unit *r);

/* The default target the kernel command line asks for (systemd.unit=, ember.unit=)
 * into out, "" when none. */
void unit_cmdline_target(char *out, size_t size);
#endif
