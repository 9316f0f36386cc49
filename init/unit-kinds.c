/* Mount, device, slice, swap and automount units: their keys, built-in definitions and implicit
 * dependencies, and the run-time dispatch by kind. See unit-kinds.h. */
#include "unit-kinds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg-service.h"
#include "parse.h"
#include "unit-name.h"

/* ---- diagnostics -------------------------------------------------------------------- */

static void warn(struct service *svc, const struct service_diag *diag, unsigned line,
		 const char *fmt, const char *a, const char *b)
{
	char msg[SERVICE_ERROR_MAX];

	if (!diag || !diag->report)
		return;
	snprintf(msg, sizeof msg, fmt, a, b);
	diag->report(diag->ctx, SERVICE_WARNING, svc->path, line, msg);
}

static int invalid(struct service *svc, const struct service_diag *diag, unsigned line,
		   const char *key, const char *value, const char *why)
{
	service_fail(svc, diag, line, "%s=%.64s: %s", key, value, why);
	return -1;
}

static int store(struct service *svc, const struct service_diag *diag, unsigned line,
		 const char *key, const char *value, strref *ref)
{
	*ref = 0;
	if (!*value)
		return 0;
	*ref = service_text_store(svc, value);
	return *ref ? 0 : invalid(svc, diag, line, key, value, "too much text in this file");
}

static bool path_absolute_clean(const char *path)
{
	size_t n = strlen(path);

	return path[0] == '/' && !strstr(path, "/../") && !strstr(path, "/./") &&
	       !(n >= 3 && strcmp(path + n - 3, "/..") == 0) && n < UNIT_MOUNT_PATH_MAX;
}

/* ---- keys --------------------------------------------------------------------------- */

/* RequiresMountsFor= and WantsMountsFor=: absolute paths, appended; "" resets. */
static int parse_mounts_for(struct service *svc, const struct service_diag *diag, unsigned line,
			    const char *key, const char *value, strref *ref)
{
	char joined[SERVICE_LINE_MAX], copy[SERVICE_LINE_MAX];
	char *save = NULL;

	if (!*value) {
		*ref = 0;
		return 0;
	}
	str_copy(copy, sizeof copy, value);
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		if (!path_absolute_clean(w))
			return invalid(svc, diag, line, key, w, "expected absolute paths");
	if (snprintf(joined, sizeof joined, "%s%s%s", service_str(svc, *ref), *ref ? " " : "",
		     value) >= (int)sizeof joined)
		return invalid(svc, diag, line, key, value, "too many paths");
	return store(svc, diag, line, key, joined, ref);
}

static int parse_slice(struct service *svc, const struct service_diag *diag, unsigned line,
		       const char *key, const char *value)
{
	char name[SERVICE_NAME_MAX];
	enum unit_kind kind;

	if (!*value) {
		svc->kinds.slice = 0;
		return 0;
	}
	if (unit_name_canonical(value, name, sizeof name, &kind) < 0 || kind != UNIT_SLICE ||
	    unit_name_is_template(name))
		return invalid(svc, diag, line, key, value, "expected a slice unit name (x.slice)");
	return store(svc, diag, line, key, name, &svc->kinds.slice);
}

/* DelegateSubgroup=NAME: a file name that none of the kernel's files in a cgroup can
 * have (cgroup.procs, memory.max: "CONTROLLER." names), as systemd asks. */
static bool subgroup_name_valid(const char *v)
{
	static const char *const kernel[] = { "cgroup", "cpu", "cpuset", "io", "memory", "pids",
					      "hugetlb", "rdma", "misc" };
	size_t len = strlen(v), head = strcspn(v, ".");

	if (len == 0 || len > 64 || strpbrk(v, "/\n") || v[0] == '.' || v[0] == '_')
		return false;
	for (size_t i = 0; v[head] && i < sizeof kernel / sizeof *kernel; i++)
		if (strlen(kernel[i]) == head && strncmp(v, kernel[i], head) == 0)
			return false;
	return true;
}

