#!/bin/sh
# Socket traffic during shutdown, with the real ember-init as PID 1 of a PID+mount
# namespace. A service stopping late talks to a socket whose service is down (on a
# Debian disk: clients of dbus.socket after dbus stopped), and to an Accept=yes socket. Nothing may be started any
# more, and the client must not be left hanging in the socket's backlog until its own
# stop timeout: ember-init closes the socket and the client sees the connection end.
# As on systemd, one kind of unit still starts: an instance of an Accept=yes socket
# whose template has no default dependencies (it does not conflict with shutdown.target;
# systemd's private socket, answered by ember-private@.service, is one).
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || { skip shutdown-sockets "python3 missing (scripts/deps.sh installs it)"; finish; }
[ "$(id -u)" = 0 ] || { skip shutdown-sockets "needs root (namespaces)"; finish; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/services"
# The client: connects, then waits up to 20 s for the connection to end; it writes
# what it saw. Its stop is bounded at 8 s, so a client left in the backlog never writes.
cat >"$tmp/client.py" <<EOF
import socket, sys
s = socket.socket(socket.AF_UNIX)
try:
    s.connect(sys.argv[1])
    s.settimeout(20)
    outcome = 'closed' if s.recv(1) == b'' else 'data'
except ConnectionRefusedError:
    outcome = 'refused'
except ConnectionResetError:
    outcome = 'closed'
except socket.timeout:
    outcome = 'hung'
open(sys.argv[2], 'w').write(outcome)
EOF
printf '[Socket]\nListenStream=%s/lazy.sock\n' "$tmp" >"$tmp/services/lazy.socket"
printf '[Service]\nExecStart=/bin/sh -c "touch %s/lazy-started; exec sleep 1000"\n' "$tmp" \
	>"$tmp/services/lazy.service"
# An Accept=yes socket: no instance may start during shutdown either.
printf '[Socket]\nListenStream=%s/each.sock\nAccept=yes\n' "$tmp" >"$tmp/services/each.socket"
printf '[Service]\nExecStart=/bin/sh -c "touch %s/each-started; exec sleep 1000"\nStandardInput=socket\n' "$tmp" \
	>"$tmp/services/each@.service"
# The same with a template without default dependencies, ordered before its client:
# served during shutdown (the instance says "hi").
printf '[Socket]\nListenStream=%s/early.sock\nAccept=yes\n' "$tmp" >"$tmp/services/early.socket"
printf '[Unit]\nDefaultDependencies=no\nBefore=client.service\n[Service]\nExecStart=/bin/sh -c "touch %s/early-started; echo hi"\nStandardInput=socket\nStandardOutput=socket\n' "$tmp" \
	>"$tmp/services/early@.service"
# After= the sockets: stopped before them, as a D-Bus client is stopped before dbus.socket.
# Its last stop command asks for a start by name, as a stopping script might: refused.
printf '[Unit]\nAfter=lazy.socket each.socket early.socket\n[Service]\nExecStart=/bin/sleep 1000\nExecStop=/usr/bin/python3 %s/client.py %s/lazy.sock %s/client-saw\nExecStop=/usr/bin/python3 %s/client.py %s/each.sock %s/client-each-saw\nExecStop=/usr/bin/python3 %s/client.py %s/early.sock %s/client-early-saw\nExecStop=/bin/sh -c "%s start lazy >%s/start-out 2>&1; echo rc=$$? >>%s/start-out"\nTimeoutStopSec=8s\n' \
	"$tmp" "$tmp" "$tmp" "$tmp" "$tmp" "$tmp" "$tmp" "$tmp" "$tmp" "$BIN/emberctl" "$tmp" "$tmp" >"$tmp/services/client.service"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
state() { "\$E" --json status "\$1" | sed -n 's/.*"state":"\\([^"]*\\)".*/\\1/p'; }
i=0
while [ \$i -lt 200 ] && { [ "\$(state lazy.socket)" != ready ] || [ "\$(state each.socket)" != ready ] ||
	[ "\$(state client)" != ready ]; }; do
	sleep 0.05; i=\$((i+1))
done
[ "\$(state lazy)" = inactive ] && echo "PASS lazy-waits-for-traffic" || echo "FAIL lazy-waits-for-traffic: lazy is \$(state lazy)"
exit 0
EOS
chmod +x "$tmp/guest.sh"
# 45 s bounds a hang: the whole run takes about a second; a shutdown that waits for
# PID 1's 60 s poll cap after its last unit (a socket) stopped runs into it.
timeout 45 unshare --pid --mount --uts --fork --mount-proc env container=ember-test \
	"$BIN/ember-init" ember.services="$tmp/services" ember.run="$tmp/guest.sh" ember.shell=none \
	>"$tmp/log" 2>&1
rc=$?
grep -E '^(PASS|FAIL|SKIP) ' "$tmp/log"
grep -q '^FAIL ' "$tmp/log" && FAILED=1
grep -q '^EMBER-RUN-EXIT=0$' "$tmp/log" && pass guest-completed || fail guest-completed "rc $rc"
# (reboot(2) in a PID namespace ends its init with SIGINT: 130 is a poweroff)
grep -q 'shutdown: poweroff now' "$tmp/log" && pass shutdown-completed || fail shutdown-completed "ember-init ended with $rc"
saw=$(cat "$tmp/client-saw" 2>/dev/null)
case $saw in
closed|refused) pass client-not-left-hanging ;;
*) fail client-not-left-hanging "the stopping client saw '${saw:-nothing: it was killed at its stop timeout}'" ;;
esac
saw=$(cat "$tmp/client-each-saw" 2>/dev/null)
case $saw in
closed|refused) pass accept-client-not-left-hanging ;;
*) fail accept-client-not-left-hanging "the client of the Accept=yes socket saw '${saw:-nothing: it was killed at its stop timeout}'" ;;
esac
saw=$(cat "$tmp/client-early-saw" 2>/dev/null)
[ "$saw" = data ] && [ -e "$tmp/early-started" ] && pass no-default-deps-instance-served-in-shutdown ||
	fail no-default-deps-instance-served-in-shutdown "the client of early.socket saw '${saw:-nothing}'"
[ ! -e "$tmp/lazy-started" ] && pass nothing-started-in-shutdown || fail nothing-started-in-shutdown "lazy.service ran"
[ ! -e "$tmp/each-started" ] && pass no-instance-in-shutdown || fail no-instance-in-shutdown "an each@ instance ran"
grep -q 'each.socket: traffic during shutdown' "$tmp/log" && pass accept-shutdown-traffic-reported ||
	fail accept-shutdown-traffic-reported "no line for the refused connection"
sed -n '/stopping services/,$p' "$tmp/log" | grep -q 'traffic, starting' &&
	fail no-activation-in-shutdown "$(grep 'traffic' "$tmp/log")" || pass no-activation-in-shutdown
grep -q 'lazy.socket: traffic during shutdown' "$tmp/log" && pass shutdown-traffic-reported ||
	fail shutdown-traffic-reported "no line for the refused activation"
grep -q 'client: stop timed out\|client.*SIGKILL' "$tmp/log" && fail client-stopped-in-time "$(grep client "$tmp/log" | tail -3)" ||
	pass client-stopped-in-time
out=$(cat "$tmp/start-out" 2>/dev/null)
case $out in
*"shutting down, nothing starts any more"*"rc=1") pass start-refused-in-shutdown ;;
*) fail start-refused-in-shutdown "emberctl start during shutdown: '$out'" ;;
esac
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 40 "$tmp/log"; }
finish
