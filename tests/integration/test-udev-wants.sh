#!/bin/sh
# ember-udev-wants (ember-udev-wants(8)) with the real ember-init as PID 1 of a
# PID+mount+network namespace, its unit as make install lays it out, enabled with
# emberctl: a device in udev's database tagged "systemd" gets its SYSTEMD_WANTS= started
# at once (coldplug); an event in udev's format on udev's netlink group, sent by root,
# starts what it names; a "change" event repeating the list asks for nothing more, a new
# list starts its new unit, a removed device that comes back starts again, a target with
# StopWhenUnneeded=yes stays up (the device wants it, as bluetooth.target) while a
# device in udev's database wants it, and stops once the last one is removed. Hostile
# senders and messages: a non-root sender, the kernel's format, a wrong magic,
# properties outside the datagram, a word that is not a unit name (its control bytes
# escaped in the log), and a flood of 300 repeats all start nothing and leave it
# serving. The network namespace keeps every message made here away from the host's
# own udev listeners.
. "$(dirname "$0")/../lib.sh"
for tool in unshare setpriv python3; do
	command -v $tool >/dev/null || { skip udev-wants "$tool missing (scripts/deps.sh installs it)"; finish; }
done
[ "$(id -u)" = 0 ] || { skip udev-wants "needs root (namespaces, udev's netlink group)"; finish; }

tmp=$(mktemp -d); chmod 0755 "$tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
OWN=$tmp/etc/ember/services
mkdir -p "$OWN" "$tmp/inst" "$tmp/udev/data" "$tmp/udev/tags/systemd" "$tmp/mark"
"$TOP/scripts/install.sh" "$tmp/inst" /usr /etc "$BIN" /nonexistent >/dev/null
"$BIN/emberctl" --root "$tmp/inst" -q enable ember-udev-wants || fail enable-udev-wants "emberctl enable failed"
[ "$(readlink "$tmp/inst/etc/ember/services/systemd-udevd.service.wants/ember-udev-wants.service")" = \
	/usr/lib/ember/services/ember-udev-wants.service ] && pass enable-links-into-udevd-wants ||
	fail enable-links-into-udevd-wants "$(ls -l "$tmp/inst/etc/ember/services/systemd-udevd.service.wants" 2>&1)"
sed "s|^ExecStart=.*|ExecStart=$BIN/ember-udev-wants --udev-dir $tmp/udev|" \
	"$tmp/inst/usr/lib/ember/services/ember-udev-wants.service" >"$OWN/ember-udev-wants.service"
# A stand-in for udevd (started at boot: no [Install]) and the enablement link, as in the
# test's one directory.
printf '[Service]\nExecStart=/bin/sleep 1000\n' >"$OWN/systemd-udevd.service"
mkdir -p "$OWN/systemd-udevd.service.wants"
ln -s ../ember-udev-wants.service "$OWN/systemd-udevd.service.wants/"
# Units a device may ask for: each marks its start. Not enabled (an [Install] section
# that nothing acted on): started only when asked for by name.
for u in coldplug wanted second again evil; do
	printf '[Service]\nExecStart=/bin/sh -c "echo x >>%s/mark/%s; exec sleep 1000"\n[Install]\nWantedBy=multi-user.target\n' \
		"$tmp" "$u" >"$OWN/$u.service"
done
# A target with StopWhenUnneeded=yes, as Debian's bluetooth.target: the device's want
# keeps it up.
printf '[Unit]\nStopWhenUnneeded=yes\n[Install]\nWantedBy=multi-user.target\n' >"$OWN/needed.target"
# udev's database: one device processed before ember-udev-wants listened.
: >"$tmp/udev/tags/systemd/+test:dev0"
printf 'I:1\nE:SYSTEMD_WANTS=coldplug.service\nG:systemd\nQ:systemd\nV:1\n' >"$tmp/udev/data/+test:dev0"

