/* ember-sandbox's steps: namespaces and mounts for the sandboxing keys. Plain syscalls,
 * no library. The order matters and is the one in ember-sandbox(8): read-only passes
 * first, then the writable exceptions, then what is hidden, then the new /tmp and /dev
 * (fresh mounts, so a read-only / does not make them read-only). */
#include "setup.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "exec-context.h"
#include "systemd-view.h"

/* mount_setattr(2) (Linux 5.12): the only way to make a whole subtree read-only in one
 * call. Declared here: libc headers do not all have it yet. */
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#define SB_AT_RECURSIVE 0x8000
struct sb_mount_attr {
	uint64_t attr_set, attr_clr, propagation, userns_fd;
};

#define CAP_SYS_MODULE_NR 16
#define CAP_SYS_RAWIO_NR 17
#define CAP_MKNOD_NR 27

static int failed(struct sandbox_error *e, int op, const char *path)
{
	e->op = op;
	e->err = errno;
	e->path = path;
	return -1;
}

int sandbox_mount_attr(int dir, const char *path, uint64_t set, uint64_t clear,
		       bool recursive)
{
	struct sb_mount_attr a = { .attr_set = set, .attr_clr = clear };
	unsigned flags = (recursive ? SB_AT_RECURSIVE : 0) | (*path ? 0 : AT_EMPTY_PATH);

	return (int)syscall(SYS_mount_setattr, dir, path, flags, &a, sizeof a);
}

static int set_read_only(const char *path, bool read_only)
{
	if (sandbox_mount_attr(AT_FDCWD, path, read_only ? SANDBOX_ATTR_RDONLY : 0,
			       read_only ? 0 : SANDBOX_ATTR_RDONLY, true) == 0)
		return 0;
	if (errno != ENOSYS)
		return -1;
	/* Older kernels: the top mount only. */
	return mount(NULL, path, NULL, MS_REMOUNT | MS_BIND | (read_only ? MS_RDONLY : 0), NULL);
}

/* path, with everything below it, read-only or writable (binds.c walks it: a symlink on
 * it is followed only when root owns it, as the service's user may plant one or swap a
 * name for one while this runs). A missing optional path is skipped. */
static int restrict_path(const char *path, bool optional, bool read_only, int op,
			 struct sandbox_error *e)
{
	if (sandbox_path_attr(path, read_only ? SANDBOX_ATTR_RDONLY : 0,
			      read_only ? 0 : SANDBOX_ATTR_RDONLY) == 0)
		return 0;
	if (optional && errno == ENOENT)
		return 0;
	return failed(e, op, path);
}

/* ReadOnlyPaths= and ReadWritePaths=, in the order and with the redundant ones left
 * out as systemd does (layout.c). */
static int restrict_paths(const struct sandbox_request *r, struct sandbox_error *e)
{
	static struct sandbox_path steps[2 * SANDBOX_PATHS_MAX];
	static bool read_only[2 * SANDBOX_PATHS_MAX];
	size_t n = sandbox_layout(r, steps, read_only, 2 * SANDBOX_PATHS_MAX);

	for (size_t i = 0; i < n; i++)
		if (restrict_path(steps[i].path, steps[i].optional, read_only[i],
				  read_only[i] ? EXEC_SANDBOX_READ_ONLY : EXEC_SANDBOX_READ_WRITE,
				  e) < 0)
			return -1;
	return 0;
}

static const char *const home_paths[] = { "/home", "/root", "/run/user" };
#define HOME_PATH_COUNT (sizeof home_paths / sizeof *home_paths)

