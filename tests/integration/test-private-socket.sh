#!/bin/sh
# systemd's private manager socket (/run/systemd/private) under ember: ember-private.socket
# (as make install lays it out, enabled with emberctl) makes ember-init listen there and
# start `ember-activator --peer` for each connection. The client is systemd's own utmp
# recorder, the host's /lib/systemd/systemd-update-utmp (package systemd), run by Debian's
# unmodified unit files from the unit corpus, with the real ember-init as PID 1 of a
# PID+mount namespace whose /run and /var/log are the test's:
#  - systemd-update-utmp.service comes up before sysinit.target (before, without a
#    private socket, it fell back to the system bus, which is not there: it failed)
#  - the boot record in wtmp is dated at ember-init's start (the manager's
#    UserspaceTimestampMonotonic), not at the kernel's boot (what a failed call gives)
#  - the runlevel record (systemd-update-utmp-runlevel, multi-user.target: 3) is written
#  - at poweroff the recorder's ExecStop writes the shutdown record
# Hostile: a client that is not root is refused (socket mode, and the server's own
# check of the peer's credentials), a client that never authenticates is closed, calls
# other than the few read-only ones are refused and start nothing, garbage ends the
# connection and nothing else.
. "$(dirname "$0")/../lib.sh"
for tool in unshare setpriv python3 utmpdump busctl; do
	command -v $tool >/dev/null || { skip private-socket "$tool missing (scripts/deps.sh installs it)"; finish; }
done
[ "$(id -u)" = 0 ] || { skip private-socket "needs root (namespaces)"; finish; }
UTMP=/lib/systemd/systemd-update-utmp
[ -x "$UTMP" ] || { skip private-socket "no $UTMP (package systemd)"; finish; }
CORPUS=${EMBER_UNIT_CORPUS:-${XDG_CACHE_HOME:-$HOME/.cache}/ember/unit-corpus}
U=$CORPUS/systemd/lib/systemd/system
[ -f "$U/systemd-update-utmp.service" ] || "$TOP/scripts/unit-corpus.sh" systemd >/dev/null 2>&1 ||
	{ skip private-socket "cannot fetch Debian's systemd units"; finish; }

tmp=$(mktemp -d); chmod 0755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
# The search path of a Debian system with ember installed: ember's directories, then
# systemd's.
OWN=$tmp/etc/ember/services EMBERLIB=$tmp/usr/lib/ember/services
ETC=$tmp/etc/systemd/system LIB=$tmp/lib/systemd/system
mkdir -p "$OWN" "$EMBERLIB" "$ETC" "$LIB" "$tmp/inst" "$tmp/log" "$tmp/mark"
# wtmp as Debian's tmpfiles.d/systemd.conf makes it (glibc never creates it); utmp is
# made in ember-init's /run by the stand-in for systemd-tmpfiles-setup below.
install -m 0664 /dev/null "$tmp/log/wtmp"
# ember's files as make install lays them out, enabled as an administrator does.
"$TOP/scripts/install.sh" "$tmp/inst" /usr /etc "$BIN" /nonexistent >/dev/null
"$BIN/emberctl" --root "$tmp/inst" -q enable ember-private.socket || fail enable-private "emberctl enable failed"
[ "$(readlink "$tmp/inst/etc/ember/services/systemd-update-utmp.service.wants/ember-private.socket")" = \
	/usr/lib/ember/services/ember-private.socket ] && pass enable-links-into-recorder-wants ||
	fail enable-links-into-recorder-wants "$(ls -lR "$tmp/inst/etc/ember/services" 2>&1 | tail -3)"
cp "$tmp/inst/usr/lib/ember/services/ember-private.socket" "$tmp/inst/usr/lib/ember/services/ember-private@.service" "$EMBERLIB/"
sed -i "s|^ExecStart=[^ ]*|ExecStart=$BIN/ember-activator|" "$EMBERLIB/ember-private@.service"
mkdir -p "$OWN/systemd-update-utmp.service.wants" &&
	ln -s "$EMBERLIB/ember-private.socket" "$OWN/systemd-update-utmp.service.wants/"
# Debian's units and their links, as the package ships them.
cp "$U"/systemd-update-utmp*.service "$LIB/"
cp -P "$U"/runlevel?.target "$LIB/" # the runlevel record is ordered after these aliases
for w in sysinit.target.wants multi-user.target.wants; do
	mkdir -p "$LIB/$w" && cp -P "$U/$w"/systemd-update-utmp* "$LIB/$w/"
done
# The recorder comes after systemd-tmpfiles-setup, which makes /run/utmp: a stand-in.
printf '[Unit]\nDefaultDependencies=no\n[Service]\nType=oneshot\nExecStart=/usr/bin/install -m 0664 /dev/null /run/utmp\n' \
	>"$LIB/systemd-tmpfiles-setup.service"
