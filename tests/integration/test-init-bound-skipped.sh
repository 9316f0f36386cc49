#!/bin/sh
# BindsTo= a unit skipped by its condition, against the real ember-init as PID 1 of a
# PID+mount namespace, as systemd has it: with After= the bound unit does not start (its
# start fails, result "dependency"), also when started by name; without After= a bound
# unit already running is stopped when the other is skipped. One bound to an active unit
# starts. (Debian's sssd-nss.socket, BindsTo=sssd.service, which its condition skips
# without a configuration: ember listened, and every NSS lookup started sssd-nss.service
# to fail until its start limit; systemd leaves the socket down.)
. "$(dirname "$0")/../lib.sh"
need_guest init-bound-skipped
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M"
printf '[Unit]\nConditionPathExists=%s/absent\n[Service]\nExecStart=/bin/sleep 60\n' "$M" >"$S/daemon.service"
printf '[Unit]\nBindsTo=daemon.service\nAfter=daemon.service\n[Service]\nExecStart=/bin/sleep 61\n' >"$S/responder.service"
printf '[Unit]\nBindsTo=daemon.service\n[Service]\nExecStart=/bin/sleep 62\n' >"$S/unordered.service"
printf '[Service]\nExecStart=/bin/sleep 63\n' >"$S/up.service"
printf '[Unit]\nBindsTo=up.service\nAfter=up.service\n[Service]\nExecStart=/bin/sleep 64\n' >"$S/boundup.service"
cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
emberctl start responder >$M/out 2>&1; rc=\$?
st=\$(emberctl is-active responder daemon | tr '\n' ' ')
[ \$rc = 1 ] && [ "\$st" = "inactive inactive " ] && grep -q 'bound to daemon' $M/out &&
	ok bound-after-skipped-not-started || bad bound-after-skipped-not-started "rc \$rc, \$st, \$(tr '\n' ' ' <$M/out)"
emberctl --json status responder | grep -q '"result":"dependency"' && ok bound-after-skipped-result-dependency ||
	bad bound-after-skipped-result-dependency "\$(emberctl --json status responder | cut -c1-300)"
emberctl start unordered >/dev/null 2>&1
i=0; while [ "\$(emberctl is-active unordered)" = active ] && [ \$i -lt 30 ]; do sleep 0.1; i=\$((i + 1)); done
[ "\$(emberctl is-active unordered)" = inactive ] && ok bound-unordered-stopped-when-skipped ||
	bad bound-unordered-stopped-when-skipped "\$(emberctl is-active unordered)"
emberctl start boundup >/dev/null 2>&1
[ "\$(emberctl is-active boundup up | tr '\n' ' ')" = "active active " ] && ok bound-to-active-starts ||
	bad bound-to-active-starts "\$(emberctl is-active boundup up | tr '\n' ' ')"
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log"
finish
