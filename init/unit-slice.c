/* Slices and Delegate= in ember's cgroup subtree (docs/cgroups.md, "Slices").
 *
 * ember's subtree stands for systemd's root slice (-.slice): a service without Slice=
 * sits directly in it, as before. Slice=a-b.slice puts the service's cgroup at
 * <subtree>/a.slice/a-b.slice/<name>.service: systemd's dash rule, each dash a level.
 * Every slice level gets the controllers ember enables for services in its
 * cgroup.subtree_control (a slice holds no processes, so the kernel allows it), and
 * then its slice unit's [Slice] limits through the caller's level function. */
#include "unit-slice.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cg-service.h"
#include "io.h"
#include "passwd.h"
#include "unit-name.h"

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_CLOEXEC)

static void enable_in(int dirfd, unsigned controllers)
{
	char cmd[16];

	for (unsigned bit = 1; bit & CG_CTRL_WANTED; bit <<= 1)
		if (controllers & bit) {
			snprintf(cmd, sizeof cmd, "+%s", cg_controller_name(bit));
			(void)io_write_file_at(dirfd, "cgroup.subtree_control", cmd);
		}
}

int unit_slice_open(int subtree_fd, const char *slice, unsigned controllers,
		    unit_slice_level_fn *level_fn, int *fd)
{
	char path[UNIT_SLICE_PATH_MAX];
	char *save = NULL;
	int dirfd = subtree_fd;

	*fd = -1;
	if (unit_slice_path(slice, path, sizeof path) < 0) {
		errno = EINVAL;
		return -1;
	}
	for (char *level = strtok_r(path, "/", &save); level; level = strtok_r(NULL, "/", &save)) {
		int next;
		if (mkdirat(dirfd, level, 0755) < 0 && errno != EEXIST)
			next = -1;
		else
			next = openat(dirfd, level, DIR_FLAGS);
		if (dirfd != subtree_fd)
			close(dirfd);
		if (next < 0)
			return -1;
		enable_in(next, controllers);
		if (level_fn)
			level_fn(next, level);
		dirfd = next;
	}
	*fd = dirfd == subtree_fd ? dup(subtree_fd) : dirfd;
	return *fd < 0 ? -1 : 0;
}

/* Delegate=: the service's user owns its cgroup directory and the files a manager of a
 * subtree writes (systemd's list). The controllers are in the parent's subtree_control,
 * hence in the service cgroup's cgroup.controllers; enabling them below is the
 * delegatee's job, after it moved its processes out of the cgroup into a leaf (the
 * kernel's "no internal processes" rule). */
static int chown_cgroup(int fd, uid_t uid, gid_t gid, char *err, size_t size)
{
	static const char *const files[] = { "cgroup.procs", "cgroup.threads",
					     "cgroup.subtree_control" };

	if (fchown(fd, uid, gid) < 0) {
		snprintf(err, size, "Delegate=: chown of the cgroup: %s", strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < sizeof files / sizeof *files; i++)
		if (fchownat(fd, files[i], uid, gid, 0) < 0 && errno != ENOENT) {
			snprintf(err, size, "Delegate=: chown of %s: %s", files[i], strerror(errno));
			return -1;
		}
	return 0;
}

/* DelegateSubgroup=: the main process's cgroup, made by ember below the delegated one
 * and the service's as well (svc_cgroup_fork() starts the main process in it). */
static int make_subgroup(int cg_fd, const struct service *s, uid_t uid, gid_t gid, bool owned,
			 char *err, size_t size)
{
	const char *name = service_str(s, s->kinds.delegate_subgroup);
	int fd, r = 0;

	if (!*name)
		return 0;
	if (mkdirat(cg_fd, name, 0755) < 0 && errno != EEXIST) {
		snprintf(err, size, "DelegateSubgroup=%s: %s", name, strerror(errno));
		return -1;
	}
	fd = openat(cg_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, size, "DelegateSubgroup=%s: %s", name, strerror(errno));
		return -1;
	}
	if (owned)
		r = chown_cgroup(fd, uid, gid, err, size);
	close(fd);
	return r;
}

int unit_delegate(int cg_fd, const struct service *s, char *err, size_t size)
{
	const char *user = service_str(s, s->user), *group = service_str(s, s->group);
	struct passwd_user pw;
	struct passwd_group gr;
	uid_t uid;
	gid_t gid;

	if (!*user) /* root's service: root owns the cgroup already */
		return make_subgroup(cg_fd, s, 0, 0, false, err, size);
	if (passwd_user_lookup(NULL, user, &pw) < 0) {
		snprintf(err, size, "Delegate=: User=%.64s is not in /etc/passwd", user);
		return -1;
	}
	uid = pw.uid;
	gid = pw.gid;
	if (*group) {
		if (passwd_group_lookup(NULL, group, &gr) < 0) {
			snprintf(err, size, "Delegate=: Group=%.64s is not in /etc/group", group);
			return -1;
		}
		gid = gr.gid;
	}
	if (chown_cgroup(cg_fd, uid, gid, err, size) < 0)
		return -1;
	return make_subgroup(cg_fd, s, uid, gid, true, err, size);
}
