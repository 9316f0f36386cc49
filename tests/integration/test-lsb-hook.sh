#!/bin/sh
# ember's hook of Debian's /lib/lsb/init-functions (distro/debian/lsb-init-functions-ember)
# with the real ember-init as PID 1 of a PID+mount namespace, and init scripts in a
# tmpfs over /etc/init.d there: an init script run by hand acts through ember-init on
# its unit (restart, stop, start, status, reload, try-restart) and its own body does not
# run; a reload of a unit without ExecReload= is the script's own; a masked unit is not
# run; a script with no unit, one ember-init runs itself (its parent is PID 1) and one
# run with SYSTEMCTL_SKIP_REDIRECT run as written; a script whose unit is an alias (as
# Debian's udev.service of systemd-udevd.service) acts on the unit it names. The units
# are in a tmpfs over /etc/systemd/system there, where emberctl looks up aliases. In a
# chroot that reaches ember-init's socket (an image being built), scripts run as written.
. "$(dirname "$0")/../lib.sh"
[ "$(id -u)" = 0 ] || { skip lsb-hook "needs root (namespaces)"; finish; }
[ -d /etc/init.d ] && [ -d /etc/systemd/system ] ||
	{ skip lsb-hook "no /etc/init.d or /etc/systemd/system to mount over"; finish; }

tmp=$(mktemp -d); chmod 0755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M" "$tmp/initd"
# fake: a daemon with ExecReload=; plain: one without; gone: masked; direct: a unit whose
# start runs its init script (as systemd-sysv-generator's units do).
printf '[Service]\nExecStart=/bin/sh -c "echo x >>%s/fake-starts; exec sleep 1000"\nExecReload=/bin/sh -c "echo r >>%s/fake-reloads"\n' \
	"$M" "$M" >"$S/fake.service"
printf '[Service]\nExecStart=/bin/sleep 1000\n' >"$S/plain.service"
ln -s /dev/null "$S/gone.service"
ln -s fake.service "$S/alias.service"
printf '[Service]\nType=oneshot\nRemainAfterExit=yes\nExecStart=/etc/init.d/direct start\n' >"$S/direct.service"
# Debian's init-functions in short: the two log functions, then the hooks.
cat >"$tmp/init-functions" <<EOF
log_daemon_msg() { printf '%s: %s' "\$1" "\$2"; }
log_end_msg() { echo " (\$1)"; }
. "$TOP/distro/debian/lsb-init-functions-ember"
EOF
for s in fake plain gone other direct alias; do
	printf '#!/bin/sh\n. %s/init-functions\necho "ran $1" >>%s/script-%s\n' "$tmp" "$M" "$s" \
		>"$tmp/initd/$s"
	chmod +x "$tmp/initd/$s"
