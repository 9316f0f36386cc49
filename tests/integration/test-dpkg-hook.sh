#!/bin/sh
# ember's dpkg post-invoke hook (distro/debian/dpkg-post-invoke-ember) with the real
# ember-init as PID 1 of a PID+mount namespace: after dpkg configured a package whose
# unit is now pulled in, the unit runs (systemd: the postinst's deb-systemd-invoke start,
# which needs /run/systemd/system); after a removal, its unit stops; after an unpack (the
# postinst has not run yet) and under `dpkg --root`, nothing is read again. Outside ember
# (on the host) the hook does nothing and never fails dpkg.
. "$(dirname "$0")/../lib.sh"
[ "$(id -u)" = 0 ] || { skip dpkg-hook "needs root (namespaces)"; finish; }
for p in ember-init emberctl; do
	[ -x "$BIN/$p" ] || { fail build "missing $BIN/$p (run make)"; finish; }
done
HOOK=$TOP/distro/debian/dpkg-post-invoke-ember
tmp=$(mktemp -d); chmod 0755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
S=$tmp/services
mkdir -p "$S" "$tmp/pkg"
printf '[Service]\nExecStart=/bin/sleep 1000\n' >"$S/base.service"
for u in new early rooted; do
	printf '[Service]\nExecStart=/bin/sleep 1000\n' >"$tmp/pkg/$u.service"
done

# on the host (PID 1 is not ember-init): nothing, and success
out=$(DPKG_HOOK_ACTION=configure PATH=$BIN:$PATH sh "$HOOK" 2>&1); rc=$?
[ $rc = 0 ] && [ -z "$out" ] && pass host-untouched || fail host-untouched "rc $rc: $out"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH; export PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
wait_state() { i=0; while [ "\$(emberctl is-active "\$1" 2>/dev/null)" != "\$2" ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done; }
hook() { env DPKG_HOOK_ACTION="\$1" \${2:+DPKG_ROOT=\$2} sh "$HOOK"; }
# dpkg --unpack: the unit file is there, its postinst has not run
cp $tmp/pkg/early.service $S/
out=\$(hook unpack 2>&1); rc=\$?
emberctl show -p LoadState --value early.service | grep -qx not-found && [ \$rc = 0 ] && [ -z "\$out" ] &&
	ok unpack-reads-nothing || bad unpack-reads-nothing "rc \$rc, \$(emberctl is-active early 2>&1) \$out"
# dpkg --root=DIR: another system's packages
cp $tmp/pkg/rooted.service $S/
hook configure /srv/other >/dev/null 2>&1
emberctl show -p LoadState --value rooted.service | grep -qx not-found && ok other-root-reads-nothing ||
	bad other-root-reads-nothing "\$(emberctl is-active rooted 2>&1)"
# dpkg --configure / -i: the package's unit is pulled in now, so it starts
cp $tmp/pkg/new.service $S/
out=\$(hook configure 2>&1); rc=\$?
wait_state new active
[ \$rc = 0 ] && [ -z "\$out" ] && [ "\$(emberctl is-active new)" = active ] && ok configure-starts-new-unit ||
	bad configure-starts-new-unit "rc \$rc, \$(emberctl is-active new 2>&1), \$out"
[ "\$(emberctl is-active early)" = active ] && ok earlier-unpacked-unit-starts-with-it ||
	bad earlier-unpacked-unit-starts-with-it "\$(emberctl is-active early 2>&1)"
# dpkg -r: the file is gone, the unit stops
rm $S/new.service
hook remove >/dev/null 2>&1
wait_state new inactive
[ "\$(emberctl is-active new)" != active ] && ok remove-stops-unit || bad remove-stops-unit "\$(emberctl is-active new 2>&1)"
emberctl -q is-active base && ok others-untouched || bad others-untouched "\$(emberctl is-active base 2>&1)"
kill -0 1 && ok pid1-alive || bad pid1-alive gone
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log"
finish
