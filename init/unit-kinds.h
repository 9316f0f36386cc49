#ifndef EMBER_UNIT_KINDS_H
#define EMBER_UNIT_KINDS_H
/* Mount, device, slice and swap units (issue 12): the unit kinds real units depend on.
 * docs/services.md "Mount, device, slice and swap units" says what each does under
 * ember.
 *
 *   unit-kinds.c   the keys (pure parsing), built-in definitions, implicit dependencies
 *   unit-mount.c   mount points: /proc/self/mountinfo, /etc/fstab, mount(2), umount2(2)
 *   unit-swap.c    swap devices and files: /proc/swaps, swapon(2), swapoff(2)
 *   unit-device.c  devices: /dev and /sys paths, network interfaces, the uevent socket
 *   unit-slice.c   slices as cgroup paths, Delegate=
 *
 * A mount, device, slice or swap unit runs nothing: it is active while its object is
 * there (the path is a mount point, the device exists, the swap is in /proc/swaps; a
 * slice always). PID 1 makes the system calls itself (mount(2), swapon(2)), but for
 * swapoff(2), which a forked child makes (unit-swap.c). The supervisor starts
 * and stops such units through unit_kind_start()/unit_kind_stop() and asks
 * unit_kind_present() again whenever the watch (unit_kinds_pollfds()) says the mount
 * table or the device list changed. Nothing here allocates. */
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "service.h"

/* struct unit_kinds_spec.mount_flags */
#define UNIT_MOUNT_LAZY 0x1u     /* LazyUnmount=yes: umount2(MNT_DETACH) */
#define UNIT_MOUNT_FORCE 0x2u    /* ForceUnmount=yes: umount2(MNT_FORCE) */
#define UNIT_MOUNT_RW_ONLY 0x4u  /* ReadWriteOnly=yes: no read-only retry */
/* struct unit_kinds_spec.delegate: UNIT_DELEGATE_YES plus the CG_CTRL_* bits asked for
 * (none: every controller ember enables) */
#define UNIT_DELEGATE_YES 0x80u
/* struct unit_kinds_spec.swap_flags: Options=discard[=once|pages] */
#define UNIT_SWAP_DISCARD 0x1u
#define UNIT_SWAP_DISCARD_ONCE 0x2u
#define UNIT_SWAP_DISCARD_PAGES 0x4u
#define UNIT_SWAP_PRIORITY_MAX 32767

#define UNIT_DEVICE_TIMEOUT_MS 90000UL /* systemd's DefaultDeviceTimeoutSec= */
#define UNIT_MOUNT_PATH_MAX 256        /* a mount point or device path, incl. NUL */

/* ---- parsing (unit-kinds.c; pure) ---- */

/* One of the keys below for svc (the parser's key table names them): 0, or -1 when the
 * value is invalid (svc is then failed through diag). */
int unit_kinds_parse(struct service *svc, const struct service_diag *diag, unsigned line,
		     const char *key, const char *value);
/* Whole-unit checks and implicit dependencies (Slice= -> Requires+After the slice, a
 * slice -> its parent slice, a mount's Where= against its name, a mount's default
 * dependencies). Called by the parser's validation. */
void unit_kinds_validate(struct service *svc, const struct service_diag *diag);
/* The definition of a mount, device or slice unit that has no file, or NULL for other
 * kinds. Written into a static buffer: use it before the next call. */
const char *unit_kinds_builtin(const char *name);
/* RequiresMountsFor=/WantsMountsFor=: Requires= (Wants=) and After= on the mount unit
 * of every prefix of each path that is configured: in /etc/fstab, or a .mount file
 * (has_file(ctx, "x.mount") says whether one exists). Called by the loader. */
void unit_kinds_mounts_for(struct service *svc, bool (*has_file)(void *ctx, const char *file),
			   void *ctx, const struct service_diag *diag);

/* The path a mount or device unit stands for ("home.mount" -> "/home",
 * "dev-sda1.device" -> "/dev/sda1"): 0, or -1 when the name does not unescape. */
int unit_kind_path(const char *name, char *out, size_t size);

/* ---- run time (the supervisor) ---- */

/* UNIT_KIND_NOT_FOUND: a mount point nothing says how to mount (no .mount file, no fstab
 * line): on systemd such a unit is "not found", which fails what requires it only. */
enum unit_kind_result { UNIT_KIND_ACTIVE, UNIT_KIND_WAIT, UNIT_KIND_FAILED, UNIT_KIND_NOT_FOUND };

