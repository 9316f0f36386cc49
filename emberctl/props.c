/* emberctl show's properties (see props.h). */
#include "props.h"

#include <string.h>
#include <time.h>

#include "records.h"
#include "unit-name.h"

#define NOT_SET "[not set]"

struct out {
	FILE *f;
	const struct props_filter *pf;
	size_t printed;
};

static bool wanted(const struct out *o, const char *key)
{
	if (o->pf->nwant == 0)
		return true;
	for (size_t i = 0; i < o->pf->nwant; i++)
		if (strcmp(o->pf->want[i], key) == 0)
			return true;
	return false;
}

/* Values come from PID 1 and unit files: printed escaped, one line each. */
static void put(struct out *o, const char *key, const char *value)
{
	if (!wanted(o, key))
		return;
	if (!o->pf->value_only)
		fprintf(o->f, "%s=", key);
	print_safe(o->f, value);
	fputc('\n', o->f);
	o->printed++;
}

static void put_int(struct out *o, const char *key, long long v, const char *unset)
{
	char buf[32];

	if (v < 0 && unset) {
		put(o, key, unset);
		return;
	}
	snprintf(buf, sizeof buf, "%lld", v < 0 ? 0 : v);
	put(o, key, buf);
}

void props_format_time(char *buf, size_t size, long long real_us)
{
	time_t t = (time_t)(real_us / 1000000);
	struct tm tm;

	if (real_us < 0 || !localtime_r(&t, &tm) ||
	    strftime(buf, size, "%a %Y-%m-%d %H:%M:%S %Z", &tm) == 0)
		buf[0] = '\0';
}

/* KeyTimestamp= (wall clock) and KeyTimestampMonotonic= (µs after boot). */
static void put_time(struct out *o, const struct props_in *in, const char *key, long long boot_us)
{
	char name[64], buf[64];

	props_format_time(buf, sizeof buf, boot_us < 0 ? -1 : boot_us + in->boot_to_real_us);
	snprintf(name, sizeof name, "%s", key);
	put(o, name, buf);
	snprintf(name, sizeof name, "%sMonotonic", key);
	put_int(o, name, boot_us < 0 ? 0 : boot_us, NULL);
}

/* "a,b" -> "a.service b.service", as systemd lists unit names. */
static void put_names(struct out *o, const char *key, const char *list)
{
	char buf[2048], full[UNIT_NAME_MAX + 8];
	size_t len = 0;

	buf[0] = '\0';
	for (const char *p = list; *p;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		char one[UNIT_NAME_MAX];
		if (n < sizeof one) {
			memcpy(one, p, n);
			one[n] = '\0';
			if (unit_name_full(one, full, sizeof full) < 0)
				snprintf(full, sizeof full, "%s", one);
			len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", len ? " " : "", full);
			if (len >= sizeof buf)
				break;
		}
		p += n + (comma != NULL);
	}
	put(o, key, buf);
}

static void put_dropins(struct out *o, const struct unit_files *uf)
{
	char buf[8192];
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; uf && i < uf->ndropins && len < sizeof buf; i++)
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? " " : "", uf->dropin[i]);
	put(o, "DropInPaths", buf);
}

static const char *str(const struct ctl_record *rec, const char *key, const char *dflt)
{
	const char *v = rec ? ctl_record_get(rec, key) : NULL;
	return v ? v : dflt;
}

static long long num(const struct ctl_record *rec, const char *key)
{
	return rec ? rec_int(rec, key) : -1;
}

/* ExecMainCode= as systemd: 0 never ran, 1 (CLD_EXITED) exited, 2 (CLD_KILLED) killed. */
static void put_exec_main(struct out *o, const struct ctl_record *rec)
{
	long long sig = num(rec, "exit_signal"), code = num(rec, "exit_status");

	put_int(o, "ExecMainCode", sig > 0 ? 2 : code >= 0 ? 1 : 0, NULL);
	put_int(o, "ExecMainStatus", sig > 0 ? sig : code, NULL);
}

size_t props_print(FILE *f, const struct props_in *in, const struct props_filter *pf)
{
	struct out o = { f, pf, 0 };
	const struct ctl_record *r = in->rec;
	char full[UNIT_NAME_MAX + 8];
	long long inactive = num(r, "stopped_us");

	if (unit_name_full(in->name, full, sizeof full) < 0)
		snprintf(full, sizeof full, "%s", in->name);
	if (num(r, "failed_us") > inactive)
		inactive = num(r, "failed_us");
	put(&o, "Id", full);
	put(&o, "Names", full);
	put(&o, "Description", str(r, "description", ""));
	put(&o, "LoadState", r ? str(r, "load_state", "loaded")
			     : in->unit_file_state && strcmp(in->unit_file_state, "masked") == 0 ? "masked"
			     : in->files ? "loaded" : "not-found");
	put(&o, "ActiveState", str(r, "active_state", "inactive"));
	put(&o, "SubState", str(r, "sub_state", "dead"));
	put(&o, "Type", str(r, "type", ""));
	put(&o, "Result", str(r, "result", "success"));
	put_int(&o, "MainPID", num(r, "main_pid"), NULL);
	put_int(&o, "ControlPID", num(r, "control_pid"), NULL);
	put_exec_main(&o, r);
	put_int(&o, "NRestarts", num(r, "restarts"), NULL);
	put(&o, "StatusText", str(r, "status_text", ""));
	put(&o, "StatusErrorText", str(r, "error", "")); /* ember's: why it failed */
	put(&o, "FragmentPath", in->files ? in->files->fragment : str(r, "fragment_path", ""));
	put_dropins(&o, in->files);
	put(&o, "UnitFileState", in->unit_file_state ? in->unit_file_state : "");
	put_time(&o, in, "StateChangeTimestamp", num(r, "since_us"));
	put_time(&o, in, "ExecMainStartTimestamp", num(r, "started_us"));
	put_time(&o, in, "ActiveEnterTimestamp", num(r, "ready_us"));
	put_time(&o, in, "InactiveEnterTimestamp", inactive);
	put_int(&o, "MemoryCurrent", num(r, "memory_current"), NOT_SET);
	put_int(&o, "MemoryPeak", num(r, "memory_peak"), NOT_SET);
	put_int(&o, "TasksCurrent", num(r, "pids_current"), NOT_SET);
	{
		long long cpu = num(r, "cpu_usage_usec");
		put_int(&o, "CPUUsageNSec", cpu < 0 ? -1 : cpu * 1000, NOT_SET);
	}
	put(&o, "ControlGroup", str(r, "cgroup", ""));
	put_names(&o, "After", str(r, "after", ""));
	put_names(&o, "Requires", str(r, "requires", ""));
	return o.printed;
}
