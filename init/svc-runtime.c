/* unit-runtime2: the runtime keys at run time (see svc-runtime.h). Decisions only: the
 * supervisor acts on them, fdstore.c keeps the stored fds. */
#include "svc-runtime.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fdstore.h"
#include "log.h"
#include "parse.h"
#include "sockets.h"
#include "socket-unit.h"
#include "supervisor.h"
#include "svc-cgroup.h"
#include "unit-runtime-keys.h"

/* ---- sd_notify ------------------------------------------------------------------------ */

bool runtime_notify_allowed(const struct unit *u, pid_t sender)
{
	switch (u->svc->notify_access) {
	case NOTIFY_ACCESS_NONE:
		return false;
	case NOTIFY_ACCESS_MAIN:
		return sender == u->main_pid;
	case NOTIFY_ACCESS_EXEC:
		return sender == u->main_pid || sender == u->control_pid;
	default: /* all, and ember's default: any process of the service (notify.c checked) */
		return true;
	}
}

bool runtime_wants_notify_socket(const struct service *s)
{
	return s->watchdog_ms > 0 || s->fdstore_max > 0 ||
	       (s->notify_access != NOTIFY_ACCESS_UNSET && s->notify_access != NOTIFY_ACCESS_NONE);
}

static long long boot_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool main_alive(const struct unit *u)
{
	return u->main_pid > 0 && (u->state == UNIT_STARTING || u->state == UNIT_RUNNING ||
				   u->state == UNIT_READY);
}

static void store_fds(struct unit *u, const struct notify_msg *m, int *fds, size_t nfds)
{
	const char *name = m->fdname[0] ? m->fdname : "stored";

	for (size_t i = 0; i < nfds; i++) {
		if (fds[i] < 0)
			continue;
		if (!m->fdstore || m->fdname_invalid || u->svc->fdstore_max == 0) {
			if (m->fdstore)
				log_warn("%s: FDSTORE=1 %s; fd dropped", u->svc->name,
					 u->svc->fdstore_max == 0 ? "without FileDescriptorStoreMax="
					 : "with an invalid FDNAME=");
		} else if (fdstore_add(u->svc->name, u->svc->fdstore_max, fds[i], name) == 0) {
			fds[i] = -1; /* the store keeps it */
			continue;
		}
		close(fds[i]);
		fds[i] = -1;
	}
}

void runtime_notify(struct unit *u, const struct notify_msg *m, int *fds, size_t nfds)
{
	if (m->fdstore_remove && m->fdname[0] && !m->fdname_invalid)
		fdstore_remove(u->svc->name, m->fdname);
	store_fds(u, m, fds, nfds);
	if (m->has_watchdog_usec && main_alive(u)) {
		u->watchdog_usec_override = (long long)m->watchdog_usec;
		log_info("%s: watchdog limit changed to %llu us by the service", u->svc->name,
			 m->watchdog_usec);
		runtime_watchdog_arm_keep(u);
	}
	if (m->watchdog_trigger && main_alive(u)) {
		log_warn("%s: watchdog triggered by the service (WATCHDOG=trigger)", u->svc->name);
		u->watchdog_deadline_ms = 0; /* due now: the next tick stops it */
	} else if (m->watchdog_ping && u->watchdog_deadline_ms >= 0) {
		runtime_watchdog_arm_keep(u);
	}
}

/* ---- the service watchdog ---------------------------------------------------------------- */

unsigned long long runtime_watchdog_usec(const struct unit *u)
{
	if (u->watchdog_usec_override >= 0)
		return (unsigned long long)u->watchdog_usec_override;
	return (unsigned long long)u->svc->watchdog_ms * 1000ULL;
}

/* (Re)start the countdown with the current limit; a limit of 0 turns it off. */
void runtime_watchdog_arm_keep(struct unit *u)
{
	unsigned long long usec = runtime_watchdog_usec(u);

	u->watchdog_deadline_ms = usec == 0 ? -1 : boot_ms() + (long long)((usec + 999) / 1000);
}

