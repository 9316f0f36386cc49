#!/bin/sh
# ember-modload's resolution, without loading anything (the host runs another kernel):
# --dry-run over synthetic trees (configuration precedence, masking, command line,
# blacklist, cycles, missing index) and over the Debian kernel's real module tree,
# where its plan must name the same modules as kmod's `modprobe --show-depends`.
. "$(dirname "$0")/../lib.sh"
M=$BIN/ember-modload
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# ---- command line -------------------------------------------------------------------
check help "$M" --help
"$M" --version | grep -q '^ember-modload (ember) ' && pass version || fail version "$("$M" --version)"
"$M" --bogus >/dev/null 2>&1; rc=$?; [ $rc = 100 ] && pass bad-option-exit-100 || fail bad-option-exit-100 "exit $rc"
"$M" -j 0 -n x >/dev/null 2>&1; rc=$?; [ $rc = 100 ] && pass jobs-zero-exit-100 || fail jobs-zero-exit-100 "exit $rc"
out=$("$M" -n 'bad name' 2>&1); rc=$?
[ $rc = 100 ] && echo "$out" | grep -q "bad name: not a module name" && pass invalid-name-usage || fail invalid-name-usage "exit $rc: $out"

# ---- a synthetic tree -----------------------------------------------------------------
R=$T/root
K=$R/lib/modules/9.9.9-test
mk() { mkdir -p "$(dirname "$1")"; printf "$2" >"$1"; }
mk "$K/modules.dep" 'kernel/a.ko: kernel/b.ko kernel/c.ko\nkernel/b.ko: kernel/c.ko\nkernel/c.ko:\nkernel/d-x.ko:\nkernel/e.ko:\nkernel/vendor.ko:\nkernel/run.ko:\nkernel/etc.ko:\nkernel/bl.ko:\nkernel/usesbl.ko: kernel/bl.ko\nkernel/rd.ko:\nkernel/cmd.ko:\n'
mk "$K/modules.alias" 'alias fs-e e\n'
mk "$K/modules.builtin" 'kernel/fs/ext4/ext4.ko\n'
mk "$R/usr/lib/modules-load.d/10-vendor.conf" '# vendor\nvendor\n'
mk "$R/usr/lib/modules-load.d/20-override.conf" 'vendor-overridden\n'
mk "$R/usr/lib/modules-load.d/30-masked.conf" 'masked-module\n'
mk "$R/usr/local/lib/modules-load.d/15-local.conf" 'fs-e\n'
mk "$R/run/modules-load.d/05-run.conf" '; run\nrun\n'
mk "$R/etc/modules-load.d/20-override.conf" 'etc\na\n'
mk "$R/etc/modules-load.d/40-more.conf" 'd-x\next4\nbl\nusesbl\nnot-there\n'
mk "$R/etc/modules-load.d/notconf.txt" 'ignored\n'
ln -s /dev/null "$R/etc/modules-load.d/30-masked.conf"
mk "$R/etc/modprobe.d/bl.conf" 'blacklist bl\noptions a x=1\n'
mk "$R/proc/cmdline" 'quiet modules_load=cmd rd.modules_load=rd a.y=2\n'

plan=$("$M" -d "$R" -k 9.9.9-test -n -v 2>"$T/err"); rc=$?
[ $rc = 0 ] && pass dry-run-exit-0 || fail dry-run-exit-0 "exit $rc: $(cat "$T/err")"
order=$(echo "$plan" | sed -n 's/^order: //p')
[ "$order" = "cmd run vendor e etc c b a d_x usesbl bl" ] || [ "$order" = "cmd run vendor e etc c b a d_x bl usesbl" ] &&
	pass order-cmdline-then-files-sorted-across-dirs || fail order-cmdline-then-files-sorted-across-dirs "order: $order"
echo "$plan" | grep -q '^wave 1: .*\bc\b' && echo "$plan" | grep -q '^wave 3: a$' &&
	pass waves-follow-dependencies || fail waves-follow-dependencies "$plan"
echo "$plan" | grep -q '^builtin: ext4$' && pass builtin-needs-nothing || fail builtin-needs-nothing "$plan"
echo "$plan" | grep -q '^blacklisted: bl$' && pass blacklisted-request-refused || fail blacklisted-request-refused "$plan"
echo "$order" | grep -qw bl && pass blacklisted-dependency-kept || fail blacklisted-dependency-kept "$order"
echo "$plan" | grep -q '^missing: not_there$' && pass missing-listed || fail missing-listed "$plan"
grep -q 'not_there: module not found (requested by .*40-more.conf:5)' "$T/err" &&
	pass missing-reported-with-source || fail missing-reported-with-source "$(cat "$T/err")"
