#!/bin/sh
# Accept=yes socket units with the real ember-init as PID 1 of a PID+mount+network
# namespace (its own loopback: fixed ports cannot collide with anything on the host):
# one transient NAME@N-LOCAL-REMOTE.service instance per TCP connection (the connection on
# fd 3, stdin and stdout), NAME@N-PID-UID for unix sockets; MaxConnections= and
# MaxConnectionsPerSource= drop the connections over the limit; socket options reach
# the connection; instances disappear when they end; a missing template or a datagram
# socket with Accept=yes is reported while the rest runs; daemon-reexec keeps listening
# sockets, live connections and RemainAfterExit= state. Also aliases (symlinks with
# another name): emberctl start and dependencies through an alias reach the real unit.
. "$(dirname "$0")/../lib.sh"
for tool in python3 unshare ip; do
	command -v $tool >/dev/null || { skip init-socket-accept "$tool missing"; finish; }
done
[ "$(id -u)" = 0 ] || { skip init-socket-accept "needs root (namespaces)"; finish; }
PY=$(python3 -c 'import sys; print(sys.executable)')

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/services"
cp "$TOP/tests/integration/socket-accept/conn.py" "$tmp/"
for f in "$TOP"/tests/integration/socket-accept/*.service "$TOP"/tests/integration/socket-accept/*.socket; do
	sed "s|@PY@|$PY|g; s|@TMP@|$tmp|g" "$f" >"$tmp/services/$(basename "$f")"
done
# Aliases: symlinks with another name, as `emberctl enable` makes them from Alias=.
ln -s real2.service "$tmp/services/nick.service"
ln -s "$tmp/services/real3.service" "$tmp/services/nick3.service"

cat >"$tmp/client.py" <<'EOF'
# client.py tcp|unix [hold]: connect, print the instance's first line and its echo.
import socket, sys, time
if sys.argv[1] == "tcp":
    s = socket.create_connection(("127.0.0.1", 2323), 10)
else:
    s = socket.socket(socket.AF_UNIX); s.settimeout(10); s.connect(sys.argv[1])
f = s.makefile("rwb")
first = f.readline().decode().strip()
print(first or "CLOSED", flush=True)
if len(sys.argv) > 2:
    time.sleep(float(sys.argv[2]))
if first:
    f.write(b"hello\n"); f.flush()
    print(f.readline().decode().strip(), flush=True)
EOF

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
C="$PY $tmp/client.py"
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
state() { "\$E" --json status "\$1" 2>/dev/null | sed -n 's/.*"state":"\\([^"]*\\)".*/\\1/p'; }
wait_state() { i=0; while [ \$i -lt 200 ]; do [ "\$(state "\$1")" = "\$2" ] && return 0; sleep 0.05; i=\$((i+1)); done; return 1; }
expect() { wait_state "\$2" "\$3" && ok "\$1" || bad "\$1" "\$2 is \$(state \$2), expected \$3; \$("\$E" status \$2 2>&1 | tail -n 3 | tr '\n' ' ')"; }
instances() { "\$E" list 2>/dev/null | grep -c "\$1@[0-9]"; }

