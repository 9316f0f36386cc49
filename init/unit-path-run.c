/* Path units at run time: the watches, the checks, starting the unit. See unit-path.h
 * and docs/path-units.md.
 *
 * Each Path*= entry has an inotify instance of its own (in one of the unit's
 * listen_fd[] slots), so its watch descriptors say where an event came from: the first
 * watch is the entry's directory, the second the path itself. A directory that is not
 * there yet is waited for on the nearest ancestor that is. Any event sets the watches up
 * again (a directory may have come or gone) and has the entries checked on the next
 * turn. PathExists=, PathExistsGlob= and DirectoryNotEmpty= are states: while one holds,
 * the unit is started whenever it is not up. PathChanged= and PathModified= are events:
 * each one that touches the path starts the unit.
 *
 * Three fields of struct unit that path units do not otherwise use keep their state:
 * timer_gen is the generation last checked (0: set up the watches again, as after a
 * re-execution or a reload), timer_wall_gen has bit i set while entry i's directory is
 * watched, timer_due_ms is the entry whose path an event touched, -1 none. */
#include "unit-path.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>

#include "io.h"
#include "log.h"
#include "supervisor.h"

#define DIR_EVENTS (IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB | \
		    IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
#define CHANGE_EVENTS (IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB | \
		       IN_CLOSE_WRITE)
#define ANCESTOR_EVENTS (IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | \
			 IN_ATTRIB | IN_ONLYDIR)
#define DIR_WD 1  /* the entry's directory: the first watch of its instance */
#define SELF_WD 2 /* the path itself, when its directory is watched */

static unsigned generation = 1;

void path_units_changed(void)
{
	generation++;
}

void path_units_reloaded(struct unit *units, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (units[i].svc->kind == UNIT_PATH)
			units[i].timer_gen = 0; /* the entries may have changed */
}

static long long boot_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool is_event_kind(char kind)
{
	return kind == PATH_CHANGED || kind == PATH_MODIFIED;
}

static uint32_t self_events(char kind)
{
	switch (kind) {
	case PATH_DIR_NOT_EMPTY:
		return IN_DELETE_SELF | IN_MOVE_SELF | IN_ATTRIB | IN_CREATE | IN_MOVED_TO;
	case PATH_CHANGED:
		return IN_DELETE_SELF | IN_MOVE_SELF | CHANGE_EVENTS;
	case PATH_MODIFIED:
		return IN_DELETE_SELF | IN_MOVE_SELF | CHANGE_EVENTS | IN_MODIFY;
	default:
		return IN_DELETE_SELF | IN_MOVE_SELF | IN_ATTRIB;
	}
}

/* The directory an entry lives in; for a glob, the one before its first pattern. */
static void entry_dir(char kind, const char *path, char *out, size_t size)
{
	size_t end = kind == PATH_EXISTS_GLOB ? strcspn(path, "*?[") : strlen(path);
	size_t slash = 0;

	for (size_t i = 0; i < end; i++)
		if (path[i] == '/')
			slash = i;
	snprintf(out, size, "%.*s", slash == 0 ? 1 : (int)slash, path);
}

/* dir's parent in place ("/a/b" -> "/a", "/a" -> "/"). */
static void up(char *dir)
{
	char *slash = strrchr(dir, '/');

	if (slash == dir)
		dir[1] = '\0';
	else if (slash)
		*slash = '\0';
}

static void unwatch(struct unit *u, size_t i)
{
	if (u->listen_fd[i] >= 0)
		close(u->listen_fd[i]);
	u->listen_fd[i] = -1;
	u->timer_wall_gen &= ~(1u << i);
}

/* Entry i watched from scratch: 0, or -1 (no inotify instance). */
static int watch(struct unit *u, size_t i)
{
	char kind, path[SERVICE_PATH_MAX], dir[SERVICE_PATH_MAX];
	uint32_t extra;
	int fd;

	unwatch(u, i);
	if (!unit_path_entry(u->svc, i, &kind, path, sizeof path))
		return 0;
	if ((fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) < 0)
		return -1;
	u->listen_fd[i] = fd;
	entry_dir(kind, path, dir, sizeof dir);
	extra = kind == PATH_CHANGED ? IN_CLOSE_WRITE
		: kind == PATH_MODIFIED ? IN_CLOSE_WRITE | IN_MODIFY : 0;
	if (inotify_add_watch(fd, dir, DIR_EVENTS | extra) == DIR_WD) {
		u->timer_wall_gen |= 1u << i;
		if (kind != PATH_EXISTS_GLOB)
			inotify_add_watch(fd, path, self_events(kind)); /* may not be there yet */
		return 0;
	}
	/* Not there yet: the nearest ancestor that is says when it may be. */
	while (strcmp(dir, "/") != 0) {
		up(dir);
		if (inotify_add_watch(fd, dir, ANCESTOR_EVENTS) >= 0)
			break;
	}
	return 0;
}

