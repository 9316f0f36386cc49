/* What ember-activator does with each message (ember-activator(8), docs/dbus.md):
 * ActivationRequest from the bus driver starts a unit; method calls get an answer, an
 * error unless they are one of the few this program implements. Everything that reaches
 * it is untrusted: any client of the bus can send it a message. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "activator.h"
#include "ctl-client.h"
#include "escape.h"
#include "exitcode.h"
#include "io.h"
#include "log.h"
#include "unit-name.h"

#define SYSTEMD_NAME "org.freedesktop.systemd1"
#define ACTIVATOR_IFACE "org.freedesktop.systemd1.Activator"
#define MANAGER_IFACE "org.freedesktop.systemd1.Manager"
#define BUS_DRIVER "org.freedesktop.DBus"
#define BUS_PATH "/org/freedesktop/DBus"
#define JOB_PATH "/org/freedesktop/systemd1/job/1"
#define CONTROL_TIMEOUT_MS 5000
#define CHECK_EVERY_MS 200
#define LOG_BURST 10

int bus_send(struct activator *a, struct dbus_out *o)
{
	uint8_t buf[2048];
	size_t n;

	o->serial = ++a->conn.serial;
	n = dbus_msg_build(buf, sizeof buf, o);
	if (n == 0) {
		log_warn("a message to %.64s did not fit in %zu bytes; not sent",
			 o->destination ? o->destination : "the bus", sizeof buf);
		return -1;
	}
	return io_write_all(a->conn.fd, buf, n);
}

void bus_job_removed(struct activator *a, uint32_t job, const char *unit, const char *result)
{
	char path[64];
	struct dbus_out o = { .type = DBUS_SIGNAL, .path = "/org/freedesktop/systemd1",
			      .interface = "org.freedesktop.systemd1.Manager",
			      .member = "JobRemoved", .signature = "uoss", .u32 = job };

	snprintf(path, sizeof path, JOB_PATH_PREFIX "%u", (unsigned)job);
	o.args[1] = path;
	o.args[2] = unit;
	o.args[3] = result;
	bus_send(a, &o);
}

void reply_error(struct activator *a, const struct dbus_msg *m, const char *name,
		 const char *text)
{
	struct dbus_out o = { .type = DBUS_ERROR, .reply_serial = m->serial,
			      .destination = m->sender, .error_name = name, .signature = "s",
			      .args = { text } };

	if (!(m->flags & NO_REPLY_EXPECTED))
		bus_send(a, &o);
}

void reply_return(struct activator *a, const struct dbus_msg *m, const char *sig,
		  const char *arg)
{
	struct dbus_out o = { .type = DBUS_METHOD_RETURN, .reply_serial = m->serial,
			      .destination = m->sender, .signature = sig, .args = { arg } };

	if (!(m->flags & NO_REPLY_EXPECTED))
		bus_send(a, &o);
}

void reply_unknown_method(struct activator *a, const struct dbus_msg *m, const char *why,
			  char *shown, size_t size)
{
	char member[64], iface[96], text[320];

	escape_text(m->interface ? m->interface : "?", iface, sizeof iface);
	escape_text(m->member ? m->member : "?", member, sizeof member);
	snprintf(shown, size, "%s.%s", iface, member);
	snprintf(text, sizeof text, "%s %s (see emberctl(1))", why, shown);
	reply_error(a, m, "org.freedesktop.DBus.Error.UnknownMethod", text);
}

/* Tell the bus that unit will not come: dbus-daemon fails every activation waiting for
 * it with this error, at once instead of after its timeout. */
static void activation_failed(struct activator *a, const char *unit, const char *error,
			      const char *text)
{
	struct dbus_out o = { .type = DBUS_SIGNAL, .path = BUS_PATH, .interface = ACTIVATOR_IFACE,
			      .member = "ActivationFailure", .destination = BUS_DRIVER,
			      .signature = "sss", .args = { unit, error, text } };
	char safe[160];

	log_warn("%s: activation failed: %s", escape_text(unit, safe, sizeof safe), text);
	bus_send(a, &o);
}