expect echo-socket-listening echo.socket ready
# ---- one TCP connection: its own instance, named as systemd names it
out=\$(\$C tcp)
first=\$(echo "\$out" | head -n 1)
echo "\$first" | grep -Eq '^instance=0-127\.0\.0\.1:2323-127\.0\.0\.1:[0-9]+ ' && ok tcp-instance-name || bad tcp-instance-name "\$first"
echo "\$first" | grep -q ' fds=1 names=connection ' && ok connection-on-fd3 || bad connection-on-fd3 "\$first"
rport=\$(echo "\$first" | sed -n 's/^instance=0-127\.0\.0\.1:2323-127\.0\.0\.1:\([0-9]*\) .*/\1/p')
echo "\$first" | grep -q " remote=127\.0\.0\.1:\$rport " && [ -n "\$rport" ] && ok remote-addr-port || bad remote-addr-port "\$first"
echo "\$first" | grep -q 'stdin-is-fd3=True' && ok connection-on-stdin || bad connection-on-stdin "\$first"
[ "\$(echo "\$out" | sed -n 2p)" = "echo hello" ] && ok connection-on-stdout || bad connection-on-stdout "\$out"
echo "\$first" | grep -q 'keepalive=1 nodelay=1' && ok socket-options-on-connection || bad socket-options-on-connection "\$first"
# ---- inetd style: only StandardInput=socket; stdout and stderr are the connection too
out=\$($PY -c '
import socket
s = socket.create_connection(("127.0.0.1", 2324), 10); s.sendall(b"hello\\n")
f = s.makefile("rb"); print(f.readline().decode().strip() + "|" + f.readline().decode().strip())' 2>&1)
[ "\$out" = "out hello|err hello" ] && ok inetd-style-output-on-connection || bad inetd-style-output-on-connection "\$out"
# ---- the second connection gets N=1; instances are gone when they end
out=\$(\$C tcp | head -n 1)
echo "\$out" | grep -q '^instance=1-127\.0\.0\.1:2323-' && ok instance-counter || bad instance-counter "\$out"
i=0; while [ "\$(instances echo)" != 0 ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
[ "\$(instances echo)" = 0 ] && ok instances-transient || bad instances-transient "\$("\$E" list | grep echo@)"
# ---- MaxConnections=2: a third connection while two are held is dropped
\$C tcp 3 >"$tmp/held1" & h1=\$!
\$C tcp 3 >"$tmp/held2" & h2=\$!
i=0; while [ "\$(instances echo)" -lt 2 ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
[ "\$(instances echo)" = 2 ] && ok two-instances-at-once || bad two-instances-at-once "\$("\$E" list | grep echo@)"
# a reload while they run keeps each once: an instance is up, and a reload also loads
# what is up by name, which made a second unit of it from the template (seen with
# systemd-oomd's held connection on the Debian disk)
"\$E" reload >/dev/null
[ "\$(instances echo)" = 2 ] && ok reload-keeps-instances-once || bad reload-keeps-instances-once "\$("\$E" list | grep echo@)"
third=\$(\$C tcp 2>&1 | head -n 1)
[ "\$third" = CLOSED ] && ok max-connections-drops || bad max-connections-drops "\$third"
wait \$h1 \$h2
grep -q '^echo hello' "$tmp/held1" && grep -q '^echo hello' "$tmp/held2" && ok held-connections-served || bad held-connections-served "\$(cat $tmp/held1 $tmp/held2)"
out=\$(\$C tcp | head -n 1)
echo "\$out" | grep -q '^instance=' && ok served-again-below-limit || bad served-again-below-limit "\$out"
# ---- unix socket: NAME@N-PID-UID; MaxConnectionsPerSource=1 per user
\$C /run/local-accept.sock 2 >"$tmp/local1" & l1=\$!
i=0; while [ "\$(instances local)" -lt 1 ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
second=\$(\$C /run/local-accept.sock 2>&1 | head -n 1)
[ "\$second" = CLOSED ] && ok per-source-limit-drops || bad per-source-limit-drops "\$second"
wait \$l1
grep -q ' remote=None:None ' "$tmp/local1" && ok no-remote-addr-for-unix || bad no-remote-addr-for-unix "\$(head -n 1 $tmp/local1)"
grep -Eq "^instance=0-\$l1-0 " "$tmp/local1" && ok unix-instance-name || bad unix-instance-name "\$(head -n 1 $tmp/local1) (client pid \$l1)"
# ---- bad input: a missing template, a datagram socket
out=\$(\$C /run/orphan-accept.sock 2>&1 | head -n 1)
[ "\$out" = CLOSED ] && ok no-template-connection-closed || bad no-template-connection-closed "\$out"
[ "\$(state orphan.socket)" = ready ] && ok no-template-socket-stays || bad no-template-socket-stays "\$(state orphan.socket)"
expect datagram-accept-invalid dgram.socket invalid
"\$E" status dgram.socket | grep -q 'Accept=yes needs ListenStream=' && ok datagram-accept-says-why || bad datagram-accept-says-why "\$("\$E" status dgram.socket)"
# ---- aliases: one unit, two names
expect dependency-through-alias real3 ready
"\$E" start nick && ok start-by-alias || bad start-by-alias "refused"
expect alias-starts-the-real-unit real2 ready
"\$E" status nick | grep -q real2 && ok status-by-alias || bad status-by-alias "\$("\$E" status nick 2>&1 | head -n 3)"
"\$E" list | grep -q '^nick ' && bad alias-not-a-second-unit "\$("\$E" list | grep nick)" || ok alias-not-a-second-unit
# ---- re-execution: listening sockets, a live connection's instance, remain state
plainget() { $PY -c "import socket; s=socket.socket(socket.AF_UNIX); s.settimeout(10); s.connect('/run/plain-accept-no.sock'); print(s.recv(64).decode().strip())" 2>&1; }
[ "\$(plainget)" = plain-ok ] && ok accept-no-before-reexec || bad accept-no-before-reexec "\$(plainget)"
expect remain-active remain ready
\$C tcp 3 >"$tmp/held-reexec" & hr=\$!
i=0; while [ "\$(instances echo)" -lt 1 ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
held=\$("\$E" list | grep -o 'echo@[^ ]*' | head -n 1)
"\$E" daemon-reexec && ok reexec-accepted || bad reexec-accepted "refused"
i=0; while ! "\$E" list >/dev/null 2>&1 && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
[ -n "\$held" ] && "\$E" list | grep -q "\$held" && ok instance-kept-over-reexec || bad instance-kept-over-reexec "\$held: \$("\$E" list | grep echo)"
wait \$hr
grep -q '^echo hello' "$tmp/held-reexec" && ok connection-kept-over-reexec || bad connection-kept-over-reexec "\$(cat $tmp/held-reexec)"
[ "\$(state echo.socket)" = ready ] && ok accept-socket-ready-after-reexec || bad accept-socket-ready-after-reexec "\$(state echo.socket)"
out=\$(\$C tcp | head -n 1)
n=\$(echo "\$out" | sed -n 's/^instance=\([0-9]*\)-.*/\1/p')
[ -n "\$n" ] && [ "\$n" -gt 4 ] && ok accept-after-reexec || bad accept-after-reexec "\$out (a number above the old ones expected)"
[ "\$(plainget)" = plain-ok ] && ok accept-no-after-reexec || bad accept-no-after-reexec "\$(plainget)"
[ "\$(state remain)" = ready ] && ok remain-after-reexec || bad remain-after-reexec "\$(state remain)"
i=0; while [ "\$(instances echo)" != 0 ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
[ "\$(instances echo)" = 0 ] && ok instances-reaped-after-reexec || bad instances-reaped-after-reexec "\$("\$E" list | grep echo@)"
kill -0 1 && ok pid1-alive || bad pid1-alive "gone"
exit 0
EOS
chmod +x "$tmp/guest.sh"
timeout 120 unshare --net sh -c 'ip link set lo up && exec unshare --pid --mount --uts --fork --mount-proc \
	env container=ember-test "$0" ember.services="$1" ember.run="$2" ember.shell=none' \
	"$BIN/ember-init" "$tmp/services" "$tmp/guest.sh" >"$tmp/log" 2>&1
rc=$?
grep -E '^(PASS|FAIL|SKIP) ' "$tmp/log"
grep -q '^FAIL ' "$tmp/log" && FAILED=1
grep -q '^EMBER-RUN-EXIT=0$' "$tmp/log" && pass guest-completed || fail guest-completed "rc $rc; $(tail -5 "$tmp/log" | tr '\n' ' ')"
grep -q 'orphan.socket: cannot start orphan@0-' "$tmp/log" && pass no-template-in-log || fail no-template-in-log "no line"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 60 "$tmp/log"; }
finish
