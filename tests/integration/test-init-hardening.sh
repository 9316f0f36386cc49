#!/bin/sh
# PID 1 that nobody can knock over (issue 14), with ember-init as PID 1 of a PID+mount
# namespace: a hostile user holding the control socket cannot lock root out (idle
# clients, followers), reads are open to everyone and changes are not, ember.ctl_group=
# members may change; crash signals sent with kill are ignored; emberctl daemon-reexec
# and a real crash (injected with ptrace: a fault at address 0) re-execute ember-init
# and the services stay supervised with the same PIDs; emberctl --timeout gives up on a
# server that never answers.
. "$(dirname "$0")/../lib.sh"
H=$HELPERS
command -v setpriv >/dev/null || { skip hardening "setpriv missing"; finish; }
command -v python3 >/dev/null || { skip hardening "python3 missing"; finish; }
tmp=$(mktemp -d); chmod 755 "$tmp"; trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/services"
cat >"$tmp/services/idler.service" <<EOF
[Service]
ExecStart=$H/idle
Restart=always
RestartSec=100ms
EOF
cat >"$tmp/services/other.service" <<EOF
[Service]
ExecStart=$H/idle
EOF

# A hostile user: idle connections and log followers, held until killed.
cat >"$tmp/hog.py" <<'EOF'
import socket, sys, time
held = []
def conn():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.settimeout(1)
    s.connect("/run/ember/control")
    return s
end = time.time() + float(sys.argv[1])
while time.time() < end:
    # Followers first, then as many silent connections as it can get, again and again.
    for _ in range(10):
        try:
            s = conn(); s.send(b"log idler follow"); held.append(s)
        except Exception:
            pass
    for _ in range(40):
        try:
            held.append(conn())
        except Exception:
            pass
    held = held[-200:]
    time.sleep(0.05)
EOF

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups "\$@"; }
field() { "\$E" --json status "\$1" | sed -n "s/.*\"\$2\":\\([0-9]*\\).*/\\1/p"; }
state() { "\$E" --json status "\$1" | sed -n 's/.*"state":"\\([^"]*\\)".*/\\1/p'; }
wait_state() { i=0; while [ "\$(state \$1)" != "\$2" ] && [ \$i -lt 200 ]; do sleep 0.05; i=\$((i+1)); done; [ "\$(state \$1)" = "\$2" ]; }
wait_state idler ready || bad idler-up "\$(state idler)"
wait_state other ready || bad other-up "\$(state other)"

# ---- reads for everyone, changes for root and the control group ----
nobody "\$E" status idler >/dev/null && ok nonroot-reads-status || bad nonroot-reads-status "refused"
nobody "\$E" stop other 2>"$tmp/err"; rc=\$?
[ \$rc = 1 ] && grep -q 'permission denied' "$tmp/err" && [ "\$(state other)" = ready ] &&
	ok nonroot-cannot-stop || bad nonroot-cannot-stop "rc \$rc, other is \$(state other)"
nobody "\$E" daemon-reexec 2>/dev/null && bad nonroot-cannot-reexec "accepted" || ok nonroot-cannot-reexec
setpriv --reuid 65534 --regid 65534 --groups 4242 "\$E" stop other && wait_state other stopped &&
	ok ctl-group-member-may-stop || bad ctl-group-member-may-stop "other is \$(state other)"
setpriv --reuid 65534 --regid 4242 --clear-groups "\$E" start other && wait_state other ready &&
	ok ctl-group-primary-may-start || bad ctl-group-primary-may-start "other is \$(state other)"

# ---- a hostile user holds the socket; root still gets through ----
nobody python3 "$tmp/hog.py" 8 & hog=\$!
sleep 2
fails=0
for i in 1 2 3 4 5; do
	"\$E" --timeout 5 list >/dev/null || fails=\$((fails+1))
done
[ \$fails = 0 ] && ok root-lists-under-lockout || bad root-lists-under-lockout "\$fails of 5 failed"
"\$E" --timeout 5 stop other && wait_state other stopped && ok root-stops-under-lockout ||
	bad root-stops-under-lockout "other is \$(state other)"
