#!/bin/sh
# Type=idle under ember-init as PID 1 of a PID+mount namespace: an idle unit waits for the
# other units that are starting, but not for those ordered after it (a target that wants
# it, as Debian's getty.target and multi-user.target wait for the gettys): those held it
# back for the whole 5 s cap on every boot. And emberctl analyze follows a target's
# implied After= on what it wants into the critical chain.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M"
unit() { printf '%b' "$2" >"$S/$1"; }
# busy: real work the idle unit waits for; tty: the idle unit; gate/top: targets after it
unit busy.service '[Service]\nType=oneshot\nRemainAfterExit=yes\nExecStart=/bin/sleep 1\n'
unit tty.service "[Service]\nType=idle\nExecStart=/bin/sh -c 'echo idle >$M/tty; exec sleep 1000'\n"
unit gate.target '[Unit]\nWants=tty.service\n'
unit top.target '[Unit]\nWants=gate.target\nAfter=gate.target\n'

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
field() { "\$E" --json status "\$1" | sed -n "s/.*\"\$2\":\\([0-9-]*\\).*/\\1/p"; }
i=0; while [ "\$("\$E" is-active top.target 2>/dev/null)" != active ] && [ \$i -lt 300 ]; do sleep 0.05; i=\$((i+1)); done
b=\$(field busy.service ready_us) t=\$(field tty.service started_us) g=\$(field top.target ready_us)
echo "busy ready \$b, tty started \$t, top.target ready \$g"
[ -n "\$b" ] && [ -n "\$t" ] && [ "\$t" -ge "\$b" ] && ok idle-waits-for-busy-unit ||
	bad idle-waits-for-busy-unit "tty started \$t, busy ready \$b"
# The 5 s cap would start it ~4 s after busy; without waiting on its own dependents it
# starts in the loop turn after busy is done.
[ -n "\$t" ] && [ -n "\$b" ] && [ \$((t - b)) -lt 2000000 ] && ok idle-not-held-by-units-after-it ||
	bad idle-not-held-by-units-after-it "tty started \$(( (t - b) / 1000 )) ms after busy was ready"
[ -n "\$g" ] && [ "\$g" -ge "\$t" ] && ok target-after-idle-unit || bad target-after-idle-unit "top.target \$g, tty \$t"
chain=\$("\$E" analyze | sed -n '/^top.target/,\$p')
echo "\$chain"
echo "\$chain" | sed -n 2p | grep -q '^\`-gate.target @' && echo "\$chain" | sed -n 3p | grep -q '^  \`-tty @' &&
	ok analyze-follows-implied-after || bad analyze-follows-implied-after "\$(echo "\$chain" | tr '\n' '|')"
echo GUEST-CHECKS-DONE
EOS
chmod +x "$tmp/guest.sh"
timeout 60 unshare --pid --mount --uts --fork --mount-proc \
	env container=ember-test "$BIN/ember-init" ember.services="$S" \
	ember.run="$tmp/guest.sh" ember.shell=none >"$tmp/log" 2>&1
guest_results "$tmp/log" $?
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 60 "$tmp/log"; }
finish
