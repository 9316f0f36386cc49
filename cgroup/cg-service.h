#ifndef EMBER_CGROUP_CG_SERVICE_H
#define EMBER_CGROUP_CG_SERVICE_H
/* Per-service cgroups below ember's subtree (docs/cgroups.md).
 *
 *   <root>/<name>/                 ember's subtree: controllers enabled, no processes
 *   <root>/<name>/<svc>.service    one leaf per service
 *   <root>/<name>/init             PID 1, only when <root> is not the hierarchy root
 *
 * Every function returns 0 (or the documented value) and -1 with errno on failure. None
 * allocates: buffers are fixed and on the stack, cgroupfs files are written with one raw
 * write(2) (lib/io.h), so PID 1 may call all of them. Directory fds are O_DIRECTORY and
 * O_CLOEXEC; the caller closes the fds it is given. */
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define CG_UNSET (~0ULL) /* "not set" / "no figure" for 64-bit values */

/* The controllers ember enables for its services. */
enum cg_controller {
	CG_CTRL_MEMORY = 1u << 0,
	CG_CTRL_PIDS = 1u << 1,
	CG_CTRL_CPU = 1u << 2,
	CG_CTRL_IO = 1u << 3,
};
#define CG_CTRL_WANTED (CG_CTRL_MEMORY | CG_CTRL_PIDS | CG_CTRL_CPU | CG_CTRL_IO)
/* memory and pids are always on: they give every service its figures (memory.current,
 * pids.current). cpu and io only limit: each enabled controller makes every cgroup
 * dearer to create and, for cpu, every context switch dearer, so PID 1 enables them
 * when a service first asks for CPUWeight= or IOWeight= (cpu.stat's usage exists
 * without the cpu controller). */
#define CG_CTRL_ACCOUNTING (CG_CTRL_MEMORY | CG_CTRL_PIDS)

#define CG_SERVICE_SUFFIX ".service"
#define CG_INIT_LEAF "init"
#define CG_LEAF_NAME_MAX 128 /* a service's directory name incl. suffix and NUL */
#define CG_TREE_DEPTH_MAX 8  /* nested cgroups below a service that kill/remove visit */
#define CG_KILL_PASSES 32    /* bound on cgroup.procs passes in cg_kill_procs() */
#define CG_KILL_SEEN_MAX 512 /* pids remembered per cg_kill_procs() call (stack) */
#define CG_WEIGHT_MIN 1
#define CG_WEIGHT_MAX 10000
#define CG_WEIGHT_DEFAULT 100

/* ---- ember's subtree and service cgroups ---- */

/* Create <root>/<name> and enable in <root> and <name> each controller of `want` (of
 * CG_CTRL_WANTED) that <root>/cgroup.controllers offers; *fd gets <root>/<name>,
 * *enabled the controllers now enabled for services (one that cannot be enabled, e.g.
 * cpu with realtime tasks about, is left out, not an error). When <root> is the
 * hierarchy root, the caller stays where it is (the root cgroup is exempt from the "no
 * internal processes" rule, and that is where the kernel starts PID 1). When <root> is
 * not (a cgroup namespace, a container) and holds processes, the kernel refuses to
 * enable controllers there: the caller then moves itself into <root>/<name>/init and
 * tries again. */
int cg_subtree_init(const char *root, const char *name, unsigned want, int *fd, unsigned *enabled);

/* Enable more controllers later, the same way, in <root> and the subtree subfd (the
 * kernel adds them to every service cgroup already there). *enabled: all of `want`
 * now on. Enabling a controller that is on already changes nothing. */
int cg_subtree_enable(const char *root, int subfd, unsigned want, unsigned *enabled);

/* Make (EEXIST is fine) and open <subtree>/<service>.service; *created (may be NULL)
 * tells whether it is new, with the kernel's default limits. The fd can be given to
 * cg_clone_into(). service: 1..CG_LEAF_NAME_MAX-9 bytes, no '/', '\n', leading '.'. A
 * reused cgroup may still hold processes of an earlier run: see cg_populated(). */
int cg_service_open(int subtree_fd, const char *service, int *fd, bool *created);

/* Remove <subtree>/<service>.service and any empty cgroups below it (depth
 * CG_TREE_DEPTH_MAX). EBUSY while it holds processes, ENOENT when it does not exist. */
int cg_remove(int subtree_fd, const char *service);

/* The same for a unit of any kind, by its full name ("dbus.socket", "sshd.service"): the
 * cgroup is named as systemd names it, the suffix included. leaf: 1..CG_LEAF_NAME_MAX-1
 * bytes, the same characters as service above. */
int cg_unit_open(int subtree_fd, const char *leaf, int *fd, bool *created);
int cg_unit_remove(int subtree_fd, const char *leaf);

/* ---- limits ---- */

struct cg_limits {
	unsigned long long memory_max, memory_high, tasks_max; /* CG_UNSET: not set */
	unsigned long long memory_swap_max; /* CG_UNSET: not set; no file (swap not
					     * accounted) is never an error */
	unsigned long long memory_min, memory_low; /* 0: not set; CG_UNSET: "max" */
	unsigned cpu_weight, io_weight;                          /* 0: not set */
};

/* All unset. */
void cg_limits_init(struct cg_limits *l);

/* Write memory.max, memory.high, memory.swap.max, memory.min, memory.low, pids.max,
 * cpu.weight and io.weight. An unset limit writes the kernel default ("max", 0, 100), so a reused cgroup does not keep an old limit;
 * a missing file is then ignored. A set limit whose file is missing (its controller is
 * not enabled) is an error. Out-of-range weights fail with EINVAL before anything is
 * written. Otherwise every limit is tried; on failure err gets the first one, naming
 * the file and the reason ("memory.max: no such file: the memory controller is not
 * enabled for this cgroup"), and -1 is returned. */
