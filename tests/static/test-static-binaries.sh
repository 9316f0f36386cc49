#!/bin/sh
# The static set (`make static`, $BIN when tests/run runs the static suite): every program
# the default build ships is there, and every one is static against musl -- no program
# interpreter, no shared library, no glibc code -- and runs. The QEMU image built from it
# holds no shared library at all.
. "$(dirname "$0")/../lib.sh"
default_bin=$TOP/out/bin
n=0
for f in "$default_bin"/*; do
	name=$(basename "$f")
	[ -f "$BIN/$name" ] || fail "$name-in-static-set" "$BIN/$name missing (make static)"
done
for f in "$BIN"/*; do
	name=$(basename "$f")
	n=$((n + 1))
	desc=$(file -b "$f")
	case $desc in
	*"statically linked"* | *"static-pie linked"*) pass "$name-static" ;;
	*) fail "$name-static" "$desc" ;;
	esac
	if readelf -lW "$f" | grep -q INTERP; then
		fail "$name-no-interpreter" "$(readelf -lW "$f" | grep -A1 INTERP | tail -n 1)"
	else
		pass "$name-no-interpreter"
	fi
	needed=$(readelf -dW "$f" 2>/dev/null | sed -n 's/.*Shared library: //p' | tr '\n' ' ')
	[ -z "$needed" ] && pass "$name-no-shared-library" || fail "$name-no-shared-library" "needs $needed"
	if grep -aq -e 'GLIBC_' -e 'GNU C Library' "$f"; then
		fail "$name-no-glibc" "glibc code inside"
	else
		pass "$name-no-glibc"
	fi
	check "$name-runs" "$f" --version
done
# Eight programs today; a smaller set means the build lost one.
[ "$n" -ge 8 ] && pass static-set-complete || fail static-set-complete "only $n programs in $BIN"

# The image the QEMU tests boot from this set: nothing dynamic in it (busybox is the static
# Debian build).
img=$(mktemp)
list=$(mktemp)
trap 'rm -f "$img" "$list"' EXIT
if EMBER_BIN=$BIN "$TOP"/scripts/mkinitramfs.sh "$img" >/dev/null 2>&1; then
	cpio -it --quiet <"$img" >"$list" 2>/dev/null
	libs=$(grep -E '(^|/)(ld-linux[^/]*|lib[^/]*\.so[^/]*)$' "$list" | tr '\n' ' ')
	[ -z "$libs" ] && pass image-no-shared-library || fail image-no-shared-library "$libs"
	grep -Eqx '(\./)?sbin/ember-init' "$list" && grep -Eqx '(\./)?usr/sbin/empowerd' "$list" &&
		pass image-holds-static-set || fail image-holds-static-set "ember programs missing: $(grep -c ember "$list") entries"
else
	fail image-builds "mkinitramfs.sh failed"
fi
finish
