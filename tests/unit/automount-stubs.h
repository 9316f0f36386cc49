#ifndef EMBER_TEST_AUTOMOUNT_STUBS_H
#define EMBER_TEST_AUTOMOUNT_STUBS_H
/* What init/unit-automount.c calls outside itself, for unit tests that run it alone: the
 * automount is on /mnt/data, its mount unit is the test's `mnt` (`am`, `mnt` and their
 * services `am_svc`, `mnt_svc` are declared before this is included), nothing is mounted for real. The test defines supervisor_start itself. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "supervisor.h"
#include "unit-automount.h"
#include "unit-kinds.h"

const struct unit *supervisor_find(const char *name)
{
	return strcmp(name, mnt_svc.name) == 0 ? &mnt : NULL;
}
int supervisor_stop(const char *name, char *err, size_t errlen)
{
	(void)name, (void)err, (void)errlen;
	return 0;
}
int unit_kind_path(const char *name, char *out, size_t size)
{
	(void)name;
	snprintf(out, size, "/mnt/data");
	return 0;
}
bool unit_mount_is_mountpoint(const char *path) { (void)path; return false; }
int unit_mount_autofs_dev(const char *path, dev_t *dev)
{
	(void)path, (void)dev;
	errno = ENOENT;
	return -1;
}
int unit_mount_target(const char *where, unsigned mode, char *proc, size_t size)
{
	(void)where, (void)mode, (void)proc, (void)size;
	errno = ENOENT;
	return -1;
}
const char *service_str(const struct service *svc, strref ref) { (void)svc, (void)ref; return ""; }

/* The test's automount `am` up on a packet pipe (O_DIRECT, as the kernel makes it) with
 * /dev/null for its ioctl fd and TimeoutIdleSec=idle_s; its mount unit `mnt` in
 * mount_state. The ioctl fd, or -1. */
static int automount_fixture(int p[2], unsigned idle_s, enum unit_state mount_state)
{
	memset(&am, 0, sizeof am);
	memset(&mnt, 0, sizeof mnt);
	strcpy(am_svc.name, "mnt-data.automount");
	am_svc.kind = UNIT_AUTOMOUNT;
	am_svc.kinds.idle_timeout_s = idle_s;
	strcpy(mnt_svc.name, "mnt-data.mount");
	mnt_svc.kind = UNIT_MOUNT;
	am.svc = &am_svc;
	mnt.svc = &mnt_svc;
	for (size_t f = 0; f < SOCKET_LISTEN_MAX; f++)
		am.listen_fd[f] = -1;
	am.state = UNIT_READY;
	mnt.state = mount_state;
	if (pipe2(p, O_DIRECT | O_NONBLOCK | O_CLOEXEC) < 0)
		return -1;
	am.listen_fd[AUTOMOUNT_PIPE] = p[0];
	am.listen_fd[AUTOMOUNT_IOCTL] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	return am.listen_fd[AUTOMOUNT_IOCTL];
}
#endif
