#!/bin/sh
# StandardOutput=kmsg / StandardError=kmsg on the Debian 6.1 kernel: service lines reach
# dmesg as "<PRI>NAME[PID]: line" with stdout and stderr told apart, the log buffer still
# has them, and a flooding service is rate-limited while PID 1 keeps answering.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
img=$QEMU_WORK/kmsg.cpio
qemu_image "$img" --dir "$TOP/tests/qemu/guest:/test" \
	--dir "$TOP/tests/qemu/services-kmsg:/etc/ember/services"
qemu_test "$img" kmsg 180 kmsg.sh
tr -d '\r' <"$QEMU_WORK/kmsg.log" | grep '^KMSG-FLOOD '
finish
