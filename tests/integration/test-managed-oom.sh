#!/bin/sh
# systemd's io.systemd.ManagedOOM Varlink service under ember: ember-managed-oom.socket
# (as make install lays it out, enabled with emberctl into systemd-oomd.service.wants/)
# makes ember-init listen at /run/systemd/io.system.ManagedOOM and start
# `ember-activator --managed-oom` for each connection. systemd-oomd subscribes there at
# its start and fails when nothing answers (Debian's systemd-oomd restarted for good
# under ember). The real oomd needs a unified cgroup2 host, which this one is not: a
# stand-in systemd-oomd.service speaks its side of the protocol, with ember-init as PID 1
# of a PID+mount namespace:
#  - a subscription ("more": true) gets no control group, "continues": true, and is held
#    open while oomd runs (its instance runs; it ends when oomd stops)
#  - a call without "more" gets one reply and the connection closes
# Hostile: a peer that is not systemd-oomd.service's main process (another unit, a
# process outside any unit) is refused; from oomd itself, an unknown method is refused,
# a request over the size limit and a silent client are closed; PID 1 lives on.
. "$(dirname "$0")/../lib.sh"
for tool in unshare python3; do
	command -v $tool >/dev/null || { skip managed-oom "$tool missing (scripts/deps.sh installs it)"; finish; }
done
[ "$(id -u)" = 0 ] || { skip managed-oom "needs root (namespaces)"; finish; }
tmp=$(mktemp -d); chmod 0755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
OWN=$tmp/etc/ember/services EMBERLIB=$tmp/usr/lib/ember/services
mkdir -p "$OWN" "$EMBERLIB" "$tmp/inst" "$tmp/mark"
"$TOP/scripts/install.sh" "$tmp/inst" /usr /etc "$BIN" /nonexistent >/dev/null
"$BIN/emberctl" --root "$tmp/inst" -q enable ember-managed-oom.socket || fail enable-managed-oom "emberctl enable failed"
[ "$(readlink "$tmp/inst/etc/ember/services/systemd-oomd.service.wants/ember-managed-oom.socket")" = \
	/usr/lib/ember/services/ember-managed-oom.socket ] && pass enable-links-into-oomd-wants ||
	fail enable-links-into-oomd-wants "$(ls -lR "$tmp/inst/etc/ember/services" 2>&1 | tail -3)"
cp "$tmp/inst/usr/lib/ember/services/ember-managed-oom.socket" \
	"$tmp/inst/usr/lib/ember/services/ember-managed-oom@.service" "$EMBERLIB/"
sed -i "s|^ExecStart=[^ ]*|ExecStart=$BIN/ember-activator|" "$EMBERLIB/ember-managed-oom@.service"
mkdir -p "$OWN/systemd-oomd.service.wants" &&
	ln -s "$EMBERLIB/ember-managed-oom.socket" "$OWN/systemd-oomd.service.wants/"

cp "$TOP/tests/varlink_msg.py" "$tmp/"
cat >"$tmp/oomd.py" <<'EOF_PY'
# systemd-oomd's side of io.systemd.ManagedOOM, and hostile variants of it.
# argv: mode (oomd, intruder), result file.
import json, sys, time
from varlink_msg import connect, message
PATH = "/run/systemd/io.system.ManagedOOM"
SUB = b'{"method":"io.systemd.ManagedOOM.SubscribeManagedOOMCGroups","more":true}\0'
def conn():
    return connect(PATH)
res = {}
if sys.argv[1].startswith("intruder"):
    s = conn()
    if sys.argv[1] == "intruder-slow":  # the answer waits for the request
        time.sleep(0.5)
    s.sendall(SUB); res["sub"] = message(s)
    json.dump(res, open(sys.argv[2], "w"))
    sys.exit(0)
s = conn(); s.sendall(b'{"method":"io.systemd.ManagedOOM.Nope","more":true}\0')
res["wrong"] = message(s); s.close()
s = conn()
try:
    s.sendall(b"{" + b"x" * 6000)
except OSError:
    pass
res["oversized"] = message(s); s.close()
s = conn(); t = time.time(); res["silent"] = message(s); res["silent_s"] = round(time.time() - t); s.close()
s = conn(); s.sendall(b'{"method":"io.systemd.ManagedOOM.SubscribeManagedOOMCGroups"}\0')
res["once"] = message(s); res["once_then"] = message(s); s.close()
s = conn(); s.sendall(SUB); res["sub"] = message(s)
json.dump(res, open(sys.argv[2], "w"))
time.sleep(1000)
EOF_PY
printf '[Unit]\nDescription=systemd-oomd stand-in\n[Service]\nExecStart=/usr/bin/python3 %s/oomd.py oomd %s/mark/oomd.json\n' \
	"$tmp" "$tmp" >"$OWN/systemd-oomd.service"
