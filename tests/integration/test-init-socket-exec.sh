#!/bin/sh
# socket-exec: the commands of socket units (ExecStartPre=, ExecStartPost=, ExecStopPre=,
# ExecStopPost=, TimeoutSec=) with the real ember-init as PID 1 of a PID+mount namespace.
# Each command records what it sees of the socket (absent, listening, refused) with its
# uid and environment: the order is pre (no socket yet), post (listening), stop-pre (still
# listening), stop-post (gone); a failing ExecStartPre= leaves no socket and a failed unit;
# "-" ignores a failure; a failing ExecStartPost= closes the socket again; a hung
# ExecStartPre= is killed after TimeoutSec= while PID 1 keeps answering emberctl.
. "$(dirname "$0")/../lib.sh"
H=$HELPERS
for tool in python3 unshare; do
	command -v $tool >/dev/null || { skip init-socket-exec "$tool missing"; finish; }
done
[ "$(id -u)" = 0 ] || { skip init-socket-exec "needs root (namespaces)"; finish; }
id nobody >/dev/null 2>&1 || { skip init-socket-exec "no user nobody"; finish; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp" # the commands of order.socket run as nobody
mkdir -p "$tmp/services" "$tmp/later"
for f in "$TOP"/tests/integration/socket-exec/*.service "$TOP"/tests/integration/socket-exec/*.socket; do
	sed "s|@HELPERS@|$H|g; s|@TMP@|$tmp|g" "$f" >"$tmp/services/$(basename "$f")"
done
sed "s|@TMP@|$tmp|g" "$TOP/tests/integration/socket-exec/peek.py" >"$tmp/peek"
chmod 755 "$tmp/peek"
: >"$tmp/events" && chmod 666 "$tmp/events"
# started by name, once the guest runs
mv "$tmp/services/hang.socket" "$tmp/services/slow.socket" "$tmp/services/slow.service" "$tmp/later/"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
EV="$tmp/events"
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
state() { "\$E" --json status "\$1" | sed -n 's/.*"state":"\\([^"]*\\)".*/\\1/p'; }
wait_state() { i=0; while [ \$i -lt 300 ]; do s=\$(state "\$1"); for w in \$2; do [ "\$s" = "\$w" ] && return 0; done; sleep 0.05; i=\$((i+1)); done; return 1; }
expect() { wait_state "\$2" "\$3" && ok "\$1" || bad "\$1" "\$2 is \$(state \$2), expected \$3; \$("\$E" status \$2 | tail -n 3 | tr '\n' ' ')"; }
seen() { grep -q "^\$1" "\$EV"; }
has() { seen "\$2" && ok "\$1" || bad "\$1" "no '\$2' in: \$(tr '\n' ';' <"\$EV")"; }
hasnt() { seen "\$2" && bad "\$1" "'\$2' in: \$(tr '\n' ';' <"\$EV")" || ok "\$1"; }
connect() { python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])" "\$1" 2>/dev/null; }