ln -s "$LIB/systemd-tmpfiles-setup.service" "$LIB/sysinit.target.wants/"
# A unit a call on the private socket must not be able to start (not enabled).
printf '[Service]\nType=oneshot\nExecStart=/bin/touch %s/mark/started\n' "$tmp" >"$LIB/victim.service"

cat >"$tmp/peer.py" <<'EOF_PY'
# A minimal peer-to-peer D-Bus client: EXTERNAL auth, then one method call; prints the
# reply's type and, for errors, the error name. argv: socket path, then what to do.
import os, socket, struct, sys
def pad(b, n): return b + b"\0" * (-len(b) % n)
def field(code, sig, val):
    if sig in "os":
        v = struct.pack("<I", len(val)) + val.encode() + b"\0"
    else:
        v = bytes([len(val)]) + val.encode() + b"\0"
    return pad(struct.pack("<B", code) + bytes([1]) + sig.encode() + b"\0" + v, 1)
def call(path, iface, member, sig, body):
    fields = b""
    for code, s, v in ((1, "o", path), (2, "s", iface), (3, "s", member), (8, "g", sig)):
        if v is None: continue
        fields = pad(fields, 8) + field(code, s, v)
    head = b"l\x01\x00\x01" + struct.pack("<III", len(body), 1, len(fields)) + fields
    return pad(head, 8) + body
def sstr(s): return pad(struct.pack("<I", len(s)) + s.encode() + b"\0", 4)
s = socket.socket(socket.AF_UNIX); s.settimeout(8); s.connect(sys.argv[1])
what = sys.argv[2]
if what == "garbage":
    s.sendall(b"\0AUTH EXTERNAL\r\nDATA\r\nBEGIN\r\n" + b"\xff" * 64)
elif what == "silent":
    pass
else:
    s.sendall(b"\0AUTH EXTERNAL %s\r\nBEGIN\r\n" % str(os.getuid()).encode().hex().encode())
    if what == "startunit":
        s.sendall(call("/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager", "StartUnit", "ss", sstr("victim.service") + sstr("replace")))
data = b""
try:
    while True:
        d = s.recv(4096)
        if not d: break
        data += d
        if what == "startunit" and b"\r\n" in data and len(data) > data.rfind(b"\r\n") + 16: break
except socket.timeout:
    print("timeout"); sys.exit(0)
body = data[data.rfind(b"\r\n") + 2:] if b"OK " in data else b""
if not data: print("closed")
elif b"OK " not in data: print("refused " + data.decode(errors="replace").strip())
elif not body: print("authenticated, then closed")
elif body[1] == 3: print("error " + body[body.find(b"org.freedesktop"):].split(b"\0")[0].decode())
else: print("reply type %d" % body[1])
EOF_PY

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl" T="$tmp"
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
state() { "\$E" --json status "\$1" 2>/dev/null | sed -n 's/.*"state":"\\([^"]*\\)".*/\\1/p'; }
wait_state() { i=0; while [ \$i -lt 200 ]; do [ "\$(state "\$1")" = "\$2" ] && return 0; sleep 0.05; i=\$((i+1)); done; return 1; }
expect() { wait_state "\$2" "\$3" && ok "\$1" || bad "\$1" "\$2 is '\$(state \$2)', expected \$3"; }

expect utmp-recorder-up systemd-update-utmp ready
expect private-socket-listening ember-private.socket ready
[ "\$(stat -c %a /run/systemd/private)" = 600 ] && ok private-socket-root-only || bad private-socket-root-only "mode \$(stat -c %a /run/systemd/private)"
# The boot record: dated at PID 1's start (ember-init's, in this namespace), seconds
# after the host's boot; a recorder that could not ask would date it at the kernel's boot.
hz=\$(getconf CLK_TCK)
pid1=\$(awk -v hz=\$hz -v up=\$(cut -d' ' -f1 /proc/uptime) -v now=\$(date +%s.%N) \
	'{ printf "%.3f", now - up + \$22 / hz }' /proc/1/stat)
rec=\$(utmpdump /var/log/wtmp 2>/dev/null | awk -F'[][]' '\$8 ~ /^reboot/ { print \$16 }' | tail -n 1)
recs=\$(date -d "\$(echo "\$rec" | tr , .)" +%s.%N 2>/dev/null)
awk -v a="\$recs" -v b="\$pid1" 'BEGIN { d = a - b; exit !(a != "" && d < 2 && d > -2) }' &&
	ok boot-record-at-pid1-start || bad boot-record-at-pid1-start "record '\$rec' (\$recs), PID 1 started \$pid1"
