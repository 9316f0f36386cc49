#!/bin/sh
# Rescue: `ember.rescue` boots only Essential=yes services plus a root shell on the
# console; a failing essential service drops to the same shell instead of a silent device.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
R=$TOP/tests/qemu/services-rescue
img=$QEMU_WORK/rescue.cpio
qemu_image "$img" --dir "$TOP/tests/qemu/guest:/test" \
	--file "$R/storage.service:/etc/ember/services/storage.service" \
	--file "$R/extra.service:/etc/ember/services/extra.service"
qemu_test "$img" rescue-flag 120 rescue.sh "ember.rescue"
img2=$QEMU_WORK/rescue-failure.cpio
qemu_image "$img2" --dir "$TOP/tests/qemu/guest:/test" \
	--file "$R/broken-essential.service:/etc/ember/services/broken-essential.service" \
	--file "$R/extra.service:/etc/ember/services/extra.service"
qemu_test "$img2" rescue-failure 120 rescue.sh
finish