static inline bool unit_kind_passive(int kind)
{
	return kind == UNIT_MOUNT || kind == UNIT_DEVICE || kind == UNIT_SLICE || kind == UNIT_SWAP;
}
/* Start: a slice is active; a device is active when present, else the caller waits up to
 * unit_kind_timeout_ms(); a mount is active when mounted, else it is mounted from its
 * file or /etc/fstab, and fails (err says why) when neither says how. */
enum unit_kind_result unit_kind_start(const struct service *s, char *err, size_t size);
unsigned long unit_kind_timeout_ms(const struct service *s);
/* A swap unit's TimeoutSec= when empty: systemd's DefaultTimeoutStartSec=, the default a
 * unit without the key keeps in timeout_start_ms too. */
#define UNIT_SWAP_TIMEOUT_MS 90000UL
/* Is the unit's object there (mounted, present)? A slice: always. */
bool unit_kind_present(const struct service *s);
/* Stop: a mount is unmounted (never "/" or the API file systems): 0. A swap is turned
 * off by a forked child (unit-swap.c), the unit's control process: its pid, which exits 0
 * or with swapoff(2)'s errno; 0 when it is off already; -1 when fork failed (errno). */
pid_t unit_kind_stop(const struct service *s);

/* The watch: fds to poll while mount, device or swap units are up or awaited (the uevent
 * socket, /proc/self/mountinfo, /proc/swaps); then the same array back.
 * unit_kinds_changed() says, once, what changed since it was last asked (and what the
 * watch just began to watch).
 * Kept apart because a boot's udev trigger makes hundreds of uevents, and each mount
 * unit's check reads the whole mount table: only a mount table change asks for that. */
#define UNIT_KINDS_DEVICES 1u
#define UNIT_KINDS_MOUNTS 2u
#define UNIT_KINDS_SWAPS 4u
/* what: the UNIT_KINDS_* bits to watch */
size_t unit_kinds_pollfds(unsigned what, struct pollfd *fds, size_t max);
void unit_kinds_handle_pollfds(const struct pollfd *fds, size_t n);
unsigned unit_kinds_changed(void);
/* Without a uevent socket, a device that /dev or a test makes without one is noticed by
 * polling this often while a device unit is awaited. */
#define UNIT_DEVICE_POLL_MS 500

/* ---- internals shared by the files above ---- */
int unit_mount_fstab_find(const char *where, char *what, size_t what_size, char *type,
			  size_t type_size, char *options, size_t options_size);
/* Is something other than an automount's autofs mounted at path? */
bool unit_mount_is_mountpoint(const char *path);
/* The device of the autofs mount at path (the last one, if stacked): 0, or -1 when there
 * is none. Read from /proc/self/mountinfo: nothing looks up the path itself, which would
 * wait on the automount for anyone but its daemon. */
int unit_mount_autofs_dev(const char *path, dev_t *dev);
bool unit_device_present(const char *name);
/* Call fn(ctx, line) for each line of path (fn returns 1 to stop): 1 when stopped, 0 at
 * the end, -1 when unreadable. Then the next whitespace-separated field, octal escapes
 * (\040) decoded as fstab(5), mountinfo and /proc/swaps write them. */
int unit_kinds_each_line(const char *path, int (*fn)(void *ctx, char *line), void *ctx);
int unit_kinds_next_field(char **p, char *out, size_t size);
/* A mount point for PID 1's mount(2), made if missing (mode for its last level, 0: 0755)
 * and walked with root's symlinks only (lib/path-walk.h): a link a user planted on the
 * way (a mount point in a directory a user owns) cannot point the mount at /etc. An
 * O_PATH fd, to close after the mount, with "/proc/self/fd/N" in proc to mount on; -1
 * with errno (ELOOP: a symlink root does not own). */
int unit_mount_target(const char *where, unsigned mode, char *proc, size_t size);

/* The mount unit an automount unit starts: NAME.automount -> NAME.mount, into out. */
static inline const char *automount_mount_name(const char *automount, char *out, size_t size)
{
	size_t stem = strlen(automount) - strlen(".automount");

	snprintf(out, size, "%.*s.mount", (int)stem, automount);
	return out;
}
/* swap units (unit-swap.c) */
enum unit_kind_result unit_kind_swap_start(const struct service *s, char *err, size_t size);
bool unit_kind_swap_present(const struct service *s);
/* At the end of a shutdown, every process gone: each swap still on goes off (one a
 * script turned on, one whose unit's swapoff failed), as a swap file keeps its file
 * system busy. Logged per swap; between (if any) is called before each swapoff (PID 1
 * pets its watchdog there). */
void unit_swaps_off_all(void (*between)(void));
pid_t unit_kind_swap_stop(const struct service *s);
#endif
