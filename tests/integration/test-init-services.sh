#!/bin/sh
# ember-init supervising real services as PID 1 of a PID+mount namespace, driven through
# emberctl: ordering, parallel start, readiness, restarts with backoff, failure of bad
# files and broken requirements, cycles, stop of a forking service whose children ignore
# SIGTERM, output capture under flooding, permissions and hostile control messages.
. "$(dirname "$0")/../lib.sh"
H=$HELPERS
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/services" "$tmp/mark"
for f in "$TOP"/tests/integration/services/*.service; do
	sed "s|@MARK@|$tmp/mark|g; s|@NOTIFY@|$H/notify-send|g" "$f" >"$tmp/services/$(basename "$f")"
done
# Not there at boot: the guest adds it and reloads.
mv "$tmp/services/waiter.service" "$tmp/waiter.service"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
state() { "\$E" --json status "\$1" | sed -n 's/.*"state":"\\([^"]*\\)".*/\\1/p'; }
wait_state() { # NAME STATE...: wait up to 15 s for one of the states
	i=0
	while [ \$i -lt 300 ]; do
		s=\$(state "\$1"); for want in \$2; do [ "\$s" = "\$want" ] && return 0; done
		sleep 0.05; i=\$((i+1))
	done
	return 1
}
expect() { wait_state "\$2" "\$3" && ok "\$1" || bad "\$1" "\$2 is \$(state \$2), expected \$3"; }

expect ordering-after-oneshot ordered ready
"\$E" log ordered | grep -q ordered-ok && ok log-captured || bad log-captured "no ordered-ok in log"
expect parallel-start-1 par1 ready
expect parallel-start-2 par2 ready
expect notify-ready notifier ready
"\$E" status notifier | grep -q 'serving' && ok notify-status-text || bad notify-status-text "\$("\$E" status notifier)"
expect invalid-file-reported broken invalid
expect requires-invalid-fails needs-broken "invalid failed"
# As systemd: the cycle loses one ordering edge (logged), both start.
expect cycle-broken-a-starts cyc-a ready
expect cycle-broken-b-starts cyc-b ready
expect crasher-given-up crasher permanent-failure
r=\$("\$E" --json status crasher | sed -n 's/.*"restarts":\\([0-9]*\\).*/\\1/p')
[ "\$r" -ge 3 ] && ok restarted-before-giving-up || bad restarted-before-giving-up "restarts=\$r"

# A service added while running: reload reports it and starts it.
cp "$tmp/waiter.service" "$tmp/services/waiter.service"
"\$E" reload | grep -q 'added waiter' && ok reload-reports-added || bad reload-reports-added "no 'added waiter'"
expect reload-starts-new-service waiter running
NOTIFY_SOCKET=/run/ember/notify "$H/notify-send" READY=1
sleep 0.3
[ "\$(state waiter)" = running ] && ok notify-from-outsider-ignored || bad notify-from-outsider-ignored "waiter is \$(state waiter)"
"\$E" stop waiter

expect privdrop-runs privdrop ready
sleep 0.3
plog=\$("\$E" log privdrop)
echo "\$plog" | grep -q '^uid=65534 umask=0027 nofile=77 nice=5 cwd=/tmp greeting=hello world$' && ok exec-context-applied || bad exec-context-applied "\$plog"
echo "\$plog" | grep -q '^CapAmb:[[:space:]]*0000000000000400$' && ok ambient-capability || bad ambient-capability "\$plog"
echo "\$plog" | grep -q '^CapBnd:[[:space:]]*0000000000002400$' && ok bounding-set || bad bounding-set "\$plog"
echo "\$plog" | grep -q '^NoNewPrivs:[[:space:]]*1$' && ok no-new-privs || bad no-new-privs "\$plog"
expect unknown-user-fails baduser failed
[ ! -e "$tmp/mark/baduser-ran" ] && ok unknown-user-runs-nothing || bad unknown-user-runs-nothing "command ran"
"\$E" status baduser | grep -q 'no-such-user-ember' && ok unknown-user-says-why || bad unknown-user-says-why "\$("\$E" status baduser)"
expect chatty-running chatty ready
i=0; while ! "\$E" log chatty | grep -q chatty-done && [ \$i -lt 300 ]; do sleep 0.05; i=\$((i+1)); done
n=\$("\$E" log chatty | wc -c)
[ "\$n" -le 9000 ] && "\$E" log chatty | tail -n 1 | grep -q chatty-done && ok flood-bounded || bad flood-bounded "\$n bytes"

