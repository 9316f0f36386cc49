#!/bin/sh
# Swap units on the Debian kernel: a zram device set up by a oneshot as zram-generator's
# systemd-zram-setup@ does, turned on by dev-zram0.swap (enabled by a link in
# swap.target.wants/, as generators enable theirs) with its Priority=; a swap unit whose
# What= is not its name is refused and the boot goes on; stop and start; a swapoff
# outside ember; a swap file (with a space in its name) on an ext4 disk, after the mount
# its path needs; the swaps turned off at shutdown, the file's before its file system is
# unmounted (e2fsck finds it clean). The checks run in guest/swap.sh.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
img=$QEMU_WORK/swap.cpio
units=$QEMU_WORK/swap-units
rm -rf "$units"
mkdir -p "$units/swap.target.wants"
cp "$TOP"/tests/qemu/services-swap/* "$units/"
ln -s ../dev-zram0.swap "$units/swap.target.wants/dev-zram0.swap"
ln -s '../data-swap\x20file.swap' "$units/swap.target.wants/data-swap\\x20file.swap"
disk=$QEMU_WORK/swap.ext4
rm -f "$disk"
mkfs.ext4 -q -F "$disk" 64M >/dev/null
qemu_image "$img" --modules "zram virtio_pci virtio_blk crc32c_generic ext4" \
	--dir "$TOP/tests/qemu/guest:/test" --dir "$units:/etc/ember/services" \
	--file "$HELPERS/mem-fill:/test/mem-fill"
qemu_test "$img" swap 300 swap.sh "" -drive "file=$disk,format=raw,if=virtio"
if e2fsck -fn "$disk" >"$QEMU_WORK/swap-e2fsck.log" 2>&1; then
	pass swap-file-system-clean-after-poweroff
else
	fail swap-file-system-clean-after-poweroff "$(tail -3 "$QEMU_WORK/swap-e2fsck.log" | tr '\n' ' ')"
fi
# At shutdown the swap units are stopped: swapoff(2), no failure; the swap file's unit
# before data.mount (its file system could not be unmounted under an active swap file).
log=$QEMU_WORK/swap.log
tr -d '\r' <"$log" | sed -n 's/^.*ember-init: //p' >"$QEMU_WORK/swap-ember.log"
# (guest/swap.sh made dev-zram0.swap's swapoff fail and time out on purpose: those
# messages are expected.)
grep 'swapoff' "$QEMU_WORK/swap-ember.log" | grep -vF -e 'dev-zram0.swap: swapoff /dev/zram0: Cannot allocate memory' \
	-e 'dev-zram0.swap: swapoff /dev/zram0: Out of memory' \
	-e 'dev-zram0.swap: swapoff timed out' >"$QEMU_WORK/swap-swapoff.log"
if [ -s "$QEMU_WORK/swap-swapoff.log" ]; then
	fail swapoff-at-shutdown "$(head -3 "$QEMU_WORK/swap-swapoff.log")"
elif grep -qxF 'dev-zram0.swap: stopped' "$QEMU_WORK/swap-ember.log"; then
	pass swapoff-at-shutdown
else
	fail swapoff-at-shutdown "no stop of dev-zram0.swap in the console log: $log"
fi
swapfile=$(grep -nxF 'data-swap\x20file.swap: stopped' "$QEMU_WORK/swap-ember.log" | tail -n 1 | cut -d: -f1)
mount=$(grep -nxF 'data.mount: stopped' "$QEMU_WORK/swap-ember.log" | tail -n 1 | cut -d: -f1)
[ -n "$swapfile" ] && [ -n "$mount" ] && [ "$swapfile" -lt "$mount" ] &&
	pass swap-file-off-before-its-mount || fail swap-file-off-before-its-mount "swap file stopped at line ${swapfile:-none}, data.mount at ${mount:-none} of $QEMU_WORK/swap-ember.log"
# The swap with no unit (guest/swap.sh) goes off at the end of the shutdown.
grep -Eq '^shutdown: swap /dev/zram[1-9][0-9]* turned off$' "$QEMU_WORK/swap-ember.log" &&
	pass swap-without-unit-off-at-shutdown ||
	fail swap-without-unit-off-at-shutdown "no 'shutdown: swap /dev/zramN turned off' in $QEMU_WORK/swap-ember.log"
! grep -q 'remounted read-only' "$QEMU_WORK/swap-ember.log" && pass no-busy-file-system-at-shutdown ||
	fail no-busy-file-system-at-shutdown "$(grep 'remounted read-only' "$QEMU_WORK/swap-ember.log" | head -3)"

finish
