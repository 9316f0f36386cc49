/* Start, stop, restart and reload of units over D-Bus, as systemd's Manager offers them
 * (docs/dbus.md, "Units"): for root callers (the bus says who), carried out through
 * ember-init's control socket. The reply is a job path; JobRemoved follows once the unit
 * got where the job was taking it, which is what callers such as timedated wait for. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "activator.h"
#include "ctl-client.h"
#include "ctl-job.h"
#include "escape.h"
#include "log.h"
#include "unit-name.h"

#define CONTROL_TIMEOUT_MS 5000
#define JOB_IFACE "org.freedesktop.systemd1.Job"

static const struct {
	const char *member;
	enum ctl_verb verb;
} members[] = {
	{ "StartUnit", CTL_START }, { "StopUnit", CTL_STOP }, { "RestartUnit", CTL_RESTART },
	{ "ReloadUnit", CTL_RELOAD },
};

int unit_job_verb(const char *member, enum ctl_verb *verb)
{
	for (size_t i = 0; i < sizeof members / sizeof *members; i++)
		if (member && strcmp(member, members[i].member) == 0) {
			*verb = members[i].verb;
			return 0;
		}
	return -1;
}

int unit_job_check_name(const char *unit, char *why, size_t size)
{
	char name[CTL_NAME_MAX];

	if (strlen(unit) >= SCOPE_NAME_MAX ||
	    unit_name_canonical(unit, name, sizeof name, NULL) < 0 || !ctl_name_valid(name)) {
		snprintf(why, size, "ember has no unit of that name or kind");
		return -1;
	}
	return 0;
}

static void watch_job(struct activator *a, uint32_t id, enum ctl_verb verb, const char *unit,
		      const char *name)
{
	for (size_t i = 0; i < UNIT_JOB_MAX; i++) {
		struct unit_job *j = &a->jobs[i];
		if (j->used)
			continue;
		*j = (struct unit_job){ true, id, verb, "", "", dbus_now_ms() + UNIT_JOB_MS };
		snprintf(j->unit, sizeof j->unit, "%s", unit);
		snprintf(j->name, sizeof j->name, "%s", name);
		return;
	}
	bus_job_removed(a, id, unit, "done"); /* too many to watch: said done at once */
}

void unit_job_start(struct activator *a, const struct dbus_msg *call, enum ctl_verb verb,
		    const char *unit)
{
	char name[CTL_NAME_MAX], err[CTL_PACKET_MAX], path[64], safe[SCOPE_NAME_MAX + 8];
	uint32_t id;
	int status;

	unit_name_canonical(unit, name, sizeof name, NULL); /* checked when the call came */
	status = ember_request(a->control, verb, name, CONTROL_TIMEOUT_MS, NULL, NULL, 0, err,
			       sizeof err);
	if (status != CTL_STATUS_OK) {
		reply_error(a, call, status == CTL_STATUS_NO_SUCH_SERVICE
			    ? "org.freedesktop.systemd1.NoSuchUnit" : "org.freedesktop.systemd1.UnitFailed",
			    status < 0 || err[0] ? err : "refused by ember-init");
		return;
	}
	id = ++a->next_job;
	snprintf(path, sizeof path, JOB_PATH_PREFIX "%u", (unsigned)id);
	reply_return(a, call, "o", path);
	log_info("%s %s over D-Bus", ctl_verb_name(verb), escape_text(unit, safe, sizeof safe));
	watch_job(a, id, verb, unit, name);
}

#define STATUS_RECORD_MAX 16384 /* one unit's status record */

static const char *field_or_empty(const struct ctl_record *rec, const char *key)
{
	const char *v = ctl_record_get(rec, key);

	return v ? v : "";
}

/* Where the job stands (lib/ctl-job.h), from one status record: the state and a
 * reload's two more fields are one snapshot, never read across a change. */
static enum ctl_job_end job_end(struct activator *a, const struct unit_job *j)
{
	char err[CTL_PACKET_MAX], *records = NULL;
	struct ctl_record rec;
	size_t pos = 0;
	enum ctl_job_end end = CTL_JOB_FAILED;

	if (ember_request_records(a->control, CTL_STATUS, j->name, CONTROL_TIMEOUT_MS, &records,
				  STATUS_RECORD_MAX, err, sizeof err) == CTL_STATUS_OK &&
	    ctl_record_read(records, strlen(records), &pos, &rec, err, sizeof err) == 1 &&
	    ctl_record_get(&rec, "state"))
		end = ctl_job_end(j->verb, field_or_empty(&rec, "state"),
				  field_or_empty(&rec, "active_state"),
				  field_or_empty(&rec, "reload_result"),
				  field_or_empty(&rec, "result"));
	free(records);
	return end;
}

void unit_job_tick(struct activator *a)
{
	for (size_t i = 0; i < UNIT_JOB_MAX; i++) {
		struct unit_job *j = &a->jobs[i];
		enum ctl_job_end end;
		if (!j->used)
			continue;
		end = job_end(a, j);
		if (end == CTL_JOB_RUNNING && dbus_now_ms() < j->until_ms)
			continue;
		j->used = false;
		bus_job_removed(a, j->id, j->unit, end == CTL_JOB_DONE ? "done"
					      : end == CTL_JOB_FAILED ? "failed"
					      : end == CTL_JOB_DEPENDENCY ? "dependency" : "timeout");
	}
}

static bool job_pending(const struct activator *a, uint32_t id)
{
	for (size_t i = 0; i < UNIT_JOB_MAX; i++)
		if (a->jobs[i].used && a->jobs[i].id == id)
			return true;
	for (size_t i = 0; i < SCOPE_MAX; i++) /* sessions: a scope's start job */
		if (a->scopes[i].used && a->scopes[i].job == id)
			return true;
	return false;
}

/* The job's number from its object path: 0 when the path is not a job's. */
static uint32_t job_of_path(const char *path)
{
	const char *p = path + strlen(JOB_PATH_PREFIX);
	uint32_t id = 0;

	if (strncmp(path, JOB_PATH_PREFIX, strlen(JOB_PATH_PREFIX)) != 0 || !*p)
		return 0;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || id > (UINT32_MAX - 9) / 10)
			return 0;
		id = id * 10 + (uint32_t)(*p - '0');
	}
	return id;
}

bool job_property(struct activator *a, const struct dbus_msg *m)
{
	const char *args[2];
	uint32_t id;

	if (!m->path || dbus_body_strings(m, args, 2) < 0 || strcmp(args[0], JOB_IFACE) != 0 ||
	    strcmp(args[1], "State") != 0 || !(id = job_of_path(m->path)))
		return false;
	if (job_pending(a, id))
		reply_return(a, m, "v", "running");
	else
		reply_error(a, m, "org.freedesktop.systemd1.NoSuchJob", "no such job (it is done)");
	return true;
}

bool unit_jobs_pending(const struct activator *a)
{
	for (size_t i = 0; i < UNIT_JOB_MAX; i++)
		if (a->jobs[i].used)
			return true;
	return false;
}