expect kmsg-in-container-running kmsgbox ready
i=0; while ! "\$E" log kmsgbox | grep -q ember-kmsgbox-err && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
"\$E" log kmsgbox | grep -q '^ember-kmsgbox-line\$' && "\$E" log kmsgbox | grep -q '^ember-kmsgbox-err\$' &&
	ok kmsg-in-container-kept-in-log || bad kmsg-in-container-kept-in-log "\$("\$E" log kmsgbox)"

expect stubborn-up stubborn ready
"\$E" stop stubborn; rc=\$?
[ \$rc = 0 ] && ok stop-request || bad stop-request "rc \$rc"
expect stubborn-stopped stubborn stopped
pgrep -f 'sleep 4242' >/dev/null && bad stubborn-children-killed "children survived" || ok stubborn-children-killed

"\$E" restart ordered && expect restart-works ordered ready

"\$E" status nosuch >/dev/null 2>&1; [ \$? = 4 ] && ok unknown-service-4 || bad unknown-service-4 "wrong code"
if command -v setpriv >/dev/null; then
	setpriv --reuid 65534 --regid 65534 --clear-groups "\$E" stop ordered >/dev/null 2>&1 && bad non-root-refused "stop worked" || ok non-root-refused
	setpriv --reuid 65534 --regid 65534 --clear-groups "\$E" list >/dev/null 2>&1 && ok non-root-may-read || bad non-root-may-read "list refused"
fi
# Hostile control clients: garbage, oversized, silence. PID 1 must answer the next one.
python3 - <<'PY'
import socket, time
def conn():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.connect("/run/ember/control")
    return s
for payload in [b"\x00\xff garbage", b"A" * 100000, b"status ../../etc", b"list extra junk", b""]:
    try:
        s = conn(); s.send(payload); s.settimeout(2); s.recv(4096); s.close()
    except Exception:
        pass
idle = [conn() for _ in range(12)]
time.sleep(0.2)
PY
"\$E" list >/dev/null && ok survives-hostile-clients || bad survives-hostile-clients "list failed"
kill -0 1 && ok pid1-alive || bad pid1-alive "gone"
exit 0
EOS
chmod +x "$tmp/guest.sh"
timeout 120 unshare --pid --mount --uts --fork --mount-proc \
	env container=ember-test "$BIN/ember-init" ember.services="$tmp/services" \
	ember.run="$tmp/guest.sh" ember.shell=none >"$tmp/log" 2>&1
rc=$?
grep -E '^(PASS|FAIL|SKIP) ' "$tmp/log"
grep -q '^FAIL ' "$tmp/log" && FAILED=1
grep -q '^EMBER-RUN-EXIT=0$' "$tmp/log" && pass guest-completed || fail guest-completed "rc $rc; $(tail -5 "$tmp/log" | tr '\n' ' ')"
grep -q 'ordering cycle' "$tmp/log" && pass cycle-named-in-log || fail cycle-named-in-log "no 'ordering cycle' line"
grep -q 'broken.service:2' "$tmp/log" && pass bad-file-names-file-and-line || fail bad-file-names-file-and-line "no file:line"
# A container's kernel log is the host's: StandardOutput=kmsg must not write into it.
dmesg | grep -q ember-kmsgbox && fail kmsg-in-container-not-in-host-log "found in the host's dmesg" ||
	pass kmsg-in-container-not-in-host-log
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 60 "$tmp/log"; }
finish
