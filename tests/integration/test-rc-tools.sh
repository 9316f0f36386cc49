#!/bin/sh
# ember's invoke-rc.d and service (distro/debian/rc-tools-ember) with the real ember-init
# as PID 1 of a PID+mount namespace: for a service with a unit and no init script they act
# through ember-init, as Debian's act through systemctl under systemd (rsyslog's
# trigger: `invoke-rc.d rsyslog try-restart`): try-restart only restarts a running unit,
# start and restart need an enabled or running unit, policy-rc.d is asked (101 forbids,
# --force overrides, --query only asks), --skip-systemd-native leaves a native unit alone,
# force-reload restarts a unit that cannot reload. A service with an init script, a name
# ember-init does not know, a name that is no unit name, options of Debian's alone, and
# everything outside ember (another system's chroot) go to Debian's own tool, unchanged.
. "$(dirname "$0")/../lib.sh"
[ "$(id -u)" = 0 ] || { skip rc-tools "needs root (namespaces)"; finish; }
for p in ember-init emberctl; do
	[ -x "$BIN/$p" ] || { fail build "missing $BIN/$p (run make)"; finish; }
done
tmp=$(mktemp -d); chmod 0755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
S=$tmp/services E=$tmp/etc-systemd
mkdir -p "$S" "$E/multi-user.target.wants" "$tmp/initd" "$tmp/bin"
for u in logd quiet scripted relo; do
	printf '[Service]\nExecStart=/bin/sleep 1000\nExecReload=/bin/touch %s/%s-reloaded\n[Install]\nWantedBy=multi-user.target\n' \
		"$tmp" "$u" >"$S/$u.service"
