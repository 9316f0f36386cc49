/* The machine ID at boot, as systemd's PID 1 sets it up (machine-id(5)): journald names
 * its directory after it, dbus refuses to start without one, and an image made to be
 * copied to many devices ships /etc/machine-id empty or "uninitialized" so that each
 * device makes its own. */
#ifndef EMBER_INIT_MACHINE_ID_H
#define EMBER_INIT_MACHINE_ID_H
#include <stdbool.h>

#define MACHINE_ID_ETC "/etc/machine-id"
#define MACHINE_ID_RUN "/run/machine-id"             /* the transient one, mounted over */
#define MACHINE_ID_DBUS "/var/lib/dbus/machine-id"    /* taken over when valid */
#define MACHINE_ID_FIRST_BOOT_FLAG "/run/systemd/first-boot" /* ConditionFirstBoot= */
#define MACHINE_ID_PRODUCT "/sys/class/dmi/id/product_uuid" /* the firmware's (a VM's) UUID */
#define MACHINE_ID_PRODUCT_DT "/proc/device-tree/vm,uuid"   /* the same, on a device tree */

/* Where the ID is and where a new one may come from, in systemd's order. */
struct machine_id_sources {
	const char *etc, *run, *dbus, *flag;
	const char *requested;      /* systemd.machine_id= as given (an ID, or "firmware"),
				     * NULL when absent: an ID wins over etc's */
	bool container;             /* in a container nothing is written into etc (its
				     * manager's to set; a test's is the host's), and the
				     * firmware's UUID, the host's, is never taken */
	const char *container_uuid; /* $container_uuid in a container (libvirt, LXC), or NULL */
	bool (*vm)(void);           /* a VM whose firmware UUID is the VM's own (qemu, kvm,
				     * amazon, xen): a new ID is taken from product. Asked only
				     * when a new ID is needed (the detection reads files); NULL:
				     * no VM */
	const char *product, *product_dt; /* the firmware UUID files, the first found */
};

/* What machine_id_setup() did. */
enum machine_id_outcome {
	MACHINE_ID_KEPT,       /* /etc/machine-id was valid */
	MACHINE_ID_WRITTEN,    /* it was empty or invalid: a new ID written into it */
	MACHINE_ID_TRANSIENT,  /* first boot, or /etc read-only: the ID in run, mounted over */
	MACHINE_ID_FAILED,     /* none could be set up (logged) */
};

/* A first boot: etc is missing or says "uninitialized" (an empty file is not one, as in
 * systemd since v247). */
bool machine_id_first_boot(const char *etc);

/* Once at boot, before any unit: an ID given as requested replaces etc's, a valid etc is
 * kept; otherwise an ID is taken, in this order, from run (a transient one made before
 * ember, by an initramfs), dbus (a regular file with a valid ID), container_uuid, the
 * firmware UUID (in a VM, or with requested "firmware"), or drawn at random (a version 4
 * UUID, as systemd's); it is written into etc when that is writable, this is not a
 * container and not a first boot. On a first boot (etc is made to say "uninitialized"
 * if it was missing), in a container or with etc read-only, it goes to run and is
 * bind-mounted, read-only, over etc, for systemd-machine-id-commit to write to disk
 * later. A first boot also creates flag, which ConditionFirstBoot= and the generators'
 * $SYSTEMD_FIRST_BOOT read. The ID is in id (33 bytes) unless FAILED. */
enum machine_id_outcome machine_id_setup(const struct machine_id_sources *src, char *id);
#endif