static int protect_system(const struct sandbox_request *r, struct sandbox_error *e)
{
	static const char *const api[] = { "/dev", "/proc", "/sys" };

	switch (r->protect_system) {
	case SB_SYSTEM_NO:
		return 0;
	case SB_SYSTEM_STRICT:
		if (set_read_only("/", true) < 0)
			return failed(e, EXEC_SANDBOX_READ_ONLY, "/");
		for (size_t i = 0; i < sizeof api / sizeof *api; i++)
			if (set_read_only(api[i], false) < 0 && errno != ENOENT && errno != EINVAL)
				return failed(e, EXEC_SANDBOX_READ_WRITE, api[i]);
		/* as systemd: the homes stay writable, ProtectHome= decides about them
		 * (accounts-daemon's user creation writes /home) */
		for (size_t i = 0; r->protect_home == SB_HOME_NO && i < HOME_PATH_COUNT; i++)
			if (restrict_path(home_paths[i], true, false, EXEC_SANDBOX_READ_WRITE, e) < 0)
				return -1;
		return 0;
	case SB_SYSTEM_FULL:
		if (restrict_path("/etc", true, true, EXEC_SANDBOX_READ_ONLY, e) < 0)
			return -1;
		/* fall through */
	case SB_SYSTEM_YES:
		if (restrict_path("/usr", true, true, EXEC_SANDBOX_READ_ONLY, e) < 0 ||
		    restrict_path("/boot", true, true, EXEC_SANDBOX_READ_ONLY, e) < 0 ||
		    restrict_path("/efi", true, true, EXEC_SANDBOX_READ_ONLY, e) < 0)
			return -1;
		return 0;
	}
	return 0;
}

static int protect_home(const struct sandbox_request *r, struct sandbox_error *e)
{
	for (size_t i = 0; i < HOME_PATH_COUNT; i++) {
		const char *p = home_paths[i];
		if (r->protect_home == SB_HOME_READ_ONLY &&
		    restrict_path(p, true, true, EXEC_SANDBOX_READ_ONLY, e) < 0)
			return -1;
		if (r->protect_home == SB_HOME_TMPFS &&
		    mount("tmpfs", p, "tmpfs", MS_NOSUID | MS_NODEV | MS_RDONLY, "mode=0755") < 0 &&
		    errno != ENOENT)
			return failed(e, EXEC_SANDBOX_HOME, p);
	}
	return 0;
}

static int protect_kernel(const struct sandbox_request *r, struct sandbox_error *e)
{
	static const char *const tunables[] = {
		"/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs",
		"/sys",
	};

	if (r->protect_kernel_tunables)
		for (size_t i = 0; i < sizeof tunables / sizeof *tunables; i++)
			if (restrict_path(tunables[i], true, true, EXEC_SANDBOX_READ_ONLY, e) < 0)
				return -1;
	if (r->protect_control_groups &&
	    restrict_path("/sys/fs/cgroup", true, true, EXEC_SANDBOX_READ_ONLY, e) < 0)
		return -1;
	return 0;
}

/* ---- hidden paths: an empty mode-0000 directory or file mounted over each ---- */

/* The staging objects, as O_PATH fds (closed by hide_all). */
struct hide_objects {
	int dir, file;
};

static int hide(const char *path, bool optional, const struct hide_objects *o,
		struct sandbox_error *e)
{
	if (sandbox_path_hide(path, o->dir, o->file) == 0 || (optional && errno == ENOENT))
		return 0;
	return failed(e, EXEC_SANDBOX_INACCESSIBLE, path);
}

static bool hides_anything(const struct sandbox_request *r)
{
	return r->inaccessible.count > 0 || r->protect_home == SB_HOME_YES ||
	       r->protect_kernel_modules;
}

/* Does the path a lie on, below or above the path b? ("/" lies above everything) */
static bool paths_meet(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), n = la < lb ? la : lb;

	if (strcmp(a, "/") == 0 || strcmp(b, "/") == 0)
		return true;
	return strncmp(a, b, n) == 0 && (la == lb || (la < lb ? b : a)[n] == '/');
}

