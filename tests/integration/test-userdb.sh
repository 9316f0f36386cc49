#!/bin/sh
# systemd's dynamic user database under ember: ember-userdb.socket (as make install lays
# it out, enabled with emberctl into sockets.target.wants/) makes ember-init listen at
# /run/systemd/userdb/io.systemd.DynamicUser and start `ember-activator --userdb` for each
# connection; Debian's own nss-systemd (passwd/group: files systemd) asks there, with
# ember-init as PID 1 of a PID+mount namespace:
#  - a running DynamicUser= service's user and group resolve by name and by id (getent),
#    for root and for nobody; its processes show their owner's name; two units of one
#    name give one entry; enumeration (getent passwd) lists them; a static user is not
#    answered for; once the service stops, its name is gone
# Hostile (a Varlink client of its own): another service name, a uid given as a string,
# a name that holds a key in its text, an unknown method, a malformed call, an oversized
# and a silent one; PID 1 lives on.
. "$(dirname "$0")/../lib.sh"
for tool in unshare python3 getent setpriv; do
	command -v $tool >/dev/null || { skip userdb "$tool missing (scripts/deps.sh installs it)"; finish; }
done
[ "$(id -u)" = 0 ] || { skip userdb "needs root (namespaces)"; finish; }
nss=$(ls /lib/*/libnss_systemd.so.2 /usr/lib/*/libnss_systemd.so.2 2>/dev/null | head -n 1)
[ -n "$nss" ] || { skip userdb "no nss-systemd (scripts/deps.sh installs libnss-systemd)"; finish; }
tmp=$(mktemp -d); chmod 0755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
OWN=$tmp/etc/ember/services EMBERLIB=$tmp/usr/lib/ember/services
mkdir -p "$OWN" "$EMBERLIB" "$tmp/inst" "$tmp/mark"
"$TOP/scripts/install.sh" "$tmp/inst" /usr /etc "$BIN" /nonexistent >/dev/null
"$BIN/emberctl" --root "$tmp/inst" -q enable ember-userdb.socket || fail enable-userdb "emberctl enable failed"
[ "$(readlink "$tmp/inst/etc/ember/services/sockets.target.wants/ember-userdb.socket")" = \
	/usr/lib/ember/services/ember-userdb.socket ] && pass enable-links-into-sockets-wants ||
	fail enable-links-into-sockets-wants "$(ls -lR "$tmp/inst/etc/ember/services" 2>&1 | tail -3)"
cp "$tmp/inst/usr/lib/ember/services/ember-userdb.socket" \
	"$tmp/inst/usr/lib/ember/services/ember-userdb@.service" "$EMBERLIB/"
sed -i "s|^ExecStart=[^ ]*|ExecStart=$BIN/ember-activator|" "$EMBERLIB/ember-userdb@.service"
mkdir -p "$OWN/sockets.target.wants" && ln -s "$EMBERLIB/ember-userdb.socket" "$OWN/sockets.target.wants/"
# two units of one dynamic user, one of another name, one whose User= is static
for u in dynweb dynweb2; do
	printf '[Service]\nDynamicUser=yes\nUser=webdyn\nExecStart=/bin/sleep 4301\n' >"$OWN/$u.service"
done
printf '[Service]\nDynamicUser=yes\nExecStart=/bin/sleep 4302\n' >"$OWN/dyncache.service"
printf '[Service]\nDynamicUser=yes\nUser=nobody\nExecStart=/bin/sleep 4303\n' >"$OWN/dynnobody.service"
printf 'passwd: files systemd\ngroup: files systemd\n' >"$tmp/nsswitch.conf"

cp "$TOP/tests/varlink_msg.py" "$tmp/"
cat >"$tmp/client.py" <<'EOF_PY'
# A Varlink client of the dynamic user database: each call on its own connection,
# printed as "NAME: REPLY" (or closed, timeout).
import time
from varlink_msg import connect, message
PATH = "/run/systemd/userdb/io.systemd.DynamicUser"
def call(data, wait=10):
    s = connect(PATH, wait)
    try:
        s.sendall(data)
    except OSError:
        pass
    return message(s)
