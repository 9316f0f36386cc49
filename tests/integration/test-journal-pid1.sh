#!/bin/sh
# ember-init's own log lines reach journald while it runs, over its native protocol, as
# systemd's PID 1 sends its own (journal-log.h): Debian's systemd-journald runs as a
# service of ember-init (PID 1 of a PID+mount+net namespace). A line about a unit carries
# UNIT= and that run's INVOCATION_ID=, so `journalctl -u NAME` shows it. While journald
# is stopped nothing is sent to its socket, whoever holds it; a journald that reads
# nothing never holds PID 1 up.
. "$(dirname "$0")/../lib.sh"
need_journald journal-pid1
J=$TOP/tests/integration/journal
mkdir -p "$tmp/services"
cp "$TOP"/tests/integration/journal-pid1/*.service "$tmp/services/"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
J="$J"
. "$J/guest-lib.sh"

# ---- a line about a unit: from PID 1, as ember-init, with the unit and its run
wait_entry "pinger: started" && ok pid1-line-in-journal || bad pid1-line-in-journal "no entry; \$(journalctl --no-pager -q -n 5 2>&1 | tr '\n' ' ')"
e=\$(entry "pinger: started" | head -n 1)
echo "\$e" | grep -q "_PID=1 " && echo "\$e" | grep -q "SYSLOG_IDENTIFIER=ember-init " && echo "\$e" | grep -q "_TRANSPORT=journal " &&
	ok pid1-line-sender || bad pid1-line-sender "\$e"
echo "\$e" | grep -q "PRIORITY=6 " && echo "\$e" | grep -q "SYSLOG_FACILITY=3 " && ok pid1-line-priority || bad pid1-line-priority "\$e"
id=\$(cat /run/pinger.id 2>/dev/null)
echo "\$e" | grep -q "UNIT=pinger.service " && [ -n "\$id" ] && echo "\$e" | grep -q "INVOCATION_ID=\$id\\\$" &&
	ok pid1-line-unit-and-invocation || bad pid1-line-unit-and-invocation "invocation '\$id': \$e"
journalctl -u pinger --no-pager -q -o cat | grep -q "^pinger: started" && ok journalctl-u-shows-pid1-line ||
	bad journalctl-u-shows-pid1-line "\$(journalctl -u pinger --no-pager -q -o cat | tr '\n' ' ')"
# ---- a line about no unit has no UNIT=
wait_entry "ready: boot took"
e=\$(entry "ready: boot took" | head -n 1)
[ -n "\$e" ] && echo "\$e" | grep -q "UNIT= " && ok other-line-no-unit || bad other-line-no-unit "\$e"

# ---- journald stopped: nothing goes to its socket, even with someone else holding it
"\$E" stop systemd-journald >/dev/null 2>&1
wait_state systemd-journald stopped
rm -f /run/systemd/journal/socket
python3 -c '
import socket, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind("/run/systemd/journal/socket"); s.settimeout(0.2)
open("/run/holder-ready", "w").close()
got, end = 0, time.time() + 4
while time.time() < end:
    try: got += b"cycler" in s.recv(65536)
    except socket.timeout: pass
open("/run/holder-got", "w").write(str(got))' &
holder=\$!
i=0; while [ ! -e /run/holder-ready ] && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i+1)); done
"\$E" start cycler >/dev/null 2>&1; "\$E" stop cycler >/dev/null 2>&1
wait \$holder
[ "\$(cat /run/holder-got 2>/dev/null)" = 0 ] && ok nothing-sent-while-journald-stopped ||
	bad nothing-sent-while-journald-stopped "\$(cat /run/holder-got 2>/dev/null) datagrams about cycler"
rm -f /run/systemd/journal/socket

# ---- journald back: so are PID 1's lines
"\$E" start systemd-journald >/dev/null 2>&1
wait_state systemd-journald ready
"\$E" start cycler >/dev/null 2>&1
wait_entry "cycler: started" && ok pid1-lines-after-journald-restart || bad pid1-lines-after-journald-restart "state \$(state systemd-journald)"
"\$E" stop cycler >/dev/null 2>&1

# ---- hostile: journald stopped in its tracks with a short queue (this namespace's
# max_dgram_qlen): PID 1 does not wait for it; every command returns.
echo 4 >/proc/sys/net/unix/max_dgram_qlen
"\$E" restart systemd-journald >/dev/null 2>&1
wait_state systemd-journald ready
jp=\$(main_pid systemd-journald)
kill -STOP "\$jp"
t0=\$(date +%s); stuck=0; n=0
while [ \$n -lt 10 ]; do
	timeout 10 "\$E" start cycler >/dev/null 2>&1 || stuck=\$((stuck+1))
	timeout 10 "\$E" stop cycler >/dev/null 2>&1 || stuck=\$((stuck+1))
	n=\$((n+1))
done
t1=\$(date +%s)
kill -CONT "\$jp"
[ \$stuck = 0 ] && [ \$((t1 - t0)) -lt 30 ] && ok stuck-journald-does-not-hold-pid1 ||
	bad stuck-journald-does-not-hold-pid1 "\$stuck commands failed, \$((t1 - t0)) s"
kill -0 1 && ok pid1-alive || bad pid1-alive "gone"
echo GUEST-CHECKS-DONE
EOS
run_journald_guest "$tmp" "$tmp/log" --net
# The console keeps its copy of every line, those journald got too.
grep -q "ember-init: pinger: started" "$tmp/log" && pass console-copy-kept || fail console-copy-kept "$(grep -c ember-init "$tmp/log") lines of ember-init"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 60 "$tmp/log"; }
finish
