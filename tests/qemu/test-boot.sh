#!/bin/sh
# ember-init boots the Debian kernel as PID 1: mounts, cgroup2 options, hugetlb
# accounting fallback, reaping, test mode and clean power-off.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
G=$TOP/tests/qemu/guest
img=$QEMU_WORK/boot.cpio

qemu_image "$img" --dir "$G:/test" --dir "$TOP/tests/qemu/conf-services:/test/conf-services" \
	--file "$TOP/tests/qemu/init.conf:/etc/ember/init.conf"
qemu_test "$img" boot 120 boot-checks.sh

# Handed over from an initramfs that mounted things itself: nothing is mounted twice and
# the cgroup2 options are only ever added to.
img2=$QEMU_WORK/boot-preinit.cpio
qemu_image "$img2" --init "$G/preinit.sh" --dir "$G:/test"
qemu_test "$img2" preinit 120 boot-checks.sh
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
