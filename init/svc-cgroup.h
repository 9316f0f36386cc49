#ifndef EMBER_INIT_SVC_CGROUP_H
#define EMBER_INIT_SVC_CGROUP_H
/* A service's cgroup as the supervisor sees it. Without cgroup2 (a container, an old
 * kernel) the service's session stands in for it: weaker, since a process can leave
 * its session, but the only container left. */
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "supervisor.h"

/* Where ember's subtree lives (on cgroup2), or NULL for no cgroups; the mount's options
 * (cgroup2.h bits) when known, else -1 to read them. */
void svc_cgroup_init(const char *cgroup_root, int options);
bool svc_cgroup_enabled(void);
/* Create (or reuse) the service's cgroup and apply its limits. -1 with a message. */
int svc_cgroup_prepare(struct unit *u, char *err, size_t errlen);

/* systemd's invocation ID: a new one for each start (svc_invocation_begin), passed as
 * $INVOCATION_ID to every command of that run, set on the unit's cgroup as the
 * trusted.invocation_id attribute and linked as /run/systemd/units/invocation:NAME,
 * where journald reads it (_SYSTEMD_INVOCATION_ID).
 * svc_invocation_id() gives the current one: after a re-execution it is read back from
 * the cgroup (else a new one is drawn). NULL when no random bytes are to be had yet. */
void svc_invocation_begin(struct unit *u);
const char *svc_invocation_id(struct unit *u);
/* The unit is unloaded (an Accept=yes instance that has ended): its link goes, as
 * systemd removes it at unload, so connections do not pile links up in /run. */
void svc_invocation_forget(const struct unit *u);
/* A slice unit starts: its cgroup directory (and its parents') is made and gets the
 * [Slice] resource limits of every loaded slice unit along its path; a write the kernel
 * refuses is a warning, once per slice and values until a reload. Nothing for a slice without limits. */
void svc_cgroup_slice_start(const struct service *s);
/* Reload: do the resource keys of a and b differ ([Service] or [Slice])? */
bool svc_cgroup_limits_differ(const struct service *a, const struct service *b);
/* Reload: forget the refused slice limits already logged; each is logged once more. */
void svc_cgroup_reloaded(void);
/* Reload: the unit's resource keys changed; write them now, as systemd does for loaded
 * units, unset ones as the kernel's defaults: a running service's on its cgroup, a slice
 * unit's on its directory if that exists. A write the kernel refuses is a warning. */
void svc_cgroup_limits_reload(struct unit *u);
/* The service is stopped: close its cgroup and remove it if empty. */
void svc_cgroup_release(struct unit *u);
/* fork() into the service's cgroup: clone3(CLONE_INTO_CGROUP) where the kernel has it,
 * else fork() and join in the child. The child may only make plain syscalls (see
 * cg_clone_into) and must end in execve or _exit. */
pid_t svc_cgroup_fork(struct unit *u);
/* 1 while any process of the service is left, 0 when none, -1 unknown. */
int svc_cgroup_populated(struct unit *u);
void svc_cgroup_signal(struct unit *u, int sig);
/* SIGKILL to every process of the service (cgroup.kill where the kernel has it). */
void svc_cgroup_kill(struct unit *u);
bool svc_cgroup_has_pid(const struct unit *u, pid_t pid);

/* Resource figures for emberctl status; -1 where unknown or not accounted. */
struct svc_cgroup_stats {
	long long memory_current, memory_peak, hugetlb_bytes, pids_current, cpu_usage_usec;
	char path[256 + SERVICE_NAME_MAX]; /* the cgroup, "" without */
};
void svc_cgroup_stats(const struct unit *u, struct svc_cgroup_stats *st);
#endif
