#include "svc-cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cgroup2.h"
#include "io.h"
#include "cg-service.h"
#include "log.h"
#include "parse.h"
#include "svc-bpf.h" /* exec keys (sandbox-more) */
#include "unit-name.h"
#include "unit-slice.h" /* unit kinds (unit-kinds) */

/* A slice by name: the journal and systemd's tools then read each service's cgroup as
 * its unit (docs/cgroups.md, "Why ember.slice"). */
#define SUBTREE_NAME "ember.slice"
/* Slice limits the kernel refused, remembered so each is logged once (see
 * refusal_known()); more slices with refusals than this are logged again. */
#define REFUSED_MAX 16

/* Limits are compared with memcmp() (refusals, reloads): the struct has no padding. */
_Static_assert(sizeof(struct cg_limits) == 6 * sizeof(unsigned long long) + 2 * sizeof(unsigned),
	       "struct cg_limits has padding");

struct refused_limits {
	char slice[SERVICE_NAME_MAX];
	struct cg_limits limits;
};

static struct {
	bool enabled;
	bool hugetlb_accounted;
	unsigned controllers; /* enabled for services: CG_CTRL_ACCOUNTING, then on demand */
	unsigned asked;       /* on-demand controllers already asked for */
	int subtree_fd;
	char root[128];
	struct refused_limits refused[REFUSED_MAX]; /* a ring, emptied by a reload */
	unsigned refused_next;
} cg = { .subtree_fd = -1 };

/* Options of a cgroup2 file system ember-init did not mount itself (a container's, or
 * one named by ember.cgroup=). */
static unsigned read_options(const char *cgroup_root)
{
	char opts[CG2_OPTIONS_MAX];
	return cg2_mount_options(cgroup_root, opts, sizeof opts) == 1 ? cg2_options_parse(opts) : 0;
}

void svc_cgroup_init(const char *cgroup_root, int options)
{
	unsigned enabled = 0;

	if (!cgroup_root)
		return;
	if (!cg2_is_mounted(cgroup_root)) {
		log_warn("cgroups: %s is not on cgroup2; services run without cgroups", cgroup_root);
		return;
	}
	if (options < 0)
		options = (int)read_options(cgroup_root);
	if (cg_subtree_init(cgroup_root, SUBTREE_NAME, CG_CTRL_ACCOUNTING, &cg.subtree_fd, &enabled) < 0) {
		log_error("cgroups: %s/%s: %m; services run without cgroups", cgroup_root, SUBTREE_NAME);
		return;
	}
	cg.enabled = true;
	cg.controllers = enabled;
	cg.hugetlb_accounted = ((unsigned)options & CG2_MEMORY_HUGETLB_ACCOUNTING) != 0;
	snprintf(cg.root, sizeof cg.root, "%s", cgroup_root);
	log_info("cgroups: services below %s/%s, controllers:%s%s%s%s", cgroup_root, SUBTREE_NAME,
		 enabled & CG_CTRL_MEMORY ? " memory" : "", enabled & CG_CTRL_PIDS ? " pids" : "",
		 enabled & CG_CTRL_CPU ? " cpu" : "", enabled & CG_CTRL_IO ? " io" : "");
}

/* The cgroup's name is the unit's full name, as on systemd: "sshd.service", and a
 * socket unit's (its control processes') "dbus.socket". */
static const char *leaf_of(const struct service *s, char *buf, size_t size)
{
	if (unit_name_full(s->name, buf, size) < 0)
		buf[0] = '\0'; /* refused by cg_unit_open() */
	return buf;
}

bool svc_cgroup_enabled(void) { return cg.enabled; }

/* The resource keys of a unit, [Service] or [Slice] (the parser fills the same fields). */
static bool limits_set(const struct service *s)
{
	return s->memory_max != ~0ULL || s->memory_high != ~0ULL || s->tasks_max != ~0ULL ||
	       s->memory_swap_max != ~0ULL ||
	       s->memory_min || s->memory_low || s->cpu_weight || s->io_weight;
}

static void limits_of(const struct service *s, struct cg_limits *l)
{
	cg_limits_init(l);
	l->memory_max = s->memory_max;
	l->memory_high = s->memory_high;
	l->memory_swap_max = s->memory_swap_max;
	l->memory_min = s->memory_min;
	l->memory_low = s->memory_low;
	l->tasks_max = s->tasks_max;
	l->cpu_weight = s->cpu_weight;
	l->io_weight = s->io_weight;
}

