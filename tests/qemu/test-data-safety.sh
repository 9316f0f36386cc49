#!/bin/sh
# Data safety: a service appends acknowledged records to a file on an ext4 disk; after
# `emberctl poweroff` the file system is clean (e2fsck -n) and holds the last record the
# service acknowledged.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
D=$TOP/tests/qemu/services-data
img=$QEMU_WORK/data.cpio
disk=$QEMU_WORK/data.ext4
rm -f "$disk"
mkfs.ext4 -q -F "$disk" 64M
qemu_image "$img" --dir "$TOP/tests/qemu/guest:/test" --modules "virtio_pci virtio_blk ext4 crc32c_generic" \
	--file "$D/modules.service:/etc/ember/services/modules.service" \
	--file "$D/data.service:/etc/ember/services/data.service" \
	--file "$D/writer.service:/etc/ember/services/writer.service" \
	--file "$D/modules-load.d/data.conf:/etc/modules-load.d/data.conf"
qemu_test "$img" data 180 data-poweroff.sh "" -drive "file=$disk,format=raw,if=virtio"
log=$QEMU_WORK/data.log
last=$(tr -d '\r' <"$log" | sed -n 's/^ACK record \([0-9]*\)$/\1/p' | tail -n 1)
[ -n "$last" ] && pass writer-acknowledged-records || fail writer-acknowledged-records "no ACK on the console"
if e2fsck -fn "$disk" >"$QEMU_WORK/e2fsck.log" 2>&1; then
	pass filesystem-clean-after-poweroff
else
	fail filesystem-clean-after-poweroff "$(tail -3 "$QEMU_WORK/e2fsck.log" | tr '\n' ' ')"
fi
records=$(debugfs -R 'cat /records' "$disk" 2>/dev/null)
if [ -n "$last" ] && printf '%s\n' "$records" | grep -qx "record $last"; then
	pass last-acknowledged-record-on-disk
else
	fail last-acknowledged-record-on-disk "record $last missing; file ends with: $(printf '%s\n' "$records" | tail -n 2 | tr '\n' ' ')"
fi
finish
