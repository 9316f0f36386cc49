#!/bin/sh
# Service output to the journal: ember-init as PID 1 of a PID+mount namespace runs Debian's
# systemd-journald as one of its services, and the services' stdout/stderr reach it over
# journald's stream protocol, as under systemd: each line with its identifier (the
# program's name or SyslogIdentifier=), its priority ("<N>" prefixes, SyslogLevel=,
# SyslogFacility=), the service's pid, and JOURNAL_STREAM naming the stream. Where journald
# is not there, or does not take the connection at once, the lines go to ember's log
# (emberctl log) instead, and the service starts all the same; StandardOutput=log keeps
# ember's log while journald runs.
. "$(dirname "$0")/../lib.sh"
need_journald journal-stream
J=$TOP/tests/integration/journal
mkdir -p "$tmp/services"
cp "$J"/*.service "$tmp/services/"
rm "$tmp/services/many.service"
n=1; while [ $n -le 40 ]; do cp "$J/many.service" "$tmp/services/many-$n.service"; n=$((n+1)); done

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
J="$J"
. "$J/guest-lib.sh"

# ---- the default, StandardOutput=journal: both streams reach journald
wait_entry talker-out && ok stdout-reaches-journal || bad stdout-reaches-journal "no entry; \$("\$E" log talker | tail -n 3 | tr '\n' ' ')"
pid=\$(main_pid talker)
e=\$(entry talker-out)
echo "\$e" | grep -q "SYSLOG_IDENTIFIER=sh " && ok identifier-is-program || bad identifier-is-program "\$e"
echo "\$e" | grep -q "PRIORITY=6 " && echo "\$e" | grep -q "SYSLOG_FACILITY=3 " && ok default-priority-daemon-info || bad default-priority-daemon-info "\$e"
echo "\$e" | grep -q "_PID=\$pid " && ok pid-is-the-service || bad pid-is-the-service "main pid \$pid: \$e"
echo "\$e" | grep -q "_TRANSPORT=stdout " && ok transport-stdout || bad transport-stdout "\$e"
wait_entry talker-err
e=\$(entry talker-err)
echo "\$e" | grep -q "PRIORITY=3 " && ok level-prefix-read || bad level-prefix-read "\$e"
out_id=\$(entry talker-out | sed -n 's/.*_STREAM_ID=\\([0-9a-f]*\\).*/\\1/p')
echo "\$e" | grep -q "_STREAM_ID=\$out_id" && [ -n "\$out_id" ] && ok stdout-stderr-one-stream || bad stdout-stderr-one-stream "\$out_id: \$e"
wait_entry "env="; wait_entry "fd2="
env=\$(entry "env=" | sed -n 's/.*MESSAGE=env=\\([0-9:]*\\) .*/\\1/p')
fd2=\$(entry "fd2=" | sed -n 's/.*MESSAGE=fd2=\\([0-9:]*\\) .*/\\1/p')
[ -n "\$env" ] && [ "\$env" = "\$fd2" ] && ok journal-stream-env-names-stderr || bad journal-stream-env-names-stderr "JOURNAL_STREAM='\$env', stderr '\$fd2'"
"\$E" log talker | grep -q talker- && bad not-in-ember-log "\$("\$E" log talker)" || ok not-in-ember-log

# ---- SyslogIdentifier= (with a specifier), SyslogLevel=, SyslogFacility=, SyslogLevelPrefix=no
wait_entry tagged-out; wait_entry tagged-err
e=\$(entry tagged-out)
echo "\$e" | grep -q "SYSLOG_IDENTIFIER=tag-tagged.service " && ok syslog-identifier || bad syslog-identifier "\$e"
echo "\$e" | grep -q "MESSAGE=<2>tagged-out " && echo "\$e" | grep -q "PRIORITY=5 " && ok level-prefix-off || bad level-prefix-off "\$e"
echo "\$e" | grep -q "SYSLOG_FACILITY=19 " && ok syslog-facility || bad syslog-facility "\$e"
e2=\$(entry tagged-err)
s1=\$(echo "\$e" | sed -n 's/.*_STREAM_ID=\\([0-9a-f]*\\).*/\\1/p'); s2=\$(echo "\$e2" | sed -n 's/.*_STREAM_ID=\\([0-9a-f]*\\).*/\\1/p')
[ -n "\$s2" ] && [ "\$s1" != "\$s2" ] && ok stderr-own-stream || bad stderr-own-stream "\$e2"

