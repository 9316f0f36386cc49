/* Session scopes: see scope.h and docs/dbus.md, "Sessions". Every request reaching here
 * came from root (the bus said so); its content is still checked, as any bug in logind
 * or a root script could send anything. */
#include "scope.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "activator.h"
#include "ctl-client.h"
#include "escape.h"
#include "io.h"
#include "log.h"
#include "unit-name.h"

#define CGROUP_ROOT "/sys/fs/cgroup"
#define CGROUP2_MAGIC 0x63677270
#define CONTROL_TIMEOUT_MS 5000

static int fail(char *why, size_t size, const char *text)
{
	snprintf(why, size, "%s", text);
	return -1;
}

static bool is_scope_name(const char *name)
{
	size_t len = strlen(name);
	char stem[SCOPE_NAME_MAX];

	if (len <= strlen(".scope") || len >= SCOPE_NAME_MAX ||
	    strcmp(name + len - strlen(".scope"), ".scope") != 0)
		return false;
	snprintf(stem, sizeof stem, "%.*s", (int)(len - strlen(".scope")), name);
	return unit_name_valid(stem) && !strchr(stem, '@') && !strchr(stem, '\\');
}

static bool is_slice_name(const char *slice)
{
	char canonical[SCOPE_NAME_MAX], path[512];
	enum unit_kind kind;

	return strlen(slice) < SCOPE_NAME_MAX && !strchr(slice, '\\') && !strchr(slice, '@') &&
	       unit_name_canonical(slice, canonical, sizeof canonical, &kind) == 0 &&
	       kind == UNIT_SLICE && unit_slice_path(slice, path, sizeof path) == 0;
}

/* The process a pidfd refers to, as this process's pid namespace numbers it; -1 when fd
 * is no pidfd or its process is gone (the kernel's fdinfo says "Pid:\t-1" then). */
static long pidfd_pid(int fd)
{
	char path[64], text[512], *line;
	ssize_t n;
	long pid;

	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	n = readlink(path, text, sizeof text - 1);
	if (n < 0 || (text[n] = '\0', strcmp(text, "anon_inode:[pidfd]") != 0))
		return -1;
	snprintf(path, sizeof path, "/proc/self/fdinfo/%d", fd);
	if (io_read_file(path, text, sizeof text) < 0 || !(line = strstr(text, "\nPid:")))
		return -1;
	pid = strtol(line + strlen("\nPid:"), NULL, 10);
	return pid > 0 ? pid : -1;
}

/* PIDFDs=: each index names an fd of the message; its process joins the PIDs. */
static int add_pidfds(const struct dbus_transient *t, struct dbus_conn *conn,
		      struct scope_request *req, char *why, size_t size)
{
	for (size_t i = 0; i < t->pidfd_count; i++) {
		int fd = conn ? dbus_conn_take_fd(conn, t->pidfds[i]) : -1;
		long pid = fd >= 0 ? pidfd_pid(fd) : -1;

		if (fd >= 0)
			close(fd);
		if (pid < 0)
			return fail(why, size, "PIDFDs= holds an fd that is no pidfd of a running "
				    "process");
		if (pid == 1)
			return fail(why, size, "PIDFDs= names PID 1");
		if (req->pid_count >= DBUS_TRANSIENT_PIDS_MAX)
			return fail(why, size, "a scope needs 1 to 16 PIDs=/PIDFDs=");
		req->pids[req->pid_count++] = (uint32_t)pid;
	}
	return 0;
}

int scope_request_parse(const struct dbus_msg *m, struct dbus_conn *conn,
			struct scope_request *req, char *why, size_t size)
{
	struct dbus_transient t;

