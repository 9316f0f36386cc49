/* The real system behind struct condition_probe: /proc, /sys and /etc as they are.
 * No allocation (fixed buffers on the stack) except glob(3) for PathExistsGlob=. */
#include "condition.h"

#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "io.h"
#include "unit-kinds.h" /* the mount table */
#include "passwd.h"

static ssize_t real_read_file(void *ctx, const char *path, char *buf, size_t size)
{
	(void)ctx;
	return io_read_file(path, buf, size);
}

static int real_stat(void *ctx, const char *path, struct stat *st, bool follow)
{
	(void)ctx;
	return follow ? stat(path, st) : lstat(path, st);
}

static int real_access(void *ctx, const char *path, int mode)
{
	(void)ctx;
	return access(path, mode);
}

static int real_dir_each(void *ctx, const char *path, int (*fn)(void *arg, const char *name),
			 void *arg)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int r = 0;

	(void)ctx;
	if (!d)
		return -1;
	while (r == 0 && (e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			r = fn(arg, e->d_name);
	closedir(d);
	return r;
}

static bool real_glob_any(void *ctx, const char *pattern)
{
	glob_t g;
	bool any;

	(void)ctx;
	any = glob(pattern, GLOB_NOSORT, NULL, &g) == 0 && g.gl_pathc > 0;
	globfree(&g);
	return any;
}

static int real_read_only_fs(void *ctx, const char *path)
{
	struct statvfs v;

	(void)ctx;
	if (statvfs(path, &v) < 0)
		return -1;
	return (v.f_flag & ST_RDONLY) ? 1 : 0;
}

static const char *real_getenv(void *ctx, const char *name)
{
	(void)ctx;
	return getenv(name);
}

static int real_uname(void *ctx, struct utsname *u)
{
	(void)ctx;
	return uname(u);
}

static int real_identity(void *ctx, uid_t *uid, gid_t *gid, gid_t *groups, int max)
{
	(void)ctx;
	*uid = getuid();
	*gid = getgid();
	return getgroups(max, groups);
}

static int real_user_id(void *ctx, const char *name, uid_t *uid)
{
	struct passwd_user u;

	(void)ctx;
	if (passwd_user_by_name(NULL, name, &u) < 0)
		return -1;
	*uid = u.uid;
	return 0;
}

static int real_group_id(void *ctx, const char *name, gid_t *gid)
{
	struct passwd_group g;

	(void)ctx;
	if (passwd_group_by_name(NULL, name, &g) < 0)
		return -1;
	*gid = g.gid;
	return 0;
}

static long real_cpus(void *ctx)
{
	cpu_set_t set;

	(void)ctx;
	if (sched_getaffinity(0, sizeof set, &set) < 0)
		return sysconf(_SC_NPROCESSORS_ONLN);
	return CPU_COUNT(&set);
}

/* The mount table says, not the devices: a bind mount within one file system, or of a
 * file (the transient /etc/machine-id), is a mount point too. */
static bool real_is_mount_point(void *ctx, const char *path)
{
	char canonical[PATH_MAX];
	dev_t dev;

	(void)ctx;
	if (!realpath(path, canonical))
		return false;
	return unit_mount_is_mountpoint(canonical) || unit_mount_autofs_dev(canonical, &dev) == 0;
}

const struct condition_probe condition_probe_system = {
	.ctx = NULL,
	.read_file = real_read_file,
	.stat = real_stat,
	.access = real_access,
	.dir_each = real_dir_each,
	.glob_any = real_glob_any,
	.read_only_fs = real_read_only_fs,
	.getenv = real_getenv,
	.uname = real_uname,
	.identity = real_identity,
	.user_id = real_user_id,
	.group_id = real_group_id,
	.cpus = real_cpus,
	.is_mount_point = real_is_mount_point,
};
