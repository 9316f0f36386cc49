#!/bin/sh
# ember-modload on the Debian kernel: loads a realistic set (nftables NAT stack, veth,
# bridge, vxlan, wireguard, filesystems, crypto: 50 requested names, ~90 modules with
# shared dependencies) in parallel, applies modprobe.d and command-line options, keeps
# blacklisted modules out, reports a missing one without failing the rest, fails on
# a module the kernel rejects, and takes modules_load= from the kernel command line.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"

work=$QEMU_WORK/modload
rm -rf "$work"
mkdir -p "$work/test" "$work/etc/modprobe.d" "$work/etc/modules-load.d"

# The set, as a user would write it: mixed '-' and '_', a built-in (cbc), a
# blacklisted one (pcspkr), a missing one.
NET="nf_tables nft_nat nft_masq nft_chain_nat nft_ct nft_fib_inet nft_fib_ipv4 nft_fib_ipv6
nft_reject_inet nft_limit nft_redir nf_conntrack_netlink veth bridge vxlan wireguard macvlan
ipvlan dummy tun geneve bonding 8021q ip_gre ipip sit"
FS="ext4 btrfs xfs vfat isofs squashfs overlay fuse f2fs exfat udf"
CRYPTO="aesni-intel gcm ccm chacha20poly1305 xts dm-crypt zram sha512-ssse3 serpent_generic
twofish_generic cmac lz4 loop"
SET=$(echo $NET $FS $CRYPTO)
printf '%s\n' '# realistic set' $SET '; built in, blacklisted, missing' cbc pcspkr no_such_module_x \
	>"$work/test/modload.conf"
cat >"$work/etc/modprobe.d/test.conf" <<'CONF'
# options from modprobe.d reach /sys/module/*/parameters
options dummy numdummies=3
options vxlan udp_port=4790
options nf_conntrack hashsize=4096
blacklist pcspkr
# a blacklisted name is still loaded as a dependency (bridge needs llc)
blacklist llc
CONF
echo tun >"$work/etc/modules-load.d/tun.conf"

# A module the kernel rejects, in a tree of its own (--root): a load error is fatal,
# the good module next to it still loads.
kdir=$("$TOP"/scripts/kernel.sh)
release=$(basename "$kdir")
bad=$work/test/badroot/lib/modules/$release
mkdir -p "$bad/kernel"
head -c 4096 /dev/urandom >"$bad/kernel/broken.ko"
cp "$kdir/lib/modules/$release/kernel/drivers/net/nlmon.ko" "$bad/kernel/nlmon.ko"
gzip -c "$bad/kernel/nlmon.ko" >"$bad/kernel/packed.ko.gz"
printf 'kernel/broken.ko:\nkernel/nlmon.ko:\nkernel/packed.ko.gz:\n' >"$bad/modules.dep"

cat >"$work/test/modload-guest.sh" <<GUEST
#!/bin/sh
ok() { echo "EMBER-TEST PASS \$1"; }
bad() { echo "EMBER-TEST FAIL \$1: \$2"; status=1; }
status=0
live() { grep -q "^\$1 .* Live " /proc/modules; }

ember-modload -C /test/modload.conf --json >/tmp/result.json 2>/tmp/stderr
rc=\$?
[ \$rc = 0 ] && ok exit-0-with-missing-module || bad exit-0-with-missing-module "exit \$rc: \$(tail -n 3 /tmp/stderr)"
missing=""
for m in $SET; do
	n=\$(echo "\$m" | tr - _)
	live "\$n" || missing="\$missing \$n"
done
[ -z "\$missing" ] && ok all-requested-modules-live || bad all-requested-modules-live "not live:\$missing"
n=\$(grep -c ' Live ' /proc/modules)
[ "\$n" -ge 80 ] && ok dependencies-live || bad dependencies-live "only \$n modules live"
deps=""
for dep in nf_conntrack nf_nat libcrc32c stp udp_tunnel jbd2 mbcache dm_mod crc32c_generic; do
	live \$dep || deps="\$deps \$dep"
done
[ -z "\$deps" ] && ok shared-dependencies-and-softdeps-live || bad shared-dependencies-and-softdeps-live "not live:\$deps"
live llc && ok blacklisted-dependency-still-loads || bad blacklisted-dependency-still-loads "llc (needed by bridge) not live"
live pcspkr && bad blacklisted-stays-out "pcspkr is loaded" || ok blacklisted-stays-out
grep -q 'no_such_module_x: module not found' /tmp/stderr && ok missing-module-reported || bad missing-module-reported "stderr: \$(cat /tmp/stderr)"
grep -q '"name":"no_such_module_x","source":"/test/modload.conf:[0-9]*","result":"missing"' /tmp/result.json &&
	ok missing-module-in-json || bad missing-module-in-json "\$(head -c 300 /tmp/result.json)"
grep -q '"name":"nf_conntrack","path":"[^"]*","wave":[0-9]*,"requested":false,"result":"loaded"' /tmp/result.json &&
	ok json-per-module-result || bad json-per-module-result "\$(head -c 300 /tmp/result.json)"