"\$E" --timeout 5 start other && wait_state other ready && ok root-starts-under-lockout ||
	bad root-starts-under-lockout "other is \$(state other)"
n=\$(ls -l /proc/1/fd 2>/dev/null | grep -c socket)
[ "\$n" -le 40 ] && ok pid1-fds-bounded || bad pid1-fds-bounded "\$n sockets open in PID 1"
kill \$hog; wait \$hog 2>/dev/null

# ---- crash signals sent with kill are not crashes ----
pid_before=\$(field idler main_pid)
for s in SEGV BUS ILL FPE ABRT; do kill -\$s 1; done
sleep 0.3
kill -9 "\$pid_before"
i=0; while [ "\$(field idler main_pid)" = "\$pid_before" ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
wait_state idler ready && [ "\$(field idler main_pid)" != "\$pid_before" ] &&
	ok killed-service-restarted-after-kill-segv || bad killed-service-restarted-after-kill-segv "idler \$(state idler)"
"\$E" list >/dev/null && ok control-answers-after-kill-segv || bad control-answers-after-kill-segv "no answer"

# ---- daemon-reexec: same PIDs, still supervised ----
a=\$(field idler main_pid); b=\$(field other main_pid)
"\$E" daemon-reexec && ok daemon-reexec-accepted || bad daemon-reexec-accepted "refused"
i=0; while ! "\$E" --timeout 2 list >/dev/null 2>&1 && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
[ "\$(field idler main_pid)" = "\$a" ] && [ "\$(field other main_pid)" = "\$b" ] &&
	[ "\$(state other)" = ready ] && ok reexec-keeps-pids || bad reexec-keeps-pids "\$("\$E" list)"
kill -9 "\$a"
i=0; while [ "\$(field idler main_pid)" = "\$a" ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
wait_state idler ready && ok reexec-then-restart || bad reexec-then-restart "idler \$(state idler)"

# ---- a real crash (a fault at address 0, injected with ptrace) ----
a=\$(field idler main_pid); b=\$(field other main_pid)
"$H/crash-pid1" 1; rc=\$?
if [ \$rc = 77 ]; then
	echo "SKIP real-crash: not x86-64"
else
	i=0; while ! "\$E" --timeout 2 list >/dev/null 2>&1 && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
	[ \$rc = 0 ] && [ "\$(field idler main_pid)" = "\$a" ] && [ "\$(field other main_pid)" = "\$b" ] &&
		ok crash-keeps-pids || bad crash-keeps-pids "rc \$rc; \$("\$E" list)"
	kill -9 "\$b"; "\$E" start other
	kill -9 "\$a"
	i=0; while [ "\$(field idler main_pid)" = "\$a" ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
	wait_state idler ready && ok crash-then-restart || bad crash-then-restart "idler \$(state idler)"
fi
kill -0 1 && ok pid1-alive || bad pid1-alive "gone"
exit 0
EOS
chmod 755 "$tmp/guest.sh" "$tmp/hog.py"
mkdir -p "$tmp/etc"
timeout 120 unshare --kill-child --pid --mount --uts --fork --mount-proc \
	env container=ember-test "$BIN/ember-init" ember.services="$tmp/services" \
	ember.run="$tmp/guest.sh" ember.shell=none ember.ctl_group=4242 >"$tmp/log" 2>&1
rc=$?
grep -E '^(PASS|FAIL|SKIP) ' "$tmp/log"
grep -q '^FAIL ' "$tmp/log" && FAILED=1
grep -q '^EMBER-RUN-EXIT=0$' "$tmp/log" && pass guest-completed || fail guest-completed "rc $rc; $(tail -5 "$tmp/log" | tr '\n' ' ')"
grep -q 'signal 11 (.*) sent by pid [0-9]* (uid 0): not a crash, ignored' "$tmp/log" &&
	pass kill-segv-logged-with-sender || fail kill-segv-logged-with-sender "no log line"
grep -q 'CRASH: SIGSEGV; re-executing' "$tmp/log" && pass crash-logged ||
	{ grep -q 'SKIP real-crash' "$tmp/log" || fail crash-logged "no CRASH line"; }
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 80 "$tmp/log"; }
finish
