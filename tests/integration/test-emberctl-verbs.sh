#!/bin/sh
# emberctl's systemctl verbs (issue 17) against the real ember-init as PID 1 of a PID+mount
# namespace: is-active/is-failed and their exit codes, list filters, several names per
# verb, kill (signal names, --kill-whom), cat with drop-ins, show's properties, log -n,
# --since and --all. Hostile: a user who may not change anything cannot kill, stop or
# restart through the new verbs (neither through emberctl nor raw requests), and names,
# descriptions and file contents with terminal escapes are printed escaped.
. "$(dirname "$0")/../lib.sh"
for p in ember-init emberctl; do
	[ -x "$BIN/$p" ] || { fail build "missing $BIN/$p (run make)"; finish; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
S=$tmp/services
mkdir -p "$S/web.service.d" "$S/service.d" "$tmp/mark"

cat >"$S/web.service" <<'EOF'
[Unit]
Description=web server
[Service]
ExecStart=/bin/sh -c 'echo web-up; trap "echo got-hup" HUP; trap "echo got-usr1" USR1; trap "echo got-rt" 37; while :; do sleep 0.1; done'
EOF
printf '[Service]\nEnvironment=WEB_PORT=8080\n' >"$S/web.service.d/10-port.conf"
printf '[Service]\nEnvironment=ALL=1\n' >"$S/service.d/50-all.conf"
cat >"$S/db.service" <<'EOF'
[Unit]
Description=database
[Service]
ExecStart=/bin/sh -c 'echo db-up; exec sleep 4243'
EOF
cat >"$S/broken.service" <<'EOF'
[Unit]
Description=fails at once
[Service]
ExecStart=/bin/sh -c 'echo broken-ran; exit 3'
EOF
cat >"$S/setup.service" <<'EOF'
[Unit]
Description=one-shot set-up
[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/bin/true
EOF
# Lines at known times: first, then (after a pause) second and third.
cat >"$S/chatty.service" <<'EOF'
[Unit]
Description=talks over time
[Service]
ExecStart=/bin/sh -c 'echo chatty-1; sleep 2; echo chatty-2; echo chatty-3; exec sleep 4244'
EOF
# A file with control bytes (ember-init refuses it; cat shows it), and a STATUS= text
# with a terminal escape (show prints it).
printf '[Unit]\nDescription=evil \033[31mred\n# \033]0;title\007\n[Service]\nExecStart=/bin/sleep 4245\n' >"$S/evil.service"
cat >"$S/noisy.service" <<EOF
[Service]
Type=notify
NotifyAccess=all
ExecStart=/bin/sh -c '$HELPERS/notify-send READY=1 "STATUS=noisy \$(printf "\\033[31m")red"; exec sleep 4246'
EOF

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
# t NAME WANT-RC CMD...: the exit code of CMD is WANT-RC; output in \$out
t() { n=\$1 want=\$2; shift 2; out=\$("\$@" 2>&1); rc=\$?; [ "\$rc" = "\$want" ] && ok "\$n" || bad "\$n" "exit \$rc, expected \$want: \$(echo "\$out" | head -3 | tr '\n' ' ')"; }
has() { echo "\$out" | grep -q -e "\$2" && ok "\$1" || bad "\$1" "no '\$2' in: \$(echo "\$out" | head -5 | tr '\n' '|')"; }
hasnt() { echo "\$out" | grep -q -e "\$2" && bad "\$1" "'\$2' in: \$(echo "\$out" | head -5 | tr '\n' '|')" || ok "\$1"; }
nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups "\$@"; }
wait_for() { i=0; while [ \$i -lt 200 ]; do "\$E" is-active -q "\$1" && return 0; sleep 0.05; i=\$((i+1)); done; return 1; }
wait_for web; wait_for db; wait_for setup; wait_for chatty; wait_for noisy
i=0; while [ "\$("\$E" is-failed broken)" != failed ] && [ \$i -lt 200 ]; do sleep 0.05; i=\$((i+1)); done

# ---- status of a unit not loaded (its file in /etc/systemd/system, nothing pulls it
# in): stopped, exit 3, as systemctl's for an inactive unit; no file at all: exit 4 ----
t status-not-loaded 3 "\$E" status idle
has status-not-loaded-says-stopped 'State: stopped (not loaded)'
has status-not-loaded-names-file 'File: /etc/systemd/system/idle.service (disabled)'
t status-not-loaded-json 3 "\$E" --json status idle
has status-not-loaded-json-says '"load_state":"not-loaded"'
t status-no-such-service 4 "\$E" status nosuch
has status-no-such-service-says 'nosuch: no such service'

# ---- is-active / is-failed: systemctl's exit codes ----
t is-active-running 0 "\$E" is-active web
has is-active-prints-active '^active\$'
t is-active-oneshot-remains 0 "\$E" is-active setup
t is-active-failed-exits-3 3 "\$E" is-active broken
has is-active-prints-failed '^failed\$'
t is-active-any-of-several 0 "\$E" is-active broken web
[ "\$(echo "\$out" | tr '\n' ' ')" = "failed active " ] && ok is-active-one-line-per-name || bad is-active-one-line-per-name "\$out"
t is-active-unknown-exits-4 4 "\$E" is-active nosuch
has is-active-unknown-inactive '^inactive\$'
t is-active-unknown-and-failed-3 3 "\$E" is-active nosuch broken
t is-active-quiet 0 "\$E" is-active -q web
[ -z "\$out" ] && ok is-active-quiet-prints-nothing || bad is-active-quiet-prints-nothing "\$out"
t is-active-service-suffix 0 "\$E" is-active web.service
t is-failed-failed 0 "\$E" is-failed broken
t is-failed-running-exits-1 1 "\$E" is-failed web
has is-failed-prints-active '^active\$'
t is-failed-any 0 "\$E" is-failed web broken
t is-failed-unknown-4 4 "\$E" is-failed nosuch
t is-failed-system-degraded 0 "\$E" is-failed
has is-failed-system-says-degraded '^degraded\$'

# ---- list filters ----
t list-failed 0 "\$E" list --failed
has list-failed-shows-broken '^broken '
hasnt list-failed-hides-web '^web '
t list-state-running 0 "\$E" list --state=running
has list-state-sub-running '^web '
hasnt list-state-no-oneshot '^setup '
t list-state-two 0 "\$E" list --state=failed,exited
has list-state-two-failed '^broken '
has list-state-two-exited '^setup '
t list-pattern 0 "\$E" list 'w*' 'd?'
has list-pattern-web '^web '
has list-pattern-db '^db '
hasnt list-pattern-not-chatty '^chatty '
t list-pattern-full-name 0 "\$E" list '*.service'
has list-pattern-full-name-web '^web '
t list-state-and-pattern 0 "\$E" list --state=active 'b*'
hasnt list-state-and-pattern-excludes '^broken '
t list-json-filtered 0 "\$E" --json list --failed
# evil.service is invalid (control bytes in the file): failed, as broken is
echo "\$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert [u["name"] for u in d]==["broken","evil"], d; assert d[0]["active_state"]=="failed" and d[1]["load_state"]=="bad-setting"' && ok list-json-failed-only || bad list-json-failed-only "\$out"
t list-unknown-state-usage 100 "\$E" list --state=frobbed
t list-state-help 0 "\$E" list --state=help
has list-state-help-lists 'auto-restart'

# ---- several names per verb ----
t stop-two 0 "\$E" stop web db
[ "\$("\$E" is-active web db | tr '\n' ' ')" = "inactive inactive " ] && ok stop-two-both-stopped || bad stop-two-both-stopped "\$("\$E" is-active web db)"
t start-two 0 "\$E" start web db
wait_for web && wait_for db && ok start-two-both-up || bad start-two-both-up "\$("\$E" is-active web db)"
t start-first-error-reported 4 "\$E" start nosuch web
has start-names-the-missing 'nosuch: no such service'
t restart-two 0 "\$E" restart db web
wait_for web && ok restart-two-up || bad restart-two-up "web not active"
t multi-invalid-name-usage 100 "\$E" stop web '../x'
"\$E" is-active -q web && ok invalid-name-acts-on-none || bad invalid-name-acts-on-none "web was stopped"

# ---- kill ----
sleep 0.3
t kill-hup 0 "\$E" kill -s HUP web
i=0; while ! "\$E" log web | grep -q got-hup && [ \$i -lt 60 ]; do sleep 0.05; i=\$((i+1)); done
"\$E" log web | grep -q got-hup && ok kill-hup-delivered || bad kill-hup-delivered "\$("\$E" log web)"
t kill-number-main 0 "\$E" kill --signal=10 --kill-whom=main web
i=0; while ! "\$E" log web | grep -q got-usr1 && [ \$i -lt 60 ]; do sleep 0.05; i=\$((i+1)); done
"\$E" log web | grep -q got-usr1 && ok kill-usr1-main-delivered || bad kill-usr1-main-delivered "\$("\$E" log web)"
t kill-control-none 1 "\$E" kill --kill-whom=control web
has kill-control-says-why 'no control process'
t kill-bad-signal 100 "\$E" kill -s SIGFOO web
t kill-bad-whom 100 "\$E" kill --kill-whom=everyone web
t kill-unknown-4 4 "\$E" kill nosuch
t kill-stopped-unit-fails 1 "\$E" kill broken
t kill-default-term 0 "\$E" kill db
i=0; while "\$E" is-active -q db && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
pgrep -f 'sleep 4243' >/dev/null && bad kill-term-ended-db "sleep 4243 still runs" || ok kill-term-ended-db
# RTMIN+3 is 37 in systemd's numbering (ember-init(8)), whatever the libc
t kill-rtmin 0 "\$E" kill -s SIGRTMIN+3 --kill-whom=main web
i=0; while ! "\$E" log web | grep -q got-rt && [ \$i -lt 60 ]; do sleep 0.05; i=\$((i+1)); done
"\$E" log web | grep -q got-rt && ok kill-rtmin-is-37 || bad kill-rtmin-is-37 "\$("\$E" log web)"
"\$E" start db

# ---- cat ----
t cat-with-dropins 0 "\$E" cat web
has cat-header-fragment "^# $S/web.service\\\$"
has cat-header-dropin "^# $S/web.service.d/10-port.conf\\\$"
has cat-header-kind-dropin "^# $S/service.d/50-all.conf\\\$"
has cat-contents 'WEB_PORT=8080'
first=\$(echo "\$out" | grep -n '^# ' | head -1 | cut -d: -f2-)
[ "\$first" = "# $S/web.service" ] && ok cat-fragment-first || bad cat-fragment-first "\$first"
t cat-two-units 0 "\$E" cat web db
has cat-two-db "^# $S/db.service\\\$"
t cat-unknown-1 1 "\$E" cat nosuch
has cat-unknown-says 'No files found for nosuch.service'
out=\$(script -qc "\$E cat evil" /dev/null 2>&1)
echo "\$out" | grep -q "\$(printf '\033')" && bad cat-tty-escapes "raw ESC on a terminal" || ok cat-tty-escapes
has cat-tty-shows-escape '\\\\x1b\[31mred'

# ---- show ----
t show-all 0 "\$E" show web
has show-id '^Id=web.service\$'
has show-active '^ActiveState=active\$'
has show-sub '^SubState=running\$'
has show-mainpid '^MainPID=[1-9]'
has show-fragment "^FragmentPath=$S/web.service\\\$"
has show-dropins "^DropInPaths=$S/web.service.d/10-port.conf $S/service.d/50-all.conf\\\$"
has show-active-enter '^ActiveEnterTimestamp=[A-Z][a-z][a-z] 20[0-9][0-9]-'
t show-props 0 "\$E" show -p ActiveState,Result -p NRestarts broken
[ "\$out" = "\$(printf 'ActiveState=failed\nResult=exit-code\nNRestarts=0')" ] && ok show-selected-props || bad show-selected-props "\$out"
t show-value 0 "\$E" show --property=ExecMainStatus --value broken
[ "\$out" = 3 ] && ok show-value-only || bad show-value-only "\$out"
t show-not-loaded 0 "\$E" show -p LoadState,ActiveState nosuch
[ "\$out" = "\$(printf 'LoadState=not-found\nActiveState=inactive')" ] && ok show-not-found || bad show-not-found "\$out"
t show-escapes-status 0 "\$E" show -p StatusText noisy
echo "\$out" | grep -q "\$(printf '\033')" && bad show-status-escaped "raw ESC" || ok show-status-escaped
has show-status-shown '^StatusText=noisy .*red\$'
t show-invalid-unit 0 "\$E" show -p LoadState,ActiveState,StatusErrorText evil
has show-invalid-bad-setting '^LoadState=bad-setting\$'
has show-invalid-says-why 'control character'
t is-failed-invalid 0 "\$E" is-failed evil

# ---- log -n, --since, --all ----
i=0; while ! "\$E" log chatty | grep -q chatty-3 && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
t log-lines 0 "\$E" log chatty -n 2
[ "\$(echo "\$out" | tr '\n' ' ')" = "chatty-2 chatty-3 " ] && ok log-last-two || bad log-last-two "\$out"
t log-lines-zero 0 "\$E" log chatty -n0
[ -z "\$out" ] && ok log-zero-lines || bad log-zero-lines "\$out"
t log-since-relative 0 "\$E" log chatty --since=-1min
has log-since-recent-all 'chatty-1'
t log-since-future 0 "\$E" log chatty --since '1 min ago'
has log-since-ago 'chatty-3'
# chatty-1 came 2 s before chatty-2: a time between them keeps only the later lines.
when=\$(date -d @\$((\$(date +%s) - 1)) '+%Y-%m-%d %H:%M:%S' 2>/dev/null || date '+%Y-%m-%d %H:%M:%S')
t log-since-absolute 0 "\$E" log chatty --since "\$(date '+%Y-%m-%d %H:%M:%S')"
hasnt log-since-now-drops-old 'chatty-1'
t log-since-bad-usage 100 "\$E" log chatty --since=yesterdayish
t log-all 0 "\$E" log --all
has log-all-names-units ' web: web-up\$'
has log-all-db ' db: db-up\$'
has log-all-has-time '^20[0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9:]* chatty: chatty-1\$'
l1=\$(echo "\$out" | grep -n 'chatty: chatty-1' | cut -d: -f1); l3=\$(echo "\$out" | grep -n 'chatty: chatty-3' | cut -d: -f1)
[ -n "\$l1" ] && [ -n "\$l3" ] && [ "\$l1" -lt "\$l3" ] && ok log-all-in-time-order || bad log-all-in-time-order "\$l1 \$l3"
t log-all-lines 0 "\$E" log --all -n 1
[ "\$(echo "\$out" | wc -l)" = 1 ] && ok log-all-last-line || bad log-all-last-line "\$out"
t log-all-with-name-usage 100 "\$E" log --all web
t log-all-follow-usage 100 "\$E" log --all -f
t log-unknown-4 4 "\$E" log nosuch -n 3
# -f -n: the last line, then new ones as they come, nothing lost, nothing twice.
before=\$("\$E" log web | wc -l); lastline=\$("\$E" log web | tail -n 1)
"\$E" log web -n 1 -f >"$tmp/follow" 2>&1 & fpid=\$!
sleep 0.5; "\$E" kill -s HUP --kill-whom=main web; sleep 0.6; kill \$fpid 2>/dev/null
after=\$("\$E" log web | wc -l); n=\$(wc -l <"$tmp/follow")
[ "\$n" = \$((after - before + 1)) ] && [ "\$(head -n 1 "$tmp/follow")" = "\$lastline" ] &&
	grep -q '^got-hup\$' "$tmp/follow" && ok log-tail-then-follow ||
	bad log-tail-then-follow "\$before..\$after: \$(cat "$tmp/follow" | tr '\n' '|')"

# ---- hostile: a user who may not change anything ----
if command -v setpriv >/dev/null; then
	webpid=\$("\$E" show -p MainPID --value web)
	t nobody-kill-refused 1 nobody "\$E" kill -s KILL web
	has nobody-kill-permission 'permission denied'
	t nobody-kill-several-refused 1 nobody "\$E" kill web db chatty
	t nobody-stop-several-refused 1 nobody "\$E" stop web db
	t nobody-restart-refused 1 nobody "\$E" restart web
	t nobody-reload-name-refused 1 nobody "\$E" reload web
	[ "\$("\$E" show -p MainPID --value web)" = "\$webpid" ] && kill -0 "\$webpid" && ok nobody-changed-nothing || bad nobody-changed-nothing "web's main pid changed"
	nobody python3 - <<'PY' && ok nobody-raw-kill-refused || bad nobody-raw-kill-refused "a raw kill request was not refused"
import socket, sys
for req in [b"kill web signal=9", b"kill web signal=9 whom=main", b"kill db signal=15 whom=control"]:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.connect("/run/ember/control"); s.send(req); s.settimeout(3)
    reply = b""
    while not reply.startswith(b"X"):
        reply = s.recv(4096)
        if reply.startswith(b"E") and b"permission denied" not in reply:
            sys.exit(1)
    if reply != b"X1":
        sys.exit(1)
PY
	kill -0 "\$webpid" && ok nobody-web-survives || bad nobody-web-survives "web died"
	t nobody-may-read-is-active 0 nobody "\$E" is-active web
	t nobody-may-show 0 nobody "\$E" show -p ActiveState web
	t nobody-may-log-all 0 nobody "\$E" log --all -n 3
	t nobody-may-cat 0 nobody "\$E" cat web
	# A member of the control group (ember.ctl_group=4242) may, as root may.
	member() { setpriv --reuid 65534 --regid 65534 --groups 4242 "\$@"; }
	t member-may-kill 0 member "\$E" kill -s HUP --kill-whom=main web
	t member-may-stop-several 0 member "\$E" stop db chatty
	"\$E" is-active -q db chatty && bad member-stopped-both "still active" || ok member-stopped-both
	t member-may-start-several 0 member "\$E" start db chatty
else
	echo "SKIP hostile-nobody: setpriv missing"
fi
# Names with escapes or newlines never reach the terminal raw.
t escape-name-usage 100 "\$E" is-active "\$(printf 'x\033[2Jy')"
echo "\$out" | grep -q "\$(printf '\033')" && bad escape-name-escaped "raw ESC in: \$out" || ok escape-name-escaped
has escape-name-shown '\\\\x1b\[2Jy'
t newline-name-usage 100 "\$E" kill "\$(printf 'a\nFAKE b')"
[ "\$(echo "\$out" | wc -l)" = 1 ] && ok newline-name-one-line || bad newline-name-one-line "\$out"
t escape-option-usage 100 "\$E" kill --signal="\$(printf 'T\033]0;x\007')" web
echo "\$out" | grep -q "\$(printf '\033')" && bad escape-option-escaped "raw ESC" || ok escape-option-escaped
# A request that would signal a unit outside ember, or PID 1, is impossible: only names.
python3 - <<'PY' && ok raw-kill-bad-values-refused || bad raw-kill-bad-values-refused "accepted"
import socket, sys
for req in [b"kill web signal=0", b"kill web signal=65", b"kill ../x signal=9", b"kill web signal=9 whom=1"]:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.connect("/run/ember/control"); s.send(req); s.settimeout(3)
    reply = b""
    while not reply.startswith(b"X"):
        reply = s.recv(4096)
    if reply != b"X2":
        sys.exit(1)
PY
kill -0 1 && ok pid1-alive || bad pid1-alive "gone"
exit 0
EOS
chmod +x "$tmp/guest.sh"
mkdir -p "$tmp/etc-systemd"
printf '[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n' >"$tmp/etc-systemd/idle.service"
timeout 180 unshare --pid --mount --uts --fork --mount-proc \
	sh -c 'mount --bind "$0" /etc/systemd/system && exec env container=ember-test "$@"' "$tmp/etc-systemd" \
	"$BIN/ember-init" ember.services="$S" \
	ember.run="$tmp/guest.sh" ember.shell=none ember.ctl_group=4242 >"$tmp/log" 2>&1
rc=$?
grep -E '^(PASS|FAIL|SKIP) ' "$tmp/log"
grep -q '^FAIL ' "$tmp/log" && FAILED=1
grep -q '^EMBER-RUN-EXIT=0$' "$tmp/log" && pass guest-completed || fail guest-completed "rc $rc; $(tail -5 "$tmp/log" | tr '\n' ' ')"
grep -q 'control: signal 1 to all of web, requested by uid 0' "$tmp/log" && pass kill-logged ||
	fail kill-logged "no 'control: signal 1 to all of web' in PID 1's log"

# Completions know the new verbs and their options.
comp() { bash -c '. "$1/completions/bash/emberctl"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _emberctl; echo "${COMPREPLY[*]}"' _ "$TOP" "$@"; }
[ "$(comp emberctl kill --kill-whom '')" = "main control all" ] && pass bash-completes-kill-whom ||
	fail bash-completes-kill-whom "$(comp emberctl kill --kill-whom '')"
comp emberctl is- | grep -q 'is-active is-failed' && pass bash-completes-is-verbs ||
	fail bash-completes-is-verbs "$(comp emberctl is-)"
comp emberctl show -p Activ | grep -q 'ActiveState' && pass bash-completes-properties ||
	fail bash-completes-properties "$(comp emberctl show -p Activ)"
finish