done

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH; export PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
count() { [ -f "$M/\$1" ] && wc -l <"$M/\$1" | tr -d ' ' || echo 0; }
ran() { [ -f "$M/script-\$1" ] && tr '\n' ' ' <"$M/script-\$1"; }
wait_count() { i=0; while [ "\$(count "\$1")" -lt "\$2" ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done; }
emberctl start fake >/dev/null; wait_count fake-starts 1
out=\$(/etc/init.d/fake restart 2>&1); rc=\$?
wait_count fake-starts 2
[ \$rc = 0 ] && [ "\$(count fake-starts)" = 2 ] && [ -z "\$(ran fake)" ] && ok restart-through-ember ||
	bad restart-through-ember "rc \$rc, \$(count fake-starts) starts, script: \$(ran fake); \$out"
/etc/init.d/fake status >/dev/null 2>&1; st_up=\$?
/etc/init.d/fake stop >/dev/null 2>&1
emberctl -q is-active fake; up=\$?
/etc/init.d/fake status >/dev/null 2>&1; st_down=\$?
[ \$st_up = 0 ] && [ \$up != 0 ] && [ \$st_down = 3 ] && ok stop-and-status || bad stop-and-status "status \$st_up/\$st_down, is-active \$up"
/etc/init.d/fake start >/dev/null 2>&1 && emberctl -q is-active fake && ok start-through-ember || bad start-through-ember "not active"
/etc/init.d/fake reload >/dev/null 2>&1; wait_count fake-reloads 1
[ "\$(count fake-reloads)" = 1 ] && [ -z "\$(ran fake)" ] && ok reload-through-ember || bad reload-through-ember "\$(count fake-reloads) reloads, script: \$(ran fake)"
emberctl start plain >/dev/null
/etc/init.d/plain reload >/dev/null 2>&1; rc=\$?
[ \$rc = 0 ] && [ "\$(ran plain)" = "ran reload " ] && ok reload-without-execreload-is-the-scripts ||
	bad reload-without-execreload-is-the-scripts "rc \$rc, script: \$(ran plain)"
emberctl stop plain >/dev/null
/etc/init.d/plain try-restart >/dev/null 2>&1; rc=\$?
! emberctl -q is-active plain && [ \$rc = 0 ] && [ "\$(ran plain)" = "ran reload " ] && ok try-restart-of-stopped-does-nothing ||
	bad try-restart-of-stopped-does-nothing "rc \$rc, active: \$(emberctl is-active plain), script: \$(ran plain)"
/etc/init.d/plain bogus >/dev/null 2>&1 # an action the hook does not know: the script's
[ "\$(ran plain)" = "ran reload ran bogus " ] && ok unknown-action-runs-as-written ||
	bad unknown-action-runs-as-written "script: \$(ran plain)"
/etc/init.d/gone start >/dev/null 2>&1; rc=\$?
[ \$rc = 0 ] && [ -z "\$(ran gone)" ] && ok masked-not-run || bad masked-not-run "rc \$rc, script: \$(ran gone)"
/etc/init.d/other start >/dev/null 2>&1
[ "\$(ran other)" = "ran start " ] && ok no-unit-runs-as-written || bad no-unit-runs-as-written "script: \$(ran other)"
emberctl start direct >/dev/null 2>&1
i=0; while ! emberctl -q is-active direct && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
[ "\$(ran direct)" = "ran start " ] && emberctl -q is-active direct && ok run-by-ember-runs-as-written ||
	bad run-by-ember-runs-as-written "script: \$(ran direct); \$(emberctl is-active direct)"
out=\$(/etc/init.d/alias restart 2>&1); rc=\$?
wait_count fake-starts 4
[ \$rc = 0 ] && [ "\$(count fake-starts)" = 4 ] && [ -z "\$(ran alias)" ] &&
	[ "\$(emberctl show -p Id --value alias.service)" = fake.service ] && ok alias-acts-on-its-unit ||
	bad alias-acts-on-its-unit "rc \$rc, \$(count fake-starts) starts, script: \$(ran alias); \$out"
SYSTEMCTL_SKIP_REDIRECT=1 /etc/init.d/fake start >/dev/null 2>&1
[ "\$(ran fake)" = "ran start " ] && ok skip-redirect-runs-as-written || bad skip-redirect-runs-as-written "script: \$(ran fake)"
# in a chroot (an image being built) that reaches ember-init's socket: the script runs
# as written, PID 1 is not that system's init
sh $TOP/tests/chroot-tree.sh $tmp/chroot
mkdir -p $tmp/chroot/etc/init.d
sed 's|^\. .*|. $tmp/lsb-hook|' $tmp/init-functions >$tmp/init-functions-chroot
sed 's|$tmp/init-functions|&-chroot|' $tmp/initd/fake >$tmp/chroot/etc/init.d/fake
chmod +x $tmp/chroot/etc/init.d/fake
chroot $tmp/chroot /bin/sh -c "PATH=$tmp/bin:/usr/bin:/bin /etc/init.d/fake restart" >/dev/null 2>&1
sleep 0.2
[ "\$(ran fake)" = "ran start ran restart " ] && [ "\$(count fake-starts)" = 4 ] && ok chroot-runs-as-written ||
	bad chroot-runs-as-written "script: \$(ran fake), \$(count fake-starts) starts"
echo GUEST-CHECKS-DONE
EOS
# copies under /tmp, which the chroot sees too
mkdir -p "$tmp/bin" && cp "$BIN/emberctl" "$tmp/bin/" && cp "$TOP/distro/debian/lsb-init-functions-ember" "$tmp/lsb-hook"
chmod +x "$tmp/guest.sh"

timeout 60 unshare --pid --mount --uts --fork --mount-proc sh -c '
	mount --make-rprivate / && mount -t tmpfs -o mode=0755 ember-run /run &&
	mount --bind "$0/initd" /etc/init.d && mount --bind "$0/services" /etc/systemd/system || exit 99
	exec env container=ember-test "$1" ember.services=/etc/systemd/system ember.run="$0/guest.sh" ember.shell=none' \
	"$tmp" "$BIN/ember-init" >"$tmp/log.txt" 2>&1
guest_results "$tmp/log.txt" $?
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 40 "$tmp/log.txt"; }
finish