int cg_apply_limits(int fd, const struct cg_limits *l, char *err, size_t err_size);

/* ---- starting a process in a cgroup ---- */

/* Fork into the cgroup `fd` atomically: clone3(CLONE_INTO_CGROUP), exit signal
 * SIGCHLD. Returns the child's pid in the parent and 0 in the child, which is in the
 * cgroup from its first instruction. The child is a raw clone: libc did not run its
 * fork bookkeeping, so its cached thread id is the parent's (musl's raise(), abort()
 * and pthread_kill() would signal the parent) and atfork handlers did not run. The
 * child may only make async-signal-safe calls that are plain syscalls (dup2, open,
 * close, chdir, setsid, setgid/setuid, sigprocmask, sigaction, execve, write, _exit)
 * and must end in execve or _exit. When the kernel cannot (see cg_clone_unsupported),
 * fork() and call cg_attach_self() in the child before execve. */
pid_t cg_clone_into(int fd);

/* True for the errnos of cg_clone_into() that mean "this kernel (or its seccomp
 * policy) has no clone3 into a cgroup": ENOSYS (< 5.3), E2BIG (< 5.7), EINVAL, EPERM. */
bool cg_clone_unsupported(int err);

/* Move the calling process into the cgroup: "0" to its cgroup.procs. Async-signal-safe
 * (openat, write, close), for the child of fork(). */
int cg_attach_self(int fd);

/* ---- stopping ---- */

/* Signal every process in the cgroup and below. SIGKILL goes through cgroup.kill
 * (5.14+), which the kernel applies to the whole tree at once; without cgroup.kill,
 * and for every other signal, this is cg_kill_procs(). Returns once signals are sent:
 * the service has stopped when cg_populated() says 0. */
int cg_kill(int fd, int sig);

/* The fallback: freeze the cgroup (cgroup.freeze, 5.2+; a cgroup frozen by someone
 * else stays frozen), send sig to each pid in cgroup.procs of it and of the cgroups
 * below it, in passes until a pass finds no pid it has not signalled (at most
 * CG_KILL_PASSES), then thaw. Frozen processes cannot fork, and a child forked while
 * the freeze takes effect is born in the cgroup, frozen, and found by the next pass.
 * Each pid is signalled once per call (the first CG_KILL_SEEN_MAX of them; later ones
 * may be signalled again in later passes). The caller's own pid is never signalled. */
int cg_kill_procs(int fd, int sig);

/* 1 when the cgroup or a cgroup below it holds a process, 0 when not ("populated" in
 * cgroup.events), -1/errno: ENOENT (no cgroup.events: the hierarchy root or not a
 * cgroup), EBADMSG (unreadable content). */
int cg_populated(int fd);

/* An fd on the cgroup's cgroup.events for poll(2): POLLPRI (with POLLERR) when its
 * content changed. Read it with cg_events_populated(), which also re-arms the poll. */
int cg_events_open(int fd);
int cg_events_populated(int events_fd);

/* ---- figures ---- */

struct cg_stats {
	unsigned long long memory_current; /* bytes, memory.current */
	unsigned long long memory_peak;    /* bytes, memory.peak (5.19+) */
	unsigned long long hugetlb_bytes;  /* bytes, memory.stat "hugetlb" (6.7+) */
	unsigned long long pids_current;   /* pids.current */
	unsigned long long cpu_usage_usec; /* cpu.stat "usage_usec" (no cpu controller needed) */
};

/* Fill st; a figure whose file or key is missing or unreadable is CG_UNSET. HugeTLB
 * pages are charged to a cgroup only when cgroup2 is mounted with
 * memory_hugetlb_accounting (cg2_mount_result.applied): pass that as
 * hugetlb_accounted, else hugetlb_bytes stays CG_UNSET. Returns -1 only when fd is not
 * a readable directory. */
int cg_read_stats(int fd, bool hugetlb_accounted, struct cg_stats *st);

/* ---- parsers and walkers (pure, or reading only the fd they are given) ---- */

/* Controllers named in a cgroup.controllers / cgroup.subtree_control text. */
unsigned cg_controllers_parse(const char *text);
const char *cg_controller_name(unsigned controller); /* "memory"; "?" when unknown */

/* A decimal unsigned 64-bit number: digits only, optional trailing '\n'. */
int cg_parse_u64(const char *s, size_t len, unsigned long long *out);

/* One "key value" line (cgroup.events, cpu.stat, memory.stat): 1 and *value when the
 * line's key is `key` and its value a number, 0 for another key, -1/EBADMSG when the
 * key matches and the value does not parse. */
int cg_kv_line(const char *line, size_t len, const char *key, unsigned long long *value);

/* Call fn for each '\n'-terminated line (and a final unterminated one) read from fd,
 * using buf as the only storage; the line is NUL-terminated in place. A line that does
 * not fit buf is skipped whole. fn returns 0 to go on, 1 to stop, -1 to fail. Returns
 * 0 at end of file, 1 when fn stopped, -1/errno. */
typedef int cg_line_fn(void *ctx, char *line, size_t len);
int cg_read_lines(int fd, char *buf, size_t size, cg_line_fn *fn, void *ctx);

/* The first line of fd whose key is `key`: 1 and *value, 0 when there is none,
 * -1/errno (EBADMSG when its value does not parse). Reads from the current offset. */
int cg_kv_read(int fd, const char *key, unsigned long long *value);

/* Call fn for each child cgroup (subdirectory) of dirfd, with dirfd and its name.
 * fn returns 0 to go on, -1 to stop with an error. */
typedef int cg_child_fn(void *ctx, int dirfd, const char *name);
int cg_for_each_child(int dirfd, cg_child_fn *fn, void *ctx);
#endif
