#ifndef EMBER_INIT_APIFS_H
#define EMBER_INIT_APIFS_H
#include <stdbool.h>

/* Mount the API filesystems (/proc, /sys, /dev, /dev/pts, /dev/shm, /run).
 * Whatever an initramfs already mounted is kept. Returns the number of mounts that
 * failed; a failure is logged and boot goes on. In container mode (PID 1 of a PID
 * namespace on a live system) devtmpfs is left alone, and the caller skips cgroup2:
 * its options are superblock-wide and would change the host. */
int apifs_mount_basic(bool container);
/* cgroup2 on /sys/fs/cgroup with every option the kernel supports (logged). Returns the
 * options in effect (cgroup2.h bits), or -1. */
int apifs_mount_cgroup(void);
/* Every mount shared (MS_REC | MS_SHARED on /), as on systemd's systems; outside
 * containers only. 0, or -1 (logged). */
int apifs_share_mounts(void);
/* 1 if path is a mount point, 0 if not, -1/errno. */
int is_mountpoint(const char *path);
#endif
