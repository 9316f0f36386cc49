#!/bin/sh
# ember's dpkg post-invoke hook (distro/debian/dpkg-post-invoke-ember) with the real
# ember-init as PID 1 of a PID+mount namespace: after dpkg configured a package whose
# unit is now pulled in, the unit runs (systemd: the postinst's deb-systemd-invoke start,
# which needs /run/systemd/system) unless policy-rc.d forbids its start; after a removal, its unit stops; after an unpack (the
# postinst has not run yet), under `dpkg --root` and in a chroot, nothing is read again. Upgrades
# (dpkg-status-logger-ember notes them from dpkg's status lines): once configured, a
# package's running units restart as its postinst asks under systemd (debhelper's
# $_dh_action, try-restart), not when it only starts them (dbus) or policy-rc.d says no
# (101); a package not yet configured waits for its configure run. Outside ember (on the
# host) both do nothing and never fail dpkg.
. "$(dirname "$0")/../lib.sh"
[ "$(id -u)" = 0 ] || { skip dpkg-hook "needs root (namespaces)"; finish; }
for p in ember-init emberctl; do
	[ -x "$BIN/$p" ] || { fail build "missing $BIN/$p (run make)"; finish; }
done
HOOK=$TOP/distro/debian/dpkg-post-invoke-ember LOGGER=$TOP/distro/debian/dpkg-status-logger-ember
tmp=$(mktemp -d); chmod 0755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
S=$tmp/services A=$tmp/admin
mkdir -p "$S" "$tmp/pkg" "$A/info"
printf '[Service]\nExecStart=/bin/sleep 1000\n' >"$S/base.service"
# upgraded packages' units, and their postinst lines as debhelper and packagers write them
for u in dh try keep denied waiting again odd; do
	printf '[Service]\nExecStart=/bin/sleep 1000\n' >"$S/$u.service"
done
printf '#!/bin/sh\nif [ -n "$2" ]; then\n\t_dh_action=restart\nelse\n\t_dh_action=start\nfi\ndeb-systemd-invoke $_dh_action '"'"'dh.service'"'"' '"'"'dh.timer'"'"' >/dev/null || true\n' >"$A/info/dh.postinst"
printf '#!/bin/sh\n\t\tdeb-systemd-invoke try-restart '"'"'try.service'"'"' >/dev/null || true\n' >"$A/info/try.postinst"
printf '#!/bin/sh\n\t\tdeb-systemd-invoke start '"'"'keep.service'"'"' >/dev/null || true\n' >"$A/info/keep.postinst"
printf '#!/bin/sh\ndeb-systemd-invoke restart denied.service >/dev/null || true\n' >"$A/info/denied.postinst"
printf '#!/bin/sh\ndeb-systemd-invoke restart waiting.service >/dev/null || true\n' >"$A/info/waiting.postinst"
printf '#!/bin/sh\ndeb-systemd-invoke restart again.service >/dev/null || true\n' >"$A/info/again.postinst"
# words that are no unit names are passed over, never run: a command substitution, a glob
printf '#!/bin/sh\ndeb-systemd-invoke restart "odd.service" '"'"'$(touch %s/pwned).service'"'"' '"'"'*.service'"'"' >/dev/null\n' \
	"$tmp" >"$A/info/odd.postinst"
printf '#!/bin/sh\necho "$*" >>%s/policy.log\ncase $1 in denied.service | forbidden.service) exit 101 ;; esac\nexit 0\n' "$tmp" >"$tmp/policy-rc.d"
chmod +x "$tmp/policy-rc.d"
for u in new early rooted chrooted forbidden permitted; do
	printf '[Service]\nExecStart=/bin/sleep 1000\n' >"$tmp/pkg/$u.service"
done