/* ---- activation ---------------------------------------------------------------------- */

static void watch_add(struct activator *a, const char *name, const char *unit)
{
	for (size_t i = 0; i < WATCH_MAX; i++) {
		struct watch *w = &a->watch[i];
		if (w->used && strcmp(w->name, name) != 0)
			continue;
		w->used = true;
		snprintf(w->name, sizeof w->name, "%s", name);
		snprintf(w->unit, sizeof w->unit, "%s", unit);
		w->until_ms = dbus_now_ms() + WATCH_MS;
		return;
	}
	log_warn("%s: started, but %d activations are watched already: a failure of this one "
		 "is left to the bus's timeout", name, WATCH_MAX);
}

static void activate(struct activator *a, const char *unit)
{
	char name[CTL_NAME_MAX], err[CTL_PACKET_MAX], text[CTL_PACKET_MAX + 64], safe[160];
	int status;

	if (strlen(unit) >= sizeof a->watch[0].unit ||
	    unit_name_canonical(unit, name, sizeof name, NULL) < 0 || !ctl_name_valid(name)) {
		snprintf(text, sizeof text, "ember cannot start a unit called %s",
			 escape_text(unit, safe, sizeof safe));
		activation_failed(a, unit, "org.freedesktop.systemd1.NoSuchUnit", text);
		return;
	}
	status = ember_request(a->control, CTL_START, name, CONTROL_TIMEOUT_MS, NULL, NULL, 0, err,
			       sizeof err);
	if (status == CTL_STATUS_OK) {
		log_info("%s: started for D-Bus activation", name);
		watch_add(a, name, unit);
		return;
	}
	snprintf(text, sizeof text, "%s", status < 0 ? err : err[0] ? err : "refused by ember-init");
	activation_failed(a, unit, status == CTL_STATUS_NO_SUCH_SERVICE
			  ? "org.freedesktop.systemd1.NoSuchUnit" : "org.freedesktop.systemd1.UnitFailed",
			  text);
}

/* A watched unit that ended up failed (or skipped) fails its activation; one that is
 * ready needs no more watching. */
static void check_watch(struct activator *a, struct watch *w)
{
	char state[32], err[CTL_PACKET_MAX], text[CTL_PACKET_MAX + CTL_NAME_MAX + 8];
	int status = ember_request(a->control, CTL_STATUS, w->name, CONTROL_TIMEOUT_MS, "state",
				   state, sizeof state, err, sizeof err);

	if (status == CTL_STATUS_OK && (field_is(state, "waiting") || field_is(state, "starting") ||
					field_is(state, "running"))) {
		if (dbus_now_ms() > w->until_ms)
			w->used = false; /* the bus has given up on it by now */
		return;
	}
	w->used = false;
	if (status == CTL_STATUS_OK && field_is(state, "ready"))
		return;
	snprintf(text, sizeof text, "%s: %s", w->name, status == CTL_STATUS_OK ? state : err);
	activation_failed(a, w->unit, "org.freedesktop.systemd1.UnitFailed", text);
}

static void check_watches(struct activator *a)
{
	if (dbus_now_ms() < a->next_check_ms)
		return;
	a->next_check_ms = dbus_now_ms() + CHECK_EVERY_MS;
	for (size_t i = 0; i < WATCH_MAX; i++)
		if (a->watch[i].used)
			check_watch(a, &a->watch[i]);
}

/* sessions: pending scope jobs are checked as often as activations; empty scopes are
 * looked for when the kernel says a scope's cgroup changed, on every message, and
 * otherwise every SCOPE_SWEEP_MS (a phone's session lasts for days: the helper should
 * not wake often). */
static bool scope_jobs(const struct activator *a)
{
	for (size_t i = 0; i < SCOPE_MAX; i++)
		if (a->scopes[i].used && a->scopes[i].job)
			return true;
	return false;
}

static void check_scopes(struct activator *a, bool changed)
{
	static long long last_ms;

	if (!scope_any(a) ||
	    (!changed && !scope_jobs(a) && dbus_now_ms() - last_ms < CHECK_EVERY_MS))
		return;
	last_ms = dbus_now_ms();
	scope_tick(a);
}