static unsigned weights_need(const struct service *s)
{
	return (s->cpu_weight ? CG_CTRL_CPU : 0) | (s->io_weight ? CG_CTRL_IO : 0);
}

/* cpu and io come on when the first unit asks for a weight (cg-service.h); who names it
 * in the log. Each is asked for once: one the kernel refuses (cpu while realtime tasks
 * run outside the root) is not retried on every start, and the limit write that follows
 * names it. */
static void enable_on_demand(unsigned need, const char *who)
{
	unsigned now;

	need &= ~cg.asked;
	if (!need)
		return;
	cg.asked |= need;
	if (cg_subtree_enable(cg.root, cg.subtree_fd, cg.controllers | need, &now) < 0)
		now = cg.controllers;
	for (unsigned bit = CG_CTRL_CPU; bit <= CG_CTRL_IO; bit <<= 1)
		if (need & bit)
			log_info("cgroups: %s controller %s for %s", cg_controller_name(bit),
				 now & bit ? "enabled" : "refused by the kernel", who);
	cg.controllers |= now;
}

static void enable_for_service(const struct service *s)
{
	char leaf[CG_LEAF_NAME_MAX];
	unsigned need = weights_need(s);

	need |= s->kinds.delegate & (CG_CTRL_CPU | CG_CTRL_IO); /* unit-kinds: Delegate= */
	enable_on_demand(need, leaf_of(s, leaf, sizeof leaf));
}

/* A loaded slice unit with [Slice] resource keys, by name; else NULL. */
static const struct service *slice_with_limits(const char *name)
{
	const struct unit *u = supervisor_find(name);

	return u && u->svc->kind == UNIT_SLICE && limits_set(u->svc) ? u->svc : NULL;
}

/* The weights of the slice units along slice need cpu/io in the subtree_control of the
 * level above each: enabled before the levels are opened. */
static void enable_for_slices(const char *slice)
{
	char path[UNIT_SLICE_PATH_MAX];
	char *save = NULL;

	if (unit_slice_path(slice, path, sizeof path) < 0)
		return;
	for (char *level = strtok_r(path, "/", &save); level; level = strtok_r(NULL, "/", &save)) {
		const struct service *s = slice_with_limits(level);
		if (s)
			enable_on_demand(weights_need(s), level);
	}
}

/* Was this refusal (slice, values) logged already? Records it when not. A slice's limits
 * are written each time a service below it starts: a refusal the kernel gives once it
 * gives on every start, and the log would repeat it for each. */
static bool refusal_known(const char *slice, const struct cg_limits *l)
{
	struct refused_limits *r;

	for (unsigned i = 0; i < REFUSED_MAX; i++) {
		r = &cg.refused[i];
		if (strcmp(r->slice, slice) == 0 && memcmp(&r->limits, l, sizeof *l) == 0)
			return true;
	}
	r = &cg.refused[cg.refused_next++ % REFUSED_MAX];
	str_copy(r->slice, sizeof r->slice, slice);
	r->limits = *l;
	return false;
}

/* A slice unit's [Slice] limits on its directory; unset ones go back to the kernel's
 * defaults (cg_apply_limits). A write the kernel refuses (its controller is not
 * enabled) is a warning, once per slice and values. */
static void apply_slice_limits(int dirfd, const struct service *s)
{
	struct cg_limits l;
	char err[256];

	limits_of(s, &l);
	if (cg_apply_limits(dirfd, &l, err, sizeof err) < 0 && !refusal_known(s->name, &l))
		log_warn("%s: %s; its other limits are set", s->name, err);
}

/* unit_slice_open()'s level function: a slice unit's [Slice] limits on its own directory,
 * each time the level is opened (a slice starting, a service below it starting), so a
 * parent's limits land on the parent's directory. */
static void slice_limits(int dirfd, const char *name)
{
	const struct service *s = slice_with_limits(name);

	if (s)
		apply_slice_limits(dirfd, s);
}

/* unit kinds (unit-kinds): Slice= puts the service's cgroup below its slice's path
 * (init/unit-slice.c); without one it sits in ember's subtree. apply: write the slice
 * units' limits on the way (not when a service's cgroup is only being removed). */
