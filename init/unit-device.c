/* Device units at run time, and the watch that tells the supervisor when devices,
 * mounts or swaps changed.
 *
 * A device unit is present when its object exists: "dev-*.device" its /dev path (udev's
 * links followed), "sys-subsystem-net-devices-NAME.device" the network interface NAME in
 * PID 1's network namespace (if_nametoindex, no /sys needed), other
 * "sys-subsystem-S-devices-K.device" /sys/class/S/K, "sys-*.device" its /sys path.
 * systemd asks udev for devices tagged "systemd"; ember, having no udev database, asks
 * the kernel (docs/services.md says what differs).
 *
 * The watch: one NETLINK_KOBJECT_UEVENT socket (the kernel's events and udev's, groups 1
 * and 2), /proc/self/mountinfo and /proc/swaps (POLLPRI when the mount table or the swap
 * list changes). Events are not
 * parsed: any event means "look again", and the units' own checks decide. Reads are
 * bounded per turn; a lost event (ENOBUFS) also means "look again". Each fd is opened
 * only while a unit of its kind is up or awaited. */
#include "unit-kinds.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse.h"

#define UEVENT_GROUPS 3u         /* 1: the kernel's events, 2: udev's (links made) */
#define UEVENT_READS_PER_TURN 64 /* a flood cannot keep PID 1 in this loop */
#define NET_PREFIX "/sys/subsystem/net/devices/"
#define SUBSYSTEM_PREFIX "/sys/subsystem/"

/* The watch's state: PID 1's, in one place. */
static struct {
	int uevent_fd, mountinfo_fd, swaps_fd;
	unsigned changed;   /* UNIT_KINDS_DEVICES | UNIT_KINDS_MOUNTS | UNIT_KINDS_SWAPS */
	bool uevent_failed; /* socket() refused once: do not retry every turn */
} watch = { -1, -1, -1, 0, false };

/* "/sys/subsystem/S/devices/K" is no kernel path: udev's own rules name a device so
 * (SYSTEMD_ALIAS, 99-systemd.rules: network interfaces and Bluetooth controllers, by
 * their kernel names). The kernel has it as /sys/class/S/K. */
static bool subsystem_device_present(const char *rest)
{
	char path[UNIT_MOUNT_PATH_MAX];
	const char *devices = strstr(rest, "/devices/");
	struct stat st;

	/* one name each (unit_kind_path gives no "." or ".." components) */
	if (!devices || devices == rest || strchr(rest, '/') != devices || !devices[9] ||
	    strchr(devices + 9, '/'))
		return false;
	if (snprintf(path, sizeof path, "/sys/class/%.*s/%s", (int)(devices - rest), rest,
		     devices + 9) >= (int)sizeof path)
		return false;
	return stat(path, &st) == 0;
}

bool unit_device_present(const char *name)
{
	char path[UNIT_MOUNT_PATH_MAX];
	struct stat st;

	if (unit_kind_path(name, path, sizeof path) < 0)
		return false;
	if (str_starts_with(path, NET_PREFIX)) {
		const char *ifname = path + strlen(NET_PREFIX);
		return strlen(ifname) < IF_NAMESIZE && !strchr(ifname, '/') &&
		       if_nametoindex(ifname) != 0;
	}
	if (str_starts_with(path, SUBSYSTEM_PREFIX))
		return subsystem_device_present(path + strlen(SUBSYSTEM_PREFIX));
	if (!str_starts_with(path, "/dev/") && !str_starts_with(path, "/sys/"))
		return false;
	return stat(path, &st) == 0;
}

static void open_uevent(void)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK, .nl_groups = UEVENT_GROUPS };
	int fd;

	if (watch.uevent_fd >= 0 || watch.uevent_failed)
		return;
	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_KOBJECT_UEVENT);
	if (fd >= 0 && bind(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
		/* udev's group may be refused: the kernel's alone still serves */
		addr.nl_groups = 1;
		if (bind(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0) {
		watch.uevent_failed = true;
		return;
	}
	watch.uevent_fd = fd;
	watch.changed |= UNIT_KINDS_DEVICES; /* things may have happened before the socket */
}

/* /proc/self/mountinfo or /proc/swaps: POLLPRI on a change */
static void open_proc(int *fd, const char *path, unsigned bit)
{
	if (*fd >= 0)
		return;
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	watch.changed |= bit;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

size_t unit_kinds_pollfds(unsigned what, struct pollfd *fds, size_t max)
{
	size_t n = 0;

	if (what & UNIT_KINDS_DEVICES)
		open_uevent();
	else
		close_fd(&watch.uevent_fd);
	if (what & UNIT_KINDS_MOUNTS)
		open_proc(&watch.mountinfo_fd, "/proc/self/mountinfo", UNIT_KINDS_MOUNTS);
	else
		close_fd(&watch.mountinfo_fd);
	if (what & UNIT_KINDS_SWAPS)
		open_proc(&watch.swaps_fd, "/proc/swaps", UNIT_KINDS_SWAPS);
	else
		close_fd(&watch.swaps_fd);
	if (watch.uevent_fd >= 0 && n < max)
		fds[n++] = (struct pollfd){ .fd = watch.uevent_fd, .events = POLLIN };
	if (watch.mountinfo_fd >= 0 && n < max)
		fds[n++] = (struct pollfd){ .fd = watch.mountinfo_fd, .events = POLLPRI };
	if (watch.swaps_fd >= 0 && n < max)
		fds[n++] = (struct pollfd){ .fd = watch.swaps_fd, .events = POLLPRI };
	return n;
}

static void drain_uevents(void)
{
	char buf[4096];

	for (int i = 0; i < UEVENT_READS_PER_TURN; i++) {
		ssize_t r = recv(watch.uevent_fd, buf, sizeof buf, MSG_DONTWAIT);
		if (r < 0 && errno == EAGAIN)
			return;
		watch.changed |= UNIT_KINDS_DEVICES; /* an event, or ENOBUFS: events lost */
	}
}

void unit_kinds_handle_pollfds(const struct pollfd *fds, size_t n)
{
	char byte;

	for (size_t i = 0; i < n; i++) {
		if (!fds[i].revents)
			continue;
		if (fds[i].fd == watch.uevent_fd && watch.uevent_fd >= 0) {
			drain_uevents();
		} else if (fds[i].fd == watch.mountinfo_fd && watch.mountinfo_fd >= 0) {
			/* Reading re-arms POLLPRI: rewind and read one byte. */
			(void)lseek(watch.mountinfo_fd, 0, SEEK_SET);
			(void)!read(watch.mountinfo_fd, &byte, 1);
			watch.changed |= UNIT_KINDS_MOUNTS;
		} else if (fds[i].fd == watch.swaps_fd && watch.swaps_fd >= 0) {
			(void)lseek(watch.swaps_fd, 0, SEEK_SET); /* the same re-arming */
			(void)!read(watch.swaps_fd, &byte, 1);
			watch.changed |= UNIT_KINDS_SWAPS;
		}
	}
}

unsigned unit_kinds_changed(void)
{
	unsigned c = watch.changed;

	watch.changed = 0;
	return c;
}
