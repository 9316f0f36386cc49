// sources: init/service.c init/socket-unit.c init/condition.c init/unit-compat.c init/exec-line.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/unit-slice.c init/unit-runtime-keys.c init/dynamic-user.c init/unit-device.c
/* When a device unit is present (init/unit-device.c), against this machine's own /dev,
 * /sys and network interfaces: kernel paths, and the names udev's own rules give
 * (SYSTEMD_ALIAS in 99-systemd.rules: /sys/subsystem/S/devices/K is /sys/class/S/K). */
#include "harness.h"
#include "../../init/unit-kinds.h"

static void kernel_paths(void)
{
	CHECK(unit_device_present("dev-null.device"));
	CHECK(unit_device_present("sys-devices-virtual-mem-null.device"));
	CHECK(!unit_device_present("dev-ember\\x2dno\\x2dsuch.device"));
	CHECK(unit_device_present("sys-subsystem-net-devices-lo.device"));
}

/* A Bluetooth controller's alias is sys-subsystem-bluetooth-devices-hci0.device; mem's
 * class stands in for it here, as every machine has /sys/class/mem/null. */
static void udev_alias_of_a_class_device(void)
{
	CHECK(unit_device_present("sys-subsystem-mem-devices-null.device"));
	CHECK(!unit_device_present("sys-subsystem-mem-devices-ember\\x2dno\\x2dsuch.device"));
	CHECK(!unit_device_present("sys-subsystem-mem.device"));
	CHECK(!unit_device_present("sys-subsystem-mem-devices.device"));
	CHECK(!unit_device_present("sys-subsystem-devices-null.device"));
}

/* rdma-core's "S/devices/K-umad" names exist only in udev's database. */
static void alias_of_no_class_device(void)
{
	CHECK(!unit_device_present("sys-subsystem-rdma-devices-mlx5_0:1\\x2dumad.device"));
}

int main(void)
{
	RUN(kernel_paths);
	RUN(udev_alias_of_a_class_device);
	RUN(alias_of_no_class_device);
	return harness_done();
}
