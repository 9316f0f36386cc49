#!/bin/sh
# A unit file's diagnostics (a broken ordering cycle, an unknown key) are said once per
# boot or daemon-reload, not each time ember-init reads the files or builds its ordering
# graph again without one (each Accept=yes connection, a unit started by name that takes
# a full reload, as ember-udev-wants' devices do at boot): the seventh holdout's
# run-time round found one cycle (lldpad, fcoe-utils and network.target) 59 times in
# one boot, against once under systemd. Real ember-init as PID 1 of a PID+mount
# namespace, units loaded as on a distribution (by what the boot reaches).
. "$(dirname "$0")/../lib.sh"
need_guest init-cycle-once
S=$tmp/lib/systemd/system
mkdir -p "$tmp/own" "$S/multi-user.target.wants" "$S/sockets.target.wants"
printf '[Unit]\nWants=net.target\nAfter=lldp.service\nBefore=net.target\n[Service]\nExecStart=/bin/sleep 1000\nFrobnicate=yes\n' >"$S/fcoe.service"
printf '[Unit]\nAfter=net.target\n[Service]\nExecStart=/bin/sleep 1000\n' >"$S/lldp.service"
printf '[Unit]\nDescription=like network.target\n' >"$S/net.target"
printf '[Socket]\nListenStream=%s/acc.sock\nAccept=yes\n' "$tmp" >"$S/acc.socket"
printf '[Service]\nExecStart=/bin/true\nStandardInput=socket\n' >"$S/acc@.service"
# a socket unit started by name is loaded with a full reload
printf '[Socket]\nListenStream=%s/late.sock\n' "$tmp" >"$S/late.socket"
printf '[Service]\nExecStart=/bin/sleep 1000\n' >"$S/late.service"
for u in fcoe lldp; do ln -s ../$u.service "$S/multi-user.target.wants/$u.service"; done
ln -s ../acc.socket "$S/sockets.target.wants/acc.socket"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
n=0
while [ \$n -lt 4 ]; do
	python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.recv(1)" $tmp/acc.sock
	n=\$((n+1))
done
emberctl start late.socket >/dev/null 2>&1
sleep 0.5
[ "\$(emberctl list | awk '\$1 == "fcoe" || \$1 == "lldp" || \$1 == "late.socket" { print \$2 }' | tr '\n' ' ')" = "ready ready ready " ] &&
	ok cycle-members-run || bad cycle-members-run "\$(emberctl list | grep -E 'fcoe|lldp|late')"
echo MARK-BEFORE-DAEMON-RELOAD
emberctl daemon-reload >/dev/null 2>&1
exit 0
EOS
run_guest "$tmp/own:$S" "$tmp/guest.sh" "$tmp/log"
before=$(sed -n '/^MARK-BEFORE-DAEMON-RELOAD$/q;p' "$tmp/log")
c=$(printf '%s\n' "$before" | grep -c 'ordering cycle .*: broken by dropping')
k=$(printf '%s\n' "$before" | grep -c 'Frobnicate: unknown key')
a=$(printf '%s\n' "$before" | grep -c 'acc.socket: connection')
[ "$c" = 1 ] && [ "$k" = 1 ] && [ "$a" -ge 4 ] && pass diagnostics-said-once ||
	fail diagnostics-said-once "cycle $c times, unknown key $k times, $a connections"
c=$(grep -c 'ordering cycle .*: broken by dropping' "$tmp/log")
k=$(grep -c 'Frobnicate: unknown key' "$tmp/log")
[ "$c" = 2 ] && [ "$k" = 2 ] && pass diagnostics-said-again-at-daemon-reload ||
	fail diagnostics-said-again-at-daemon-reload "cycle $c times, unknown key $k times in all"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 30 "$tmp/log"; }
finish