static void check_unit_jobs(struct activator *a)
{
	static long long last_ms;

	if (!unit_jobs_pending(a) || dbus_now_ms() - last_ms < CHECK_EVERY_MS)
		return;
	last_ms = dbus_now_ms();
	unit_job_tick(a);
}

static bool watching(const struct activator *a)
{
	for (size_t i = 0; i < WATCH_MAX; i++)
		if (a->watch[i].used)
			return true;
	return false;
}

/* Only the bus driver sends ActivationRequest: from anybody else the same signal is an
 * attempt to start units through us, and is refused. */
static void handle_signal(struct activator *a, const struct dbus_msg *m)
{
	const char *unit;
	char safe[96];

	if (!field_is(m->interface, ACTIVATOR_IFACE) || !field_is(m->member, "ActivationRequest"))
		return;
	if (!field_is(m->sender, BUS_DRIVER) || !field_is(m->path, BUS_PATH)) {
		log_warn("ignored an ActivationRequest from %s: only the bus sends those",
			 escape_text(m->sender ? m->sender : "?", safe, sizeof safe));
		return;
	}
	if (dbus_body_strings(m, &unit, 1) < 0) {
		log_warn("ignored a malformed ActivationRequest");
		return;
	}
	activate(a, unit);
}

/* ---- method calls ------------------------------------------------------------------ */

static enum ctl_verb power_verb(const char *unit)
{
	if (strcmp(unit, "poweroff.target") == 0)
		return CTL_POWEROFF;
	if (strcmp(unit, "reboot.target") == 0)
		return CTL_REBOOT;
	if (strcmp(unit, "halt.target") == 0)
		return CTL_HALT;
	return CTL_VERB_COUNT;
}

/* Calls only root may make (StartUnit of poweroff/reboot/halt.target, as logind sends it
 * when someone powers the machine off through it; a unit's start, stop, restart, reload;
 * a session's scope): carried out once the bus has said who the caller is. */
/* The request waiting for the bus's answer, or NULL (the caller was answered). */
static struct asking *ask_root(struct activator *a, const struct dbus_msg *m,
			       enum ask_kind kind, enum ctl_verb verb,
			       const struct scope_request *req)
{
	struct dbus_out o = { .type = DBUS_METHOD_CALL, .path = BUS_PATH, .interface = BUS_DRIVER,
			      .member = "GetConnectionUnixUser", .destination = BUS_DRIVER,
			      .signature = "s", .args = { m->sender } };

	for (size_t i = 0; i < ASKING_MAX; i++) {
		struct asking *q = &a->asking[i];
		if (q->used)
			continue;
		if (bus_send(a, &o) < 0)
			break;
		q->used = true;
		q->driver_serial = a->conn.serial;
		q->call_serial = m->serial;
		q->kind = kind;
		q->verb = verb;
		q->req = *req;
		snprintf(q->caller, sizeof q->caller, "%s", m->sender);
		return q;
	}
	reply_error(a, m, "org.freedesktop.DBus.Error.LimitsExceeded", "too many requests at once");
	return NULL;
}

static const char *ask_name(const struct asking *q)
{
	static const char *const files[] = { "EnableUnitFiles", "DisableUnitFiles", "Reload" };

	if (q->kind == ASK_UNIT_FILES)
		return files[q->files_op];
	return q->kind == ASK_POWER || q->kind == ASK_UNIT_JOB ? ctl_verb_name(q->verb)
	       : q->kind == ASK_SCOPE_START ? "StartTransientUnit"
	       : q->kind == ASK_SCOPE_STOP ? "StopUnit" : "AbandonScope";
}