# send.py KIND [ARGS]: one datagram on udev's netlink group (2), as udevd frames it.
cat >"$tmp/send.py" <<'EOPY'
import socket, struct, sys
def udev(props, magic=0xfeedcafe, off=None, plen=None):
    body = b"".join(p.encode() + b"\0" for p in props)
    # the magic in network order, the rest in the host's
    hdr = struct.pack("8s", b"libudev") + struct.pack("!I", magic) + struct.pack(
        "=IIIIIII", 40, 40 if off is None else off, len(body) if plen is None else plen, 0, 0, 0, 0)
    return hdr + body
def dev(action, wants, path="/devices/test/dev1"):
    return udev(["ACTION=" + action, "DEVPATH=" + path, "SUBSYSTEM=test", "TAGS=:systemd:",
                 "CURRENT_TAGS=:systemd:", "SYSTEMD_WANTS=" + wants])
kind, rest = sys.argv[1], sys.argv[2:]
msgs = {"add": lambda: [dev("add", rest[0])],
        "change": lambda: [dev("change", rest[0])],
        "remove": lambda: [udev(["ACTION=remove", "DEVPATH=" + (rest[0] if rest else "/devices/test/dev1"),
                                 "TAGS=:systemd:", "CURRENT_TAGS=:systemd:"] +
                                (["SYSTEMD_WANTS=" + rest[1]] if len(rest) > 1 else []))],
        "flood": lambda: [dev("change", rest[0])] * 300,
        "kernel": lambda: [b"add@/devices/test/k\0ACTION=add\0DEVPATH=/devices/test/k\0TAGS=:systemd:\0SYSTEMD_WANTS=evil.service\0"],
        "magic": lambda: [udev(["ACTION=add", "DEVPATH=/devices/test/m", "TAGS=:systemd:", "SYSTEMD_WANTS=evil.service"], magic=0xdeadbeef)],
        "outside": lambda: [udev(["ACTION=add", "DEVPATH=/devices/test/o", "TAGS=:systemd:", "SYSTEMD_WANTS=evil.service"], plen=100000)],
        "target": lambda: [dev("add", "needed.target", "/devices/test/bt")],
        "badword": lambda: [dev("add", "../../evil \x1b]0;owned\x07", "/devices/test/bad")]}[kind]()
s = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, 15)  # NETLINK_KOBJECT_UEVENT
try:
    for m in msgs:
        s.sendto(m, (0, 2))
    print("sent")
except OSError as e:
    print("refused:", e.strerror)