	memset(req, 0, sizeof *req);
	if (dbus_body_transient_unit(m, &t) < 0)
		return fail(why, size, "malformed StartTransientUnit arguments");
	if (!is_scope_name(t.name))
		return fail(why, size, "ember makes transient units of kind scope only");
	if (t.slice && !is_slice_name(t.slice))
		return fail(why, size, "Slice= is not a slice's name");
	if (t.pid_count + t.pidfd_count == 0 || t.overflow)
		return fail(why, size, "a scope needs 1 to 16 PIDs=/PIDFDs=, and at most 8 "
			    "Requires=/Wants=");
	snprintf(req->name, sizeof req->name, "%s", t.name);
	snprintf(req->slice, sizeof req->slice, "%s", t.slice ? t.slice : "");
	for (size_t i = 0; i < t.pid_count; i++) {
		if (t.pids[i] <= 1 || t.pids[i] > 0x3fffffff)
			return fail(why, size, "PIDs= names PID 1 or no process at all");
		req->pids[req->pid_count++] = t.pids[i];
	}
	if (add_pidfds(&t, conn, req, why, size) < 0)
		return -1;
	for (size_t i = 0; i < t.want_count; i++) {
		char name[CTL_NAME_MAX];
		if (unit_name_canonical(t.wants[i], name, sizeof name, NULL) < 0 ||
		    !ctl_name_valid(name))
			return fail(why, size, "Requires=/Wants= names no unit ember can start");
		snprintf(req->wants[req->want_count++], CTL_NAME_MAX, "%s", name);
	}
	return 0;
}

/* ---- the cgroup ---------------------------------------------------------------------- */

/* ember's subtree: the parent of this program's own cgroup ("0::/ember.slice/x.service"). */
static int subtree_dir(char *out, size_t size)
{
	char text[1024], *line, *slash;
	struct statfs fs;

	if (statfs(CGROUP_ROOT, &fs) < 0 || (unsigned long)fs.f_type != CGROUP2_MAGIC)
		return -1;
	if (io_read_file("/proc/self/cgroup", text, sizeof text) < 0 ||
	    !(line = strstr(text, "0::/")))
		return -1;
	line[strcspn(line, "\n")] = '\0';
	slash = strrchr(line + 3, '/');
	if (!slash || strstr(line, "/.."))
		return -1;
	*slash = '\0';
	return snprintf(out, size, "%s%s", CGROUP_ROOT, line + 3) >= (int)size ? -1 : 0;
}

