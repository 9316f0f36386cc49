#!/bin/sh
# The hardware watchdog (QEMU's i6300esb, reset on expiry): ember-init opens it once its
# driver is loaded, sets the timeout, pets it while running and through a shutdown that
# takes longer than the timeout. An expiry would reset the machine; with -no-reboot QEMU
# then exits without the isa-debug-exit status, which the test sees.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
W=$TOP/tests/qemu/services-watchdog
img=$QEMU_WORK/watchdog.cpio
qemu_image "$img" --dir "$TOP/tests/qemu/guest:/test" --modules i6300esb \
	--file "$W/modules.service:/etc/ember/services/modules.service" \
	--file "$W/slowstop.service:/etc/ember/services/slowstop.service" \
	--file "$W/watchdog.conf:/etc/modules-load.d/watchdog.conf"
qemu_test "$img" watchdog 180 watchdog.sh "ember.watchdog=6" -device i6300esb -action watchdog=reset
grep -q 'slowstop: stop timed out' "$QEMU_WORK/watchdog.log" && pass slow-shutdown-outlived-timeout ||
	fail slow-shutdown-outlived-timeout "no stop timeout in the log"

# Control: the same machine, the watchdog armed but not petted, is reset.
qemu_run "$img" "$QEMU_WORK/watchdog-unpetted.log" 120 "ember.run=/test/watchdog-unpetted.sh" \
	-device i6300esb -action watchdog=reset
if grep -q 'watchdog armed by the test' "$QEMU_WORK/watchdog-unpetted.log" && [ "$QEMU_RC" = 0 ] &&
	[ -z "$GUEST_STATUS" ]; then
	pass unpetted-watchdog-resets
else
	fail unpetted-watchdog-resets "QEMU exit $QEMU_RC, guest status '$GUEST_STATUS'"
fi
finish
