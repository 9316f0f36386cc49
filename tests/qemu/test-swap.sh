#!/bin/sh
# Swap units on the Debian kernel: a zram device set up by a oneshot as zram-generator's
# systemd-zram-setup@ does, turned on by dev-zram0.swap (enabled by a link in
# swap.target.wants/, as generators enable theirs) with its Priority=; a swap unit whose
# What= is not its name is refused and the boot goes on; stop and start; a swapoff
# outside ember; the swap turned off at shutdown. The checks run in guest/swap.sh.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
img=$QEMU_WORK/swap.cpio
units=$QEMU_WORK/swap-units
rm -rf "$units"
mkdir -p "$units/swap.target.wants"
cp "$TOP"/tests/qemu/services-swap/* "$units/"
ln -s ../dev-zram0.swap "$units/swap.target.wants/dev-zram0.swap"
qemu_image "$img" --modules zram --dir "$TOP/tests/qemu/guest:/test" \
	--dir "$units:/etc/ember/services"
qemu_test "$img" swap 180 swap.sh
# At shutdown the swap unit is stopped: swapoff(2), no failure, and the power-off ran.
log=$QEMU_WORK/swap.log
if tr -d '\r' <"$log" | grep -q 'dev-zram0.swap: swapoff'; then
	fail swapoff-at-shutdown "$(tr -d '\r' <"$log" | grep 'swapoff' | head -3)"
elif tr -d '\r' <"$log" | grep -q 'dev-zram0.swap.*stopped\|stopped dev-zram0.swap'; then
	pass swapoff-at-shutdown
else
	fail swapoff-at-shutdown "no stop of dev-zram0.swap in the console log: $log"
fi
finish