/* mkdir every level of dir below the subtree (EEXIST is fine). */
static int make_levels(const char *subtree, const char *rel)
{
	char path[640];
	size_t base = strlen(subtree);

	if (snprintf(path, sizeof path, "%s/%s", subtree, rel) >= (int)sizeof path)
		return -1;
	for (char *p = path + base + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(path, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

static int move_pids(const char *dir, const struct scope_request *req)
{
	char path[700], pid[16];

	snprintf(path, sizeof path, "%s/cgroup.procs", dir);
	for (size_t i = 0; i < req->pid_count; i++) {
		snprintf(pid, sizeof pid, "%u", (unsigned)req->pids[i]);
		if (io_write_file(path, pid) < 0)
			return -1;
	}
	return 0;
}

/* Each process of the cgroup gets sig; returns how many there were. */
static int signal_all(const char *dir, int sig)
{
	char path[700], text[8192];
	int n = 0;

	snprintf(path, sizeof path, "%s/cgroup.procs", dir);
	if (io_read_file(path, text, sizeof text) < 0)
		return 0;
	for (char *p = text; *p;) {
		long pid = strtol(p, &p, 10);
		if (pid > 1) {
			kill((pid_t)pid, sig);
			n++;
		}
		while (*p == '\n')
			p++;
		if (*p && (*p < '0' || *p > '9'))
			break;
	}
	return n;
}

int scope_events_open(void)
{
	int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);

	if (fd < 0)
		log_warn("inotify: %s: empty scopes are found every %d s", strerror(errno),
			 SCOPE_SWEEP_MS / 1000);
	return fd;
}

bool scope_events_read(const struct activator *a)
{
	_Alignas(struct inotify_event) char buf[4096];
	bool any = false;

	while (a->scope_events >= 0 && read(a->scope_events, buf, sizeof buf) > 0)
		any = true; /* which scope does not matter: the tick looks at each */
	return any;
}

/* The kernel modifies cgroup.events when "populated" changes; the watch goes with the
 * directory. */
static void watch_events(const struct activator *a, const struct scope *s)
{
	char path[700];

	snprintf(path, sizeof path, "%s/cgroup.events", s->dir);
	if (a->scope_events >= 0 && inotify_add_watch(a->scope_events, path, IN_MODIFY) < 0)
		log_warn("%s: inotify on %s: %s", s->name, path, strerror(errno));
}

static bool populated(const char *dir)
{
	char path[700], text[256];

	snprintf(path, sizeof path, "%s/cgroup.events", dir);
	return io_read_file(path, text, sizeof text) < 0 || !strstr(text, "populated 0");
}

/* ---- the table ------------------------------------------------------------------------ */

static struct scope *find(struct activator *a, const char *name)
{
	for (size_t i = 0; i < SCOPE_MAX; i++)
		if (a->scopes[i].used && strcmp(a->scopes[i].name, name) == 0)
			return &a->scopes[i];
	return NULL;
}

static struct scope *free_slot(struct activator *a)
{
	for (size_t i = 0; i < SCOPE_MAX; i++)
		if (!a->scopes[i].used)
			return &a->scopes[i];
	return NULL;
}

static bool held_elsewhere(const struct activator *a, const struct scope *s, const char *unit)
{
	for (size_t i = 0; i < SCOPE_MAX; i++) {
		const struct scope *o = &a->scopes[i];
		if (!o->used || o == s)
			continue;
		for (size_t k = 0; k < o->held_count; k++)
			if (strcmp(o->held[k], unit) == 0)
				return true;
	}
	return false;
}

/* ---- units no scope holds any more --------------------------------------------------- */

static bool held_by_any(const struct activator *a, const char *unit)
{
	return held_elsewhere(a, NULL, unit);
}

static void release_later(struct activator *a, const char *unit)
{
	struct scope_release *free_one = NULL;

	for (size_t i = 0; i < SCOPE_MAX; i++) {
		struct scope_release *r = &a->releases[i];
		if (r->unit[0] && strcmp(r->unit, unit) == 0)
			free_one = r; /* already pending: the delay starts again */
		else if (!r->unit[0] && !free_one)
			free_one = r;
	}
	if (!free_one)
		return; /* more than SCOPE_MAX pending: this one stays up, which is harmless */
	snprintf(free_one->unit, sizeof free_one->unit, "%s", unit);
	free_one->at_ms = dbus_now_ms() + SCOPE_RELEASE_MS;
}

static void release_cancel(struct activator *a, const char *unit)
{
	for (size_t i = 0; i < SCOPE_MAX; i++)
		if (strcmp(a->releases[i].unit, unit) == 0)
			a->releases[i].unit[0] = '\0';
}

static void release_due(struct activator *a)
{
	char err[CTL_PACKET_MAX];

	for (size_t i = 0; i < SCOPE_MAX; i++) {
		struct scope_release *r = &a->releases[i];
		if (!r->unit[0] || dbus_now_ms() < r->at_ms)
			continue;
		if (!held_by_any(a, r->unit) &&
		    ember_request(a->control, CTL_STOP, r->unit, CONTROL_TIMEOUT_MS, NULL, NULL, 0,
				  err, sizeof err) != CTL_STATUS_OK)
			log_warn("%s: %s", r->unit, err);
		r->unit[0] = '\0';
	}
}

/* ---- the signals logind waits for ------------------------------------------------------ */

static void unit_removed(struct activator *a, const char *unit)
{
	char path[SCOPE_NAME_MAX * 3 + 64];
	struct dbus_out o = { .type = DBUS_SIGNAL, .path = "/org/freedesktop/systemd1",
			      .interface = "org.freedesktop.systemd1.Manager",
			      .member = "UnitRemoved", .signature = "so", .args = { unit, path } };

	unit_path_of(unit, path, sizeof path);
	bus_send(a, &o);
}

/* ---- requests -------------------------------------------------------------------------- */

static void hold_wanted(struct activator *a, struct scope *s, const struct scope_request *req)
{
	char err[CTL_PACKET_MAX];

	for (size_t i = 0; i < req->want_count && s->held_count < SCOPE_HELD_MAX; i++) {
		const char *unit = req->wants[i];
		if (unit_job_check_name(unit, err, sizeof err) < 0)
			continue;
		release_cancel(a, unit);
		if (ember_request_opts(a->control, CTL_START, unit, CTL_OPT_HOLD, CONTROL_TIMEOUT_MS,
				       err, sizeof err) != CTL_STATUS_OK) {
			log_warn("%s: %s: %s", s->name, unit, err);
			continue;
		}
		snprintf(s->held[s->held_count++], CTL_NAME_MAX, "%s", unit);
	}
}

static void start_failed(struct activator *a, const struct dbus_msg *call, const char *name,
			 const char *text)
{
	char safe[SCOPE_NAME_MAX + 8];

	log_warn("%s: %s", escape_text(name, safe, sizeof safe), text);
	reply_error(a, call, "org.freedesktop.systemd1.UnitFailed", text);
}

void scope_start(struct activator *a, const struct dbus_msg *call, const struct scope_request *req)
{
	char subtree[512], rel[512], job_path[64];
	struct scope *s;

	if (find(a, req->name)) {
		reply_error(a, call, "org.freedesktop.systemd1.UnitExists", "the scope exists already");
		return;
	}
	if (!(s = free_slot(a))) {
		start_failed(a, call, req->name, "too many scopes at once");
		return;
	}
	if (subtree_dir(subtree, sizeof subtree) < 0) {
		start_failed(a, call, req->name, "no cgroup2 hierarchy under ember: no scopes");
		return;
	}
	unit_slice_path(req->slice, rel, sizeof rel);
	memset(s, 0, sizeof *s);
	snprintf(s->name, sizeof s->name, "%s", req->name);
	if (snprintf(s->dir, sizeof s->dir, "%s/%s%s%s", subtree, rel, rel[0] ? "/" : "",
		     req->name) >= (int)sizeof s->dir ||
	    make_levels(subtree, s->dir + strlen(subtree) + 1) < 0 || move_pids(s->dir, req) < 0) {
		char text[160];
		snprintf(text, sizeof text, "cannot place the scope's processes: %s", strerror(errno));
		rmdir(s->dir);
		start_failed(a, call, req->name, text);
		return;
	}
	s->used = true;
	watch_events(a, s);
	s->job = ++a->next_job;
	s->job_until_ms = dbus_now_ms() + SCOPE_JOB_MS;
	snprintf(job_path, sizeof job_path, JOB_PATH_PREFIX "%u", (unsigned)s->job);
	reply_return(a, call, "o", job_path);
	log_info("%s: %zu process(es) in %s", s->name, req->pid_count,
		 s->dir + strlen(CGROUP_ROOT));
	hold_wanted(a, s, req);
}

void scope_stop(struct activator *a, const struct dbus_msg *call, const char *name)
{
	struct scope *s = find(a, name);
	char job_path[64];
	uint32_t job;

	if (!s) {
		reply_error(a, call, "org.freedesktop.systemd1.NoSuchUnit", "no such scope");
		return;
	}
	job = ++a->next_job;
	snprintf(job_path, sizeof job_path, JOB_PATH_PREFIX "%u", (unsigned)job);
	reply_return(a, call, "o", job_path);
	log_info("%s: stopping %d process(es)", s->name, signal_all(s->dir, SIGTERM));
	signal_all(s->dir, SIGHUP);
	signal_all(s->dir, SIGCONT);
	bus_job_removed(a, job, s->name, "done");
}

void scope_abandon(struct activator *a, const struct dbus_msg *call, const char *name)
{
	struct scope *s = find(a, name);

	if (!s) {
		reply_error(a, call, "org.freedesktop.systemd1.NoSuchUnit", "no such scope");
		return;
	}
	s->abandoned = true;
	reply_return(a, call, NULL, NULL);
}

const char *scope_property(struct activator *a, const char *name, const char *property)
{
	struct scope *s = find(a, name);
	bool up = s && populated(s->dir);

	if (strcmp(property, "LoadState") == 0)
		return s ? "loaded" : "not-found";
	if (strcmp(property, "ActiveState") == 0)
		return up ? "active" : "inactive";
	return !up ? "dead" : s->abandoned ? "abandoned" : "running";
}

/* ---- the tick ----------------------------------------------------------------------- */

/* A start job is done once what the scope holds is up (or failed, or timed out). */
static void check_job(struct activator *a, struct scope *s)
{
	const char *result = "done";

	for (size_t i = 0; i < s->held_count; i++) {
		char state[32], err[CTL_PACKET_MAX];
		int status = ember_request(a->control, CTL_STATUS, s->held[i], CONTROL_TIMEOUT_MS,
					   "state", state, sizeof state, err, sizeof err);
		bool busy = status == CTL_STATUS_OK &&
			    (!strcmp(state, "waiting") || !strcmp(state, "starting") ||
			     !strcmp(state, "running") || !strcmp(state, "stopping"));
		if (busy && dbus_now_ms() < s->job_until_ms)
			return;
		if (busy)
			result = "timeout";
		else if (status != CTL_STATUS_OK || strcmp(state, "ready") != 0)
			result = "dependency";
	}
	bus_job_removed(a, s->job, s->name, result);
	s->job = 0;
}

static void release(struct activator *a, struct scope *s)
{
	if (rmdir(s->dir) < 0 && errno != ENOENT)
		return; /* not empty after all: the next tick */
	log_info("%s: empty, removed", s->name);
	for (size_t i = 0; i < s->held_count; i++)
		if (!held_elsewhere(a, s, s->held[i]))
			release_later(a, s->held[i]);
	s->used = false;
	unit_removed(a, s->name);
}

void scope_tick(struct activator *a)
{
	for (size_t i = 0; i < SCOPE_MAX; i++) {
		struct scope *s = &a->scopes[i];
		if (s->used && s->job)
			check_job(a, s);
		if (s->used && !s->job && !populated(s->dir))
			release(a, s);
	}
	release_due(a);
}

/* Scopes a previous run of this program made (it goes and comes back with the bus) are
 * taken over, so they are still removed once empty. What they held is not known any
 * more and stays held. */
static void adopt_in(struct activator *a, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char path[640];
		struct scope *s;
		if (e->d_type != DT_DIR || e->d_name[0] == '.' ||
		    snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path)
			continue;
		if (depth < 4 && len > 6 && strcmp(e->d_name + len - 6, ".slice") == 0)
			adopt_in(a, path, depth + 1);
		if (!is_scope_name(e->d_name) || find(a, e->d_name) || !(s = free_slot(a)))
			continue;
		memset(s, 0, sizeof *s);
		s->used = true;
		snprintf(s->name, sizeof s->name, "%.127s", e->d_name); /* checked: it fits */
		snprintf(s->dir, sizeof s->dir, "%s", path);
		watch_events(a, s);
		log_info("%s: taken over from an earlier run", s->name);
	}
	if (d)
		closedir(d);
}

void scope_adopt(struct activator *a)
{
	char subtree[512];

	if (subtree_dir(subtree, sizeof subtree) == 0)
		adopt_in(a, subtree, 0);
}

bool scope_any(const struct activator *a)
{
	for (size_t i = 0; i < SCOPE_MAX; i++)
		if (a->scopes[i].used || a->releases[i].unit[0])
			return true;
	return false;
}
