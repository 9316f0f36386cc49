#!/bin/sh
# Wall time to load the same realistic module set (the QEMU test's: nftables NAT, veth,
# bridge, vxlan, wireguard, filesystems, crypto; 56 names, 99 modules) inside one QEMU
# (TCG, 2 vCPUs by default) guest with:
#   ember-modload -j1, ember-modload (default jobs = online CPUs), kmod `modprobe -a`,
#   busybox `modprobe -a`, and kmod/busybox one `modprobe` per module, 2 at once (the
#   way udev-style loaders run them).
# Paired: every boot runs every tool once, in an order rotated from boot to boot, and
# unloads all modules between tools, so that a slow or fast boot (TCG speed varies from
# boot to boot by up to 2x) weighs on all tools alike. ROUNDS boots (default 6: each of
# the six tools goes first once); medians of the per-boot times and of the per-boot
# ratios are printed.
set -eu
. "$(dirname "$0")/lib.sh"
ROUNDS=${ROUNDS:-6}
W=$TOP/out/bench/modload
rm -rf "$W"
mkdir -p "$W/bench" "$W/kmod/usr/local/sbin" "$W/kmod/lib/x86_64-linux-gnu" "$W/kmod/lib64"

SET="nf_tables nft_nat nft_masq nft_chain_nat nft_ct nft_fib_inet nft_fib_ipv4 nft_fib_ipv6
nft_reject_inet nft_limit nft_redir nf_conntrack_netlink veth bridge vxlan wireguard macvlan
ipvlan dummy tun geneve bonding 8021q ip_gre ipip sit ext4 btrfs xfs vfat isofs squashfs
overlay fuse f2fs exfat udf aesni-intel gcm ccm chacha20poly1305 xts dm-crypt zram
sha512-ssse3 serpent_generic twofish_generic cmac lz4 loop"
# busybox modprobe ignores softdeps: name the providers (libcrc32c, ext4, btrfs: crc32c;
# btrfs: blake2b; f2fs: crc32; xts: ecb) first, so every tool loads the same 99 modules.
SET=$(echo crc32c-intel crc32c_generic crc32-pclmul crc32_generic blake2b_generic ecb $SET)
TOOLS=${TOOLS:-"ember-j1 ember kmod-a busybox-a kmod-x2 busybox-x2"}

# kmod's modprobe and the libraries it needs, beside busybox's.
cp /usr/bin/kmod "$W/kmod/usr/local/sbin/kmod"
ln -s kmod "$W/kmod/usr/local/sbin/modprobe"
for lib in $(ldd /usr/bin/kmod | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p'); do
	cp "$lib" "$W/kmod/lib/x86_64-linux-gnu/"
done
cp /lib64/ld-linux-x86-64.so.2 "$W/kmod/lib64/"

cat >"$W/bench/run.sh" <<GUEST
#!/bin/sh
# Runs in the guest right after boot: each tool of bench.tools= (comma-separated, in
# that order) loads the set, timed on /proc/uptime (centiseconds); then every module is
# unloaded again.
now() { cut -d' ' -f1 /proc/uptime | tr -d .; }
per_module() { echo $SET | tr ' ' '\n' | xargs -n 1 -P 2 "\$@"; }
unload_all() { # newest first (/proc/modules order), so users go before what they use
	for pass in 1 2 3 4 5 6 7 8; do
		mods=\$(cut -d' ' -f1 /proc/modules)
		[ -n "\$mods" ] || return 0
		for m in \$mods; do rmmod "\$m" 2>/dev/null; done
	done
	echo "BENCH-WARN modules left loaded: \$(cut -d' ' -f1 /proc/modules | tr '\\n' ' ')"
}
round=\$(sed -n 's/.*bench.round=\\([^ ]*\\).*/\\1/p' /proc/cmdline)
for tool in \$(sed -n 's/.*bench.tools=\\([^ ]*\\).*/\\1/p' /proc/cmdline | tr , ' '); do
	case \$tool in
	ember-j1) set -- ember-modload -j1 $SET ;;
	ember) set -- ember-modload $SET ;;
	kmod-a) set -- /usr/local/sbin/modprobe -a $SET ;;
	busybox-a) set -- /bin/modprobe -a $SET ;;
	kmod-x2) set -- per_module /usr/local/sbin/modprobe ;;
	busybox-x2) set -- per_module /bin/modprobe ;;
	esac
	sync
	t0=\$(now)
	"\$@" >/dev/null 2>&1
	rc=\$?
	t1=\$(now)
	echo "BENCH round=\$round tool=\$tool ms=\$(( (t1 - t0) * 10 )) rc=\$rc modules=\$(grep -c ' Live ' /proc/modules)"
	unload_all