static int slice_dir(const char *slice, bool apply)
{
	int fd;

	if (apply)
		enable_for_slices(slice);
	if (unit_slice_open(cg.subtree_fd, slice, cg.controllers, apply ? slice_limits : NULL,
			    &fd) < 0)
		return -1;
	return fd;
}

static int open_in_slice(const struct service *s, int *fd, bool *fresh)
{
	char leaf[CG_LEAF_NAME_MAX];
	int dir = slice_dir(service_str(s, s->kinds.slice), true), rc;

	if (dir < 0)
		return -1;
	rc = cg_unit_open(dir, leaf_of(s, leaf, sizeof leaf), fd, fresh);
	close(dir);
	return rc;
}

static void slice_prefix(const struct service *s, char *out, size_t size)
{
	char path[UNIT_SLICE_PATH_MAX];

	out[0] = '\0';
	if (unit_slice_path(service_str(s, s->kinds.slice), path, sizeof path) == 0 && path[0])
		snprintf(out, size, "%s/", path);
}

int svc_cgroup_prepare(struct unit *u, char *err, size_t errlen)
{
	const struct service *s = u->svc;
	struct cg_limits l;
	bool fresh = false;
	char leaf[CG_LEAF_NAME_MAX];

	leaf_of(s, leaf, sizeof leaf);
	if (!cg.enabled) { /* exec keys (sandbox-more): the BPF filters need cgroup2 */
		if (service_bpf_wanted(s))
			log_warn("%s: DeviceAllow=/DevicePolicy=/IPAddress*= need cgroup2 "
				 "for services; device access and IP traffic are NOT restricted",
				 leaf);
		return 0;
	}
	enable_for_service(s);
	if (u->cg_fd < 0 && open_in_slice(s, &u->cg_fd, &fresh) < 0) {
		snprintf(err, errlen, "cgroup %s: %s; running it without one", leaf,
			 strerror(errno));
		return -1;
	}
	/* exec keys (sandbox-more): a filter the kernel refuses is a warning, as on systemd */
	if (service_bpf_wanted(s) && svc_bpf_attach(u->cg_fd, s, err, errlen) < 0)
		log_warn("%s: %s", leaf, err);
	if (s->kinds.delegate && unit_delegate(u->cg_fd, s, err, errlen) < 0)
		log_warn("%s: %s; the cgroup is not delegated", s->name, err); /* unit-kinds */
	/* A new cgroup has the kernel's defaults: only set limits need writing. */
	if (fresh && !limits_set(s))
		return 0;
	limits_of(s, &l);
	return cg_apply_limits(u->cg_fd, &l, err, errlen);
}

void svc_cgroup_slice_start(const struct service *s)
{
	int fd;

	if (!cg.enabled || !limits_set(s))
		return; /* a slice without limits gets its directory when a service needs it */
	fd = slice_dir(s->name, true);
	if (fd < 0) {
		log_warn("%s: cgroup: %m; its limits are not set", s->name);
		return;
	}
	close(fd);
}

bool svc_cgroup_limits_differ(const struct service *a, const struct service *b)
{
	struct cg_limits la, lb;

	limits_of(a, &la);
	limits_of(b, &lb);
	return memcmp(&la, &lb, sizeof la) != 0;
}

void svc_cgroup_reloaded(void)
{
	memset(cg.refused, 0, sizeof cg.refused);
	cg.refused_next = 0;
}

/* A slice whose directory exists (it started, or a service below it did) gets its new
 * limits now; one without a directory gets them when it is made. */
static void reapply_slice(const struct service *s)
{
	char path[UNIT_SLICE_PATH_MAX];
	struct stat st;
	int fd;

	if (unit_slice_path(s->name, path, sizeof path) < 0 || !path[0] ||
	    fstatat(cg.subtree_fd, path, &st, 0) < 0)
		return;
	enable_on_demand(weights_need(s), s->name);
	fd = slice_dir(s->name, false); /* each level's controllers, a new weight's too */
	if (fd < 0) {
		log_warn("%s: cgroup: %m; its new limits are not set", s->name);
		return;
	}
	apply_slice_limits(fd, s);
	close(fd);
}