static int parse_delegate_subgroup(struct service *svc, const struct service_diag *diag,
				   unsigned line, const char *key, const char *value)
{
	if (!*value) {
		svc->kinds.delegate_subgroup = 0;
		return 0;
	}
	if (!subgroup_name_valid(value))
		return invalid(svc, diag, line, key, value, "expected a cgroup name (such as "
			       "supervisor or init.scope)");
	return store(svc, diag, line, key, value, &svc->kinds.delegate_subgroup);
}

/* Delegate=yes|no|controller list. cpuacct and blkio are cgroup v1 names systemd maps to
 * cpu and io; a controller ember does not manage is named in a warning. */
static int parse_delegate(struct service *svc, const struct service_diag *diag, unsigned line,
			  const char *key, const char *value)
{
	static const struct { const char *name; unsigned bit; } ctrl[] = {
		{ "memory", CG_CTRL_MEMORY }, { "pids", CG_CTRL_PIDS }, { "cpu", CG_CTRL_CPU },
		{ "cpuacct", CG_CTRL_CPU }, { "io", CG_CTRL_IO }, { "blkio", CG_CTRL_IO },
	};
	static const char *const others[] = { "cpuset", "hugetlb", "rdma", "misc", "devices",
		"bpf-firewall", "bpf-devices", "bpf-foreign", "bpf-socket-bind",
		"bpf-restrict-network-interfaces" };
	char copy[SERVICE_LINE_MAX];
	char *save = NULL;
	bool yes;
	unsigned bits = UNIT_DELEGATE_YES;

	if (!*value || parse_bool(value, &yes) == 0) {
		svc->kinds.delegate = *value && yes ? UNIT_DELEGATE_YES : 0;
		return 0;
	}
	str_copy(copy, sizeof copy, value);
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		size_t i, j;
		for (i = 0; i < sizeof ctrl / sizeof *ctrl && strcmp(ctrl[i].name, w); i++)
			;
		if (i < sizeof ctrl / sizeof *ctrl) {
			bits |= ctrl[i].bit;
			continue;
		}
		for (j = 0; j < sizeof others / sizeof *others && strcmp(others[j], w); j++)
			;
		if (j == sizeof others / sizeof *others)
			return invalid(svc, diag, line, key, w, "not a cgroup controller");
		warn(svc, diag, line, "%s=%s: ember does not manage this controller; not delegated",
		     key, w);
	}
	/* Only unmanaged controllers named: delegated, with none of ember's. */
	svc->kinds.delegate = (uint8_t)(bits == UNIT_DELEGATE_YES ? UNIT_DELEGATE_YES | CG_CTRL_WANTED
								   : bits);
	return 0;
}

static int parse_mount_flag(struct service *svc, const struct service_diag *diag, unsigned line,
			    const char *key, const char *value, unsigned flag)
{
	bool b = false;

	if (*value && parse_bool(value, &b) < 0)
		return invalid(svc, diag, line, key, value, "expected yes or no");
	svc->kinds.mount_flags = (uint8_t)(b ? svc->kinds.mount_flags | flag
					     : svc->kinds.mount_flags & ~flag);
	return 0;
}

static int parse_mount_key(struct service *svc, const struct service_diag *diag, unsigned line,
			   const char *key, const char *value)
{
	unsigned long mode, ms;

	if (strcmp(key, "What") == 0)
		return store(svc, diag, line, key, value, &svc->kinds.what);
	if (strcmp(key, "Where") == 0) {
		if (*value && !path_absolute_clean(value))
			return invalid(svc, diag, line, key, value, "expected an absolute path");
		return store(svc, diag, line, key, value, &svc->kinds.where);
	}
	if (strcmp(key, "Type") == 0)
		return store(svc, diag, line, key, value, &svc->kinds.fstype);
	if (strcmp(key, "Options") == 0)
		return store(svc, diag, line, key, value, &svc->kinds.options);
	if (strcmp(key, "DirectoryMode") == 0) {
		char *end;
		mode = strtoul(value, &end, 8);
		if (value[0] != '0' || *end || mode > 07777 || strspn(value, "01234567") != strlen(value))
			return invalid(svc, diag, line, key, value, "expected an octal mode (0755)");
		svc->kinds.directory_mode = (uint16_t)mode;
		return 0;
	}
	if (strcmp(key, "TimeoutSec") == 0) { /* mount(2) runs in PID 1: nothing to time out */
		if (*value && parse_duration_ms(value, &ms) < 0)
			return invalid(svc, diag, line, key, value, "expected a time span");
		return 0;
	}
	if (strcmp(key, "LazyUnmount") == 0)
		return parse_mount_flag(svc, diag, line, key, value, UNIT_MOUNT_LAZY);
	if (strcmp(key, "ForceUnmount") == 0)
		return parse_mount_flag(svc, diag, line, key, value, UNIT_MOUNT_FORCE);
	if (strcmp(key, "ReadWriteOnly") == 0)
		return parse_mount_flag(svc, diag, line, key, value, UNIT_MOUNT_RW_ONLY);
	/* SloppyOptions=: mount(2) is never sloppy; an unknown option fails the mount. */
	return parse_mount_flag(svc, diag, line, key, value, 0);
}