static void carry_out(struct activator *a, const struct asking *q, const struct dbus_msg *caller)
{
	char err[CTL_PACKET_MAX];

	switch (q->kind) {
	case ASK_SCOPE_START: scope_start(a, caller, &q->req); return;
	case ASK_SCOPE_STOP: scope_stop(a, caller, q->req.name); return;
	case ASK_SCOPE_ABANDON: scope_abandon(a, caller, q->req.name); return;
	case ASK_UNIT_JOB: unit_job_start(a, caller, q->verb, q->req.name); return;
	case ASK_UNIT_FILES: unit_files_carry_out(a, caller, q->files_op, &q->req); return;
	case ASK_POWER: break;
	}
	log_info("%s requested by %.64s over D-Bus", ctl_verb_name(q->verb), q->caller);
	reply_return(a, caller, "o", JOB_PATH);
	if (ember_request(a->control, q->verb, "", CONTROL_TIMEOUT_MS, NULL, NULL, 0, err,
			  sizeof err) != CTL_STATUS_OK)
		log_error("%s: ember-init did not take it: %s", ctl_verb_name(q->verb), err);
}

/* The bus's answer to GetConnectionUnixUser for a root-only call. */
static bool handle_caller_uid(struct activator *a, const struct dbus_msg *m)
{
	uint32_t uid;

	for (size_t i = 0; i < ASKING_MAX; i++) {
		struct asking *q = &a->asking[i];
		struct dbus_msg caller = { .serial = q->call_serial, .sender = q->caller };
		if (!q->used || m->reply_serial != q->driver_serial || !field_is(m->sender, BUS_DRIVER))
			continue;
		q->used = false;
		if (m->type != DBUS_METHOD_RETURN || dbus_body_u32(m, &uid) < 0 || uid != 0) {
			reply_error(a, &caller, "org.freedesktop.DBus.Error.AccessDenied",
				    q->kind == ASK_POWER
				    ? "only root may power the machine off or restart it through ember"
				    : q->kind == ASK_UNIT_JOB ? "only root may start or stop units through ember"
				    : q->kind == ASK_UNIT_FILES ? "only root may enable or disable units through ember"
				    : "only root may make or end scopes through ember");
			log_warn("%s from %.64s refused: %s", ask_name(q), q->caller,
				 m->type == DBUS_METHOD_RETURN ? "not root" : "the bus does not know it");
			return true;
		}
		carry_out(a, q, &caller);
		return true;
	}
	return false;
}

static void machine_id(struct activator *a, const struct dbus_msg *m)
{
	char id[64] = "";
	FILE *f = fopen("/etc/machine-id", "r");

	if (f && fgets(id, sizeof id, f))
		id[strcspn(id, "\n")] = '\0';
	if (f)
		fclose(f);
	if (strlen(id) == 32)
		reply_return(a, m, "s", id);
	else
		reply_error(a, m, "org.freedesktop.DBus.Error.FileNotFound", "no machine ID");
}

/* Who asks systemd for what is worth a line, but any client can call as often as it
 * likes: at most LOG_BURST such lines a minute. */
static bool log_allowed(struct activator *a)
{
	long long now = dbus_now_ms();

	if (now - a->log_window_ms >= 60000) {
		a->log_window_ms = now;
		a->logged = 0;
	}
	return a->logged++ < LOG_BURST;
}

static const struct scope_request no_scope;

static bool ends_with_scope(const char *name)
{
	size_t len = strlen(name);
	return len > 6 && strcmp(name + len - 6, ".scope") == 0;
}

/* sessions: logind's calls about a session's scope (scope.h). */
static bool scope_call(struct activator *a, const struct dbus_msg *m)
{
	struct scope_request req = { .name = "" };
	const char *args[2];
	char why[160];
	bool manager = !m->interface || field_is(m->interface, MANAGER_IFACE);
	enum ask_kind kind;

	if (manager && field_is(m->member, "StartTransientUnit")) {
		if (scope_request_parse(m, &a->conn, &req, why, sizeof why) < 0) {
			reply_error(a, m, "org.freedesktop.DBus.Error.InvalidArgs", why);
			return true;
		}
		kind = ASK_SCOPE_START;
	} else if (manager && field_is(m->member, "StopUnit") && dbus_body_strings(m, args, 2) == 0 &&
		   ends_with_scope(args[0])) {
		kind = ASK_SCOPE_STOP;
	} else if (manager && field_is(m->member, "AbandonScope") && dbus_body_strings(m, args, 1) == 0 &&
		   ends_with_scope(args[0])) {
		kind = ASK_SCOPE_ABANDON;
	} else if (field_is(m->interface, "org.freedesktop.systemd1.Scope") && field_is(m->member, "Abandon") &&
		   m->path && unit_of_path(m->path, req.name, sizeof req.name) == 0 &&
		   ends_with_scope(req.name)) {
		kind = ASK_SCOPE_ABANDON;
	} else {
		return false;
	}
	if (kind != ASK_SCOPE_START && !req.name[0]) /* StopUnit, AbandonScope: by name */
		snprintf(req.name, sizeof req.name, "%s", args[0]);
	ask_root(a, m, kind, CTL_VERB_COUNT, &req);
	return true;
}

