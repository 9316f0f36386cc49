#!/bin/sh
# ember-init boots the Debian kernel as PID 1: mounts, cgroup2 options, hugetlb
# accounting fallback, reaping, test mode and clean power-off.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
G=$TOP/tests/qemu/guest
img=$QEMU_WORK/boot.cpio

qemu_image "$img" --dir "$G:/test" --dir "$TOP/tests/qemu/conf-services:/test/conf-services" \
	--file "$TOP/tests/qemu/init.conf:/etc/ember/init.conf"
# A VM's UUID is its machine ID on a first boot, as under systemd (machine-id(5)).
qemu_test "$img" boot 120 boot-checks.sh \
	"ember_test.machine_id=6a1f0c2e9b8d4e7fa3c5b1d2e4f60718 ember_test.machine_id_from=firmware" \
	-uuid 6A1F0C2E-9B8D-4E7F-A3C5-B1D2E4F60718

# Handed over from an initramfs that mounted things itself: nothing is mounted twice and
# the cgroup2 options are only ever added to.
img2=$QEMU_WORK/boot-preinit.cpio
qemu_image "$img2" --init "$G/preinit.sh" --dir "$G:/test"
# systemd.machine_id= wins over the VM's UUID.
qemu_test "$img2" preinit 120 boot-checks.sh \
	"systemd.machine_id=0f1e2d3c4b5a69788796a5b4c3d2e1f0 ember_test.machine_id=0f1e2d3c4b5a69788796a5b4c3d2e1f0 ember_test.machine_id_from=cmdline" \
	-uuid 6a1f0c2e-9b8d-4e7f-a3c5-b1d2e4f60718
if grep -q 'cgroup2: remounted /sys/fs/cgroup' "$QEMU_WORK/preinit.log"; then
	pass preinit-cgroup2-remounted-with-more-options
else
	fail preinit-cgroup2-remounted-with-more-options "no remount line in $QEMU_WORK/preinit.log"
fi

# Test mode reports the command's status on the console and through isa-debug-exit.
qemu_run "$img" "$QEMU_WORK/exit3.log" 120 "ember.run=/test/exit-3.sh"
[ "$GUEST_STATUS" = 3 ] && pass run-status-on-console || fail run-status-on-console "got '$GUEST_STATUS'"
[ "$QEMU_RC" = 7 ] && pass run-status-via-debug-exit || fail run-status-via-debug-exit "QEMU exit $QEMU_RC, expected 7"
finish