expect runlevel-recorder-ran systemd-update-utmp-runlevel stopped
who -r 2>/dev/null | grep -q 'run-level 3' && ok runlevel-record || bad runlevel-record "who -r: '\$(who -r 2>&1)'; \$("\$E" log systemd-update-utmp-runlevel 2>&1 | tail -n 3)"
# What a root client may ask, and a bus client's Hello, through busctl.
v=\$(busctl --address=unix:path=/run/systemd/private get-property org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager UserspaceTimestampMonotonic 2>&1)
want=\$(awk -v hz=\$hz '{ printf "%.0f", \$22 * 1000000 / hz }' /proc/1/stat)
[ "\$v" = "t \$want" ] && ok manager-start-time || bad manager-start-time "'\$v', expected 't \$want'"
v=\$(busctl --address=unix:path=/run/systemd/private get-property org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/multi_2duser_2etarget org.freedesktop.systemd1.Unit ActiveState 2>&1)
[ "\$v" = 's "active"' ] && ok unit-active-state || bad unit-active-state "\$v"

# ---- hostile
out=\$(setpriv --reuid=nobody --regid=nogroup --clear-groups python3 \$T/peer.py /run/systemd/private call 2>&1)
echo "\$out" | grep -q 'Permission denied' && ok nobody-cannot-connect || bad nobody-cannot-connect "\$out"
# The server's own check: a peer that is not root, on a socket pair made as nobody.
out=\$(setpriv --reuid=nobody --regid=nogroup --clear-groups python3 -c '
import socket, subprocess, sys
a, b = socket.socketpair()
p = subprocess.Popen([sys.argv[1], "--peer"], stdin=b, stderr=subprocess.PIPE)
b.close()
a.settimeout(5)
try:
    a.sendall(b"\0AUTH EXTERNAL\r\n"); said = a.recv(64)
except OSError:
    said = b""
print("answered" if said else "closed", p.wait(5), p.stderr.read().decode())' "$BIN/ember-activator" 2>&1)
echo "\$out" | grep -q '^closed 0 .*uid 65534 refused' && ok server-refuses-non-root-peer || bad server-refuses-non-root-peer "\$out"
out=\$(python3 \$T/peer.py /run/systemd/private startunit 2>&1)
echo "\$out" | grep -q 'error org.freedesktop.DBus.Error.UnknownMethod' && ok startunit-refused || bad startunit-refused "\$out"
sleep 0.5
[ ! -e \$T/mark/started ] && ok startunit-started-nothing || bad startunit-started-nothing "victim ran"
t0=\$(date +%s)
out=\$(python3 \$T/peer.py /run/systemd/private silent 2>&1)
t=\$((\$(date +%s) - t0))
[ "\$out" = closed ] && [ \$t -le 7 ] && ok silent-client-closed || bad silent-client-closed "'\$out' after \$t s"
out=\$(python3 \$T/peer.py /run/systemd/private garbage 2>&1)
[ "\$out" = "authenticated, then closed" ] && ok garbage-closes-connection || bad garbage-closes-connection "\$out"
v=\$(busctl --address=unix:path=/run/systemd/private call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.DBus.Peer Ping 2>&1)
[ -z "\$v" ] && ok still-answers-after-attacks || bad still-answers-after-attacks "\$v"
kill -0 1 && ok pid1-alive || bad pid1-alive gone
echo GUEST-CHECKS-DONE
"\$E" poweroff
sleep 30
EOS
chmod +x "$tmp/guest.sh"

timeout 120 unshare --pid --mount --uts --fork --mount-proc sh -c '
	mount --make-rprivate / && mount --bind "$0/log" /var/log || exit 99
	exec env container=ember-test "$1" ember.services="$0/etc/ember/services:$0/usr/lib/ember/services:$0/etc/systemd/system:$0/lib/systemd/system" ember.run="$0/guest.sh" ember.shell=none' \
	"$tmp" "$BIN/ember-init" >"$tmp/log.txt" 2>&1
rc=$?
guest_results "$tmp/log.txt" $rc
# At poweroff the recorder's ExecStop connects once more: that connection is served
# (an instance without default dependencies starts during shutdown), not closed.
sed -n '/stopping services/,$p' "$tmp/log.txt" | grep -q 'ember-private.socket: connection, starting' &&
	! grep -q 'ember-private.socket: traffic during shutdown' "$tmp/log.txt" && pass shutdown-connection-served ||
	fail shutdown-connection-served "$(grep 'ember-private' "$tmp/log.txt" | tail -n 3)"
# The shutdown record, written by the recorder's ExecStop at poweroff.
utmpdump "$tmp/log/wtmp" 2>/dev/null | grep -q '\[shutdown\]' && pass shutdown-record ||
	fail shutdown-record "$(utmpdump "$tmp/log/wtmp" 2>&1 | tail -n 3)"
[ $rc -ne 124 ] && pass pid1-powered-off || fail pid1-powered-off "ember-init still ran after 120 s"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 60 "$tmp/log.txt"; }
finish