echo "$plan" | grep -q ' a .*options: x=1 y=2$' && pass options-modprobe-d-then-cmdline || fail options-modprobe-d-then-cmdline "$plan"
echo "$plan" | grep -qw 'masked_module\|vendor_overridden' && fail masking-and-override "$plan" || pass masking-and-override
echo "$order" | grep -qw rd && fail rd-prefix-only-in-initrd "rd loaded outside an initramfs" || pass rd-prefix-only-in-initrd
touch "$R/etc/initrd-release"
"$M" -d "$R" -k 9.9.9-test -n 2>/dev/null | grep -q '^order: .*\brd\b' && pass rd-prefix-in-initrd || fail rd-prefix-in-initrd "rd not planned"
rm "$R/etc/initrd-release"
"$M" -d "$R" -k 9.9.9-test -n --cmdline 'modules-load=c' 2>/dev/null | grep -q '^order: c run ' &&
	pass cmdline-option-overrides-proc || fail cmdline-option-overrides-proc "$("$M" -d "$R" -k 9.9.9-test -n --cmdline modules-load=c 2>&1)"

# Explicit files and names replace the configured set.
"$M" -d "$R" -k 9.9.9-test -n -C 40-more.conf 2>/dev/null | grep -q '^order: d_x' && pass config-by-name || fail config-by-name "$("$M" -d "$R" -k 9.9.9-test -n -C 40-more.conf 2>&1)"
"$M" -d "$R" -k 9.9.9-test -n -C nope.conf >/dev/null 2>&1; rc=$?; [ $rc = 1 ] && pass config-missing-exit-1 || fail config-missing-exit-1 "exit $rc"
"$M" -d "$R" -k 9.9.9-test -n b 2>/dev/null | grep -q '^order: c b$' && pass names-on-command-line || fail names-on-command-line "$("$M" -d "$R" -k 9.9.9-test -n b 2>&1)"
"$M" -d "$R" -k 9.9.9-test -n -j1 b d-x c 2>/dev/null | grep -q '^order: c b d_x$' && pass shared-dependency-once || fail shared-dependency-once "plan differs"

# JSON plan.
json=$("$M" -d "$R" -k 9.9.9-test -n --json a not-there 2>/dev/null)
if echo "$json" | python3 -m json.tool >/dev/null 2>&1; then pass json-is-valid; else fail json-is-valid "$json"; fi
echo "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
mods = {m["name"]: m for m in d["modules"]}
assert d["dry_run"] is True
assert mods["a"]["wave"] == 3 and mods["a"]["result"] == "planned" and mods["a"]["requested"]
assert mods["a"]["options"] == "x=1 y=2"
reqs = {r["name"]: r for r in d["requests"]}
assert reqs["not_there"]["result"] == "missing"
' && pass json-plan-content || fail json-plan-content "$json"

# An install command is never run, and its module is not loaded ("install X /bin/false"
# is how modules are disabled); that is a warning, not a failure.
mk "$R/etc/modprobe.d/install.conf" 'install vendor /bin/false\n'
out=$("$M" -d "$R" -k 9.9.9-test -n vendor 2>&1); rc=$?
[ $rc = 0 ] && echo "$out" | grep -q '^not-loaded: vendor: modprobe.d has an install command' &&
	pass install-command-not-run || fail install-command-not-run "exit $rc: $out"
rm "$R/etc/modprobe.d/install.conf"

# Hostile trees: a cycle fails the plan; a missing index is its own exit code; no
# requested module needs no index at all.
mk "$K/modules.dep" 'kernel/x.ko: kernel/y.ko\nkernel/y.ko: kernel/x.ko\nkernel/z.ko:\n'
out=$("$M" -d "$R" -k 9.9.9-test -n x z 2>&1); rc=$?
[ $rc = 1 ] && echo "$out" | grep -q 'error: x: dependency cycle' && echo "$out" | grep -q '^order: z$' &&
	pass cycle-reported-others-planned || fail cycle-reported-others-planned "exit $rc: $out"