EOPY

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
M=$tmp/mark
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
marks() { [ -f "\$M/\$1" ] && wc -l <"\$M/\$1" | tr -d ' ' || echo 0; }
wait_mark() { i=0; while [ "\$(marks "\$1")" -lt "\$2" ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done; }
send() { python3 $tmp/send.py "\$@"; }
i=0; while ! "\$E" is-active ember-udev-wants >/dev/null 2>&1 && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
sleep 0.3
wait_mark coldplug 1
[ "\$(marks coldplug)" = 1 ] && ok database-device-started || bad database-device-started "\$(marks coldplug) starts"
send add wanted.service >/dev/null
wait_mark wanted 1
[ "\$(marks wanted)" = 1 ] && "\$E" is-active wanted >/dev/null && ok event-starts-wanted-unit || bad event-starts-wanted-unit "\$(marks wanted) starts"
send change wanted.service >/dev/null; sleep 0.3
"\$E" stop wanted >/dev/null
send flood wanted.service >/dev/null; sleep 1
[ "\$(marks wanted)" = 1 ] && ok same-list-not-asked-again || bad same-list-not-asked-again "\$(marks wanted) starts"
[ "\$("\$E" log ember-udev-wants | grep -c 'starting wanted')" = 1 ] && ok flood-one-request ||
	bad flood-one-request "\$("\$E" log ember-udev-wants | grep -c 'starting wanted') requests"
send change "wanted.service second.service" >/dev/null
wait_mark second 1
[ "\$(marks second)" = 1 ] && ok new-list-starts-new-unit || bad new-list-starts-new-unit "\$(marks second) starts"
send target >/dev/null; sleep 1.5
"\$E" is-active needed.target >/dev/null && ok unneeded-target-held || bad unneeded-target-held "needed.target is \$("\$E" is-active needed.target)"
# A device goes: what another device in udev's database still wants stays (bt2, there
# now); once the last one goes, the target is released and stops, unneeded, as systemd's
# device unit lets it go. A plain service a removed device wanted only loses the hold.
: >$tmp/udev/tags/systemd/+test:bt2
printf 'I:1\nE:SYSTEMD_WANTS=needed.target\nG:systemd\nQ:systemd\nV:1\n' >$tmp/udev/data/+test:bt2
send remove /devices/test/bt needed.target >/dev/null; sleep 1
"\$E" is-active needed.target >/dev/null && "\$E" log ember-udev-wants | grep -q 'still wanted by another device' &&
	ok target-kept-for-other-device || bad target-kept-for-other-device "needed.target is \$("\$E" is-active needed.target)"
rm $tmp/udev/tags/systemd/+test:bt2 $tmp/udev/data/+test:bt2
send remove /devices/test/bt2 needed.target >/dev/null
i=0; while "\$E" is-active needed.target >/dev/null && [ \$i -lt 40 ]; do sleep 0.05; i=\$((i+1)); done
"\$E" is-active needed.target >/dev/null && bad released-target-stops "needed.target is \$("\$E" is-active needed.target)" ||
	ok released-target-stops
send remove /devices/test/dev1 "wanted.service second.service" >/dev/null; sleep 0.5
"\$E" is-active second >/dev/null && "\$E" log ember-udev-wants | grep -q 'gone, releasing second$' &&
	ok release-stops-no-service || bad release-stops-no-service "second is \$("\$E" is-active second); \$("\$E" log ember-udev-wants | tail -n 4 | tr "\\n" " ")"
send add again.service >/dev/null
wait_mark again 1
[ "\$(marks again)" = 1 ] && ok device-back-starts-again || bad device-back-starts-again "\$(marks again) starts"
# hostile: nobody may not send on the group (the kernel refuses it; ember-udev-wants
# would drop a non-root sender anyway), and root's malformed messages start nothing
out=\$(setpriv --reuid=nobody --regid=nogroup --clear-groups python3 $tmp/send.py add evil.service 2>&1)
case \$out in refused*) ok nonroot-cannot-send ;; *) bad nonroot-cannot-send "\$out" ;; esac
for k in kernel magic outside badword; do send \$k >/dev/null; done
sleep 0.5
[ "\$(marks evil)" = 0 ] && ok hostile-messages-start-nothing || bad hostile-messages-start-nothing "evil started \$(marks evil) times"
"\$E" log ember-udev-wants | grep -q 'a udev event refused: not udev' && ok wrong-format-logged || bad wrong-format-logged "\$("\$E" log ember-udev-wants | tail -n 3 | tr '\n' ' ')"
"\$E" log ember-udev-wants | grep -q 'a udev event refused: properties at' && ok outside-properties-logged || bad outside-properties-logged "\$("\$E" log ember-udev-wants | tail -n 3 | tr '\n' ' ')"
"\$E" log ember-udev-wants | grep -q 'is not a unit name' && ! "\$E" log ember-udev-wants | grep -q "\$(printf '\033')" &&
	ok bad-word-logged-escaped || bad bad-word-logged-escaped "\$("\$E" log ember-udev-wants | grep 'unit name' | head -n 2)"
send add evil.service >/dev/null 2>&1 # a well-formed one still works after all that
wait_mark evil 1
"\$E" is-active ember-udev-wants >/dev/null && [ "\$(marks evil)" = 1 ] && ok still-serving || bad still-serving "\$("\$E" status ember-udev-wants 2>&1 | head -n 3)"
echo GUEST-CHECKS-DONE
"\$E" poweroff
sleep 30
EOS
chmod +x "$tmp/guest.sh"

timeout 120 unshare --pid --mount --uts --net --fork --mount-proc sh -c '
	mount --make-rprivate / || exit 99
	exec env container=ember-test "$1" ember.services="$0/etc/ember/services" ember.run="$0/guest.sh" ember.shell=none' \
	"$tmp" "$BIN/ember-init" >"$tmp/log.txt" 2>&1
rc=$?
guest_results "$tmp/log.txt" $rc
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 60 "$tmp/log.txt"; }
finish
