#!/bin/sh
# Automount units on the Debian kernel (autofs4 is a module there, loaded by the kernel
# through /sbin/modprobe on the first autofs mount, as on Debian): autofs mounted at boot
# with nothing on it, a look at the path mounts the tmpfs, a failing mount fails the look
# instead of hanging it, TimeoutIdleSec= expires the mount, a stop answers a waiting look
# and unmounts, a flood of processes on one slow mount all answered, an idle check's
# child taken over by a re-executed PID 1, a clean poweroff with the automounts stopped
# after their mounts. The checks run in guest/automount.sh.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
img=$QEMU_WORK/automount.cpio
sbin=$QEMU_WORK/automount-sbin
rm -rf "$sbin"
mkdir -p "$sbin"
ln -s ../bin/busybox "$sbin/modprobe" # where the kernel's request_module() looks
qemu_image "$img" --modules "autofs4" \
	--dir "$TOP/tests/qemu/guest:/test" --dir "$sbin:/sbin" \
	--dir "$TOP/tests/qemu/services-automount:/etc/ember/services" \
	--file "$HELPERS/stop-pid1-fork:/test/stop-pid1-fork"
qemu_test "$img" automount 240 automount.sh
# At poweroff: each automount stops after the mount on it, none fails.
log=$QEMU_WORK/automount.log
tr -d '\r' <"$log" | sed -n 's/^.*ember-init: //p' >"$QEMU_WORK/automount-ember.log"
am=$(grep -nxF 'mnt-idle.automount: stopped' "$QEMU_WORK/automount-ember.log" | tail -n 1 | cut -d: -f1)
mnt=$(grep -nxF 'mnt-idle.mount: stopped' "$QEMU_WORK/automount-ember.log" | tail -n 1 | cut -d: -f1)
[ -n "$am" ] && [ -n "$mnt" ] && [ "$mnt" -lt "$am" ] && pass automount-stops-after-its-mount ||
	fail automount-stops-after-its-mount "mnt-idle.mount stopped at line ${mnt:-none}, the automount at ${am:-none} of $QEMU_WORK/automount-ember.log"
# The flood of 64 looks was one packet (the kernel holds them all on one wait), the look
# after it another: PID 1's cap on owed answers (AUTOMOUNT_WAIT_MAX) is never what bounds
# a flood on one path; tests/unit/test-init-automount-waits.c drives that cap.
n=$(grep -c '^mnt-flood.automount: accessed by process' "$QEMU_WORK/automount-ember.log")
[ "$n" = 2 ] && pass flood-one-packet || fail flood-one-packet "$n packets for the flood and the look after it, expected 2"
if grep -E 'automount: .*(failed|cannot)' "$QEMU_WORK/automount-ember.log" | grep -v 'mnt-typo' >"$QEMU_WORK/automount-errors.log"; then
	fail automount-no-errors "$(head -3 "$QEMU_WORK/automount-errors.log")"
else
	pass automount-no-errors
fi
finish
