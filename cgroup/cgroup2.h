#ifndef EMBER_CGROUP2_H
#define EMBER_CGROUP2_H
#include <stdbool.h>
#include <stddef.h>

/* The cgroup2 mount options ember asks for. They are superblock-wide: every mount or
 * remount in the initial cgroup namespace replaces the whole set, so ember only ever
 * mounts with a superset of what is in effect. */
enum cg2_option {
	CG2_NSDELEGATE = 1u << 0,
	CG2_MEMORY_RECURSIVEPROT = 1u << 1,
	CG2_MEMORY_HUGETLB_ACCOUNTING = 1u << 2, /* Linux 6.7+ */
};
#define CG2_WANTED (CG2_NSDELEGATE | CG2_MEMORY_RECURSIVEPROT | CG2_MEMORY_HUGETLB_ACCOUNTING)
#define CG2_OPTIONS_MAX 256

const char *cg2_option_name(unsigned option);

/* Which of `wanted` the running kernel accepts: asks the kernel through
 * fsopen/fsconfig without creating a superblock, else reads /sys/kernel/cgroup/features.
 * Returns the supported subset. */
unsigned cg2_probe(unsigned wanted);

struct cg2_mount_result {
	unsigned applied;   /* ember options now in effect */
	unsigned missing;   /* wanted, but not supported by this kernel */
	bool mounted;       /* a new mount was made */
	bool remounted;     /* an existing cgroup2 was remounted with more options */
	char options[CG2_OPTIONS_MAX]; /* the superblock options now in effect */
};

/* Make `path` a cgroup2 mount with as many of `wanted` as the kernel supports.
 * An existing cgroup2 mount there is kept, and remounted only to add options (keeping
 * every option it already had). A mount refused with EINVAL is retried without the
 * optional options. Returns 0 or -1/errno. */
int cg2_mount(const char *path, unsigned wanted, struct cg2_mount_result *res);

/* Whether `path` is a cgroup2 mount (statfs: no mountinfo to read). */
bool cg2_is_mounted(const char *path);
/* Superblock options of the cgroup2 mount at `path` from /proc/self/mountinfo.
 * Returns 1 if `path` is a cgroup2 mount, 0 if not, -1/errno on error. */
int cg2_mount_options(const char *path, char *opts, size_t size);
/* Parse a comma-separated option string into ember option bits. */
unsigned cg2_options_parse(const char *opts);
#endif