# on the host (PID 1 is not ember-init): nothing, and success
out=$(DPKG_HOOK_ACTION=configure PATH=$BIN:$PATH sh "$HOOK" 2>&1); rc=$?
[ $rc = 0 ] && [ -z "$out" ] && pass host-untouched || fail host-untouched "rc $rc: $out"
out=$(echo 'processing: upgrade: dh' | EMBER_DPKG_STATE=$tmp/host-state sh "$LOGGER" 2>&1); rc=$?
[ $rc = 0 ] && [ -z "$out" ] && [ ! -e "$tmp/host-state" ] && pass host-logger-untouched ||
	fail host-logger-untouched "rc $rc: $out $(cat "$tmp/host-state" 2>&1)"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH; export PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
wait_state() { i=0; while [ "\$(emberctl is-active "\$1" 2>/dev/null)" != "\$2" ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done; }
hook() { env DPKG_HOOK_ACTION="\$1" \${2:+DPKG_ROOT=\$2} sh "$HOOK"; }
# no policy-rc.d but the test's own (a build host may have one that forbids everything)
EMBER_POLICY_RC_D=$tmp/no-policy-rc.d; export EMBER_POLICY_RC_D
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
# dpkg in a chroot (an image being built) that reaches ember-init's socket: another
# system's packages too
mkdir -p $tmp/bin && cp "$HOOK" $tmp/hook && cp $BIN/emberctl $tmp/bin/
sh $TOP/tests/chroot-tree.sh $tmp/chroot
cp $tmp/pkg/chrooted.service $S/
chroot $tmp/chroot /bin/sh -c "PATH=$tmp/bin:/usr/bin:/bin DPKG_HOOK_ACTION=configure sh $tmp/hook" >/dev/null 2>&1
emberctl show -p LoadState --value chrooted.service | grep -qx not-found && ok chroot-reads-nothing ||
	bad chroot-reads-nothing "\$(emberctl is-active chrooted 2>&1)"
rm $S/chrooted.service
# dpkg --configure / -i: the package's unit is pulled in now, so it starts
cp $tmp/pkg/new.service $S/
out=\$(hook configure 2>&1); rc=\$?
wait_state new active
[ \$rc = 0 ] && [ -z "\$out" ] && [ "\$(emberctl is-active new)" = active ] && ok configure-starts-new-unit ||
	bad configure-starts-new-unit "rc \$rc, \$(emberctl is-active new 2>&1), \$out"
wait_state early active
[ "\$(emberctl is-active early)" = active ] && ok earlier-unpacked-unit-starts-with-it ||
	bad earlier-unpacked-unit-starts-with-it "\$(emberctl is-active early 2>&1)"
# policy-rc.d is asked first, as deb-systemd-invoke asks it under systemd: a unit it
# forbids (101) is not started at all, another one installed with it is
cp $tmp/pkg/forbidden.service $tmp/pkg/permitted.service $S/
out=\$(EMBER_POLICY_RC_D=$tmp/policy-rc.d hook configure 2>&1); rc=\$?
wait_state permitted active
[ \$rc = 0 ] && [ "\$(emberctl is-active permitted)" = active ] && [ "\$(emberctl is-active forbidden)" != active ] &&
	[ -z "\$(emberctl show -p ExecMainStartTimestampMonotonic --value forbidden.service | grep -v '^0$')" ] &&
	printf '%s\n' "\$out" | grep -qx 'ember: forbidden.service: not started, policy-rc.d forbids it' &&
	grep -qx 'forbidden.service start' $tmp/policy.log && ok configure-policy-rc-d-forbids-start ||
	bad configure-policy-rc-d-forbids-start "rc \$rc, permitted \$(emberctl is-active permitted 2>&1), forbidden \$(emberctl is-active forbidden 2>&1), \$out, \$(cat $tmp/policy.log 2>&1)"
rm $S/forbidden.service $S/permitted.service; hook remove >/dev/null 2>&1
# dpkg -r: the file is gone, the unit stops
rm $S/new.service
hook remove >/dev/null 2>&1
wait_state new inactive
[ "\$(emberctl is-active new)" != active ] && ok remove-stops-unit || bad remove-stops-unit "\$(emberctl is-active new 2>&1)"
emberctl -q is-active base && ok others-untouched || bad others-untouched "\$(emberctl is-active base 2>&1)"
# upgrades: dpkg --unpack of five packages, then --configure of four of them
export EMBER_DPKG_STATE=$tmp/state DPKG_ADMINDIR=$A EMBER_POLICY_RC_D=$tmp/policy-rc.d
pid() { emberctl show -p MainPID --value "\$1.service"; }
for u in dh try keep denied waiting odd; do eval "old_\$u=\$(pid \$u)"; done
printf 'processing: upgrade: dh\nstatus: dh: half-installed\nprocessing: upgrade: try:amd64\nprocessing: upgrade: keep\nprocessing: upgrade: denied\nprocessing: upgrade: waiting\nstatus: waiting: unpacked\nprocessing: upgrade: again\nprocessing: upgrade: odd\nnot a status line\nprocessing: upgrade:\nstatus: : installed\n' |
	sh "$LOGGER"
# "again" is restarted after its unpack, by its init script through invoke-rc.d
sleep 0.1; emberctl restart again; old_again=\$(pid again)
hook unpack >/dev/null 2>&1
[ "\$(pid dh)" = "\$old_dh" ] && ok unpack-restarts-nothing || bad unpack-restarts-nothing "dh \$old_dh -> \$(pid dh)"
printf 'status: dh: installed\nstatus: try:amd64: installed\nstatus: keep: installed\nstatus: denied: installed\nstatus: again: installed\nstatus: odd: installed\n' | sh "$LOGGER"
out=\$(hook configure 2>&1); rc=\$?
[ \$rc = 0 ] && [ -z "\$out" ] && ok upgrade-hook-quiet || bad upgrade-hook-quiet "rc \$rc: \$out"
new=\$(pid dh); [ -n "\$new" ] && [ "\$new" != 0 ] && [ "\$new" != "\$old_dh" ] && ok upgrade-restarts-debhelper-units ||
	bad upgrade-restarts-debhelper-units "\$old_dh -> \$new"
new=\$(pid try); [ "\$new" != 0 ] && [ "\$new" != "\$old_try" ] && ok upgrade-try-restart || bad upgrade-try-restart "\$old_try -> \$new"
[ "\$(pid keep)" = "\$old_keep" ] && ok upgrade-start-only-keeps-running || bad upgrade-start-only-keeps-running "\$old_keep -> \$(pid keep)"
[ "\$(pid denied)" = "\$old_denied" ] && ok upgrade-policy-rc-d-forbids || bad upgrade-policy-rc-d-forbids "\$old_denied -> \$(pid denied)"
new=\$(pid odd); [ "\$new" != "\$old_odd" ] && [ ! -e $tmp/pwned ] && [ "\$(pid dh)" != "\$old_dh" ] && ok odd-words-passed-over ||
	bad odd-words-passed-over "odd \$old_odd -> \$new, \$(ls $tmp/pwned 2>&1)"
[ "\$(pid again)" = "\$old_again" ] && ok restarted-since-unpack-not-again || bad restarted-since-unpack-not-again "\$old_again -> \$(pid again)"
[ "\$(pid waiting)" = "\$old_waiting" ] && [ "\$(cut -d" " -f1,2 \$EMBER_DPKG_STATE)" = "upgrade waiting" ] && ok unconfigured-waits ||
	bad unconfigured-waits "\$old_waiting -> \$(pid waiting); state: \$(cat \$EMBER_DPKG_STATE 2>&1)"
printf 'status: waiting: installed\n' | sh "$LOGGER"
hook configure >/dev/null 2>&1
[ "\$(pid waiting)" != "\$old_waiting" ] && [ ! -e \$EMBER_DPKG_STATE ] && ok restarted-once-configured ||
	bad restarted-once-configured "\$old_waiting -> \$(pid waiting); state: \$(cat \$EMBER_DPKG_STATE 2>&1)"
kill -0 1 && ok pid1-alive || bad pid1-alive gone
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log"
finish
