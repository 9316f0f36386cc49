#!/bin/sh
# The system bus's own environment, against the real ember-init as PID 1 of a PID+mount
# namespace: as under systemd, dbus.service gets SYSTEMD_NSS_DYNAMIC_BYPASS=1 (nss-systemd
# must not resolve the users the bus asks for by asking the service manager back), also
# when the bus is a unit of another name linked as dbus.service (dbus-broker); no other
# service gets it.
. "$(dirname "$0")/../lib.sh"
need_guest init-bus-env
M=$tmp/mark
mkdir -p "$M" "$tmp/a" "$tmp/b"
unit() { # DIR NAME: a oneshot that notes whether it has the variable
	printf '[Service]\nType=oneshot\nRemainAfterExit=yes\nExecStart=/bin/sh -c "echo $${SYSTEMD_NSS_DYNAMIC_BYPASS:-unset} >%s/%s"\n' "$M" "$2" >"$1/$2.service"
}
unit "$tmp/a" dbus
unit "$tmp/a" other
unit "$tmp/b" dbus-broker
ln -s dbus-broker.service "$tmp/b/dbus.service"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
for u in \$*; do i=0; while [ ! -s $M/\$u ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done; done
[ "\$(cat $M/\${1} 2>&1)" = 1 ] && ok bus-env-\$1 || bad bus-env-\$1 "\$(cat $M/\$1 2>&1)"
[ -z "\${2:-}" ] || { [ "\$(cat $M/\$2 2>&1)" = unset ] && ok bus-env-not-\$2 || bad bus-env-not-\$2 "\$(cat $M/\$2 2>&1)"; }
exit 0
EOS
printf '#!/bin/sh\nexec sh %s/guest.sh dbus other\n' "$tmp" >"$tmp/guest-a.sh"
printf '#!/bin/sh\nexec sh %s/guest.sh dbus-broker\n' "$tmp" >"$tmp/guest-b.sh"
run_guest "$tmp/a" "$tmp/guest-a.sh" "$tmp/log-a"
run_guest "$tmp/b" "$tmp/guest-b.sh" "$tmp/log-b"
finish
