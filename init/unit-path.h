#ifndef EMBER_UNIT_PATH_H
#define EMBER_UNIT_PATH_H
/* Path units: a .path starts a unit (by default the service of the same name) when a
 * file or directory appears, changes or fills. docs/path-units.md says what each key
 * does under ember.
 *
 *   unit-path.c      the [Path] keys (pure parsing), implicit dependencies
 *   unit-path-run.c  run time: one inotify instance per watched path, the checks,
 *                    starting the unit, the trigger limit
 *
 * Each watch is kept in one of the unit's listen_fd[] slots (a path unit listens on no
 * socket), so it travels with the unit through a reload and a re-execution. */
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>

#include "service.h"

struct unit;

/* The kinds of Path*= entry, as the letter that starts each line of path.watches. */
#define PATH_EXISTS 'E'          /* PathExists= */
#define PATH_EXISTS_GLOB 'G'     /* PathExistsGlob= */
#define PATH_CHANGED 'C'         /* PathChanged= */
#define PATH_MODIFIED 'M'        /* PathModified= */
#define PATH_DIR_NOT_EMPTY 'N'   /* DirectoryNotEmpty= */
#define PATH_WATCH_MAX SOCKET_LISTEN_MAX /* entries per unit: one listen_fd[] slot each */

/* struct path_spec.flags */
#define PATH_MAKE_DIRECTORY 0x1u     /* MakeDirectory=yes */
#define PATH_LIMIT_INTERVAL_SET 0x2u /* TriggerLimitIntervalSec= given */
#define PATH_LIMIT_BURST_SET 0x4u    /* TriggerLimitBurst= given */

/* systemd's defaults for path units (TriggerLimitIntervalSec=, TriggerLimitBurst=) */
#define PATH_TRIGGER_INTERVAL_MS 2000u
#define PATH_TRIGGER_BURST 200u

/* ---- parsing (unit-path.c; pure) ---- */

/* One [Path] key: 0, or -1 when the value is invalid (svc is then failed through diag). */
int unit_path_parse(struct service *svc, const struct service_diag *diag, unsigned line,
		    const char *key, const char *value);
/* Whole-unit checks (a Path*= entry, a valid unit to start) and the implicit
 * dependencies (Before= that unit). */
void unit_path_validate(struct service *svc, const struct service_diag *diag);
/* The i-th entry: its kind letter and its path into out; false past the last. */
bool unit_path_entry(const struct service *svc, size_t i, char *kind, char *out, size_t size);

/* ---- run time (unit-path-run.c, called by the supervisor) ---- */

/* Starting: directories made (MakeDirectory=), every entry watched, then checked: 0
 * (active, waiting), or -1 with err (nothing to start, no watch possible). */
int path_unit_start(struct unit *u, char *err, size_t size);
/* Stopping or failed: the watches closed. */
void path_unit_stop(struct unit *u);
/* A unit changed state: the waiting path units check their entries again on the next
 * turn (a unit started by PathExists= that ended starts again while the path is there). */
void path_units_changed(void);
/* The units were reloaded: every path unit sets its watches up again. */
void path_units_reloaded(struct unit *units, size_t n);
/* Every supervisor turn. PATH_LIMIT: it started its unit more than TriggerLimitBurst=
 * times within TriggerLimitIntervalSec=, the caller fails it. */
enum path_tick { PATH_WAIT, PATH_LIMIT };
enum path_tick path_unit_tick(struct unit *u);
/* "waiting", or "running" while the unit it started is up. */
const char *path_unit_sub_state(const struct unit *u);

/* The watches to poll, and the events back. */
size_t path_units_pollfds(struct unit *units, size_t n, struct pollfd *fds, size_t max);
void path_units_handle_pollfds(struct unit *units, size_t n_units, const struct pollfd *fds,
			       size_t n);
#define PATH_POLL_MAX 32 /* poll slots for path units' watches */
#endif
