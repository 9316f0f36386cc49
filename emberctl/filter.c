/* emberctl list's filters: states and name globs (see filter.h). */
#include "filter.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "unit-name.h"

/* Every state a record may carry: ember's own, then systemd's load, active and sub
 * states as ember-init reports them (init/control-verbs.c). */
static const char *const known_states[] = {
	"inactive", "waiting", "starting", "running", "ready", "stopping", "stopped",
	"failed", "permanent-failure", "masked", "invalid", "condition-failed",
	"loaded", "not-found", "bad-setting",
	"active", "reloading", "activating", "deactivating",
	"dead", "start-pre", "start", "start-post", "exited", "reload", "stop",
	"stop-sigterm", "stop-sigkill", "stop-post", "auto-restart", "listening",
};
#define NKNOWN (sizeof known_states / sizeof *known_states)

const char *filter_state_at(size_t i)
{
	return i < NKNOWN ? known_states[i] : NULL;
}

static bool known(const char *state)
{
	for (size_t i = 0; i < NKNOWN; i++)
		if (strcmp(state, known_states[i]) == 0)
			return true;
	return false;
}

int filter_add_states(struct unit_filter *f, char *list, char *err, size_t errlen)
{
	for (char *p = list, *comma; p; p = comma ? comma + 1 : NULL) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (!*p) {
			snprintf(err, errlen, "--state: an empty state in the list");
			return -1;
		}
		if (!known(p)) {
			snprintf(err, errlen, "--state=%.40s: unknown state (see --state=help)", p);
			return -1;
		}
		if (f->nstates == FILTER_STATES_MAX) {
			snprintf(err, errlen, "--state: more than %d states", FILTER_STATES_MAX);
			return -1;
		}
		f->state[f->nstates++] = p;
	}
	return 0;
}

static bool state_matches(const struct unit_filter *f, const struct ctl_record *rec)
{
	static const char *const keys[] = { "state", "load_state", "active_state", "sub_state" };

	if (f->nstates == 0)
		return true;
	for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
		const char *v = ctl_record_get(rec, keys[k]);
		for (size_t i = 0; v && i < f->nstates; i++)
			if (strcmp(v, f->state[i]) == 0)
				return true;
	}
	return false;
}

static bool pattern_matches(const struct unit_filter *f, const struct ctl_record *rec)
{
	const char *name = ctl_record_get(rec, "name");
	char full[300];

	if (f->npatterns == 0)
		return true;
	if (!name)
		return false;
	if (unit_name_full(name, full, sizeof full) < 0)
		full[0] = '\0';
	for (size_t i = 0; i < f->npatterns; i++)
		if (fnmatch(f->pattern[i], name, 0) == 0 ||
		    (full[0] && fnmatch(f->pattern[i], full, 0) == 0))
			return true;
	return false;
}

bool filter_match(const struct unit_filter *f, const struct ctl_record *rec)
{
	return state_matches(f, rec) && pattern_matches(f, rec);
}
