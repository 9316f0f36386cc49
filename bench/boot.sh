#!/bin/sh
# Init's share of boot in QEMU: from the kernel starting /init to the "ready" marker,
# measured inside the guest on CLOCK_BOOTTIME, for ember-init and busybox init on the same
# kernel and image contents (busybox init runs an rcS doing the same mounts). Also
# ember-init's binary size and PID 1's RSS after boot. RUNS boots each (default 5).
set -eu
. "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-5}
W=$TOP/out/bench; mkdir -p "$W"
ready=$TOP/out/tests/helpers/boot-ready
[ -x "$ready" ] || make -C "$TOP" unit-tests >/dev/null
common="--file $ready:/usr/libexec/ember-bench/boot-ready"

"$TOP"/scripts/mkinitramfs.sh "$W/ember.cpio" $common --file "$TOP/bench/guest/ember-ready:/bench/ready"
"$TOP"/scripts/mkinitramfs.sh "$W/busybox.cpio" --init busybox $common \
	--file "$TOP/bench/guest/busybox-rcS:/etc/init.d/rcS" --file "$TOP/bench/guest/busybox-inittab:/etc/inittab"

boot_once() { # IMG APPEND -> "share_us rss_kb"
	timeout 120 "$TOP"/scripts/qemu-boot.sh "$1" "$2" </dev/null 2>&1 | tr -d '\r' |
		sed -n 's/^.*BENCH init_share_us=\([0-9]*\) pid1_rss_kb=\([0-9-]*\)$/\1 \2/p'
}

: >"$W/ember.txt"; : >"$W/busybox.txt"
i=0
while [ $i -lt "$RUNS" ]; do
	# Interleaved, so drift on the host affects both alike.
	boot_once "$W/ember.cpio" "ember.run=/bench/ready" >>"$W/ember.txt"
	boot_once "$W/busybox.cpio" "" >>"$W/busybox.txt"
	i=$((i + 1))
done
e=$(cut -d' ' -f1 "$W/ember.txt" | median); b=$(cut -d' ' -f1 "$W/busybox.txt" | median)
er=$(cut -d' ' -f2 "$W/ember.txt" | median); br=$(cut -d' ' -f2 "$W/busybox.txt" | median)
printf '\nboot: init share of boot, median of %s QEMU (TCG) boots each\n' "$RUNS"
printf '  %-22s %10s us   PID 1 RSS %6s kB\n' ember-init "$e" "$er" busybox-init "$b" "$br"
printf '  ratio busybox/ember: %sx (above 1: ember is faster)\n' "$(ratio "$b" "$e")"
printf '  ember-init static size: %s bytes\n' "$(stat -c %s "$TOP/out/bin/ember-init")"
