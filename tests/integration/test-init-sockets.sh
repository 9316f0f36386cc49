#!/bin/sh
# Socket activation and Type=dbus with the real ember-init as PID 1 of a PID+mount
# namespace: Debian's dbus.socket + dbus.service, unmodified, activated by a dbus-send
# client; a service of our own given two sockets (LISTEN_FDS, LISTEN_PID, LISTEN_FDNAMES
# checked by the service itself), activated by a queued datagram, stopped and activated
# again; no fd leaking into other services; Type=dbus ready only once the name is owned,
# and failing when it never is; bad input (an address already bound, a socket without a
# service, a bad address) reported while the boot goes on.
. "$(dirname "$0")/../lib.sh"
H=$HELPERS
for tool in dbus-daemon dbus-send python3 unshare ip; do
	command -v $tool >/dev/null || { skip init-sockets "$tool missing (scripts/deps.sh installs it)"; finish; }
done
[ "$(id -u)" = 0 ] || { skip init-sockets "needs root (namespaces, dbus-daemon --system)"; finish; }
id messagebus >/dev/null 2>&1 || { skip init-sockets "no messagebus user (package dbus)"; finish; }

# Debian's own unit files, as shipped (fetched into the cache, never into the tree).
CORPUS=${EMBER_UNIT_CORPUS:-${XDG_CACHE_HOME:-$HOME/.cache}/ember/unit-corpus}
fetch_units() { # PACKAGE: unit files of one package into $CORPUS/PACKAGE, as unit-corpus.sh does
	[ -d "$CORPUS/$1/lib/systemd/system" ] && return 0
	if [ -x "$TOP/scripts/unit-corpus.sh" ]; then
		"$TOP/scripts/unit-corpus.sh" "$1" >/dev/null && return 0
	fi
	d=$(mktemp -d) && (cd "$d" && apt-get download -q "$1" >/dev/null 2>&1) &&
		mkdir -p "$CORPUS/$1" && dpkg-deb -x "$d"/*.deb "$d/x" &&
		cp -a "$d/x/lib" "$CORPUS/$1/" ; rc=$?; rm -rf "$d"; return $rc
}
fetch_units dbus && fetch_units dbus-system-bus-common || { skip init-sockets "cannot fetch Debian's dbus units"; finish; }
DEBIAN_SERVICE=$CORPUS/dbus/lib/systemd/system/dbus.service
DEBIAN_SOCKET=$CORPUS/dbus-system-bus-common/lib/systemd/system/dbus.socket
[ -f "$DEBIAN_SERVICE" ] && [ -f "$DEBIAN_SOCKET" ] || { skip init-sockets "no dbus.service/dbus.socket in $CORPUS"; finish; }

tmp=$(mktemp -d)
# ember-init runs in a network namespace of its own (loopback only): these ports cannot
# collide with anything on the host, however busy it is.
port=30080
trap 'kill "$(cat "$tmp/busy.pid" 2>/dev/null)" 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/services" "$tmp/later" "$tmp/system.d"
cp "$DEBIAN_SERVICE" "$DEBIAN_SOCKET" "$tmp/services/"
for f in "$TOP"/tests/integration/sockets/*.service "$TOP"/tests/integration/sockets/*.socket; do
	sed "s|@HELPERS@|$H|g; s|@ID@|$$|g; s|@TMP@|$tmp|g; s|@PORT@|$port|g; s|@PORT2@|$((port + 1))|g" \
		"$f" >"$tmp/services/$(basename "$f")"
done
# The Type=dbus services come later, by reload, so that dbus-daemon is first started
# by a client.
mv "$tmp/services/busowner.service" "$tmp/services/busnever.service" "$tmp/later/"
# The bus policy lets root own the test's name; bind-mounted in the namespace only.
cp -a /etc/dbus-1/system.d/. "$tmp/system.d/" 2>/dev/null
cp "$TOP/tests/integration/sockets/ember-test.conf" "$tmp/system.d/"

# Someone else already listens on busy.socket's address (same network namespace) and on
# live.socket's path; stale.socket's path holds a socket file nobody listens on;
# notsock.socket's path is a regular file.
# (Started inside the namespace, below: an abstract name belongs to its network namespace.)
cat >"$tmp/busy.py" <<EOF
import os, socket, time
open('$tmp/busy.pid', 'w').write(str(os.getpid()))
s=socket.socket(socket.AF_UNIX); s.bind('\0ember-test-busy-$$'); s.listen(1)
l=socket.socket(socket.AF_UNIX); l.bind('$tmp/live.sock'); l.listen(1)
d=socket.socket(socket.AF_UNIX); d.bind('$tmp/stale.sock'); d.close()
open('$tmp/notsock', 'w').close()
open('$tmp/busy-bound', 'w').close(); time.sleep(300)
EOF

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
export DBUS_SYSTEM_BUS_ADDRESS=unix:path=/run/dbus/system_bus_socket
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
state() { "\$E" --json status "\$1" | sed -n 's/.*"state":"\\([^"]*\\)".*/\\1/p'; }
field() { "\$E" --json status "\$1" | sed -n "s/.*\"\$2\":\\([0-9]*\\).*/\\1/p"; }
wait_state() { i=0; while [ \$i -lt 300 ]; do s=\$(state "\$1"); for w in \$2; do [ "\$s" = "\$w" ] && return 0; done; sleep 0.05; i=\$((i+1)); done; return 1; }
expect() { wait_state "\$2" "\$3" && ok "\$1" || bad "\$1" "\$2 is \$(state \$2), expected \$3; \$("\$E" status \$2 | tail -n 3 | tr '\n' ' ')"; }
wait_log() { i=0; while ! "\$E" log "\$1" | grep -q "\$2" && [ \$i -lt 200 ]; do sleep 0.05; i=\$((i+1)); done; "\$E" log "\$1" | grep -q "\$2"; }

# ---- Debian's dbus.socket + dbus.service
expect dbus-socket-listening dbus.socket ready
[ "\$(state dbus)" = inactive ] && ok dbus-waits-for-traffic || bad dbus-waits-for-traffic "dbus is \$(state dbus)"
[ -S /run/dbus/system_bus_socket ] && ok dbus-socket-file || bad dbus-socket-file "no socket file"
[ "\$(stat -c %a /run/dbus/system_bus_socket)" = 666 ] && ok socket-mode-default || bad socket-mode-default "\$(stat -c %a /run/dbus/system_bus_socket)"
mount --bind "$tmp/system.d" /etc/dbus-1/system.d
out=\$(timeout 20 dbus-send --system --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.ListNames 2>&1)
echo "\$out" | grep -q '"org.freedesktop.DBus"' && ok dbus-activated-by-client || bad dbus-activated-by-client "\$(echo \$out | head -c 300)"
expect dbus-daemon-ready dbus ready
"\$E" status dbus | grep -qi 'dbus-daemon' && ok dbus-status || ok dbus-status
out=\$(timeout 10 dbus-send --system --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.GetId 2>&1)
echo "\$out" | grep -q string && ok dbus-second-client || bad dbus-second-client "\$out"

# ---- our own service with two socket units
expect probe-socket-listening probe.socket ready
expect probe-extra-listening probe-extra.socket ready
[ "\$(stat -c %a /run/probe-web/stream.sock)" = 600 ] && ok socket-mode-set || bad socket-mode-set "\$(stat -c %a /run/probe-web/stream.sock)"
[ "\$(stat -c %a /run/probe-web)" = 700 ] && ok directory-mode-set || bad directory-mode-set "\$(stat -c %a /run/probe-web)"
[ "\$(readlink /run/probe-link/dgram)" = /run/probe/dgram.sock ] && ok symlink-made || bad symlink-made "\$(ls -l /run/probe-link 2>&1)"
[ "\$(state probe)" = inactive ] && ok probe-waits-for-traffic || bad probe-waits-for-traffic "probe is \$(state probe)"
python3 -c "import socket; s=socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.sendto(b'first-datagram', '/run/probe-link/dgram')"
expect probe-activated-by-datagram probe ready
wait_log probe 'datagram: first-datagram' && ok queued-datagram-delivered || bad queued-datagram-delivered "\$("\$E" log probe)"
pid=\$(field probe main_pid)
"\$E" log probe | grep -q "^LISTEN_FDS=2 LISTEN_PID=\$pid LISTEN_FDNAMES=probe-extra.socket:web\\\$" && ok listen-env || bad listen-env "\$("\$E" log probe | head -n 1) (main pid \$pid)"
"\$E" log probe | grep -q '^fd 3: datagram' && "\$E" log probe | grep -q '^fd 4: stream' && ok fds-in-unit-order || bad fds-in-unit-order "\$("\$E" log probe)"
"\$E" log probe | grep -q '^fd 5: closed' && ok no-extra-fds || bad no-extra-fds "\$("\$E" log probe)"
r=\$(python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('/run/probe-web/stream.sock'); print(s.recv(64).decode().strip())")
[ "\$r" = probe-ok ] && ok stream-served || bad stream-served "\$r"
"\$E" stop probe
expect probe-stopped probe stopped
[ -S /run/probe-web/stream.sock ] && ok socket-kept-after-stop || bad socket-kept-after-stop "gone"
python3 -c "import socket; s=socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.sendto(b'second-datagram', '/run/probe/dgram.sock')"
expect probe-activated-again probe ready
wait_log probe 'datagram: second-datagram' && ok second-activation-gets-traffic || bad second-activation-gets-traffic "\$("\$E" log probe | tail -n 3)"
# A FIFO and a netlink socket.
[ -p /run/fifo/in ] && [ "\$(stat -c %a /run/fifo/in)" = 620 ] && ok fifo-created || bad fifo-created "\$(ls -l /run/fifo 2>&1)"
[ "\$(state fifo)" = inactive ] && ok fifo-service-waits || bad fifo-service-waits "fifo is \$(state fifo)"
echo fifo-data >/run/fifo/in
expect fifo-activated fifo ready
wait_log fifo 'datagram: fifo-data' && ok fifo-data-delivered || bad fifo-data-delivered "\$("\$E" log fifo)"
"\$E" log fifo | grep -qx 'LISTEN_FDS=2 LISTEN_PID=[0-9]* LISTEN_FDNAMES=fifo.socket:fifo.socket' && ok fifo-netlink-passed || bad fifo-netlink-passed "\$("\$E" log fifo | head -n 3)"
"\$E" status fifo.socket | grep -q 'Type: socket' && ok status-type-socket || bad status-type-socket "\$("\$E" status fifo.socket | grep Type)"
# IP sockets: a connection to the IPv4 one activates the service; the bare port takes
# IPv4 too.
[ "\$(state tcp)" = inactive ] && ok tcp-service-waits || bad tcp-service-waits "tcp is \$(state tcp)"
# no Backlog=: as large as the kernel allows (net.core.somaxconn), as systemd's; ss shows
# a listening socket's backlog as its Send-Q
q=\$(ss -ltnH "sport = :$port" 2>/dev/null | awk '{ print \$3; exit }')
[ -n "\$q" ] && [ "\$q" = "\$(cat /proc/sys/net/core/somaxconn)" ] && ok tcp-backlog-somaxconn ||
	bad tcp-backlog-somaxconn "Send-Q \$q, somaxconn \$(cat /proc/sys/net/core/somaxconn); \$(ss -ltnH | tr "\n" " ")"
r=\$(python3 -c "import socket; s=socket.create_connection(('127.0.0.1', $port), 10); print(s.recv(64).decode().strip())" 2>&1)
[ "\$r" = probe-ok ] && ok tcp-activated-and-served || bad tcp-activated-and-served "\$r"
r=\$(python3 -c "import socket; s=socket.create_connection(('127.0.0.1', $((port + 1))), 10); print(s.recv(64).decode().strip())" 2>&1)
[ "\$r" = probe-ok ] && ok bare-port-takes-ipv4 || bad bare-port-takes-ipv4 "\$r"
"\$E" log tcp | grep -qx 'LISTEN_FDS=2 LISTEN_PID=[0-9]* LISTEN_FDNAMES=tcp:tcp' && ok tcp-fdnames || bad tcp-fdnames "\$("\$E" log tcp | head -n 1)"
expect leakcheck-clean leakcheck stopped
"\$E" log leakcheck | grep -q '^socket fds above 2: 0' && ok no-fd-leak-into-other-services || bad no-fd-leak-into-other-services "\$("\$E" log leakcheck)"

# ---- bad input: the units fail, the rest runs
expect busy-socket-failed busy.socket failed
"\$E" status busy.socket | grep -q 'bind: Address.*in use' && ok busy-says-why || bad busy-says-why "\$("\$E" status busy.socket)"
[ "\$(state busy)" = inactive ] && ok busy-service-not-started || bad busy-service-not-started "busy is \$(state busy)"
expect no-service-socket-failed nosvc.socket failed
"\$E" status nosvc.socket | grep -q 'no service nosvc.service' && ok no-service-says-why || bad no-service-says-why "\$("\$E" status nosvc.socket)"
expect bad-address-invalid badaddr.socket invalid
"\$E" status badaddr.socket | grep -q 'not/absolute' && ok bad-address-says-why || bad bad-address-says-why "\$("\$E" status badaddr.socket)"

[ "\$(state stale.socket)" = ready ] && [ -S "$tmp/stale.sock" ] && ok stale-socket-file-replaced || bad stale-socket-file-replaced "\$("\$E" status stale.socket | grep Error)"
expect live-server-path-refused live.socket failed
"\$E" status live.socket | grep -q 'a running server listens there' && ok live-server-says-why || bad live-server-says-why "\$("\$E" status live.socket)"
expect regular-file-path-refused notsock.socket failed
"\$E" status notsock.socket | grep -q 'exists and is not a socket' && ok regular-file-says-why || bad regular-file-says-why "\$("\$E" status notsock.socket)"
[ -f "$tmp/notsock" ] && ok regular-file-kept || bad regular-file-kept "gone"
# A service that fails at once, its datagram still queued: the socket gives up.
python3 -c "import socket; s=socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.sendto(b'x', '\0ember-test-flapper-$$')"
expect flapping-service-stops-socket flapper.socket failed
"\$E" status flapper.socket | grep -q 'times in a row' && ok flapping-says-why || bad flapping-says-why "\$("\$E" status flapper.socket)"
[ "\$(state flapper)" = failed ] && ok flapper-failed || bad flapper-failed "\$(state flapper)"

# ---- Type=dbus
cp "$tmp/later/busowner.service" "$tmp/later/busnever.service" "$tmp/services/"
t0=\$(date +%s%N)
"\$E" reload >/dev/null
sleep 0.5
[ "\$(state busowner)" = running ] && ok dbus-not-ready-before-name || bad dbus-not-ready-before-name "busowner is \$(state busowner)"
expect busowner-ready busowner ready
t1=\$(date +%s%N)
[ \$(((t1 - t0) / 1000000)) -ge 1400 ] && ok dbus-ready-only-when-name-owned || bad dbus-ready-only-when-name-owned "ready after \$(((t1 - t0) / 1000000)) ms"
"\$E" status busowner | grep -q 'Type: dbus' && ok status-type-dbus || bad status-type-dbus "\$("\$E" status busowner | grep Type)"
"\$E" log busowner | grep -q 'requested org.ember.Test: 1' && ok name-requested || bad name-requested "\$("\$E" log busowner)"
expect busnever-fails busnever failed
"\$E" status busnever | grep -q 'org.ember.Never\|timed out' && ok busnever-says-why || bad busnever-says-why "\$("\$E" status busnever)"
pgrep -f ember-busname-wait >/dev/null && bad busname-helper-gone "still running" || ok busname-helper-gone
# The helper by hand, against the real bus.
"$BIN/ember-busname-wait" --timeout-ms 5000 org.freedesktop.DBus && ok busname-wait-owned || bad busname-wait-owned "exit \$?"
"$BIN/ember-busname-wait" --timeout-ms=300 org.ember.Nobody 2>/dev/null; rc=\$?
[ \$rc = 1 ] && ok busname-wait-times-out || bad busname-wait-times-out "exit \$rc"
kill -0 1 && ok pid1-alive || bad pid1-alive "gone"
exit 0
EOS
chmod +x "$tmp/guest.sh"
timeout 200 unshare --net sh -c 'ip link set lo up && { python3 "$0/busy.py" & } &&
	i=0; while [ ! -e "$0/busy-bound" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
	exec unshare --pid --mount --uts --fork --mount-proc env container=ember-test "$1" \
	ember.services="$0/services" ember.run="$0/guest.sh" ember.shell=none' \
	"$tmp" "$BIN/ember-init" >"$tmp/log" 2>&1
rc=$?
grep -E '^(PASS|FAIL|SKIP) ' "$tmp/log"
grep -q '^FAIL ' "$tmp/log" && FAILED=1
grep -q '^EMBER-RUN-EXIT=0$' "$tmp/log" && pass guest-completed || fail guest-completed "rc $rc; $(tail -5 "$tmp/log" | tr '\n' ' ')"
grep -q 'busy.socket: ListenStream=@ember-test-busy-[0-9]*: bind: Address.*in use' "$tmp/log" && pass busy-in-boot-log || fail busy-in-boot-log "no line"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 80 "$tmp/log"; }
finish
