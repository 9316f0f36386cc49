#ifndef EMBER_INIT_RLIMITS_H
#define EMBER_INIT_RLIMITS_H
/* PID 1's own resource limits. As systemd's PID 1, ember-init raises its open-files limit
 * to the kernel's ceiling (fs.nr_open) and its locked-memory limit to an eighth of the
 * RAM (at least 64 MiB), and gives what it starts the limits it was started with. The
 * raised values reach further than PID 1: Debian's pam_limits takes /proc/1/limits as the
 * defaults of every PAM session (sshd, login, cron, su, PAMName= units), so a login gets
 * the same limits under ember as under systemd. */
#include <stdbool.h>
#include <sys/resource.h>

#define RLIMITS_MEMLOCK_FLOOR (64ULL << 20)
#define RLIMITS_NR_OPEN_DEFAULT (1024 * 1024) /* the kernel's fs.nr_open default */

/* What PID 1 raises `resource` (RLIMIT_NOFILE or RLIMIT_MEMLOCK) to, started with `was`:
 * never lower than it was. nr_open, and the RAM in pages of page_size bytes (an eighth
 * of them, in whole pages, as systemd counts): 0 when unknown. */
struct rlimit rlimits_raised(int resource, struct rlimit was, rlim_t nr_open,
			     unsigned long long ram_pages, unsigned long page_size);

/* At start: remember the limits PID 1 was started with, then raise them. Where PID 1
 * may not raise its hard limits (a container without CAP_SYS_RESOURCE), each soft limit
 * goes up to its hard one instead. */
void rlimits_raise_own(void);
/* Before re-executing: back to the limits PID 1 was started with, so that the next one
 * finds them as this one did. */
void rlimits_restore_own(void);
/* The limit PID 1 was started with, for RLIMIT_NOFILE and RLIMIT_MEMLOCK; false for the
 * others (which PID 1 never changes) and before rlimits_raise_own(). */
bool rlimits_original(int resource, struct rlimit *out);
/* In a child of PID 1 that runs a program without an exec context (generators, the
 * console shell, helpers): the limits PID 1 was started with. */
void rlimits_for_child(void);
#endif