done
# Let the serial line drain before ember-init powers off.
sleep 1
GUEST
chmod +x "$W/bench/run.sh"

img=$W/modload.cpio
"$TOP"/scripts/mkinitramfs.sh "$img" --modules "$SET" --dir "$W/bench:/bench" --dir "$W/kmod:/"
: >"$W/results.txt"
ntools=$(echo $TOOLS | wc -w)
r=0
while [ $r -lt "$ROUNDS" ]; do
	# This boot's order: TOOLS rotated by r.
	order=$(echo $TOOLS $TOOLS | tr ' ' '\n' | sed -n "$((r % ntools + 1)),$((r % ntools + ntools))p" | paste -sd,)
	cut -d' ' -f1 /proc/loadavg >>"$W/hostload.txt"
	timeout 1800 "$TOP"/scripts/qemu-boot.sh "$img" "ember.run=/bench/run.sh bench.round=$r bench.tools=$order" \
		-- -cpu max </dev/null 2>&1 | tr -d '\r' | tee "$W/console-$r.log" | grep '^BENCH' >>"$W/results.txt" || true
	r=$((r + 1))
done

samples() { sed -n "s/^BENCH round=$2 tool=$1 ms=\([0-9]*\) .*/\1/p" "$W/results.txt"; }
med() { samples "$1" '[0-9]*' | median; }
mods() { sed -n "s/^BENCH round=.* tool=$1 .* modules=\([0-9]*\)$/\1/p" "$W/results.txt" | sort -u | tr '\n' ' '; }
# The median over boots of A's time / B's time within the same boot.
paired() {
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		a=$(samples "$1" $r) b=$(samples "$2" $r)
		[ -n "$a" ] && [ -n "$b" ] && ratio "$a" "$b"
		r=$((r + 1))
	done | median
}
printf '\nmodload: wall time to load %s requested modules, QEMU TCG %s vCPUs, %s boots, every tool in every boot\n' \
	"$(echo $SET | wc -w)" "${QEMU_SMP:-2}" "$ROUNDS"
printf '  host: %s CPUs, 1-min load average before each boot: median %s, max %s (TCG timings scale with it)\n' \
	"$(nproc)" "$(median <"$W/hostload.txt")" "$(sort -n "$W/hostload.txt" | tail -n 1)"
grep '^BENCH-WARN' "$W"/console-*.log | sed 's/^/  /' || true
for t in $TOOLS; do
	printf '  %-12s median %6s ms   per boot: %s  (modules live after: %s)\n' "$t" "$(med $t)" \
		"$(samples "$t" '[0-9]*' | paste -sd' ')" "$(mods $t)"
done
for t in $TOOLS; do
	case $t in ember*) continue ;; esac
	printf '  %s / ember: %sx (medians), %sx (median of per-boot ratios);  %s / ember-j1: %sx, %sx\n' \
		"$t" "$(ratio "$(med $t)" "$(med ember)")" "$(paired "$t" ember)" \
		"$t" "$(ratio "$(med $t)" "$(med ember-j1)")" "$(paired "$t" ember-j1)"
done
