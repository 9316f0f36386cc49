#!/bin/sh
# Wall time to load the same realistic module set (the QEMU test's: nftables NAT, veth,
# bridge, vxlan, wireguard, filesystems, crypto; 50 names, ~90 modules) inside one QEMU
# (TCG, 2 vCPUs by default) guest, from a clean state each time, with:
#   ember-modload -j1, ember-modload (default jobs = online CPUs), kmod `modprobe -a`,
#   busybox `modprobe -a`, and kmod/busybox one `modprobe` per module, 2 at once (the
#   way udev-style loaders run them).
# ROUNDS rounds (default 3), interleaved; medians and ratios are printed.
set -eu
. "$(dirname "$0")/lib.sh"
ROUNDS=${ROUNDS:-3}
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
# Runs in the guest right after boot: one load of the set by the tool named by
# bench.tool= on the kernel command line, timed on /proc/uptime (centiseconds).
now() { cut -d' ' -f1 /proc/uptime | tr -d .; }
per_module() { echo $SET | tr ' ' '\\n' | xargs -n 1 -P 2 "\$@"; }
tool=\$(sed -n 's/.*bench.tool=\\([^ ]*\\).*/\\1/p' /proc/cmdline)
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
echo "BENCH tool=\$tool ms=\$(( (t1 - t0) * 10 )) rc=\$rc modules=\$(grep -c ' Live ' /proc/modules)"
# Let the serial line drain before ember-init powers off.
sleep 1
GUEST
chmod +x "$W/bench/run.sh"

img=$W/modload.cpio
"$TOP"/scripts/mkinitramfs.sh "$img" --modules "$SET" --dir "$W/bench:/bench" --dir "$W/kmod:/"
: >"$W/results.txt"
r=0
while [ $r -lt "$ROUNDS" ]; do
	# A fresh boot per measurement: nothing loaded, no memory recycled from unloaded
	# modules; tools interleaved so host drift hits them alike.
	for t in $TOOLS; do
		cut -d' ' -f1 /proc/loadavg >>"$W/hostload.txt"
		timeout 600 "$TOP"/scripts/qemu-boot.sh "$img" "ember.run=/bench/run.sh bench.tool=$t" -- -cpu max \
			</dev/null 2>&1 | tr -d '\r' | tee "$W/console-$t-$r.log" | grep '^BENCH' >>"$W/results.txt" || true
	done
	r=$((r + 1))
done

med() { sed -n "s/^BENCH tool=$1 ms=\([0-9]*\) .*/\1/p" "$W/results.txt" | median; }
mods() { sed -n "s/^BENCH tool=$1 .* modules=\([0-9]*\)$/\1/p" "$W/results.txt" | sort -u | tr '\n' ' '; }
printf '\nmodload: wall time to load %s requested modules, median of %s rounds, QEMU TCG %s vCPUs\n' \
	"$(echo $SET | wc -w)" "$ROUNDS" "${QEMU_SMP:-2}"
printf '  host: %s CPUs, 1-min load average before each boot: median %s, max %s (TCG timings scale with it)\n' \
	"$(nproc)" "$(median <"$W/hostload.txt")" "$(sort -n "$W/hostload.txt" | tail -n 1)"
for t in $TOOLS; do
	printf '  %-12s %7s ms   (modules live after: %s)\n' "$t" "$(med $t)" "$(mods $t)"
done
e=$(med ember); e1=$(med ember-j1)
for t in $TOOLS; do
	case $t in ember*) continue ;; esac
	printf '  ratio %s/ember: %sx   %s/ember-j1: %sx\n' "$t" "$(ratio "$(med $t)" "$e")" "$t" "$(ratio "$(med $t)" "$e1")"
done