# ---- StandardOutput=log: ember's log, no stream, no JOURNAL_STREAM
wait_log kept kept-out && "\$E" log kept | grep -q kept-err && ok log-keeps-ember-log || bad log-keeps-ember-log "\$("\$E" log kept)"
"\$E" log kept | grep -q '^env=\$' && ok log-no-journal-stream-env || bad log-no-journal-stream-env "\$("\$E" log kept | grep env=)"
[ -z "\$(entry kept-out)" ] && ok log-not-in-journal || bad log-not-in-journal "\$(entry kept-out)"

# ---- journald restarted (a package upgrade does it): it keeps the streams in ember's fd
# store and gets them back, so a writer neither dies of SIGPIPE nor loses its stream;
# with 40 more writers, more streams than a service's sockets ever are.
wait_entry "many many-40"; wait_entry "tick 3"
tpid=\$(main_pid ticker)
pids=\$(n=1; while [ \$n -le 40 ]; do main_pid many-\$n; n=\$((n+1)); done | tr '\n' ' ')
"\$E" restart journald >/dev/null 2>&1
i=0; while [ "\$(state journald)" != ready ] && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i+1)); done
[ "\$(state journald)" = ready ] && ok journald-restarts-with-its-streams || bad journald-restarts-with-its-streams "journald is \$(state journald): \$("\$E" status journald | tail -n 3 | tr '\n' ' ')"
last=\$(python3 "$J/entries.py" "tick " | tail -n 1 | sed -n 's/^MESSAGE=tick \\([0-9]*\\) .*/\\1/p')
wait_entry "tick \$((last + 5))" && [ "\$(main_pid ticker)" = "\$tpid" ] && [ "\$(state ticker)" = ready ] &&
	ok stream-survives-journald-restart || bad stream-survives-journald-restart "ticker \$tpid -> \$(main_pid ticker) (\$(state ticker)), last tick \$last; \$("\$E" log journald | tail -n 2 | tr '\n' ' ')"
now=\$(n=1; while [ \$n -le 40 ]; do main_pid many-\$n; n=\$((n+1)); done | tr '\n' ' ')
[ "\$now" = "\$pids" ] && ok many-writers-survive-journald-restart || bad many-writers-survive-journald-restart "before: \$pids; after: \$now"
n=1; while [ \$n -le 40 ]; do "\$E" stop many-\$n >/dev/null 2>&1; n=\$((n+1)); done

# ---- journald stopped: the lines go to ember's log, nothing is lost
"\$E" stop journald >/dev/null 2>&1
touch /run/later-go
"\$E" start later >/dev/null 2>&1
wait_log later later-out && "\$E" log later | grep -q later-err && ok no-journald-ember-log || bad no-journald-ember-log "later is \$(state later): \$("\$E" log later)"
"\$E" stop later >/dev/null 2>&1

# ---- hostile: something listens on journald's socket and accepts nothing; its backlog
# is full. The service still starts at once, with its lines in ember's log.
rm -f /run/systemd/journal/stdout
python3 -c '
import os, socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind("/run/systemd/journal/stdout"); s.listen(0)
held = []
for _ in range(3):
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); c.setblocking(False)
    try: c.connect("/run/systemd/journal/stdout")
    except OSError: pass
    held.append(c)
open("/run/stuck-ready", "w").close()
time.sleep(120)' &
stuck=\$!
i=0; while [ ! -e /run/stuck-ready ] && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i+1)); done
"\$E" log later >/dev/null
"\$E" start later >/dev/null 2>&1
wait_log later 'later-out' && [ "\$("\$E" log later | grep -c later-out)" = 2 ] && ok stuck-journald-does-not-hold-start || bad stuck-journald-does-not-hold-start "later is \$(state later): \$("\$E" log later | tail -n 3 | tr '\n' ' ')"
kill \$stuck
kill -0 1 && ok pid1-alive || bad pid1-alive "gone"
echo GUEST-CHECKS-DONE
EOS
run_journald_guest "$tmp" "$tmp/log"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 60 "$tmp/log"; }
finish
