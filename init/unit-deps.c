/* Run-time meaning of the dependency keys; see unit-deps.h. Answers only: the supervisor
 * starts and stops. Linear scans over at most SERVICE_COUNT_MAX units. */
#include "unit-deps.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "supervisor.h"
#include "unit-targets.h"

size_t unit_requirement_count(const struct service *s)
{
	return service_list_count(&s->requires) + service_list_count(&s->binds_to) +
	       service_list_count(&s->requisite);
}

const char *unit_requirement(const struct service *s, size_t i, char *buf)
{
	const struct service_name_list *lists[] = { &s->requires, &s->binds_to, &s->requisite };

	for (size_t k = 0; k < sizeof lists / sizeof *lists; k++) {
		if (i < service_list_count(lists[k]))
			return service_list_name(s, lists[k], i, buf);
		i -= service_list_count(lists[k]);
	}
	return "";
}

/* A oneshot that ran to success counts as done. Not one with RemainAfterExit=: it stays
 * up when it finishes, so STOPPED means it was stopped since (logind's runtime directory
 * after a logout), and what requires it must run it again. */
static bool active(const struct unit *u)
{
	return u->state == UNIT_READY || u->state == UNIT_RUNNING ||
	       (u->state == UNIT_STOPPED && u->svc->type == SERVICE_ONESHOT &&
		!u->svc->remain_after_exit && u->exit_status == 0 && u->started_us >= 0);
}

static bool up(const struct unit *u)
{
	return u->main_pid > 0 || u->state == UNIT_STARTING || u->state == UNIT_RUNNING ||
	       u->state == UNIT_READY || u->state == UNIT_WAITING;
}

/* Down, and may start. A oneshot that ran and ended counts as down here, as in systemd:
 * a new start of what requires it runs it again (suspend.target's systemd-suspend, each
 * time the phone sleeps); only Requisite= takes such a one as done. */
bool unit_pull_in_wanted(const struct unit *r)
{
	return !up(r) && r->state != UNIT_READY && r->state != UNIT_RUNNING &&
	       r->state != UNIT_MASKED && r->state != UNIT_INVALID;
}

const char *unit_requisite_inactive(const struct unit *u, char *buf)
{
	const struct service *s = u->svc;

	for (size_t i = 0; i < service_list_count(&s->requisite); i++) {
		const char *name = service_list_name(s, &s->requisite, i, buf);
		const struct unit *r = supervisor_find(name);
		if (!r || !active(r))
			return name;
	}
	return NULL;
}

size_t unit_conflicting(const struct unit *u, struct unit **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < supervisor_count() && n < max; i++) {
		struct unit *o = (struct unit *)supervisor_unit(i);
		if (o == u || !up(o) || o->stop_wanted)
			continue;
		if (service_lists(u->svc, &u->svc->conflicts, o->svc->name) ||
		    service_lists(o->svc, &o->svc->conflicts, u->svc->name))
			out[n++] = o;
	}
	return n;
}

size_t unit_bound_to(const struct unit *u, bool stopped, struct unit **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < supervisor_count() && n < max; i++) {
		struct unit *o = (struct unit *)supervisor_unit(i);
		if (o == u || !up(o) || o->stop_wanted || o->state == UNIT_STOPPING)
			continue;
		if (service_lists(o->svc, &o->svc->binds_to, u->svc->name) ||
		    (stopped && service_lists(o->svc, &o->svc->part_of, u->svc->name)))
			out[n++] = o;
	}
	return n;
}

void unit_cmdline_target(char *out, size_t size)
{
	char cmdline[4096];
	int fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, cmdline, sizeof cmdline - 1);

	if (fd >= 0)
		close(fd);
	out[0] = '\0';
	if (n <= 0)
		return;
	cmdline[n] = '\0';
	if (unit_default_from_cmdline(cmdline, out, size) < 0)
		out[0] = '\0';
}
