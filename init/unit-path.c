/* Path units: the [Path] keys and the implicit dependencies. Pure: emberctl verify links
 * this alone. See unit-path.h and docs/path-units.md. */
#include "unit-path.h"

#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "unit-name.h"

static int invalid(struct service *svc, const struct service_diag *diag, unsigned line,
		   const char *key, const char *value, const char *why)
{
	service_fail(svc, diag, line, "%s=%.64s: %s", key, value, why);
	return -1;
}

static int parse_watch(struct service *svc, const struct service_diag *diag, unsigned line,
		       const char *key, const char *value, char kind)
{
	char path[SERVICE_PATH_MAX], joined[SERVICE_LINE_MAX];
	struct path_spec *p = &svc->path_unit;

	if (!*value) { /* as systemd: an empty assignment forgets every entry */
		p->watches = 0;
		p->count = 0;
		return 0;
	}
	if (value[0] != '/' || unit_path_simplify(value, path, sizeof path) < 0)
		return invalid(svc, diag, line, key, value, "expected an absolute path "
			       "without \"..\"");
	if (p->count >= PATH_WATCH_MAX)
		return invalid(svc, diag, line, key, value, "more than 8 paths in one unit");
	if (snprintf(joined, sizeof joined, "%s%c%s\n", service_str(svc, p->watches), kind,
		     path) >= (int)sizeof joined)
		return invalid(svc, diag, line, key, value, "too many paths");
	p->watches = service_text_store(svc, joined);
	if (!p->watches)
		return invalid(svc, diag, line, key, value, "too much text in this file");
	p->count++;
	return 0;
}

static int parse_mode(struct service *svc, const struct service_diag *diag, unsigned line,
		      const char *key, const char *value)
{
	char *end;
	unsigned long mode = strtoul(value, &end, 8);

	if (!*value || *end || mode > 07777 || strspn(value, "01234567") != strlen(value))
		return invalid(svc, diag, line, key, value, "expected an octal mode (0755)");
	svc->path_unit.directory_mode = (uint16_t)mode;
	return 0;
}

static int parse_limit(struct service *svc, const struct service_diag *diag, unsigned line,
		       const char *key, const char *value, bool interval)
{
	unsigned long v = 0;
	struct path_spec *p = &svc->path_unit;

	if (!*value) { /* back to the default */
		p->flags &= (uint8_t)~(interval ? PATH_LIMIT_INTERVAL_SET : PATH_LIMIT_BURST_SET);
		return 0;
	}
	if (interval ? parse_duration_ms(value, &v) < 0 : parse_ulong(value, 0, ULONG_MAX, &v) < 0)
		return invalid(svc, diag, line, key, value, interval ? "expected a time span (2s)"
			       : "expected a number");
	if (interval)
		p->limit_interval_ms = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
	else
		p->limit_burst = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
	p->flags |= interval ? PATH_LIMIT_INTERVAL_SET : PATH_LIMIT_BURST_SET;
	return 0;
}

int unit_path_parse(struct service *svc, const struct service_diag *diag, unsigned line,
		    const char *key, const char *value)
{
	static const struct { const char *key; char kind; } watches[] = {
		{ "PathExists", PATH_EXISTS }, { "PathExistsGlob", PATH_EXISTS_GLOB },
		{ "PathChanged", PATH_CHANGED }, { "PathModified", PATH_MODIFIED },
		{ "DirectoryNotEmpty", PATH_DIR_NOT_EMPTY },
	};
	bool b = false;

	for (size_t i = 0; i < sizeof watches / sizeof *watches; i++)
		if (strcmp(key, watches[i].key) == 0)
			return parse_watch(svc, diag, line, key, value, watches[i].kind);
	if (strcmp(key, "Unit") == 0)
		return service_trigger_unit_parse(svc, diag, line, value, &svc->path_unit.unit);
	if (strcmp(key, "DirectoryMode") == 0)
		return parse_mode(svc, diag, line, key, value);
	if (strcmp(key, "TriggerLimitIntervalSec") == 0)
		return parse_limit(svc, diag, line, key, value, true);
	if (strcmp(key, "TriggerLimitBurst") == 0)
		return parse_limit(svc, diag, line, key, value, false);
	/* MakeDirectory= */
	if (*value && parse_bool(value, &b) < 0)
		return invalid(svc, diag, line, key, value, "expected yes or no");
	svc->path_unit.flags = (uint8_t)(b ? svc->path_unit.flags | PATH_MAKE_DIRECTORY
				    : svc->path_unit.flags & ~PATH_MAKE_DIRECTORY);
	return 0;
}

/* ---- whole-unit checks and implicit dependencies ------------------------------------ */

bool unit_path_entry(const struct service *svc, size_t i, char *kind, char *out, size_t size)
{
	const char *p = service_str(svc, svc->path_unit.watches);

	for (; *p && i > 0; i--)
		p += strcspn(p, "\n") + 1;
	if (!*p)
		return false;
	*kind = p[0];
	snprintf(out, size, "%.*s", (int)strcspn(p + 1, "\n"), p + 1);
	return true;
}

void unit_path_validate(struct service *svc, const struct service_diag *diag)
{
	char target[SERVICE_NAME_MAX];

	if (svc->kind != UNIT_PATH || svc->failed || svc->masked)
		return;
	if (unit_name_is_template(svc->name)) {
		service_fail(svc, diag, 0, "a template: it runs only as an instance");
		return;
	}
	if (svc->path_unit.count == 0) {
		service_fail(svc, diag, 0, "nothing to watch: set PathExists=, PathExistsGlob=, "
			     "PathChanged=, PathModified= or DirectoryNotEmpty=");
		return;
	}
	service_trigger_target(svc, target, sizeof target);
	if (!unit_name_valid(target) || strcmp(target, svc->name) == 0) {
		service_fail(svc, diag, 0, "no valid unit to start (Unit=)");
		return;
	}
	/* As systemd: the path unit is ordered before what it starts. sysinit.target,
	 * paths.target and shutdown.target are the depgraph's default dependencies. */
	if (service_add_name(svc, &svc->before, target) < 0)
		service_fail(svc, diag, 0, "too many dependencies to add %s", target);
}