/* Manager.StartUnit(name, mode) and its kin (jobs.c), for root callers. */
static bool unit_call(struct activator *a, const struct dbus_msg *m)
{
	struct scope_request req = { .name = "" };
	const char *args[2];
	enum ctl_verb verb;
	char why[96];

	if ((m->interface && !field_is(m->interface, MANAGER_IFACE)) || unit_job_verb(m->member, &verb) < 0 ||
	    dbus_body_strings(m, args, 2) < 0)
		return false;
	if (unit_job_check_name(args[0], why, sizeof why) < 0) {
		reply_error(a, m, "org.freedesktop.systemd1.NoSuchUnit", why);
		return true;
	}
	snprintf(req.name, sizeof req.name, "%s", args[0]);
	ask_root(a, m, ASK_UNIT_JOB, verb, &req);
	return true;
}

/* Manager.EnableUnitFiles(as, runtime, force), DisableUnitFiles(as, runtime) and
 * Reload() (unitfiles.c), for root callers. The names are checked first. */
static bool unit_files_call(struct activator *a, const struct dbus_msg *m)
{
	static const char *const sigs[] = { "asbb", "asb", "" };
	struct scope_request req = { .name = "" };
	const char *names[DBUS_TRANSIENT_UNITS_MAX];
	int op = unit_files_op(m->member);
	struct asking *q;
	char why[96];
	size_t n = 0;

	if (op < 0 || (m->interface && !field_is(m->interface, MANAGER_IFACE)))
		return false;
	if (op != UNIT_FILES_RELOAD &&
	    dbus_body_string_array(m, sigs[op], names, DBUS_TRANSIENT_UNITS_MAX, &n) < 0) {
		reply_error(a, m, "org.freedesktop.DBus.Error.InvalidArgs",
			    "expected unit file names (at most 8) and the flags");
		return true;
	}
	if (op == UNIT_FILES_RELOAD && m->signature && m->signature[0]) {
		reply_error(a, m, "org.freedesktop.DBus.Error.InvalidArgs", "Reload takes no arguments");
		return true;
	}
	for (size_t i = 0; i < n; i++) {
		if (strchr(names[i], '/') || unit_job_check_name(names[i], why, sizeof why) < 0) {
			reply_error(a, m, "org.freedesktop.systemd1.NoSuchUnit", "ember has no unit of that name or kind");
			return true;
		}
		snprintf(req.wants[i], sizeof req.wants[i], "%s", names[i]);
	}
	req.want_count = n;
	if ((q = ask_root(a, m, ASK_UNIT_FILES, CTL_VERB_COUNT, &req)))
		q->files_op = op;
	return true;
}