U = b'{"method":"io.systemd.UserDatabase.GetUserRecord","parameters":%s}\0'
print("badservice:", call(U % b'{"userName":"webdyn","service":"io.systemd.Multiplexer"}'))
print("stringuid:", call(U % b'{"uid":"61184","service":"io.systemd.DynamicUser"}'))
print("keyintext:", call(U % b'{"userName":"x\\",\\"uid\\":0,\\"","service":"io.systemd.DynamicUser"}'))
print("unknown:", call(b'{"method":"io.systemd.UserDatabase.Nope","parameters":{}}\0'))
print("malformed:", call(b'{"method":"io.systemd.UserDatabase.GetUserRecord",}\0'))
print("oversized:", call(b"{" + b"x" * 6000))
t = time.time(); r = call(b"", 12); print("silent:", r, round(time.time() - t))
print("memberships:", call(b'{"method":"io.systemd.UserDatabase.GetMemberships","parameters":{"service":"io.systemd.DynamicUser"}}\0'))
EOF_PY

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E=$BIN/emberctl
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
mount --bind $tmp/nsswitch.conf /etc/nsswitch.conf
for u in dynweb dynweb2 dyncache dynnobody; do "\$E" start \$u; done
uid=\$("\$E" show -p MainPID --value dynweb)
id=\$(stat -c %u /proc/\$uid)
line=\$(getent passwd webdyn)
echo "\$line" | grep -Eq "^webdyn:[^:]*:\$id:\$id:Dynamic User:/:/usr/sbin/nologin\\\$" && [ "\$id" -ge 61184 ] &&
	ok user-by-name || bad user-by-name "'\$line' (uid \$id)"
[ "\$(getent passwd \$id | cut -d: -f1)" = webdyn ] && ok user-by-id || bad user-by-id "'\$(getent passwd \$id)'"
[ "\$(getent group webdyn)" = "webdyn:x:\$id:" ] || [ "\$(getent group webdyn | cut -d: -f1,3)" = "webdyn:\$id" ] &&
	ok group-by-name || bad group-by-name "'\$(getent group webdyn)'"
[ "\$(getent group \$id | cut -d: -f1)" = webdyn ] && ok group-by-id || bad group-by-id "'\$(getent group \$id)'"
[ "\$(setpriv --reuid 65534 --regid 65534 --clear-groups getent passwd \$id | cut -d: -f1)" = webdyn ] &&
	ok nobody-resolves || bad nobody-resolves "'\$(setpriv --reuid 65534 --regid 65534 --clear-groups getent passwd \$id 2>&1)'"
[ "\$(stat -c %U /proc/\$uid)" = webdyn ] && ok process-owner-named || bad process-owner-named "\$(stat -c %U /proc/\$uid)"
[ "\$(getent passwd dyncache | cut -d: -f1)" = dyncache ] && ok second-user || bad second-user "'\$(getent passwd dyncache)'"
all=\$(getent passwd)
[ "\$(echo "\$all" | grep -c '^webdyn:')" = 1 ] && echo "\$all" | grep -q '^dyncache:' && echo "\$all" | grep -q '^root:' &&
	ok enumeration-lists-each-once || bad enumeration-lists-each-once "\$(echo "\$all" | grep -E 'webdyn|dyncache' | tr '\n' ' ')"
[ "\$(echo "\$all" | grep -c '^nobody:')" = 1 ] && ok static-user-not-answered || bad static-user-not-answered "\$(echo "\$all" | grep nobody)"
out=\$(python3 $tmp/client.py 2>&1)
echo "\$out" | grep -q '^badservice: {"error":"io.systemd.UserDatabase.BadService"' && ok bad-service-refused || bad bad-service-refused "\$out"
echo "\$out" | grep -q '^stringuid: {"error":"org.varlink.service.InvalidParameter","parameters":{"parameter":"uid"}}' &&
	ok string-uid-refused || bad string-uid-refused "\$out"
echo "\$out" | grep -q '^keyintext: {"error":"io.systemd.UserDatabase.NoRecordFound"' && ok key-in-text-not-read || bad key-in-text-not-read "\$out"
echo "\$out" | grep -q '^unknown: {"error":"org.varlink.service.MethodNotFound"' && ok unknown-method-refused || bad unknown-method-refused "\$out"
echo "\$out" | grep -q '^malformed: closed' && ok malformed-call-closed || bad malformed-call-closed "\$out"
echo "\$out" | grep -q '^oversized: closed' && ok oversized-call-closed || bad oversized-call-closed "\$out"
s=\$(echo "\$out" | sed -n 's/^silent: closed \([0-9]*\)\$/\1/p')
[ -n "\$s" ] && [ "\$s" -ge 4 ] && [ "\$s" -le 8 ] && ok silent-client-closed || bad silent-client-closed "\$out"
echo "\$out" | grep -q '^memberships: {"error":"io.systemd.UserDatabase.NoRecordFound"' && ok no-memberships || bad no-memberships "\$out"
"\$E" stop dyncache
[ -z "\$(getent passwd dyncache)" ] && ok stopped-user-gone || bad stopped-user-gone "'\$(getent passwd dyncache)'"
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