printf '[Service]\nType=oneshot\nExecStart=/usr/bin/python3 %s/oomd.py %%N %s/mark/%%N.json\n' \
	"$tmp" "$tmp" >"$OWN/intruder.service"
cp "$OWN/intruder.service" "$OWN/intruder-slow.service"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E=$BIN/emberctl M=$tmp/mark
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2], "absent"))' "\$1" "\$2" 2>/dev/null; }
"\$E" start systemd-oomd
i=0; while [ ! -s \$M/oomd.json ] && [ \$i -lt 300 ]; do sleep 0.1; i=\$((i+1)); done
[ -s \$M/oomd.json ] && ok oomd-stand-in-done || bad oomd-stand-in-done "no result from the stand-in"
[ "\$(field \$M/oomd.json sub)" = '{"parameters":{"cgroups":[]},"continues":true}' ] &&
	ok subscription-answered || bad subscription-answered "\$(field \$M/oomd.json sub)"
[ "\$(field \$M/oomd.json once)" = '{"parameters":{"cgroups":[]}}' ] && [ "\$(field \$M/oomd.json once_then)" = closed ] &&
	ok call-without-more-answered-once || bad call-without-more-answered-once "\$(cat \$M/oomd.json)"
field \$M/oomd.json wrong | grep -q '"error":"org.varlink.service.MethodNotFound"' &&
	ok unknown-method-refused || bad unknown-method-refused "\$(field \$M/oomd.json wrong)"
[ "\$(field \$M/oomd.json oversized)" = closed ] && ok oversized-request-closed || bad oversized-request-closed "\$(field \$M/oomd.json oversized)"
s=\$(field \$M/oomd.json silent_s)
[ "\$(field \$M/oomd.json silent)" = closed ] && [ "\$s" -ge 4 ] && [ "\$s" -le 8 ] &&
	ok silent-client-closed || bad silent-client-closed "\$(field \$M/oomd.json silent) after \$s s"
sleep 0.5
"\$E" list | grep -Eq '^ember-managed-oom@[^ ]* +(running|ready)' && ok subscription-held ||
	bad subscription-held "\$("\$E" list | grep managed-oom)"
for u in intruder intruder-slow; do
	rm -f \$M/\$u.json; "\$E" start \$u
	[ -s \$M/\$u.json ] && field \$M/\$u.json sub | grep -q '"error":"org.varlink.service.PermissionDenied"' &&
		ok other-unit-refused-\$u || bad other-unit-refused-\$u "\$(cat \$M/\$u.json 2>&1)"
done
r=\$(python3 -c '
import socket
s = socket.socket(socket.AF_UNIX); s.connect("/run/systemd/io.system.ManagedOOM"); s.settimeout(10)
s.sendall(b"{\"method\":\"io.systemd.ManagedOOM.SubscribeManagedOOMCGroups\",\"more\":true}\0")
print(s.recv(4096).decode().rstrip("\0"))' 2>&1)
echo "\$r" | grep -q '"error":"org.varlink.service.PermissionDenied"' && ok process-outside-units-refused ||
	bad process-outside-units-refused "\$r"
"\$E" stop systemd-oomd
i=0; while "\$E" list | grep -Eq '^ember-managed-oom@[^ ]* +(running|ready)' && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i+1)); done
"\$E" list | grep -Eq '^ember-managed-oom@[^ ]* +(running|ready)' && bad subscription-ends-with-oomd "\$("\$E" list | grep managed-oom)" ||
	ok subscription-ends-with-oomd
kill -0 1 && ok pid1-alive || bad pid1-alive gone
echo GUEST-CHECKS-DONE
EOS
chmod +x "$tmp/guest.sh"
timeout 120 unshare --pid --mount --uts --fork --mount-proc \
	env container=ember-test "$BIN/ember-init" ember.services="$OWN:$EMBERLIB" \
	ember.run="$tmp/guest.sh" ember.shell=none >"$tmp/log.txt" 2>&1
guest_results "$tmp/log.txt" $?
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 60 "$tmp/log.txt"; }
finish