grep -q '"name":"cbc","source":"[^"]*","result":"builtin"' /tmp/result.json && ok builtin-needs-nothing || bad builtin-needs-nothing "cbc not builtin in json"
[ "\$(cat /sys/module/vxlan/parameters/udp_port)" = 4790 ] && ok modprobe-d-options-vxlan || bad modprobe-d-options-vxlan "udp_port=\$(cat /sys/module/vxlan/parameters/udp_port)"
[ "\$(cat /sys/module/nf_conntrack/parameters/hashsize)" = 4096 ] && ok modprobe-d-options-nf-conntrack || bad modprobe-d-options-nf-conntrack "hashsize=\$(cat /sys/module/nf_conntrack/parameters/hashsize)"
# numdummies has no sysfs file: its effect is three dummy interfaces.
[ -e /sys/class/net/dummy2 ] && [ ! -e /sys/class/net/dummy3 ] && ok modprobe-d-options-dummy || bad modprobe-d-options-dummy "\$(ls /sys/class/net | tr '\\n' ' ')"
echo "modload: \$(grep -o '"jobs":[0-9]*,"waves":[0-9]*,"wall_us":[0-9]*' /tmp/result.json)"
[ "\$(cat /sys/module/loop/parameters/max_loop)" = 12 ] && ok cmdline-module-param || bad cmdline-module-param "max_loop=\$(cat /sys/module/loop/parameters/max_loop)"
grep -q ' error:\| failed' /tmp/stderr && bad no-load-errors "\$(grep 'error\|failed' /tmp/stderr | head -3)" || ok no-load-errors

# Everything is live now: a second run changes nothing and succeeds.
ember-modload -C /test/modload.conf --json >/tmp/again.json 2>/dev/null
rc=\$?
[ \$rc = 0 ] && grep -q '"loaded":0,' /tmp/again.json && ok second-run-loads-nothing || bad second-run-loads-nothing "exit \$rc \$(tail -c 200 /tmp/again.json)"

# Default mode: kernel command line (modules_load=) and modules-load.d.
ember-modload -v 2>/tmp/default.err
rc=\$?
[ \$rc = 0 ] || bad default-mode "exit \$rc: \$(tail -n 3 /tmp/default.err)"
live ifb && live tun && ok default-mode-cmdline-and-modules-load-d || bad default-mode-cmdline-and-modules-load-d "ifb/tun not live"

# A module the kernel rejects: reported by name, exit 1, its neighbour still loads.
live nlmon && bad nlmon-not-yet-loaded "nlmon live before the test"
ember-modload -d /test/badroot -k $release broken no_such_module nlmon 2>/tmp/bad.err
rc=\$?
[ \$rc = 1 ] && ok load-error-exit-1 || bad load-error-exit-1 "exit \$rc"
grep -q 'broken: .*broken.ko: invalid module format\|broken: .*broken.ko: ' /tmp/bad.err && ok load-error-names-module || bad load-error-names-module "\$(cat /tmp/bad.err)"
live nlmon && ok load-error-others-still-load || bad load-error-others-still-load "nlmon not live"
# Linux 6.1 cannot decompress modules itself: a compressed one fails by name.
ember-modload -d /test/badroot -k $release packed 2>/tmp/packed.err
rc=\$?
[ \$rc = 1 ] && grep -q 'packed: .*packed.ko.gz: compressed module, but this kernel cannot decompress it' /tmp/packed.err &&
	ok compressed-module-clear-error || bad compressed-module-clear-error "exit \$rc: \$(cat /tmp/packed.err)"
sleep 1
exit \$status
GUEST
chmod +x "$work/test/modload-guest.sh"

img=$QEMU_WORK/modload.cpio
qemu_image "$img" --modules "$SET pcspkr ifb" --dir "$work/test:/test" --dir "$work/etc:/etc"
qemu_test "$img" modload 600 modload-guest.sh "modules_load=ifb loop.max_loop=12" -cpu max

# Standalone under another init: busybox init runs it from rcS, as an OpenRC or sysvinit
# boot script would; modules_load= and modules-load.d come from the real locations.
mkdir -p "$work/bb"
printf '::sysinit:/etc/init.d/rcS\n' >"$work/bb/inittab"
cat >"$work/bb/rcS" <<'RCS'
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
ember-modload --verbose veth 2>/tmp/err
rc=$?
ember-modload 2>>/tmp/err || rc=$?
if [ $rc = 0 ] && grep -q '^veth ' /proc/modules && grep -q '^dummy ' /proc/modules && grep -q '^tun ' /proc/modules; then
	echo "EMBER-TEST PASS busybox-init-standalone"
else
	echo "EMBER-TEST FAIL busybox-init-standalone: exit $rc, $(cut -d' ' -f1 /proc/modules | tr '\n' ' ') $(cat /tmp/err)"
fi
grep -q 'veth: loaded in' /tmp/err && echo "EMBER-TEST PASS busybox-init-verbose-logs-each-load" ||
	echo "EMBER-TEST FAIL busybox-init-verbose-logs-each-load: $(cat /tmp/err)"
sleep 1
poweroff -f
RCS
chmod +x "$work/bb/rcS"
bbimg=$QEMU_WORK/modload-busybox.cpio
qemu_image "$bbimg" --init busybox --modules "veth dummy tun" --dir "$work/etc:/etc" \
	--file "$work/bb/rcS:/etc/init.d/rcS" --file "$work/bb/inittab:/etc/inittab"
qemu_run "$bbimg" "$QEMU_WORK/modload-busybox.log" 300 "modules_load=dummy"
relay_guest_results "$QEMU_WORK/modload-busybox.log"
grep -q 'EMBER-TEST .* busybox-init-standalone' "$QEMU_WORK/modload-busybox.log" ||
	fail busybox-init-ran "no result from the busybox-init guest (QEMU exit $QEMU_RC); log: $QEMU_WORK/modload-busybox.log"
finish
