#!/bin/sh
# The syslog daemon syslog.socket starts sees /run/systemd/system/ (sd_booted()), in a
# mount namespace of its own, and nothing else does, against the real ember-init as PID
# 1 of a PID+mount namespace. Found on the Debian disk: rsyslog takes the socket it is
# handed (/run/systemd/journal/syslog, journald's forward) only where sd_booted() is
# true; under ember it replaced journald's /dev/log with a socket of its own, and the
# daemons' syslog(3) lines bypassed the journal.
. "$(dirname "$0")/../lib.sh"
need_guest syslog-view
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M"
# (written whole, then renamed: the guest reads it once it is there)
probe() { printf '/bin/sh -c "{ test -d /run/systemd/system && echo view || echo none; echo fds=$LISTEN_FDS; ls /run/systemd/journal; } >%s/%s.new; mv %s/%s.new %s/%s; exec sleep 1000"' "$M" "$1" "$M" "$1" "$M" "$1"; }
printf '[Socket]\nListenDatagram=/run/systemd/journal/syslog\n' >"$S/syslog.socket"
printf '[Service]\nExecStart=%s\n' "$(probe syslog)" >"$S/syslog.service"
printf '[Service]\nExecStart=%s\n' "$(probe plain)" >"$S/plain.service"

cat >"$tmp/boot.sh" <<EOS
#!/bin/sh
mount -t tmpfs -o mode=0755 tmpfs /run && mkdir -p /run/systemd/journal && touch /run/systemd/journal/socket || exit 1
exec "$BIN/ember-init" ember.services="$S" ember.run="$tmp/guest.sh" ember.shell=none
EOS
cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
emberctl start syslog >/dev/null 2>&1
i=0; while { [ ! -s $M/syslog ] || [ ! -s $M/plain ]; } && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
got=\$(tr '\n' ' ' <$M/syslog)
[ "\$got" = "view fds=1 socket syslog " ] && ok syslog-daemon-sees-sd-booted || bad syslog-daemon-sees-sd-booted "\$got"
got=\$(tr '\n' ' ' <$M/plain)
[ "\$got" = "none fds= socket syslog " ] && ok other-services-do-not || bad other-services-do-not "\$got"
[ ! -e /run/systemd/system ] && ok pid1-view-unchanged || bad pid1-view-unchanged "/run/systemd/system exists"
exit 0
EOS
chmod +x "$tmp/boot.sh" "$tmp/guest.sh"
timeout 120 unshare --pid --mount --uts --fork --mount-proc env container=ember-test "$tmp/boot.sh" >"$tmp/log" 2>&1
rc=$?
grep -E '^(PASS|FAIL|SKIP) ' "$tmp/log"
grep -q '^FAIL ' "$tmp/log" && FAILED=1
grep -q '^EMBER-RUN-EXIT=0$' "$tmp/log" && pass guest-completed || fail guest-completed "rc $rc; $(tail -5 "$tmp/log" | tr '\n' ' ')"
finish