static bool dir_has_entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	bool any = false;

	if (!d)
		return false;
	while (!any && (e = readdir(d)))
		any = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return any;
}

static bool glob_matches(const char *pattern)
{
	glob_t g;
	int r = glob(pattern, GLOB_NOSORT, NULL, &g);

	if (r == 0)
		globfree(&g);
	return r == 0;
}

/* Does a state entry hold? Which one into path, what it is into what. */
static bool state_holds(const struct service *svc, char *path, size_t size, const char **what)
{
	char kind;

	for (size_t i = 0; unit_path_entry(svc, i, &kind, path, size); i++) {
		bool holds = kind == PATH_EXISTS ? access(path, F_OK) == 0
			     : kind == PATH_EXISTS_GLOB ? glob_matches(path)
			     : kind == PATH_DIR_NOT_EMPTY ? dir_has_entries(path) : false;
		if (holds) {
			*what = kind == PATH_DIR_NOT_EMPTY ? "is not empty" : "exists";
			return true;
		}
	}
	return false;
}

static const struct unit *target_of(const struct unit *u)
{
	char name[SERVICE_NAME_MAX];

	return supervisor_find(service_trigger_target(u->svc, name, sizeof name));
}

static bool target_down(const struct unit *t)
{
	return t && (t->state == UNIT_INACTIVE || t->state == UNIT_STOPPED ||
		     (t->state == UNIT_FAILED && !t->restart_pending));
}

/* Starts counted in the current window, as sockets count theirs. */
static bool within_limit(struct unit *u)
{
	const struct path_spec *p = &u->svc->path_unit;
	long long interval = (p->flags & PATH_LIMIT_INTERVAL_SET) ? p->limit_interval_ms
				: PATH_TRIGGER_INTERVAL_MS;
	unsigned burst = (p->flags & PATH_LIMIT_BURST_SET) ? p->limit_burst : PATH_TRIGGER_BURST;
	long long now = boot_ms();

	if (interval == 0 || burst == 0) /* as systemd: either 0 turns the limit off */
		return true;
	if (u->trigger_window_ms < 0 || now - u->trigger_window_ms >= interval) {
		u->trigger_window_ms = now;
		u->triggers = 0;
	}
	return ++u->triggers <= burst;
}

/* false: the trigger limit was hit. */
static bool trigger(struct unit *u, const char *path, const char *what)
{
	char name[SERVICE_NAME_MAX], err[UNIT_ERROR_MAX];

	if (!within_limit(u))
		return false;
	service_trigger_target(u->svc, name, sizeof name);
	log_info("%s: %s %s, starting %s", u->svc->name, path, what, name);
	if (supervisor_start(name, err, sizeof err) < 0)
		log_warn("%s: %s", u->svc->name, err);
	return true;
}

/* ---- the supervisor's calls ---------------------------------------------------------- */

int path_unit_start(struct unit *u, char *err, size_t size)
{
	const struct unit *t = target_of(u);
	unsigned mode = u->svc->path_unit.directory_mode ? u->svc->path_unit.directory_mode : 0755;
	char kind, path[SERVICE_PATH_MAX], name[SERVICE_NAME_MAX];

	if (!t || t->state == UNIT_MASKED || t->state == UNIT_INVALID) {
		service_trigger_target(u->svc, name, sizeof name);
		snprintf(err, size, "%s: %s, nothing to start", name,
			 !t ? "not found" : unit_state_name(t->state));
		return -1;
	}
	for (size_t i = 0; unit_path_entry(u->svc, i, &kind, path, sizeof path); i++) {
		/* as systemd: MakeDirectory= makes what is watched for changes or entries */
		if ((u->svc->path_unit.flags & PATH_MAKE_DIRECTORY) && kind != PATH_EXISTS &&
		    kind != PATH_EXISTS_GLOB && io_mkdir_p(path, mode) < 0 && errno != EEXIST)
			log_warn("%s: cannot make %s: %s", u->svc->name, path, strerror(errno));
		if (watch(u, i) < 0) {
			snprintf(err, size, "cannot watch %s: %s", path, strerror(errno));
			path_unit_stop(u);
			return -1;
		}
	}
	u->timer_gen = generation - 1; /* checked on the next turn */
	return 0;
}