done
printf '[Service]\nExecStart=/bin/sleep 1000\n' >"$S/logd.service" # no ExecReload=
cp "$S"/*.service "$E/"
# enabled, as deb-systemd-helper leaves them; quiet is not
for u in logd scripted relo; do ln -s "../$u.service" "$E/multi-user.target.wants/$u.service"; done
printf '#!/bin/sh\necho "init script $*"\n' >"$tmp/initd/scripted"
chmod +x "$tmp/initd/scripted"
# Debian's own tools, diverted: they say that they ran
for t in invoke-rc.d service; do
	printf '#!/bin/sh\necho "debian %s $*"\n' "$t" >"$tmp/$t.distrib"
	chmod +x "$tmp/$t.distrib"
	ln -s ../rc-tools "$tmp/bin/$t"
done
# copies under /tmp, which the chroot below sees too
cp "$TOP/distro/debian/rc-tools-ember" "$tmp/rc-tools"
cp "$BIN/emberctl" "$tmp/bin/"
printf '#!/bin/sh\n[ "$1" = --quiet ] && shift\ncase "$1 $2" in "relo restart") exit 101 ;; esac\nexit 0\n' >"$tmp/policy-rc.d"
chmod +x "$tmp/policy-rc.d"

# on the host (PID 1 is not ember-init): Debian's own tool, with the same arguments
for t in invoke-rc.d service; do
	out=$(EMBER_RC_TOOL_REAL=$tmp/$t.distrib EMBER_INITD=$tmp/initd PATH=$tmp/bin:$PATH "$tmp/bin/$t" logd restart 2>&1)
	[ "$out" = "debian $t logd restart" ] && pass "host-$t-is-debians" || fail "host-$t-is-debians" "$out"
done

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$tmp/bin:\$PATH; export PATH EMBER_INITD=$tmp/initd EMBER_POLICY_RC_D=$tmp/policy-rc.d
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
pid() { emberctl show -p MainPID --value "\$1.service"; }
ird() { EMBER_RC_TOOL_REAL=$tmp/invoke-rc.d.distrib $tmp/bin/invoke-rc.d "\$@"; }
svc() { EMBER_RC_TOOL_REAL=$tmp/service.distrib $tmp/bin/service "\$@"; }
old=\$(pid logd)
out=\$(ird logd try-restart 2>&1); rc=\$?
new=\$(pid logd)
[ \$rc = 0 ] && [ "\$new" != 0 ] && [ "\$new" != "\$old" ] && [ -z "\$out" ] && ok try-restart-restarts ||
	bad try-restart-restarts "rc \$rc, \$old -> \$new: \$out"
emberctl stop quiet 2>/dev/null # loaded on request only
out=\$(ird quiet try-restart 2>&1); rc=\$?
[ \$rc = 0 ] && [ "\$(emberctl is-active quiet)" = inactive ] && ok try-restart-leaves-stopped ||
	bad try-restart-leaves-stopped "rc \$rc, \$(emberctl is-active quiet): \$out"
# (no policy-rc.d: one that says 0 to "(start)" lets it run, as Debian's invoke-rc.d does)
out=\$(EMBER_POLICY_RC_D=/nonexistent ird quiet start 2>&1); rc=\$?
[ \$rc = 0 ] && [ "\$(emberctl is-active quiet)" = inactive ] && ok start-of-disabled-not-run ||
	bad start-of-disabled-not-run "rc \$rc, \$(emberctl is-active quiet): \$out"
EMBER_POLICY_RC_D=/nonexistent ird --disclose-deny quiet start >/dev/null 2>&1; rc=\$?
[ \$rc = 101 ] && ok disclose-deny || bad disclose-deny "rc \$rc"
EMBER_POLICY_RC_D=/nonexistent ird --force quiet start >/dev/null 2>&1; rc=\$?
[ \$rc = 0 ] && [ "\$(emberctl is-active quiet)" = active ] && ok force-starts-disabled ||
	bad force-starts-disabled "rc \$rc, \$(emberctl is-active quiet)"
emberctl stop quiet
out=\$(svc quiet status 2>&1); rc=\$?
[ \$rc = 3 ] && ok status-of-stopped || bad status-of-stopped "rc \$rc: \$out"
emberctl stop logd
out=\$(ird logd start 2>&1); rc=\$?
[ \$rc = 0 ] && [ "\$(emberctl is-active logd)" = active ] && ok start-of-enabled || bad start-of-enabled "rc \$rc, \$(emberctl is-active logd): \$out"
old=\$(pid relo)
out=\$(ird relo restart 2>&1); rc=\$?
[ \$rc = 0 ] && [ "\$(pid relo)" = "\$old" ] && ok policy-rc-d-forbids || bad policy-rc-d-forbids "rc \$rc, \$old -> \$(pid relo): \$out"
out=\$(ird --force relo restart 2>&1); rc=\$?
[ \$rc = 0 ] && [ "\$(pid relo)" != "\$old" ] && ok force-overrides-policy || bad force-overrides-policy "rc \$rc, \$old -> \$(pid relo): \$out"
old=\$(pid logd)
ird --query logd restart >/dev/null 2>&1; rc=\$?
[ \$rc = 104 ] && [ "\$(pid logd)" = "\$old" ] && ok query-only-asks || bad query-only-asks "rc \$rc, \$old -> \$(pid logd)"
out=\$(ird --skip-systemd-native logd restart 2>&1); rc=\$?
[ \$rc = 0 ] && [ "\$(pid logd)" = "\$old" ] && ok skip-systemd-native || bad skip-systemd-native "rc \$rc, \$old -> \$(pid logd): \$out"
out=\$(ird logd force-reload 2>&1); rc=\$?
[ \$rc = 0 ] && [ "\$(pid logd)" != "\$old" ] && ok force-reload-restarts-unreloadable || bad force-reload-restarts-unreloadable "rc \$rc, \$old -> \$(pid logd): \$out"
old=\$(pid relo)
out=\$(ird relo force-reload 2>&1); rc=\$?
i=0; while [ ! -e $tmp/relo-reloaded ] && [ \$i -lt 50 ]; do sleep 0.05; i=\$((i+1)); done
[ \$rc = 0 ] && [ -e $tmp/relo-reloaded ] && [ "\$(pid relo)" = "\$old" ] && ok force-reload-reloads ||
	bad force-reload-reloads "rc \$rc, \$old -> \$(pid relo): \$out"
old=\$(pid logd)
out=\$(svc logd restart 2>&1); rc=\$?
[ \$rc = 0 ] && [ "\$(pid logd)" != "\$old" ] && ok service-restart || bad service-restart "rc \$rc, \$old -> \$(pid logd): \$out"
out=\$(svc logd status 2>&1); rc=\$?
[ \$rc = 0 ] && case \$out in *logd*State:*) true ;; *) false ;; esac && ok service-status || bad service-status "rc \$rc: \$out"
# Debian's own tool: an init script, a name ember-init does not know, Debian's options
old=\$(pid scripted)
out=\$(ird scripted restart 2>&1)
[ "\$out" = "debian invoke-rc.d scripted restart" ] && [ "\$(pid scripted)" = "\$old" ] && ok init-script-is-debians ||
	bad init-script-is-debians "\$out"
out=\$(svc scripted restart 2>&1)
[ "\$out" = "debian service scripted restart" ] && ok service-init-script-is-debians || bad service-init-script-is-debians "\$out"
out=\$(ird nosuch restart 2>&1)
[ "\$out" = "debian invoke-rc.d nosuch restart" ] && ok unknown-is-debians || bad unknown-is-debians "\$out"
out=\$(svc --status-all 2>&1)
[ "\$out" = "debian service --status-all" ] && ok status-all-is-debians || bad status-all-is-debians "\$out"
out=\$(ird --help 2>&1)
[ "\$out" = "debian invoke-rc.d --help" ] && ok help-is-debians || bad help-is-debians "\$out"
# names that are no unit names: never made into one, never run
old=\$(pid logd)
for n in 'logd;touch $tmp/pwned' '\$(touch $tmp/pwned)' '../services/logd' 'logd service' '-logd'; do
	out=\$(ird "\$n" restart 2>&1)
	[ "\$out" = "debian invoke-rc.d \$n restart" ] || echo "odd name: \$n: \$out"
done >$tmp/odd.out
[ ! -s $tmp/odd.out ] && [ ! -e $tmp/pwned ] && [ "\$(pid logd)" = "\$old" ] && ok odd-names-are-debians ||
	bad odd-names-are-debians "\$(cat $tmp/odd.out) \$(ls $tmp/pwned 2>&1)"
# in a chroot (an image being built), even one that reaches ember-init's socket: PID 1
# is not that system's init, so Debian's own tool
sh $TOP/tests/chroot-tree.sh $tmp/chroot
old=\$(pid logd)
out=\$(chroot $tmp/chroot /bin/sh -c "PATH=$tmp/bin:/usr/bin:/bin EMBER_RC_TOOL_REAL=$tmp/invoke-rc.d.distrib invoke-rc.d logd restart" 2>&1)
[ "\$out" = "debian invoke-rc.d logd restart" ] && [ "\$(pid logd)" = "\$old" ] && ok chroot-is-debians ||
	bad chroot-is-debians "\$old -> \$(pid logd): \$out"
kill -0 1 && ok pid1-alive || bad pid1-alive gone
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log" "mount --bind $E /etc/systemd/system"
finish