/* ---- swap units: [Swap] ---------------------------------------------------------- */

static void note(struct service *svc, const struct service_diag *diag, unsigned line,
		 const char *fmt, const char *a)
{
	char msg[SERVICE_ERROR_MAX];

	if (!diag || !diag->report || !diag->notes)
		return;
	snprintf(msg, sizeof msg, fmt, a);
	diag->report(diag->ctx, SERVICE_NOTE, svc->path, line, msg);
}

/* -1..32767, as swapon(8) and systemd take it; -1 is the kernel's default. */
static int parse_swap_priority(const char *value, int16_t *out)
{
	char *end;
	long v;

	if (!*value) {
		*out = -1;
		return 0;
	}
	v = strtol(value, &end, 10);
	if (*end || end == value || v < -1 || v > UNIT_SWAP_PRIORITY_MAX)
		return -1;
	*out = (int16_t)v;
	return 0;
}

/* Options=: what swapon(8) reads of fstab's options. discard, discard=once|pages and
 * pri=N are for the kernel; nofail only says how hard the unit is wanted (the fstab
 * generator's swap.target.wants/ rather than .requires/); the rest is ignored. */
static int parse_swap_options(struct service *svc, const struct service_diag *diag,
			      unsigned line, const char *key, const char *value)
{
	char copy[SERVICE_LINE_MAX];
	char *save = NULL;

	svc->kinds.swap_flags = 0;
	svc->kinds.swap_pri_option = -1;
	str_copy(copy, sizeof copy, value);
	for (char *o = strtok_r(copy, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		if (strcmp(o, "discard") == 0) {
			svc->kinds.swap_flags |= UNIT_SWAP_DISCARD;
		} else if (strcmp(o, "discard=once") == 0) {
			svc->kinds.swap_flags |= UNIT_SWAP_DISCARD | UNIT_SWAP_DISCARD_ONCE;
		} else if (strcmp(o, "discard=pages") == 0) {
			svc->kinds.swap_flags |= UNIT_SWAP_DISCARD | UNIT_SWAP_DISCARD_PAGES;
		} else if (str_starts_with(o, "discard=")) {
			return invalid(svc, diag, line, key, o, "expected discard, discard=once or "
				       "discard=pages");
		} else if (str_starts_with(o, "pri=")) {
			if (parse_swap_priority(o + 4, &svc->kinds.swap_pri_option) < 0 || !o[4])
				return invalid(svc, diag, line, key, o, "expected a priority from -1 "
					       "to 32767");
		} else if (strcmp(o, "nofail") != 0 && strcmp(o, "defaults") != 0 &&
			   strcmp(o, "sw") != 0) {
			note(svc, diag, line, "Options=%s: not a swap option the kernel reads, "
			     "ignored", o);
		}
	}
	return store(svc, diag, line, key, value, &svc->kinds.options);
}

static int parse_swap_key(struct service *svc, const struct service_diag *diag, unsigned line,
			  const char *key, const char *value)
{
	unsigned long ms;

	if (strcmp(key, "What") == 0) {
		if (*value && !path_absolute_clean(value))
			return invalid(svc, diag, line, key, value, "expected an absolute path");
		return store(svc, diag, line, key, value, &svc->kinds.what);
	}
	if (strcmp(key, "Priority") == 0) {
		if (parse_swap_priority(value, &svc->kinds.swap_priority) < 0)
			return invalid(svc, diag, line, key, value,
				       "expected a priority from -1 to 32767");
		return 0;
	}
	if (strcmp(key, "Options") == 0)
		return parse_swap_options(svc, diag, line, key, value);
	/* TimeoutSec=: how long the swapoff(2) child may take (swapon(2) runs in PID 1, as
	 * mount(2) does: nothing to time out); 0 is no limit, as systemd reads it. */
	if (*value && parse_duration_ms(value, &ms) < 0)
		return invalid(svc, diag, line, key, value, "expected a time span");
	svc->timeout_start_ms = !*value ? UNIT_SWAP_TIMEOUT_MS
			      : ms == 0 ? SERVICE_TIMEOUT_INFINITY : ms;
	return 0;
}

/* ---- automount units: [Automount] ------------------------------------------------ */

/* Where= and DirectoryMode= read as a mount's; ExtraOptions= is kept for the autofs mount's
 * options; TimeoutIdleSec= in whole seconds, rounded up, as systemd hands it to autofs. */
static int parse_automount_key(struct service *svc, const struct service_diag *diag,
			       unsigned line, const char *key, const char *value)
{
	unsigned long ms;

	if (strcmp(key, "ExtraOptions") == 0)
		return store(svc, diag, line, key, value, &svc->kinds.options);
	if (strcmp(key, "TimeoutIdleSec") != 0)
		return parse_mount_key(svc, diag, line, key, value); /* Where=, DirectoryMode= */
	if (!*value) {
		svc->kinds.idle_timeout_s = 0;
		return 0;
	}
	if (parse_duration_ms(value, &ms) < 0)
		return invalid(svc, diag, line, key, value, "expected a time span");
	if (ms == SERVICE_TIMEOUT_INFINITY || ms / 1000 >= UINT32_MAX)
		ms = 0; /* "infinity": never expires */
	svc->kinds.idle_timeout_s = (uint32_t)((ms + 999) / 1000);
	return 0;
}

int unit_kinds_parse(struct service *svc, const struct service_diag *diag, unsigned line,
		     const char *key, const char *value)
{
	unsigned long ms;

	if (svc->kind == UNIT_AUTOMOUNT && (strcmp(key, "Where") == 0 ||
					    strcmp(key, "DirectoryMode") == 0 ||
					    strcmp(key, "TimeoutIdleSec") == 0 ||
					    strcmp(key, "ExtraOptions") == 0))
		return parse_automount_key(svc, diag, line, key, value);

	if (svc->kind == UNIT_SWAP && (strcmp(key, "What") == 0 || strcmp(key, "Priority") == 0 ||
				       strcmp(key, "Options") == 0 || strcmp(key, "TimeoutSec") == 0))
		return parse_swap_key(svc, diag, line, key, value);

	if (strcmp(key, "RequiresMountsFor") == 0)
		return parse_mounts_for(svc, diag, line, key, value, &svc->kinds.mounts_for[0]);
	if (strcmp(key, "WantsMountsFor") == 0)
		return parse_mounts_for(svc, diag, line, key, value, &svc->kinds.mounts_for[1]);
	if (strcmp(key, "Slice") == 0)
		return parse_slice(svc, diag, line, key, value);
	if (strcmp(key, "Delegate") == 0)
		return parse_delegate(svc, diag, line, key, value);
	if (strcmp(key, "DelegateSubgroup") == 0)
		return parse_delegate_subgroup(svc, diag, line, key, value);
	if (strcmp(key, "JobTimeoutSec") == 0) {
		if (*value && parse_duration_ms(value, &ms) < 0)
			return invalid(svc, diag, line, key, value, "expected a time span");
		/* A device: how long a start waits for it (as systemd's device timeout); other
		 * kinds are read by unit-runtime-keys.c (service.c dispatches). */
		if (svc->kind == UNIT_DEVICE)
			svc->timeout_start_ms = !*value ? UNIT_DEVICE_TIMEOUT_MS
					      : ms == 0 ? SERVICE_TIMEOUT_INFINITY : ms;
		return 0;
	}
	return parse_mount_key(svc, diag, line, key, value);
}

/* ---- implicit dependencies ---------------------------------------------------------- */

static void depend(struct service *svc, const struct service_diag *diag,
		   struct service_name_list *list, const char *name)
{
	if (service_add_name(svc, list, name) < 0)
		warn(svc, diag, 0, "%s: too many dependencies to add %s", svc->name, name);
}

/* "a-b-c.slice" -> "a-b.slice", "a.slice" -> "-.slice"; -1 for "-.slice". */
static int slice_parent(const char *slice, char *out, size_t size)
{
	size_t stem = strlen(slice) - strlen(".slice");
	const char *dash = NULL;

	if (strcmp(slice, "-.slice") == 0)
		return -1;
	for (size_t i = 0; i < stem; i++)
		if (slice[i] == '-')
			dash = slice + i;
	if (!dash)
		return str_copy(out, size, "-.slice");
	return snprintf(out, size, "%.*s.slice", (int)(dash - slice), slice) < (int)size ? 0 : -1;
}

int unit_kind_path(const char *name, char *out, size_t size)
{
	char stem[SERVICE_NAME_MAX];
	const char *suffix = strrchr(name, '.');

	if (!suffix || (size_t)(suffix - name) >= sizeof stem)
		return -1;
	snprintf(stem, sizeof stem, "%.*s", (int)(suffix - name), name);
	if (strcmp(stem, "-") == 0)
		return str_copy(out, size, "/");
	if (unit_name_path_unescape(stem, out, size) < 0)
		return -1;
	/* As systemd: only a normalized path has a unit ("mnt-..-etc.mount" has none). */
	for (const char *c = out; *c; c += strcspn(c, "/")) {
		size_t n;
		c++;
		n = strcspn(c, "/");
		if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
			return -1;
	}
	return 0;
}

/* A mount or automount unit's name is its mount point, and Where= (if given) the same:
 * the path into where; -1 (svc failed with the reason) when not. "/" is refused when
 * root_ok is false (an automount on the root makes no sense). */
static int where_of_name(struct service *svc, const struct service_diag *diag, char *where,
			 size_t size, bool root_ok)
{
	if (unit_kind_path(svc->name, where, size) < 0 || (!root_ok && strcmp(where, "/") == 0)) {
		service_fail(svc, diag, 0, "the name does not name a mount point");
		return -1;
	}
	if (svc->kinds.where && strcmp(service_str(svc, svc->kinds.where), where) != 0) {
		service_fail(svc, diag, 0, "Where=%s does not match the unit name (%s)",
			     service_str(svc, svc->kinds.where), where);
		return -1;
	}
	return 0;
}

static void validate_mount(struct service *svc, const struct service_diag *diag)
{
	char where[UNIT_MOUNT_PATH_MAX];

	if (where_of_name(svc, diag, where, sizeof where, true) < 0)
		return;
	if (strcmp(svc->path, "(built-in)") != 0 && !svc->kinds.what) {
		service_fail(svc, diag, 0, "What= is missing");
		return;
	}
	/* systemd's default dependencies of a local mount */
	if (svc->default_dependencies && strcmp(where, "/") != 0) {
		depend(svc, diag, &svc->after, "local-fs-pre.target");
		depend(svc, diag, &svc->before, "local-fs.target");
	}
}

/* As systemd's swap_verify() and swap_add_extras(): What= names the unit; a device is
 * BindsTo= and After= its device unit, a file RequiresMountsFor= its path; and with
 * default dependencies Before=swap.target (shutdown.target: depgraph.c, as for every
 * unit; ember has no umount.target). */
static void validate_swap(struct service *svc, const struct service_diag *diag)
{
	char name[SERVICE_NAME_MAX], device[SERVICE_NAME_MAX + 8], mounts_for[SERVICE_LINE_MAX];
	const char *what = service_str(svc, svc->kinds.what);
	size_t n;

	if (!svc->kinds.what) {
		service_fail(svc, diag, 0, "What= is missing");
		return;
	}
	if (unit_name_path_escape(what, name, sizeof name - 5) < 0) {
		service_fail(svc, diag, 0, "What=%.64s: path too long for a unit name", what);
		return;
	}
	str_copy(device, sizeof device, name); /* "dev-zram0" */
	n = strlen(name);
	memcpy(name + n, ".swap", 6);
	if (strcmp(name, svc->name) != 0) {
		service_fail(svc, diag, 0, "What=%.64s does not match the unit name (its unit is "
			     "%.100s)", what, name);
		return;
	}
	if (str_starts_with(what, "/dev/")) {
		memcpy(device + n, ".device", 8);
		depend(svc, diag, &svc->binds_to, device);
		depend(svc, diag, &svc->after, device);
	} else {
		if (snprintf(mounts_for, sizeof mounts_for, "%s%s%s",
			     service_str(svc, svc->kinds.mounts_for[0]),
			     svc->kinds.mounts_for[0] ? " " : "", what) >= (int)sizeof mounts_for) {
			service_fail(svc, diag, 0, "RequiresMountsFor=: too many paths to add What=");
			return;
		}
		if (store(svc, diag, 0, "RequiresMountsFor", mounts_for, &svc->kinds.mounts_for[0]) < 0)
			return;
	}
	if (svc->default_dependencies)
		depend(svc, diag, &svc->before, "swap.target");
}

/* As systemd's automount_verify() and automount_add_extras(): Where= names the unit; the
 * automount is Before= the mount it starts (so that mount is After= it), RequiresMountsFor=
 * the directory it sits in, and with default dependencies After=local-fs-pre.target,
 * Before=local-fs.target, Before= and Conflicts= umount.target (the fstab generator writes
 * none of these: it relies on them). The target it is for names it in Wants=/Requires=. */
static void validate_automount(struct service *svc, const struct service_diag *diag)
{
	char where[UNIT_MOUNT_PATH_MAX], mount[SERVICE_NAME_MAX], mounts_for[SERVICE_LINE_MAX];
	char *slash;

	if (where_of_name(svc, diag, where, sizeof where, false) < 0)
		return;
	depend(svc, diag, &svc->before, automount_mount_name(svc->name, mount, sizeof mount));
	slash = strrchr(where, '/');
	*(slash == where ? slash + 1 : slash) = '\0'; /* the parent directory */
	if (snprintf(mounts_for, sizeof mounts_for, "%s%s%s",
		     service_str(svc, svc->kinds.mounts_for[0]),
		     svc->kinds.mounts_for[0] ? " " : "", where) >= (int)sizeof mounts_for ||
	    store(svc, diag, 0, "RequiresMountsFor", mounts_for, &svc->kinds.mounts_for[0]) < 0) {
		service_fail(svc, diag, 0, "RequiresMountsFor=: too many paths to add %s", where);
		return;
	}
	if (svc->default_dependencies) {
		depend(svc, diag, &svc->after, "local-fs-pre.target");
		depend(svc, diag, &svc->before, "local-fs.target");
		depend(svc, diag, &svc->before, "umount.target");
		depend(svc, diag, &svc->conflicts, "umount.target");
	}
}

void unit_kinds_validate(struct service *svc, const struct service_diag *diag)
{
	char parent[SERVICE_NAME_MAX];

	switch (svc->kind) {
	case UNIT_MOUNT:
		validate_mount(svc, diag);
		break;
	case UNIT_SWAP: /* swap units */
		validate_swap(svc, diag);
		break;
	case UNIT_AUTOMOUNT: /* automount units */
		validate_automount(svc, diag);
		break;
	case UNIT_DEVICE:
		if (unit_kind_path(svc->name, parent, sizeof parent) < 0)
			service_fail(svc, diag, 0, "the name does not name a device path");
		break;
	case UNIT_SLICE:
		if (slice_parent(svc->name, parent, sizeof parent) == 0) {
			depend(svc, diag, &svc->requires, parent);
			depend(svc, diag, &svc->after, parent);
		}
		break;
	default:
		if (svc->kinds.slice) {
			char slice[SERVICE_NAME_MAX];
			str_copy(slice, sizeof slice, service_str(svc, svc->kinds.slice));
			depend(svc, diag, &svc->requires, slice);
			depend(svc, diag, &svc->after, slice);
		}
	}
}

