#!/bin/sh
# emberctl start, stop, restart and reload wait for their job to end, as systemctl does,
# against the real ember-init as PID 1 of a PID+mount namespace: a notify service is
# ready when start returns, a oneshot has run, a slow ExecStop= is over when stop
# returns, a restart has stopped and started again, a reload's ExecReload= is done; a
# start that fails (the unit, or what it requires), and a reload that fails, exit 1
# with the reason (escaped); several names are all asked for first, then waited for;
# --no-block returns at once. An init script run by hand through ember's LSB hook
# (Debian's service(8), invoke-rc.d) gets the same: its start returns with the daemon up.
. "$(dirname "$0")/../lib.sh"
for p in ember-init emberctl; do
	[ -x "$BIN/$p" ] || { fail build "missing $BIN/$p (run make)"; finish; }
done
[ -x "$HELPERS/notify-send" ] || { fail build "missing $HELPERS/notify-send"; finish; }
[ -d /etc/init.d ] || { skip emberctl-jobs "no /etc/init.d to mount over"; finish; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M" "$tmp/initd"

# Every unit in ember.services= starts at boot, a template's instances only when asked
# for: the units whose start is tested are templates. A notify service, ready 1 s after
# its start:
for n in slowready@ hookd; do
	printf '[Service]\nType=notify\nNotifyAccess=all\nExecStart=/bin/sh -c "sleep 1; %s READY=1; exec sleep 4321"\n' \
		"$HELPERS/notify-send" >"$S/$n.service"
done
cat >"$S/setup@.service" <<EOF
[Service]
Type=oneshot
ExecStart=/bin/sh -c 'sleep 0.5; echo done >>$M/setup-%i'
EOF
printf '[Service]\nType=oneshot\nExecStart=/bin/sh -c "sleep 0.3; printf \\"bad \\\\033[31mred\\\\n\\" >&2; exit 3"\n' \
	>"$S/fails@.service"
cat >"$S/needsfail@.service" <<EOF
[Unit]
Requires=fails@%i.service
After=fails@%i.service
[Service]
ExecStart=/bin/sleep 4323
EOF
cat >"$S/slowstop.service" <<EOF
[Service]
ExecStart=/bin/sleep 4324
ExecStop=/bin/sh -c 'sleep 1; echo stopped >>$M/slowstop'
EOF
cat >"$S/reloader.service" <<EOF
[Service]
ExecStart=/bin/sleep 4325
ExecReload=/bin/sh -c 'sleep 1; echo r >>$M/reloads'
EOF
cat >"$S/badreload.service" <<EOF
[Service]
ExecStart=/bin/sleep 4326
ExecReload=/bin/sh -c 'sleep 0.3; exit 2'
EOF
cat >"$S/restarter.service" <<EOF
[Service]
Type=notify
NotifyAccess=all
ExecStart=/bin/sh -c 'echo s >>$M/restarts; sleep 1; $HELPERS/notify-send READY=1; exec sleep 4327'
ExecStop=/bin/sleep 0.5
EOF
# hookd's init script: Debian's init-functions in short, then ember's hook
cat >"$tmp/init-functions" <<EOF
log_daemon_msg() { printf '%s: %s' "\$1" "\$2"; }
log_end_msg() { echo " (\$1)"; }
. "$TOP/distro/debian/lsb-init-functions-ember"
EOF
printf '#!/bin/sh\n. %s/init-functions\necho "ran $1" >>%s/script-hookd\n' "$tmp" "$M" >"$tmp/initd/hookd"
chmod +x "$tmp/initd/hookd"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
PATH=$BIN:\$PATH; export PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
state() { "\$E" show -p ActiveState --value "\$1"; }
# t NAME WANT-RC CMD...: the exit code of CMD is WANT-RC; its output in \$out
t() { n=\$1 want=\$2; shift 2; out=\$("\$@" 2>&1); rc=\$?; [ "\$rc" = "\$want" ] && ok "\$n" || bad "\$n" "exit \$rc, expected \$want: \$(echo "\$out" | head -3 | tr '\n' ' ')"; }

t start-notify-exits-0 0 "\$E" start slowready@1
[ "\$(state slowready@1)" = active ] && ok start-returns-when-ready || bad start-returns-when-ready "\$(state slowready@1)"
t start-oneshot-exits-0 0 "\$E" start setup@a
[ -f "$M/setup-a" ] && ok start-returns-when-oneshot-ran || bad start-returns-when-oneshot-ran "not run yet"
t start-failing-oneshot-exits-1 1 "\$E" start fails@a
echo "\$out" | grep -q 'fails@a: start failed (exit-code)' && ok start-failure-says-why || bad start-failure-says-why "\$out"
echo "\$out" | grep -q "\$(printf '\033')" && bad start-failure-escaped "raw ESC: \$out" || ok start-failure-escaped
t start-of-requirer-of-failing-exits-1 1 "\$E" start needsfail@b
t start-of-ready-exits-0 0 "\$E" start slowready@1
t stop-exits-0 0 "\$E" stop slowstop
[ -f "$M/slowstop" ] && [ "\$(state slowstop)" = inactive ] && ok stop-returns-when-down ||
	bad stop-returns-when-down "\$(state slowstop), mark \$(cat $M/slowstop 2>&1)"
t reload-exits-0 0 "\$E" reload reloader
[ "\$(cat $M/reloads 2>/dev/null)" = r ] && [ "\$(state reloader)" = active ] && ok reload-returns-when-done ||
	bad reload-returns-when-done "\$(state reloader), reloads \$(cat $M/reloads 2>&1)"
t failing-reload-exits-1 1 "\$E" reload badreload
echo "\$out" | grep -q 'badreload: reload failed' && ok reload-failure-says-why || bad reload-failure-says-why "\$out"
[ "\$(state badreload)" = active ] && ok failed-reload-keeps-service || bad failed-reload-keeps-service "\$(state badreload)"
"\$E" start restarter >/dev/null 2>&1
t restart-exits-0 0 "\$E" restart restarter
[ "\$(wc -l <$M/restarts)" = 2 ] && [ "\$(state restarter)" = active ] && ok restart-returns-when-ready-again ||
	bad restart-returns-when-ready-again "\$(state restarter), \$(wc -l <$M/restarts) starts"
"\$E" stop slowready@1 >/dev/null
t start-two-exits-0 0 "\$E" start slowready@1 slowready@2
[ "\$(state slowready@1)" = active ] && [ "\$(state slowready@2)" = active ] && ok start-waits-for-every-name ||
	bad start-waits-for-every-name "\$(state slowready@1) \$(state slowready@2)"
"\$E" stop slowready@1 slowready@2 >/dev/null
t start-no-block-exits-0 0 "\$E" --no-block start slowready@1
[ "\$(state slowready@1)" = activating ] && ok no-block-returns-at-once || bad no-block-returns-at-once "\$(state slowready@1)"
t no-block-only-for-jobs 100 "\$E" --no-block status slowready@1
# Debian's init script run by hand (through ember's hook): up when it returns
mount --bind $tmp/initd /etc/init.d
"\$E" stop hookd >/dev/null
t initscript-start-exits-0 0 /etc/init.d/hookd start
[ "\$(state hookd)" = active ] && ok initscript-start-returns-when-ready || bad initscript-start-returns-when-ready "\$(state hookd)"
[ ! -f "$M/script-hookd" ] && ok initscript-body-not-run || bad initscript-body-not-run "\$(cat $M/script-hookd)"
kill -0 1 && ok pid1-alive || bad pid1-alive "gone"
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log"
finish