static bool staging_usable(const char *dir, const struct sandbox_request *r)
{
	struct stat st;

	for (size_t i = 0; i < r->inaccessible.count; i++)
		if (paths_meet(dir, r->inaccessible.item[i].path))
			return false;
	return lstat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Where the objects are made: a directory no hidden path meets. Unmounted by name once
 * the hides are done, so a hide on (InaccessiblePaths=/tmp), below or above it would be
 * taken away with it, or not find its path. (ProtectHome= and the module paths meet
 * none of these.) */
static const char *staging_dir(const struct sandbox_request *r)
{
	static const char *const dirs[] = { "/tmp", "/mnt", "/media", "/srv", "/var/tmp" };

	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
		if (staging_usable(dirs[i], r))
			return dirs[i];
	return NULL;
}

/* The objects live on a small tmpfs mounted over a staging directory just for this and
 * detached right after: the bind mounts keep it alive, nothing else can reach it. */
static int hide_all(const struct sandbox_request *r, struct sandbox_error *e)
{
	static const char *const modules[] = { "/usr/lib/modules", "/lib/modules" };
	struct hide_objects o = { -1, -1 };
	const char *staging;
	int dir, fd = -1, rc = 0;

	if (!hides_anything(r))
		return 0;
	staging = staging_dir(r);
	if (!staging || mount("tmpfs", staging, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
			      "mode=0700,size=4k") < 0)
		return failed(e, EXEC_SANDBOX_INACCESSIBLE, staging ? staging : "staging directory");
	dir = open(staging, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dir >= 0)
		fd = openat(dir, "reg", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
	if (fd < 0 || mkdirat(dir, "dir", 0) < 0 || fchmodat(dir, "dir", 0, 0) < 0 ||
	    (o.file = openat(dir, "reg", O_PATH | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
	    (o.dir = openat(dir, "dir", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		rc = failed(e, EXEC_SANDBOX_INACCESSIBLE, staging);
	if (fd >= 0)
		close(fd);
	if (dir >= 0)
		close(dir);
	for (size_t i = 0; rc == 0 && i < r->inaccessible.count; i++)
		rc = hide(r->inaccessible.item[i].path, r->inaccessible.item[i].optional, &o, e);
	for (size_t i = 0; rc == 0 && r->protect_home == SB_HOME_YES && i < HOME_PATH_COUNT; i++)
		rc = hide(home_paths[i], true, &o, e);
	for (size_t i = 0; rc == 0 && r->protect_kernel_modules && i < 2; i++)
		rc = hide(modules[i], true, &o, e);
	if (o.file >= 0)
		close(o.file);
	if (o.dir >= 0)
		close(o.dir);
	if (umount2(staging, MNT_DETACH) < 0 && rc == 0)
		rc = failed(e, EXEC_SANDBOX_INACCESSIBLE, staging);
	return rc;
}

/* ---- fresh /tmp and /dev ---- */

static int private_tmp(struct sandbox_error *e)
{
	const unsigned long flags = MS_NOSUID | MS_NODEV;

	if (mount("tmpfs", "/tmp", "tmpfs", flags, "mode=1777") < 0)
		return failed(e, EXEC_SANDBOX_TMP, "/tmp");
	if (mount("tmpfs", "/var/tmp", "tmpfs", flags, "mode=1777") < 0 && errno != ENOENT)
		return failed(e, EXEC_SANDBOX_TMP, "/var/tmp");
	return 0;
}

/* One device node of the private /dev. Where none can be made (a device program that
 * refuses mknod, DevicePolicy=strict; a user namespace, PrivateUsers=) the host's node
 * is bound onto an empty file instead, as systemd does; host_dev: the host's /dev,
 * opened before the tmpfs covered it. */
static int dev_node(int host_dev, const char *name, unsigned major, unsigned minor)
{
	char from[64];
	int fd;

	if (mknod(name, S_IFCHR | 0666, makedev(major, minor)) == 0)
		return 0;
	if (errno != EPERM || host_dev < 0)
		return -1;
	fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0)
		return -1;
	close(fd);
	snprintf(from, sizeof from, "/proc/self/fd/%d/%s", host_dev, name + strlen("/dev/"));
	return mount(from, name, NULL, MS_BIND, NULL);
}

/* A fresh tmpfs on /dev with the nodes every program may expect, nothing that reaches
 * hardware. host_dev: the host's /dev, opened before the tmpfs covers it. */
static int dev_tmpfs(int host_dev, struct sandbox_error *e)
{
	static const struct { const char *name; unsigned major, minor; } nodes[] = {
		{ "/dev/null", 1, 3 }, { "/dev/zero", 1, 5 }, { "/dev/full", 1, 7 },
		{ "/dev/random", 1, 8 }, { "/dev/urandom", 1, 9 }, { "/dev/tty", 5, 0 },
	};

	if (mount("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755") < 0)
		return failed(e, EXEC_SANDBOX_DEV, "/dev");
	for (size_t i = 0; i < sizeof nodes / sizeof *nodes; i++)
		if (dev_node(host_dev, nodes[i].name, nodes[i].major, nodes[i].minor) < 0)
			return failed(e, EXEC_SANDBOX_DEV, nodes[i].name);
	return 0;
}

/* What systemd's private /dev shares with the host's: the syslog socket (/dev/log:
 * journald's link, or a syslog daemon's own socket; without it a daemon's syslog()
 * went nowhere: Debian's gdnsd), POSIX shared memory, message queues, huge pages.
 * Only shared memory must be there: an empty one of its own where the host has none. */
static int dev_shared(int host_dev, struct sandbox_error *e)
{
	static const char *const optional[] = { "log", "mqueue", "hugepages" };
	int dev = open("/dev", O_PATH | O_DIRECTORY | O_CLOEXEC), r = 0;
	struct stat st;

	for (size_t i = 0; host_dev >= 0 && dev >= 0 && i < sizeof optional / sizeof *optional; i++)
		(void)bind_entry(host_dev, "/dev", dev, optional[i]);
	if (host_dev >= 0 && dev >= 0 && bind_entry(host_dev, "/dev", dev, "shm") < 0)
		r = -1;
	if (r == 0 && lstat("/dev/shm", &st) < 0 && mkdir("/dev/shm", 01777) < 0)
		r = -1;
	if (r < 0)
		failed(e, EXEC_SANDBOX_DEV, "/dev/shm");
	if (dev >= 0)
		close(dev);
	return r;
}

/* PrivateIPC=: /dev/mqueue shows the queues of the namespace that mounted it, so the
 * new IPC namespace gets one of its own, as under systemd. A missing /dev/mqueue is
 * made only in a private /dev: on the host's it would outlive the service. */
static int private_mqueue(const struct sandbox_request *r, struct sandbox_error *e)
{
	const unsigned long flags = MS_NOSUID | MS_NODEV | MS_NOEXEC;
	struct stat st;

	if (stat("/dev/mqueue", &st) < 0 &&
	    (!r->private_devices || mkdir("/dev/mqueue", 0755) < 0))
		return r->private_devices ? failed(e, EXEC_SANDBOX_DEV, "/dev/mqueue") : 0;
	(void)umount2("/dev/mqueue", MNT_DETACH); /* the host's, bound in */
	if (mount("mqueue", "/dev/mqueue", "mqueue", flags, NULL) < 0)
		return failed(e, EXEC_SANDBOX_DEV, "/dev/mqueue");
	return 0;
}

static int private_dev(struct sandbox_error *e)
{
	static const struct { const char *target, *name; } links[] = {
		{ "/proc/self/fd", "/dev/fd" }, { "/proc/self/fd/0", "/dev/stdin" },
		{ "/proc/self/fd/1", "/dev/stdout" }, { "/proc/self/fd/2", "/dev/stderr" },
		{ "pts/ptmx", "/dev/ptmx" },
	};
	mode_t old = umask(0);
	int host_dev = open("/dev", O_PATH | O_DIRECTORY | O_CLOEXEC), r;

	/* e holds the errno of a failure: close() may not change it */
	r = dev_tmpfs(host_dev, e) < 0 ? -1 : dev_shared(host_dev, e);
	if (host_dev >= 0)
		close(host_dev);
	if (r < 0)
		return r;
	for (size_t i = 0; i < sizeof links / sizeof *links; i++)
		if (symlink(links[i].target, links[i].name) < 0)
			return failed(e, EXEC_SANDBOX_DEV, links[i].name);
	if (mkdir("/dev/pts", 0755) < 0)
		return failed(e, EXEC_SANDBOX_DEV, "/dev/pts");
	/* A private devpts instance: ptys work, other sessions' ptys are not there. */
	if (mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC,
		  "newinstance,ptmxmode=0666,mode=0620") < 0)
		return failed(e, EXEC_SANDBOX_DEV, "/dev/pts");
	umask(old);
	return 0;
}

static int loopback_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), r;

	if (fd < 0)
		return -1;
	memset(&ifr, 0, sizeof ifr);
	strcpy(ifr.ifr_name, "lo");
	r = ioctl(fd, SIOCGIFFLAGS, &ifr);
	if (r == 0) {
		ifr.ifr_flags |= IFF_UP;
		r = ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	close(fd);
	return r;
}

static int drop_bounding(const struct sandbox_request *r, struct sandbox_error *e)
{
	int caps[3], n = 0;

	if (r->protect_kernel_modules)
		caps[n++] = CAP_SYS_MODULE_NR;
	if (r->private_devices) {
		caps[n++] = CAP_MKNOD_NR;
		caps[n++] = CAP_SYS_RAWIO_NR;
	}
	for (int i = 0; i < n; i++)
		if (prctl(PR_CAPBSET_DROP, caps[i], 0, 0, 0) < 0 && errno != EINVAL)
			return failed(e, EXEC_SANDBOX_BOUNDING, NULL);
	return 0;
}

/* NoNewPrivileges= in a mount namespace: every mount nosuid, as systemd makes them. Not
 * only what setuid would give (NoNewPrivileges= refuses it anyway): nosuid also means
 * file capabilities are not applied on exec, so they cannot clear the ambient set the
 * service was given (Debian's v2ray: AmbientCapabilities=CAP_NET_ADMIN
 * CAP_NET_BIND_SERVICE, and a program with the file capability cap_net_bind_service).
 * Kernels before 5.12 (no mount_setattr) leave the mounts as they are. */
static int nosuid_all(struct sandbox_error *e)
{
	if (sandbox_mount_attr(AT_FDCWD, "/", SANDBOX_ATTR_NOSUID, 0, true) == 0 || errno == ENOSYS)
		return 0;
	return failed(e, EXEC_SANDBOX_NOSUID, "/");
}

int sandbox_setup(struct sandbox_request *r, struct sandbox_error *e)
{
	if (unshare(CLONE_NEWNS | (r->private_network ? CLONE_NEWNET : 0) |
		    (r->private_ipc ? CLONE_NEWIPC : 0)) < 0)
		return failed(e, EXEC_SANDBOX_UNSHARE, NULL);
	/* Nothing mounted here may leak back to the rest of the system. */
	if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) < 0)
		return failed(e, EXEC_SANDBOX_PROPAGATION, "/");
	/* the syslog daemon syslog.socket starts: Debian's rsyslog takes that socket only
	 * where sd_booted() (docs/distro.md); a system without /run/systemd has no such unit */
	if (r->systemd_view && access("/run/systemd", F_OK) == 0 && systemd_view("/run/systemd") < 0)
		return failed(e, EXEC_SANDBOX_BIND, "/run/systemd");
	/* BindPaths= sources as the host sees them (in this namespace: a bind's source must
	 * be), before any mount here hides them */
	if (sandbox_binds_open(&r->binds, e) < 0)
		return -1;
	if (r->private_network && loopback_up() < 0)
		return failed(e, EXEC_SANDBOX_LOOPBACK, "lo");
	if (sandbox_more_proc(&r->more, e) < 0) /* exec keys (sandbox-more): first, as it */
		return -1;                          /* would hide mounts made below /proc */
	if (protect_system(r, e) < 0 || protect_home(r, e) < 0 || protect_kernel(r, e) < 0 ||
	    restrict_paths(r, e) < 0 ||
	    sandbox_private_dirs(&r->private_dirs, e) < 0 || hide_all(r, e) < 0)
		return -1;
	if (r->private_tmp && private_tmp(e) < 0)
		return -1;
	if (r->private_devices && private_dev(e) < 0)
		return -1;
	if (r->private_ipc && private_mqueue(r, e) < 0)
		return -1;
	if (sandbox_binds_mount(&r->binds, e) < 0 || sandbox_exec_paths(r, e) < 0)
		return -1;
	if (r->nosuid && nosuid_all(e) < 0)
		return -1;
	if (sandbox_more_propagation(&r->more, e) < 0)
		return -1;
	/* PrivateUsers= last; the bounding set after it: a new user namespace starts with a
	 * full one, which would give back what PrivateDevices= and ProtectKernelModules= take */
	if (sandbox_more_users(&r->more, e) < 0)
		return -1;
	return drop_bounding(r, e);
}
