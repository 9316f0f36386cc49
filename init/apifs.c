#include "apifs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "cgroup2.h"
#include "io.h"
#include "log.h"

struct api_mount {
	const char *source, *target, *fstype, *options;
	unsigned long flags;
	bool in_container;
	bool optional; /* only where the kernel has it (its mount point exists), as systemd */
};

#define API_FLAGS (MS_NOSUID | MS_NOEXEC | MS_NODEV)

static const struct api_mount api_mounts[] = {
	{ "proc", "/proc", "proc", NULL, API_FLAGS, true, false },
	{ "sysfs", "/sys", "sysfs", NULL, API_FLAGS, true, false },
	{ "devtmpfs", "/dev", "devtmpfs", "mode=0755", MS_NOSUID, false, false },
	{ "devpts", "/dev/pts", "devpts", "mode=0620,gid=5,ptmxmode=0666", MS_NOSUID | MS_NOEXEC, true, false },
	{ "tmpfs", "/dev/shm", "tmpfs", "mode=1777", MS_NOSUID | MS_NODEV | MS_STRICTATIME, true,
	  false },
	/* as systemd: a fifth of the memory and 800k inodes at most, not tmpfs's half of it: a
	 * runaway writer to /run must not take the device's memory */
	{ "tmpfs", "/run", "tmpfs", "mode=0755,size=20%,nr_inodes=800k",
	  MS_NOSUID | MS_NODEV | MS_STRICTATIME, true, false },
	/* as Debian's systemd mounts it: /var/lock is a link here, and daemons that run as
	 * their own user make their locks in it (mrtg); world-writable, so a small tmpfs of
	 * its own that cannot fill /run */
	{ "tmpfs", "/run/lock", "tmpfs", "mode=1777,size=5242880", API_FLAGS, false, false },
	/* systemd mounts these itself, not through units: without securityfs, AppArmor's
	 * profiles are not loaded (apparmor.service asserts .load) and ConditionSecurity=
	 * sees no LSM; pstore keeps the last crash's log, efivarfs the EFI variables. */
	{ "securityfs", "/sys/kernel/security", "securityfs", NULL, API_FLAGS, false, true },
	{ "pstore", "/sys/fs/pstore", "pstore", NULL, API_FLAGS, false, true },
	{ "efivarfs", "/sys/firmware/efi/efivars", "efivarfs", NULL, API_FLAGS, false, true },
	{ "bpf", "/sys/fs/bpf", "bpf", "mode=0700", API_FLAGS, false, true },
};

int is_mountpoint(const char *path)
{
	struct stat self, parent;
	char up[4096];

	if (snprintf(up, sizeof up, "%s/..", path) >= (int)sizeof up) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (stat(path, &self) < 0 || stat(up, &parent) < 0)
		return -1;
	return self.st_dev != parent.st_dev || self.st_ino == parent.st_ino;
}

static int mount_one(const struct api_mount *m)
{
	int r = is_mountpoint(m->target);

	if (r == 1) {
		log_debug("%s: already mounted, kept", m->target);
		return 0;
	}
	if (m->optional) {
		if (r < 0 || mount(m->source, m->target, m->fstype, m->flags, m->options) == 0)
			return 0; /* no mount point: not in this kernel (or not an EFI boot) */
		log_warn("%s: cannot mount %s: %m", m->target, m->fstype);
		return 0;
	}
	if (io_mkdir_p(m->target, 0755) < 0) {
		log_error("%s: cannot create mount point: %m", m->target);
		return -1;
	}
	if (mount(m->source, m->target, m->fstype, m->flags, m->options) < 0) {
		log_error("%s: cannot mount %s: %m", m->target, m->fstype);
		return -1;
	}
	return 0;
}

static void log_cgroup_result(const struct cg2_mount_result *res)
{
	for (unsigned bit = 1; bit & CG2_WANTED; bit <<= 1) {
		if (res->applied & bit)
			log_info("cgroup2: %s in effect", cg2_option_name(bit));
		else
			log_info("cgroup2: %s unsupported by this kernel, continuing without it",
				 cg2_option_name(bit));
	}
	log_info("cgroup2: %s /sys/fs/cgroup (%s)",
		 res->mounted ? "mounted" : res->remounted ? "remounted" : "kept", res->options);
}

int apifs_mount_cgroup(void)
{
	struct cg2_mount_result res;

	if (cg2_mount("/sys/fs/cgroup", CG2_WANTED, &res) < 0) {
		log_error("/sys/fs/cgroup: cannot mount cgroup2: %m");
		return -1;
	}
	log_cgroup_result(&res);
	return (int)res.applied;
}

int apifs_mount_basic(bool container)
{
	int failed = 0;

	for (size_t i = 0; i < sizeof api_mounts / sizeof *api_mounts; i++) {
		if (container && !api_mounts[i].in_container)
			continue;
		if (mount_one(&api_mounts[i]) < 0)
			failed++;
	}
	if (container)
		log_info("container mode: cgroup2 and devtmpfs left as found");
	return failed;
}

/* As systemd does at boot: every mount shared, so a mount namespace made later (a
 * sandboxed service's, the per-user manager's) is a slave that sees what is mounted and
 * unmounted after it was made. With the kernel's private default it would keep its own
 * copy: a card unmounted outside would stay mounted, and in use, inside. */
int apifs_share_mounts(void)
{
	if (mount(NULL, "/", NULL, MS_REC | MS_SHARED, NULL) < 0) {
		log_error("/: cannot make mounts shared: %m");
		return -1;
	}
	return 0;
}