# ---- order.socket: every command at its moment, in the unit's exec environment
expect order-listening order.socket ready
has order-pre-sees-no-socket 'order-pre absent uid=65534 greeting=hello'
has order-post-sees-it-listening 'order-post listening uid=65534 greeting=hello'
has order-plus-runs-as-root 'order-post-plus listening uid=0 greeting=hello'
[ "\$(grep -c '^order-' "\$EV")" = 3 ] && ok order-no-stop-lines-yet || bad order-no-stop-lines-yet "\$(tr '\n' ';' <"\$EV")"
grep '^order-' "\$EV" | cut -d' ' -f1 | tr '\n' ' ' | grep -qx 'order-pre order-post order-post-plus ' && ok order-start-sequence || bad order-start-sequence "\$(tr '\n' ';' <"\$EV")"
"\$E" --json status order.socket | grep -q '"control_pid":0' && ok order-no-control-left || bad order-no-control-left "\$("\$E" --json status order.socket)"
# traffic still activates the service once the socket is up
r=\$(python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('/run/order/s.sock'); print(s.recv(64).decode().strip())" 2>&1)
[ "\$r" = probe-ok ] && ok order-activates-and-serves || bad order-activates-and-serves "\$r"
expect order-activates-service target ready
"\$E" stop target >/dev/null
expect target-stopped target stopped
"\$E" stop order.socket
expect order-stopped order.socket stopped
has order-stoppre-sees-it-listening 'order-stoppre listening uid=65534'
has order-stoppost-sees-it-gone 'order-stoppost absent uid=65534'
grep '^order-' "\$EV" | cut -d' ' -f1 | tr '\n' ' ' | grep -qx 'order-pre order-post order-post-plus order-stoppre order-stoppost ' && ok order-full-sequence || bad order-full-sequence "\$(tr '\n' ';' <"\$EV")"
[ ! -e /run/order/s.sock ] && ok order-socket-removed || bad order-socket-removed "still there"
"\$E" start order.socket
expect order-started-again order.socket ready
[ "\$(grep -c '^order-pre ' "\$EV")" = 2 ] && ok order-pre-runs-each-start || bad order-pre-runs-each-start "\$(tr '\n' ';' <"\$EV")"

# ---- a failing ExecStartPre=: failed, nothing bound, no further command
expect prefail-failed prefail.socket failed
"\$E" status prefail.socket | grep -q 'ExecStartPre= exited with status 1' && ok prefail-says-why || bad prefail-says-why "\$("\$E" status prefail.socket | tr '\n' ' ')"
[ ! -e /run/prefail/s.sock ] && ok prefail-no-socket || bad prefail-no-socket "\$(ls -l /run/prefail 2>&1)"
hasnt prefail-no-post 'prefail-post'
hasnt prefail-no-stoppost 'prefail-stoppost' # systemd: a failed ExecStartPre= ends the start there

# ---- "-": failures ignored
expect preignore-listening preignore.socket ready
has preignore-post-ran 'preignore-post listening'

# ---- a failing ExecStartPost=: the socket closes again
expect postfail-failed postfail.socket failed
"\$E" status postfail.socket | grep -q 'ExecStartPost= exited with status 4' && ok postfail-says-why || bad postfail-says-why "\$("\$E" status postfail.socket | tr '\n' ' ')"
has postfail-stoppre-before-close 'postfail-stoppre listening'
has postfail-stoppost-after-close 'postfail-stoppost refused'
connect /run/postfail/s.sock && bad postfail-closed "connect succeeded" || ok postfail-closed

# ---- as Debian's cockpit.socket: missing programs ignored, a file switched
expect motd-listening motd.socket ready
[ "\$(readlink /run/motd/motd)" = active.motd ] && ok motd-post-ran || bad motd-post-ran "\$(ls -l /run/motd 2>&1)"
"\$E" stop motd.socket
expect motd-stopped motd.socket stopped
[ "\$(readlink /run/motd/motd)" = inactive.motd ] && ok motd-stoppost-ran || bad motd-stoppost-ran "\$(ls -l /run/motd 2>&1)"

# ---- a hung ExecStartPre=: killed after TimeoutSec=2s; PID 1 answers meanwhile
cp "$tmp/later/hang.socket" "$tmp/services/"
t0=\$(date +%s%N)
"\$E" --no-block start hang.socket && ok hang-start-returns || bad hang-start-returns "exit \$?"
sleep 0.5
[ "\$(state hang.socket)" = starting ] && ok hang-starting || bad hang-starting "\$(state hang.socket)"
pgrep -f 'sleep 1000' >/dev/null && ok hang-pre-running || bad hang-pre-running "no sleep"
sub=\$("\$E" show -p SubState,ControlPID hang.socket | tr '\n' ' ')
echo "\$sub" | grep -q 'SubState=start-pre ControlPID=[1-9]' && ok hang-show-start-pre || bad hang-show-start-pre "\$sub"
n=0; slow=0
while [ \$n -lt 10 ]; do
	a=\$(date +%s%N); timeout 1 "\$E" status order.socket >/dev/null || slow=\$((slow+1))
	b=\$(date +%s%N); [ \$(((b - a) / 1000000)) -lt 500 ] || slow=\$((slow+1)); n=\$((n+1)); sleep 0.05
done
[ \$slow = 0 ] && ok pid1-answers-while-pre-hangs || bad pid1-answers-while-pre-hangs "\$slow slow answers"
connect /run/order/s.sock && ok other-sockets-serve-meanwhile || bad other-sockets-serve-meanwhile "refused"
expect hang-failed hang.socket failed
t1=\$(date +%s%N)
ms=\$(((t1 - t0) / 1000000))
[ \$ms -ge 1900 ] && [ \$ms -lt 8000 ] && ok hang-timeout-honoured || bad hang-timeout-honoured "failed after \$ms ms"
"\$E" status hang.socket | grep -q 'ExecStartPre= timed out' && ok hang-says-why || bad hang-says-why "\$("\$E" status hang.socket | tr '\n' ' ')"
i=0; while pgrep -f 'sleep 1000' >/dev/null && [ \$i -lt 40 ]; do sleep 0.1; i=\$((i+1)); done
pgrep -f 'sleep 1000' >/dev/null && bad hang-pre-killed "still running" || ok hang-pre-killed
[ ! -e /run/hang/s.sock ] && ok hang-no-socket || bad hang-no-socket "\$(ls -l /run/hang 2>&1)"
# stopped while its ExecStartPre= runs: the line is killed, nothing is bound, no stop line
"\$E" --no-block start hang.socket
# (its ExecStartPre= may be forked a moment after the state says starting, on a busy machine)
i=0; while ! pgrep -f 'sleep 1000' >/dev/null && [ \$i -lt 40 ]; do sleep 0.05; i=\$((i+1)); done
wait_state hang.socket starting && pgrep -f 'sleep 1000' >/dev/null && ok hang-starting-again || bad hang-starting-again "\$(state hang.socket), \$(pgrep -fa 'sleep 1000' || echo no sleep)"
"\$E" stop hang.socket
expect hang-stopped-during-pre hang.socket stopped
i=0; while pgrep -f 'sleep 1000' >/dev/null && [ \$i -lt 40 ]; do sleep 0.1; i=\$((i+1)); done
pgrep -f 'sleep 1000' >/dev/null && bad hang-pre-killed-by-stop "still running" || ok hang-pre-killed-by-stop
[ ! -e /run/hang/s.sock ] && ok hang-still-no-socket || bad hang-still-no-socket "\$(ls -l /run/hang 2>&1)"
hasnt hang-no-stoppost 'hang-stoppost'
# ---- a service started while its socket's ExecStartPre= runs waits for the fds
cp "$tmp/later/slow.socket" "$tmp/later/slow.service" "$tmp/services/"
"\$E" --no-block start slow.socket && "\$E" --no-block start slow && ok slow-started || bad slow-started "exit \$?"
sleep 0.3
[ "\$(state slow.socket)" = starting ] && [ "\$(state slow)" = waiting ] && ok slow-service-waits || bad slow-service-waits "slow.socket \$(state slow.socket), slow \$(state slow)"
expect slow-socket-ready slow.socket ready
expect slow-service-ready slow ready
i=0; while ! "\$E" log slow | grep -q LISTEN_FDS && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
"\$E" log slow | grep -qx 'LISTEN_FDS=1 LISTEN_PID=[0-9]* LISTEN_FDNAMES=slow.socket' && ok slow-service-got-fds || bad slow-service-got-fds "\$("\$E" log slow | head -n 2 | tr '\n' ' ')"
# ---- re-execution keeps a listening socket's stop commands due
"\$E" daemon-reexec && ok reexec-accepted || bad reexec-accepted "refused"
i=0; while ! "\$E" list >/dev/null 2>&1 && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
[ "\$(state order.socket)" = ready ] && ok order-ready-after-reexec || bad order-ready-after-reexec "\$(state order.socket)"
"\$E" stop order.socket
expect order-stopped-after-reexec order.socket stopped
[ "\$(grep -c '^order-stoppre listening' "\$EV")" = 2 ] && [ "\$(grep -c '^order-stoppost absent' "\$EV")" = 2 ] && ok order-stop-lines-after-reexec || bad order-stop-lines-after-reexec "\$(tr '\n' ';' <"\$EV")"
kill -0 1 && ok pid1-alive || bad pid1-alive "gone"
echo GUEST-CHECKS-DONE
exit 0
EOS
chmod +x "$tmp/guest.sh"
timeout 120 unshare --pid --mount --uts --fork --mount-proc env container=ember-test "$BIN/ember-init" \
	ember.services="$tmp/services" ember.run="$tmp/guest.sh" ember.shell=none >"$tmp/log" 2>&1
guest_results "$tmp/log" $?
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 60 "$tmp/log"; }
finish