static void reapply_service(struct unit *u)
{
	struct cg_limits l;
	char err[256];

	enable_for_service(u->svc);
	limits_of(u->svc, &l);
	if (cg_apply_limits(u->cg_fd, &l, err, sizeof err) < 0)
		log_warn("%s: %s; its other new limits are set", u->svc->name, err);
}

void svc_cgroup_limits_reload(struct unit *u)
{
	if (!cg.enabled)
		return;
	if (u->svc->kind == UNIT_SLICE)
		reapply_slice(u->svc);
	else if (u->cg_fd >= 0)
		reapply_service(u);
}

void svc_cgroup_release(struct unit *u)
{
	if (u->cg_fd < 0)
		return;
	close(u->cg_fd);
	u->cg_fd = -1;
	/* An empty cgroup goes; one that is not (processes survived SIGKILL) stays. */
	char leaf[CG_LEAF_NAME_MAX];
	int dir = slice_dir(service_str(u->svc, u->svc->kinds.slice), false); /* unit-kinds */
	if (dir >= 0) {
		cg_unit_remove(dir, leaf_of(u->svc, leaf, sizeof leaf));
		close(dir);
	}
}

int svc_cgroup_populated(struct unit *u)
{
	if (cg.enabled && u->cg_fd >= 0)
		return cg_populated(u->cg_fd);
	if (u->pgid <= 0)
		return 0;
	if (kill(-u->pgid, 0) == 0)
		return 1;
	return errno == ESRCH ? 0 : -1;
}

void svc_cgroup_signal(struct unit *u, int sig)
{
	if (cg.enabled && u->cg_fd >= 0)
		cg_kill(u->cg_fd, sig);
	else if (u->pgid > 0)
		kill(-u->pgid, sig);
}

void svc_cgroup_kill(struct unit *u)
{
	svc_cgroup_signal(u, SIGKILL);
}

/* /proc/PID/cgroup holds "0::/ember.slice/NAME.service[/...]" for a process of the service,
 * ".../NAME.socket" for one of a socket unit (paths are relative to the cgroup2 mount
 * ember's subtree lives in). */
bool svc_cgroup_has_pid(const struct unit *u, pid_t pid)
{
	char path[64], buf[512], want[CG_LEAF_NAME_MAX + 16 + UNIT_SLICE_PATH_MAX];
	char slice[UNIT_SLICE_PATH_MAX + 1], leaf[CG_LEAF_NAME_MAX];
	char *line;
	size_t n;

	if (!cg.enabled || u->cg_fd < 0)
		return u->pgid > 0 && getpgid(pid) == u->pgid;
	snprintf(path, sizeof path, "/proc/%d/cgroup", (int)pid);
	if (io_read_file(path, buf, sizeof buf) < 0)
		return false;
	line = strstr(buf, "0::");
	if (!line)
		return false;
	line += 3;
	line[strcspn(line, "\n")] = '\0';
	slice_prefix(u->svc, slice, sizeof slice); /* unit-kinds */
	n = (size_t)snprintf(want, sizeof want, "/%s/%s%s", SUBTREE_NAME, slice,
			     leaf_of(u->svc, leaf, sizeof leaf));
	return strncmp(line, want, n) == 0 && (line[n] == '\0' || line[n] == '/');
}

void svc_cgroup_stats(const struct unit *u, struct svc_cgroup_stats *st)
{
	struct cg_stats cs;

	st->memory_current = st->memory_peak = st->hugetlb_bytes = -1;
	st->pids_current = st->cpu_usage_usec = -1;
	st->path[0] = '\0';
	if (!cg.enabled || u->cg_fd < 0 || cg_read_stats(u->cg_fd, cg.hugetlb_accounted, &cs) < 0)
		return;
#define FIGURE(x) ((x) == CG_UNSET ? -1 : (long long)(x))
	st->memory_current = FIGURE(cs.memory_current);
	st->memory_peak = FIGURE(cs.memory_peak);
	st->hugetlb_bytes = FIGURE(cs.hugetlb_bytes);
	st->pids_current = FIGURE(cs.pids_current);
	st->cpu_usage_usec = FIGURE(cs.cpu_usage_usec);
#undef FIGURE
	char slice[UNIT_SLICE_PATH_MAX + 1], leaf[CG_LEAF_NAME_MAX];
	slice_prefix(u->svc, slice, sizeof slice); /* unit-kinds */
	if (snprintf(st->path, sizeof st->path, "%s/%s/%s%s", cg.root, SUBTREE_NAME, slice,
		     leaf_of(u->svc, leaf, sizeof leaf)) >= (int)sizeof st->path)
		st->path[0] = '\0'; /* too deep a slice to show */
}