void runtime_watchdog_arm(struct unit *u, long long now_ms)
{
	(void)now_ms;
	u->watchdog_usec_override = -1;
	u->watchdog_fired = false;
	runtime_watchdog_arm_keep(u);
}

bool runtime_watchdog_expired(struct unit *u, long long now_ms)
{
	if (u->watchdog_deadline_ms < 0)
		return false;
	if (!main_alive(u)) {
		u->watchdog_deadline_ms = -1;
		return false;
	}
	if (now_ms < u->watchdog_deadline_ms)
		return false;
	u->watchdog_deadline_ms = -1;
	u->watchdog_fired = true;
	return true;
}

bool runtime_watchdog_env(const struct unit *u, char *line, size_t size)
{
	if (u->svc->watchdog_ms == 0 || u->phase != PHASE_MAIN || u->main_pid > 0)
		return false;
	snprintf(line, size, "WATCHDOG_USEC=%llu", (unsigned long long)u->svc->watchdog_ms * 1000ULL);
	return true;
}

/* ---- jobs, unneeded units, manual requests ------------------------------------------ */

bool runtime_job_timed_out(const struct unit *u, long long now_us)
{
	unsigned long ms = u->svc->job_timeout_ms;

	return u->state == UNIT_WAITING && !u->restart_pending && ms != SERVICE_TIMEOUT_INFINITY &&
	       u->since_us >= 0 && now_us - u->since_us >= (long long)ms * 1000;
}

static bool runtime_max_armed(const struct unit *u)
{
	return u->svc->runtime_max_ms != SERVICE_TIMEOUT_INFINITY && u->state == UNIT_READY &&
	       u->svc->type != SERVICE_ONESHOT && u->ready_us >= 0;
}

bool runtime_max_reached(const struct unit *u, long long now_us)
{
	return runtime_max_armed(u) &&
	       now_us - u->ready_us >= (long long)u->svc->runtime_max_ms * 1000;
}

long long runtime_next_deadline(const struct unit *u)
{
	long long d = u->watchdog_deadline_ms;
	unsigned long ms = u->svc->job_timeout_ms;

	if (u->state == UNIT_WAITING && !u->restart_pending && ms != SERVICE_TIMEOUT_INFINITY) {
		/* since_us is CLOCK_BOOTTIME µs, as boot_ms() */
		long long job = u->since_us / 1000 + (long long)ms + 1;
		d = d < 0 || job < d ? job : d;
	}
	if (runtime_max_armed(u)) { /* ready_us too */
		long long end = u->ready_us / 1000 + (long long)u->svc->runtime_max_ms + 1;
		d = d < 0 || end < d ? end : d;
	}
	return d;
}

/* Not down yet: a unit on its way up, up, on its way down or about to restart keeps what
 * it wants running, as in systemd (a slice outlives the services still stopping in it). */
static bool pins(const struct unit *o)
{
	return o->state == UNIT_WAITING || o->state == UNIT_STARTING || o->state == UNIT_RUNNING ||
	       o->state == UNIT_READY || o->state == UNIT_STOPPING || o->main_pid > 0 ||
	       o->control_pid > 0 || o->restart_pending;
}

bool runtime_unneeded(const struct unit *u)
{
	const char *name = u->svc->name;

	if (!u->svc->stop_when_unneeded || u->state != UNIT_READY || u->stop_wanted ||
	    u->control_pid > 0 || u->held) /* sessions: held by a session's scope */
		return false;
	for (size_t i = 0; i < supervisor_count(); i++) {
		const struct unit *o = supervisor_unit(i);
		const struct service *s = o->svc;
		if (o == u || !pins(o))
			continue;
		if (service_lists(s, &s->wants, name) || service_lists(s, &s->requires, name) ||
		    service_lists(s, &s->requisite, name) || service_lists(s, &s->binds_to, name))
			return false;
	}
	return true;
}

