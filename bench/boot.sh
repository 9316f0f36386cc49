#!/bin/sh
# Init's share of boot in QEMU: from the kernel starting /init until all services run, for
# ember-init and busybox init on the same kernel and image contents, with 0, 10 and 50
# services (each the `idle` helper, which pauses until killed). busybox init runs an rcS
# doing the same mounts and respawns the services from inittab. The marker
# (tests/helpers/boot-ready) is started first by either init, waits until all service
# processes run, and measures between two kmsg timestamps. Also PID 1's RSS after boot and
# ember-init's static size. RUNS pairs of boots per configuration (default 9: boots vary by
# up to 2x); COUNTS the service counts. docs/benchmarks.md has the method and results.
set -eu
. "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-9}
COUNTS=${COUNTS:-0 10 50}
W=$TOP/out/bench; mkdir -p "$W"
ready=$TOP/out/tests/helpers/boot-ready idle=$TOP/out/tests/helpers/idle
MARKER=/usr/libexec/ember-bench/boot-ready
make -C "$TOP" all "$ready" "$idle" >/dev/null

make_images() { # N
	n=$1 svc=$W/services-$n
	rm -rf "$svc"; mkdir -p "$svc"
	cp "$TOP/bench/guest/busybox-inittab" "$W/inittab-$n"
	# The marker first under both inits: busybox init starts its `once` line before the
	# `respawn` ones, and ember-init starts services in name order.
	printf '[Service]\nStandardOutput=console\nExecStart=%s --poweroff %s\n' "$MARKER" "$n" >"$svc/0-ready.service"
	echo "::once:$MARKER --poweroff $n" >>"$W/inittab-$n"
	i=1
	while [ "$i" -le "$n" ]; do
		printf '[Service]\nExecStart=/bench/idle %s\n' "$i" >"$svc/s$i.service"
		# busybox init merges inittab lines with the same command: number them.
		echo "::respawn:/bench/idle $i" >>"$W/inittab-$n"
		i=$((i + 1))
	done
	common="--file $ready:$MARKER --file $idle:/bench/idle"
	# shellcheck disable=SC2086
	"$TOP"/scripts/mkinitramfs.sh "$W/ember-$n.cpio" $common --dir "$svc:/etc/ember/services"
	# shellcheck disable=SC2086
	"$TOP"/scripts/mkinitramfs.sh "$W/busybox-$n.cpio" --init busybox $common \
		--file "$TOP/bench/guest/busybox-rcS:/etc/init.d/rcS" --file "$W/inittab-$n:/etc/inittab"
}

boot_once() { # IMG APPEND -> "share_us rss_kb"
	timeout 120 "$TOP"/scripts/qemu-boot.sh "$1" "$2" </dev/null 2>&1 | tr -d '\r' |
		sed -n 's/^.*BENCH init_share_us=\([0-9]*\) pid1_rss_kb=\([0-9-]*\)$/\1 \2/p'
}

printf '\nboot: init share of boot (kernel runs /init -> ready), median of %s QEMU (TCG) boots\n' "$RUNS"
printf '  %-9s %13s %13s %8s %9s %7s   %s\n' services "ember-init us" "busybox us" "bb/ember" "per-boot" "ahead" "PID 1 RSS kB (ember / busybox)"
for n in $COUNTS; do
	make_images "$n" >/dev/null
	: >"$W/pairs-$n.txt"
	i=0
	while [ $i -lt "$RUNS" ]; do
		# Each pair boots both inits back to back, in alternating order: TCG's speed
		# drifts over minutes, so pairs compare like with like.
		if [ $((i % 2)) = 0 ]; then
			e=$(boot_once "$W/ember-$n.cpio" "quiet ember.shell=none"); b=$(boot_once "$W/busybox-$n.cpio" "quiet")
		else
			b=$(boot_once "$W/busybox-$n.cpio" "quiet"); e=$(boot_once "$W/ember-$n.cpio" "quiet ember.shell=none")
		fi
		if [ -n "$e" ] && [ -n "$b" ]; then
			echo "$e $b" >>"$W/pairs-$n.txt"
		else
			echo "boot: a boot with $n services printed no result (ember '$e', busybox '$b')" >&2
		fi
		i=$((i + 1))
	done
	p=$W/pairs-$n.txt
	e=$(cut -d' ' -f1 "$p" | median); b=$(cut -d' ' -f3 "$p" | median)
	er=$(cut -d' ' -f2 "$p" | median); br=$(cut -d' ' -f4 "$p" | median)
	per=$(awk '{printf "%.4f\n", $3 / $1}' "$p" | median)
	ahead=$(awk '$1 < $3 {n++} END {printf "%d/%d", n, NR}' "$p")
	printf '  %-9s %13s %13s %7sx %8.2fx %7s   %s / %s\n' "$n" "$e" "$b" "$(ratio "$b" "$e")" "$per" "$ahead" "$er" "$br"
done
printf '  (bb/ember above 1: ember-init is faster; per-boot: median of the pairs'"'"' ratios;\n'
printf '   ahead: pairs in which ember-init was faster)\n'
printf '  ember-init static size: %s bytes\n' "$(stat -c %s "$TOP/out/bin/ember-init")"