rm "$K/modules.dep"
out=$("$M" -d "$R" -k 9.9.9-test -n x 2>&1); rc=$?
[ $rc = 2 ] && echo "$out" | grep -q 'cannot read the module index' && pass missing-index-exit-2 || fail missing-index-exit-2 "exit $rc: $out"
mkdir -p "$T/empty"
"$M" -d "$T/empty" -k 9.9.9-test -n >/dev/null 2>&1; rc=$?; [ $rc = 0 ] && pass nothing-requested-needs-no-index || fail nothing-requested-needs-no-index "exit $rc"
mk "$T/bad/etc/modules-load.d/x.conf" 'good\nbad name here\n'
mk "$T/bad/lib/modules/9.9.9-test/modules.dep" 'kernel/good.ko:\n'
"$M" -d "$T/bad" -k 9.9.9-test -n >/dev/null 2>&1; rc=$?; [ $rc = 1 ] && pass invalid-config-line-exit-1 || fail invalid-config-line-exit-1 "exit $rc"

# ---- the Debian kernel's module tree ------------------------------------------------------
if ! kdir=$("$TOP"/scripts/kernel.sh 2>"$T/kerr"); then
	skip debian-tree "scripts/kernel.sh could not fetch the Debian kernel: $(tail -n 1 "$T/kerr")"
	finish
fi
release=$(basename "$kdir")
SET="nf_tables nft_nat nft_masq nft_chain_nat nft_ct nft_fib_inet veth bridge vxlan wireguard macvlan
dummy geneve bonding 8021q ip_gre ext4 btrfs xfs vfat overlay fuse f2fs aesni-intel gcm xts dm-crypt zram
sha512-ssse3 loop crypto-crc32c fs-btrfs"
SET=$(echo $SET)
"$M" -d "$kdir" -k "$release" -n $SET 2>/dev/null | sed -n 's/^order: //p' | tr ' ' '\n' | sort >"$T/ember.txt"
# shellcheck disable=SC2086
modprobe -d "$kdir" -S "$release" --show-depends -a $SET 2>/dev/null | sed -n 's/^insmod \([^ ]*\).*/\1/p' |
	sed 's|.*/||; s/\.ko.*//; s/-/_/g' | sort -u >"$T/kmod.txt"
if [ -s "$T/kmod.txt" ] && cmp -s "$T/ember.txt" "$T/kmod.txt"; then
	pass debian-tree-same-modules-as-kmod
else
	fail debian-tree-same-modules-as-kmod "$(diff "$T/kmod.txt" "$T/ember.txt" | tr '\n' ' ')"
fi
[ "$(wc -l <"$T/ember.txt")" -ge 60 ] && pass debian-tree-realistic-size || fail debian-tree-realistic-size "$(wc -l <"$T/ember.txt") modules"

# The text index and the binary one give the same plan.
txt=$T/txtroot/lib/modules/$release
mkdir -p "$txt"
for f in "$kdir/lib/modules/$release"/*; do
	case $f in *.bin) ;; *) ln -s "$f" "$txt/" ;; esac
done
a=$("$M" -d "$kdir" -k "$release" -n -v $SET 2>&1 | sed "s|$kdir||g")
b=$("$M" -d "$T/txtroot" -k "$release" -n -v $SET 2>&1 | sed "s|$T/txtroot||g")
[ -n "$a" ] && [ "$a" = "$b" ] && pass text-and-binary-index-agree || fail text-and-binary-index-agree "plans differ"
# Every module of the plan comes after all of its modules.dep dependencies.
"$M" -d "$kdir" -k "$release" -n -j1 $SET 2>/dev/null | sed -n 's/^order: //p' | tr ' ' '\n' >"$T/order.txt"
python3 - "$kdir/lib/modules/$release/modules.dep" "$T/order.txt" <<'PY' && pass debian-tree-deps-before-users || fail debian-tree-deps-before-users "order violates modules.dep"
import os, sys
name = lambda p: os.path.basename(p).split(".ko")[0].replace("-", "_")
deps = {}
for line in open(sys.argv[1]):
    mod, _, rest = line.partition(":")
    deps[name(mod)] = [name(d) for d in rest.split()]
order = [l.strip() for l in open(sys.argv[2]) if l.strip()]
pos = {m: i for i, m in enumerate(order)}
for m in order:
    for d in deps.get(m, []):
        assert pos[d] < pos[m], (d, m)
PY
finish