static void handle_call(struct activator *a, const struct dbus_msg *m)
{
	const char *args[2];
	char shown[168], sender[96];

	if (field_is(m->interface, "org.freedesktop.DBus.Peer") && field_is(m->member, "Ping")) {
		reply_return(a, m, NULL, NULL);
		return;
	}
	if (field_is(m->interface, "org.freedesktop.DBus.Peer") && field_is(m->member, "GetMachineId")) {
		machine_id(a, m);
		return;
	}
	if (field_is(m->interface, "org.freedesktop.DBus.Properties") && field_is(m->member, "Get") &&
	    (unit_property(a, m) || job_property(a, m)))
		return;
	if (field_is(m->interface, "org.freedesktop.DBus.Properties") && field_is(m->member, "GetAll") &&
	    unit_properties_all(a, m))
		return;
	if (field_is(m->member, "StartUnit") && (!m->interface || field_is(m->interface, MANAGER_IFACE)) &&
	    dbus_body_strings(m, args, 2) == 0 && power_verb(args[0]) != CTL_VERB_COUNT) {
		ask_root(a, m, ASK_POWER, power_verb(args[0]), &no_scope);
		return;
	}
	if (scope_call(a, m)) /* sessions */
		return;
	if (unit_call(a, m)) /* units */
		return;
	if (unit_files_call(a, m)) /* unit files */
		return;
	reply_unknown_method(a, m, "ember-init runs this system; ember-activator does not implement",
			     shown, sizeof shown);
	if (log_allowed(a))
		log_info("%s from %s: not implemented, answered so", shown,
			 escape_text(m->sender ? m->sender : "?", sender, sizeof sender));
}

/* ---- the connection ------------------------------------------------------------------ */

static void handle(struct activator *a, const struct dbus_msg *m)
{
	switch (m->type) {
	case DBUS_SIGNAL:
		if (field_is(m->sender, BUS_DRIVER) && field_is(m->member, "NameLost")) {
			log_error("lost %s on the bus", SYSTEMD_NAME);
			exit(1);
		}
		handle_signal(a, m);
		break;
	case DBUS_METHOD_CALL:
		handle_call(a, m);
		break;
	case DBUS_METHOD_RETURN:
	case DBUS_ERROR:
		handle_caller_uid(a, m);
		break;
	}
}

int activator_claim_name(struct activator *a)
{
	struct dbus_msg m;
	uint32_t serial, result;

	/* flags 4: DBUS_NAME_FLAG_DO_NOT_QUEUE */
	if (dbus_conn_call(&a->conn, "RequestName", SYSTEMD_NAME, true, 4, &serial) < 0 ||
	    dbus_conn_wait_reply(&a->conn, serial, &m, dbus_now_ms() + 25000) <= 0) {
		log_error("RequestName %s: %.128s", SYSTEMD_NAME,
			  errno == EREMOTEIO && m.error_name ? m.error_name : strerror(errno));
		return -1;
	}
	if (dbus_body_u32(&m, &result) < 0 || result != 1) {
		log_error("%s is owned by another program already (RequestName: %u)", SYSTEMD_NAME,
			  (unsigned)result);
		return -1;
	}
	log_info("owns %s; D-Bus activation goes through ember-init", SYSTEMD_NAME);
	return 0;
}

int activator_run(struct activator *a)
{
	struct dbus_msg m;

	for (;;) {
		long long deadline = watching(a) || scope_jobs(a) || unit_jobs_pending(a)
				     ? dbus_now_ms() + CHECK_EVERY_MS
				     : scope_any(a) ? dbus_now_ms() + SCOPE_SWEEP_MS : -1;
		int r = dbus_conn_read_or_wake(&a->conn, &m, deadline, a->scope_events);
		if (r < 0 && errno == ECONNRESET) {
			log_info("the bus went away");
			return EXIT_OK;
		}
		if (r < 0) {
			log_error("reading from the bus: %s",
				  errno == EBADMSG ? "malformed message" : strerror(errno));
			return EXIT_SYSTEM;
		}
		if (r > 0)
			handle(a, &m);
		check_watches(a);
		check_scopes(a, scope_events_read(a));
		check_unit_jobs(a);
	}
}

void notify_ready(void)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd;

	if (!path || !path[0] || strlen(path) >= sizeof addr.sun_path)
		return;
	memcpy(addr.sun_path, path, strlen(path));
	if (path[0] == '@')
		addr.sun_path[0] = '\0';
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	if (sendto(fd, "READY=1", 7, MSG_NOSIGNAL, (struct sockaddr *)&addr,
		   (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(path))) < 0)
		log_warn("NOTIFY_SOCKET: %s", strerror(errno));
	close(fd);
}