void path_unit_stop(struct unit *u)
{
	for (size_t i = 0; i < PATH_WATCH_MAX; i++)
		unwatch(u, i);
}

/* After a re-execution or a reload: every entry watched again, any left over closed. */
static void watch_all(struct unit *u)
{
	for (size_t i = 0; i < PATH_WATCH_MAX; i++)
		if (i < u->svc->path_unit.count)
			watch(u, i);
		else
			unwatch(u, i);
}

enum path_tick path_unit_tick(struct unit *u)
{
	const char *what = "";
	char kind, path[SERVICE_PATH_MAX];

	if (u->svc->kind != UNIT_PATH || u->state != UNIT_READY || u->timer_gen == generation)
		return PATH_WAIT;
	if (u->timer_gen == 0)
		watch_all(u);
	u->timer_gen = generation;
	if (u->timer_due_ms >= 0) { /* an event touched a PathChanged=/PathModified= path */
		bool ok = unit_path_entry(u->svc, (size_t)u->timer_due_ms, &kind, path,
					  sizeof path) && trigger(u, path, "changed");
		u->timer_due_ms = -1;
		if (!ok)
			return PATH_LIMIT;
	}
	if (!target_down(target_of(u)) || !state_holds(u->svc, path, sizeof path, &what))
		return PATH_WAIT;
	return trigger(u, path, what) ? PATH_WAIT : PATH_LIMIT;
}

const char *path_unit_sub_state(const struct unit *u)
{
	const struct unit *t = target_of(u);

	return t && !target_down(t) && t->state != UNIT_CONDITION ? "running" : "waiting";
}

size_t path_units_pollfds(struct unit *units, size_t n, struct pollfd *fds, size_t max)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		struct unit *u = &units[i];
		if (u->svc->kind != UNIT_PATH)
			continue;
		if (u->state != UNIT_READY) { /* failed or stopped some other way */
			path_unit_stop(u);
			continue;
		}
		for (size_t j = 0; j < PATH_WATCH_MAX && k < max; j++)
			if (u->listen_fd[j] >= 0)
				fds[k++] = (struct pollfd){ .fd = u->listen_fd[j], .events = POLLIN };
	}
	return k;
}

/* The events of entry i: does one touch the path itself (PathChanged=, PathModified=)? */
static bool drain(struct unit *u, size_t i, const char *base)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	bool dir_watched = u->timer_wall_gen & (1u << i), hit = false;
	ssize_t len;

	while ((len = read(u->listen_fd[i], buf, sizeof buf)) > 0) {
		for (char *p = buf; p < buf + len;) {
			const struct inotify_event *e = (const struct inotify_event *)p;
			if (e->mask & IN_Q_OVERFLOW)
				hit = true; /* lost events: one may have been ours */
			else if (dir_watched && e->wd == SELF_WD && !(e->mask & IN_IGNORED))
				hit = true;
			else if (dir_watched && e->wd == DIR_WD && e->len && strcmp(e->name, base) == 0)
				hit = true;
			p += sizeof *e + e->len;
		}
	}
	return hit;
}

static void handle_entry(struct unit *u, size_t i)
{
	char kind, path[SERVICE_PATH_MAX];

	if (!unit_path_entry(u->svc, i, &kind, path, sizeof path))
		return;
	if (drain(u, i, strrchr(path, '/') + 1) && is_event_kind(kind))
		u->timer_due_ms = (long long)i; /* started on the next turn */
	watch(u, i);
	u->timer_gen = generation - 1; /* the states are checked on the next turn */
}

void path_units_handle_pollfds(struct unit *units, size_t n_units, const struct pollfd *fds,
			       size_t n)
{
	for (size_t k = 0; k < n; k++) {
		if (!fds[k].revents)
			continue;
		for (size_t i = 0; i < n_units; i++) {
			struct unit *u = &units[i];
			for (size_t j = 0; u->svc->kind == UNIT_PATH && j < PATH_WATCH_MAX; j++)
				if (u->listen_fd[j] == fds[k].fd && u->state == UNIT_READY)
					handle_entry(u, j);
		}
	}
}
