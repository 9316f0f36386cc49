/* ember's cgroup subtree, a cgroup per service, and their limits. */
#include "cg-service.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io.h"

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_CLOEXEC)
#define CONTROLLERS_TEXT_MAX 512

static void close_keep_errno(int fd)
{
	int saved = errno;
	if (fd >= 0)
		close(fd);
	errno = saved;
}

static int make_dir_at(int dirfd, const char *name)
{
	if (mkdirat(dirfd, name, 0755) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

/* One path component that is not hidden, "." or "..". */
static bool leaf_name_ok(const char *name, size_t max)
{
	size_t len = strlen(name);
	return len > 0 && len < max && name[0] != '.' && !strchr(name, '/') && !strchr(name, '\n');
}

static int service_leaf_name(const char *service, char *buf, size_t size)
{
	if (!leaf_name_ok(service, size - strlen(CG_SERVICE_SUFFIX))) {
		errno = EINVAL;
		return -1;
	}
	snprintf(buf, size, "%s%s", service, CG_SERVICE_SUFFIX);
	return 0;
}

static int read_controllers(int dirfd, const char *file, unsigned *bits)
{
	char buf[CONTROLLERS_TEXT_MAX];
	ssize_t n = io_read_file_at(dirfd, file, buf, sizeof buf);

	if (n < 0)
		return -1;
	if ((size_t)n == sizeof buf - 1) {
		errno = EFBIG; /* the last word may be cut: trust none */
		return -1;
	}
	*bits = cg_controllers_parse(buf);
	return 0;
}

/* Enable `want` in dirfd's cgroup.subtree_control, one controller per write so one the
 * kernel refuses (EINVAL: cpu with realtime tasks outside the root) does not take the
 * others down. *enabled: the wanted ones now on. Fails only with EBUSY, which means
 * the cgroup holds processes (the "no internal processes" rule), or when the file
 * cannot be read. */
static int enable_controllers(int dirfd, unsigned want, unsigned *enabled)
{
	unsigned have;
	char cmd[32];

	*enabled = 0;
	if (read_controllers(dirfd, "cgroup.subtree_control", &have) < 0)
		return -1;
	for (unsigned bit = 1; bit & CG_CTRL_WANTED; bit <<= 1) {
		if (!(want & bit))
			continue;
		if (have & bit) {
			*enabled |= bit;
			continue;
		}
		snprintf(cmd, sizeof cmd, "+%s", cg_controller_name(bit));
		if (io_write_file_at(dirfd, "cgroup.subtree_control", cmd) == 0)
			*enabled |= bit;
		else if (errno == EBUSY)
			return -1;
	}
	return 0;
}

static int move_self_to_init_leaf(int subfd)
{
	int fd, r;

	if (make_dir_at(subfd, CG_INIT_LEAF) < 0)
		return -1;
	fd = openat(subfd, CG_INIT_LEAF, DIR_FLAGS);
	if (fd < 0)
		return -1;
	r = cg_attach_self(fd);
	close_keep_errno(fd);
	return r;
}

/* Enable controllers in the root; if it holds processes (not the hierarchy root), move
 * the caller out of the way once and retry. Controllers that still cannot be enabled
 * are left out: services then run without those limits rather than not at all. */
static void enable_in_root(int rootfd, int subfd, unsigned want, unsigned *in_root)
{
	if (enable_controllers(rootfd, want, in_root) == 0 || errno != EBUSY)
		return;
	if (move_self_to_init_leaf(subfd) == 0 && enable_controllers(rootfd, want, in_root) == 0)
		return;
	unsigned partial = *in_root;
	if (read_controllers(rootfd, "cgroup.subtree_control", in_root) < 0)
		*in_root = partial;
	*in_root &= want;
}

int cg_subtree_enable(const char *root, int subfd, unsigned want, unsigned *enabled)
{
	int rootfd = open(root, DIR_FLAGS);
	unsigned avail, in_root;

	*enabled = 0;
	if (rootfd < 0)
		return -1;
	if (read_controllers(rootfd, "cgroup.controllers", &avail) < 0) {
		close_keep_errno(rootfd);
		return -1;
	}
	enable_in_root(rootfd, subfd, avail & want & CG_CTRL_WANTED, &in_root);
	close(rootfd);
	return enable_controllers(subfd, in_root, enabled);
}

int cg_subtree_init(const char *root, const char *name, unsigned want, int *fd, unsigned *enabled)
{
	int rootfd, subfd = -1;

	*fd = -1;
	*enabled = 0;
	if (!leaf_name_ok(name, CG_LEAF_NAME_MAX)) {
		errno = EINVAL;
		return -1;
	}
	rootfd = open(root, DIR_FLAGS);
	if (rootfd < 0)
		return -1;
	if (make_dir_at(rootfd, name) < 0)
		goto fail;
	subfd = openat(rootfd, name, DIR_FLAGS);
	if (subfd < 0 || cg_subtree_enable(root, subfd, want, enabled) < 0)
		goto fail;
	close(rootfd);
	*fd = subfd;
	return 0;
fail:
	close_keep_errno(subfd);
	close_keep_errno(rootfd);
	return -1;
}

int cg_service_open(int subtree_fd, const char *service, int *fd, bool *created)
{
	char leaf[CG_LEAF_NAME_MAX];

	*fd = -1;
	if (service_leaf_name(service, leaf, sizeof leaf) < 0)
		return -1;
	return cg_unit_open(subtree_fd, leaf, fd, created);
}

int cg_unit_open(int subtree_fd, const char *leaf, int *fd, bool *created)
{
	bool made;

	*fd = -1;
	if (!leaf_name_ok(leaf, CG_LEAF_NAME_MAX)) {
		errno = EINVAL;
		return -1;
	}
	made = mkdirat(subtree_fd, leaf, 0755) == 0;
	if (!made && errno != EEXIST)
		return -1;
	*fd = openat(subtree_fd, leaf, DIR_FLAGS);
	if (*fd < 0)
		return -1;
	if (created)
		*created = made;
	return 0;
}

/* ---- removal ---- */

static int remove_tree(int dirfd, unsigned depth);

static int remove_child(void *ctx, int dirfd, const char *name)
{
	const unsigned *depth = ctx;
	int fd;

	if (*depth < CG_TREE_DEPTH_MAX) {
		fd = openat(dirfd, name, DIR_FLAGS);
		if (fd < 0)
			return -1;
		int r = remove_tree(fd, *depth + 1);
		close_keep_errno(fd);
		if (r < 0)
			return -1;
	}
	return unlinkat(dirfd, name, AT_REMOVEDIR);
}

static int remove_tree(int dirfd, unsigned depth)
{
	return cg_for_each_child(dirfd, remove_child, &depth);
}

int cg_remove(int subtree_fd, const char *service)
{
	char leaf[CG_LEAF_NAME_MAX];

	if (service_leaf_name(service, leaf, sizeof leaf) < 0)
		return -1;
	return cg_unit_remove(subtree_fd, leaf);
}

int cg_unit_remove(int subtree_fd, const char *leaf)
{
	int fd, r;

	if (!leaf_name_ok(leaf, CG_LEAF_NAME_MAX)) {
		errno = EINVAL;
		return -1;
	}
	fd = openat(subtree_fd, leaf, DIR_FLAGS);
	if (fd < 0)
		return -1;
	r = remove_tree(fd, 1);
	close_keep_errno(fd);
	if (r < 0)
		return -1;
	return unlinkat(subtree_fd, leaf, AT_REMOVEDIR);
}

/* ---- limits ---- */

void cg_limits_init(struct cg_limits *l)
{
	l->memory_max = l->memory_high = l->tasks_max = l->memory_swap_max = CG_UNSET;
	l->memory_min = l->memory_low = 0;
	l->cpu_weight = l->io_weight = 0;
}

struct limit_errors {
	unsigned failed;
	int first_errno;
	char *err;
	size_t size;
};

static void report(struct limit_errors *e, const char *fmt, const char *file, const char *what)
{
	if (e->err && e->size)
		snprintf(e->err, e->size, fmt, file, what);
}

static void write_limit(int fd, const char *file, const char *controller, bool set,
			const char *value, struct limit_errors *e)
{
	if (io_write_file_at(fd, file, value) == 0 || (!set && errno == ENOENT))
		return;
	if (e->failed++ > 0)
		return;
	e->first_errno = errno;
	if (errno == ENOENT)
		report(e, "%s: no such file: the %s controller is not enabled for this cgroup",
		       file, controller);
	else
		report(e, "%s: cannot write it: %s", file, strerror(errno));
}

static void write_bytes_limit(int fd, const char *file, const char *controller,
			      unsigned long long v, struct limit_errors *e)
{
	char value[32];

	if (v == CG_UNSET)
		snprintf(value, sizeof value, "max");
	else
		snprintf(value, sizeof value, "%llu", v);
	write_limit(fd, file, controller, v != CG_UNSET, value, e);
}

/* memory.swap.max is missing where the kernel does not account swap (swapaccount=0, no
 * CONFIG_MEMCG_SWAP) though the memory controller is on: MemorySwapMax= is then not set,
 * as systemd leaves it, and the service starts with its other limits. */
static void write_swap_limit(int fd, unsigned long long v, struct limit_errors *e)
{
	char value[32];

	if (v == CG_UNSET)
		snprintf(value, sizeof value, "max");
	else
		snprintf(value, sizeof value, "%llu", v);
	write_limit(fd, "memory.swap.max", "memory", false, value, e);
}

/* memory.min and memory.low: the kernel's default is 0 (no protection), written when
 * unset so a reused cgroup does not keep an old one; CG_UNSET is "max". */
static void write_protection(int fd, const char *file, unsigned long long v,
			     struct limit_errors *e)
{
	char value[32];

	if (v == CG_UNSET)
		snprintf(value, sizeof value, "max");
	else
		snprintf(value, sizeof value, "%llu", v);
	write_limit(fd, file, "memory", v != 0, value, e);
}

static void write_weight(int fd, const char *file, const char *controller, unsigned w,
			 struct limit_errors *e)
{
	char value[16];

	snprintf(value, sizeof value, "%u", w ? w : CG_WEIGHT_DEFAULT);
	write_limit(fd, file, controller, w != 0, value, e);
}

static int check_weight(const char *file, unsigned w, char *err, size_t size)
{
	if (w == 0 || (w >= CG_WEIGHT_MIN && w <= CG_WEIGHT_MAX))
		return 0;
	if (err && size)
		snprintf(err, size, "%s: %u is out of range %u..%u", file, w, CG_WEIGHT_MIN,
			 CG_WEIGHT_MAX);
	errno = EINVAL;
	return -1;
}

int cg_apply_limits(int fd, const struct cg_limits *l, char *err, size_t err_size)
{
	struct limit_errors e = { 0, 0, err, err_size };
	size_t len;

	if (check_weight("cpu.weight", l->cpu_weight, err, err_size) < 0 ||
	    check_weight("io.weight", l->io_weight, err, err_size) < 0)
		return -1;
	write_bytes_limit(fd, "memory.max", "memory", l->memory_max, &e);
	write_bytes_limit(fd, "memory.high", "memory", l->memory_high, &e);
	write_swap_limit(fd, l->memory_swap_max, &e);
	write_protection(fd, "memory.min", l->memory_min, &e);
	write_protection(fd, "memory.low", l->memory_low, &e);
	write_bytes_limit(fd, "pids.max", "pids", l->tasks_max, &e);
	write_weight(fd, "cpu.weight", "cpu", l->cpu_weight, &e);
	write_weight(fd, "io.weight", "io", l->io_weight, &e);
	if (e.failed == 0)
		return 0;
	if (e.failed > 1 && err && err_size && (len = strlen(err)) < err_size)
		snprintf(err + len, err_size - len, " (and %u more)", e.failed - 1);
	errno = e.first_errno;
	return -1;
}
