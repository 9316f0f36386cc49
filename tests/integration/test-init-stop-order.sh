#!/bin/sh
# Stops passed on over BindsTo= run in the reverse order of After=, as systemd's stop jobs:
# a unit bound to another and started after it is down before the other's stop begins.
# systemd 257's user@UID.service binds to user-runtime-dir@UID and starts after it; at
# logout logind stops user-runtime-dir@UID only, and ember removed /run/user/UID while the
# user manager was still stopping, whose stop jobs then failed (run-time round 10b, a
# Debian 13 disk). Real ember-init as PID 1 of a PID+mount namespace.
. "$(dirname "$0")/../lib.sh"
need_guest init-stop-order
S=$tmp/services
mkdir -p "$S" "$tmp/own" "$tmp/m"
M=$tmp/m
# rt: makes the directory, removes it at its stop (as user-runtime-dir@ does /run/user/UID)
cat >"$S/rt.service" <<EOT
[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/bin/mkdir -p $M/dir
ExecStop=/bin/sh -c 'echo rt-stop >>$M/order; rm -rf $M/dir'
EOT
# mgr: BindsTo= and After= rt; its stop takes a while and needs the directory
cat >"$S/mgr.service" <<EOT
[Unit]
BindsTo=rt.service
After=rt.service
[Service]
ExecStart=/bin/sleep 1000
ExecStop=/bin/sh -c 'sleep 0.5; [ -d $M/dir ] && echo mgr-stop-had-dir >>$M/order || echo mgr-stop-no-dir >>$M/order'
EOT
# free: BindsTo= rt, no After=: no order between their stops (it must not hold rt up)
cat >"$S/free.service" <<EOT
[Unit]
BindsTo=rt.service
[Service]
ExecStart=/bin/sleep 1000
EOT

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
st() { emberctl --json status "\$1" | sed -n 's/.*"state":"\\([^"]*\\)".*/\\1/p'; }
wait_state() { i=0; while [ "\$(st \$1)" != "\$2" ] && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i+1)); done; }
wait_state rt ready; wait_state mgr ready; wait_state free ready
emberctl stop rt
wait_state rt stopped; wait_state mgr stopped
[ "\$(cat $M/order | tr '\n' ' ')" = "mgr-stop-had-dir rt-stop " ] && ok bound-after-stops-first ||
	bad bound-after-stops-first "order: \$(cat $M/order | tr '\n' ' ')"
[ "\$(st mgr)" = stopped ] && [ "\$(st free)" = stopped ] && ok bound-units-stopped ||
	bad bound-units-stopped "mgr \$(st mgr), free \$(st free)"
# again, started together and stopped through the bound unit's own stop
rm -f $M/order
emberctl start mgr free; wait_state rt ready; wait_state mgr ready
emberctl stop mgr rt
wait_state rt stopped
[ "\$(cat $M/order | tr '\n' ' ')" = "mgr-stop-had-dir rt-stop " ] && ok both-asked-ordered ||
	bad both-asked-ordered "order: \$(cat $M/order | tr '\n' ' ') / \$(emberctl status mgr | tr '\n' ' ')"
exit 0
EOS
run_guest "$tmp/own:$S" "$tmp/guest.sh" "$tmp/log"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 30 "$tmp/log"; }
finish