/* DelegateSubgroup=: the main process (not ExecStartPre= and the like, as in systemd)
 * starts in the subgroup unit_delegate() made; -1 when it goes to the unit's cgroup. */
static int subgroup_fd(const struct unit *u)
{
	const struct service *s = u->svc;

	if (!s->kinds.delegate || !s->kinds.delegate_subgroup || u->phase != PHASE_MAIN)
		return -1;
	return openat(u->cg_fd, service_str(s, s->kinds.delegate_subgroup),
		      O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

pid_t svc_cgroup_fork(struct unit *u)
{
	pid_t pid;
	int sub, fd;

	if (!cg.enabled || u->cg_fd < 0)
		return fork();
	sub = subgroup_fd(u);
	fd = sub >= 0 ? sub : u->cg_fd;
	pid = cg_clone_into(fd);
	if (pid < 0 && cg_clone_unsupported(errno)) {
		pid = fork();
		if (pid == 0 && cg_attach_self(fd) < 0)
			_exit(127);
	}
	if (sub >= 0)
		close(sub);
	return pid;
}

#define INVOCATION_XATTR "trusted.invocation_id"
#define UNITS_DIR "/run/systemd/units" /* systemd's per-unit state for journald */

/* prefix "invocation:" (the link) or ".#invocation:" (the one being made) */
static int invocation_link_path(const struct unit *u, const char *prefix, char *path,
				size_t size)
{
	char full[SERVICE_NAME_MAX + 16];

	if (unit_name_full(u->svc->name, full, sizeof full) < 0)
		return -1;
	snprintf(path, size, UNITS_DIR "/%s%s", prefix, full);
	return 0;
}

/* journald reads a unit's invocation ID from /run/systemd/units/invocation:NAME, a
 * symbolic link to it, as systemd keeps it; replaced in one rename. Only where
 * /run/systemd exists (a distribution's journald): ember's own systems get none. The
 * directory is made once; a start costs a symlink and a rename. */
static void link_invocation(const struct unit *u)
{
	static bool dir_made;
	char path[SERVICE_NAME_MAX + 64], tmp[SERVICE_NAME_MAX + 64];

	if (!dir_made && mkdir(UNITS_DIR, 0755) < 0 && errno != EEXIST)
		return; /* no /run/systemd */
	dir_made = true;
	if (invocation_link_path(u, "invocation:", path, sizeof path) < 0 ||
	    invocation_link_path(u, ".#invocation:", tmp, sizeof tmp) < 0)
		return;
	if (symlink(u->invocation_id, tmp) < 0 &&
	    (errno != EEXIST || unlink(tmp) < 0 || symlink(u->invocation_id, tmp) < 0))
		return;
	if (rename(tmp, path) < 0)
		unlink(tmp);
}

void svc_invocation_begin(struct unit *u)
{
	if (!id128_draw(u->invocation_id, false)) {
		u->invocation_id[0] = '\0';
		return;
	}
	if (u->cg_fd >= 0)
		fsetxattr(u->cg_fd, INVOCATION_XATTR, u->invocation_id, ID128_HEX_LEN, 0);
	link_invocation(u);
}

const char *svc_invocation_id(struct unit *u)
{
	char id[ID128_HEX_LEN + 1];

	if (!u->invocation_id[0] && u->cg_fd >= 0 &&
	    fgetxattr(u->cg_fd, INVOCATION_XATTR, id, ID128_HEX_LEN) == ID128_HEX_LEN) {
		id[ID128_HEX_LEN] = '\0';
		if (id128_valid(id))
			memcpy(u->invocation_id, id, sizeof id);
	}
	if (!u->invocation_id[0])
		svc_invocation_begin(u);
	return u->invocation_id[0] ? u->invocation_id : NULL;
}

void svc_invocation_forget(const struct unit *u)
{
	char path[SERVICE_NAME_MAX + 64];

	if (invocation_link_path(u, "invocation:", path, sizeof path) == 0)
		unlink(path);
}
