#ifndef EMBERCTL_FILTER_H
#define EMBERCTL_FILTER_H
/* emberctl list --failed --state=STATE[,STATE] PATTERN...: which records a list shows.
 * A state matches ember's own state (the STATE column) or systemd's LoadState,
 * ActiveState or SubState of the unit, as systemctl --state= does; a pattern is a shell
 * glob (fnmatch) on the unit's name, with or without its ".service". Both given: a unit
 * must match a state and a pattern. */
#include <stdbool.h>
#include <stddef.h>

#include "ctl.h"

#define FILTER_STATES_MAX 32

struct unit_filter {
	const char *state[FILTER_STATES_MAX]; /* point into the argument strings */
	size_t nstates;
	char *const *pattern;
	size_t npatterns;
};

/* Add the comma-separated states of list (the string must outlive f; commas become NUL).
 * Returns 0, or -1 with a message in err for an unknown or empty state. */
int filter_add_states(struct unit_filter *f, char *list, char *err, size_t errlen);
/* Does the record (of a list reply) pass the filter? An empty filter passes all. */
bool filter_match(const struct unit_filter *f, const struct ctl_record *rec);
/* The state names filter_add_states accepts, NULL after the last. */
const char *filter_state_at(size_t i);
#endif