int runtime_refuse_manual(const char *name, const char *verb, char *err, size_t errlen)
{
	bool start = strcmp(verb, "start") == 0 || strcmp(verb, "restart") == 0;
	bool stop = strcmp(verb, "stop") == 0 || strcmp(verb, "restart") == 0;
	const struct unit *u = start ? supervisor_load(name) : supervisor_find(name);

	if (!u)
		return 0;
	if ((start && u->svc->refuse_manual_start) || (stop && u->svc->refuse_manual_stop)) {
		snprintf(err, errlen, "%s: operation refused, the unit may be requested by "
			 "dependency only (RefuseManual%s=yes)", name,
			 start && u->svc->refuse_manual_start ? "Start" : "Stop");
		return -1;
	}
	return 0;
}

/* ---- Sockets= ---------------------------------------------------------------------------- */

int runtime_pass_add(struct listen_pass *pass, int fd, const char *name)
{
	size_t len = strlen(pass->names), n = strlen(name);
	bool first = len > 0 && pass->names[len - 1] == '=';

	if (pass->count >= LISTEN_PASS_MAX || len + n + 2 > sizeof pass->names)
		return -1;
	if (!first)
		pass->names[len++] = ':';
	memcpy(pass->names + len, name, n + 1);
	pass->fd[pass->count++] = fd;
	return 0;
}

int runtime_collect_sockets(const struct unit *units, size_t n, const struct unit *u,
			    struct listen_pass *pass, char *err, size_t errlen)
{
	const char *list = service_str(u->svc, u->svc->sockets);
	char target[SERVICE_NAME_MAX];

	if (!*list)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct unit *sock = &units[i];
		if (sock->svc->kind != UNIT_SOCKET || !runtime_name_listed(list, sock->svc->name) ||
		    !sockets_open(sock))
			continue;
		if (strcmp(socket_unit_service(sock->svc, target, sizeof target), u->svc->name) == 0)
			continue; /* sockets_collect passed it already */
		for (size_t j = 0; j < sock->svc->sock.listen_count; j++)
			if (runtime_pass_add(pass, sock->listen_fd[j],
					     socket_unit_fdname(sock->svc)) < 0) {
				snprintf(err, errlen, "Sockets=: more than %d fds or names for one "
					 "service", LISTEN_PASS_MAX);
				return -1;
			}
	}
	return 0;
}

/* ---- reload propagation ------------------------------------------------------------------ */

size_t runtime_reload_targets(const struct unit *u, const char **out, size_t max)
{
	const char *to = service_str(u->svc, u->svc->reload_to);
	size_t n = 0;

	for (size_t i = 0; i < supervisor_count() && n < max; i++) {
		const struct unit *o = supervisor_unit(i);
		if (o == u)
			continue;
		if (runtime_name_listed(to, o->svc->name) ||
		    runtime_name_listed(service_str(o->svc, o->svc->reload_from), u->svc->name))
			out[n++] = o->svc->name;
	}
	return n;
}

/* ---- actions ------------------------------------------------------------------------------- */

static runtime_action_fn action_cb;

void runtime_on_action(runtime_action_fn cb) { action_cb = cb; }

void runtime_action(const struct unit *u, unsigned char action, const char *key)
{
	static const enum power_action power[] = {
		[UNIT_ACTION_NONE] = POWER_NONE, [UNIT_ACTION_EXIT] = POWER_POWEROFF,
		[UNIT_ACTION_REBOOT] = POWER_REBOOT, [UNIT_ACTION_POWEROFF] = POWER_POWEROFF,
		[UNIT_ACTION_HALT] = POWER_HALT,
	};
	enum unit_action_what what = UNIT_ACTION_WHAT(action);
	enum unit_action_how how = UNIT_ACTION_HOW(action);
	char name[32];

	if (what == UNIT_ACTION_NONE || what > UNIT_ACTION_HALT)
		return;
	log_warn("%s: %s=%s", u->svc->name, key, unit_action_name(action, name, sizeof name));
	if (action_cb)
		action_cb(power[what], how == UNIT_ACTION_FORCE, how == UNIT_ACTION_IMMEDIATE);
}
