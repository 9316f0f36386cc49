#!/bin/sh
# The runtime keys (unit-runtime2) under ember-init as PID 1 of a PID+mount namespace:
# WatchdogSec= (a service that stops pinging is stopped with WatchdogSignal= and
# restarted; one that pings, or has WatchdogSec=0, is left alone; WATCHDOG=trigger;
# WATCHDOG_USEC= from the service; WATCHDOG_USEC/WATCHDOG_PID in its environment; the
# deadline survives daemon-reexec), the fd store (FDSTORE=1 fds come back after a
# restart and after daemon-reexec; FDSTOREREMOVE=1; none without FileDescriptorStoreMax=),
# NotifyAccess=, RefuseManualStart=/RefuseManualStop=, StopWhenUnneeded=, JobTimeoutSec=,
# ReloadPropagatedFrom=, Sockets=, and SuccessAction=/FailureAction= (separate boots).
. "$(dirname "$0")/../lib.sh"
H=$HELPERS P=$HELPERS/runtime-probe
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
OWN=$tmp/etc/ember/services ETC=$tmp/etc/systemd/system LIB=$tmp/lib/systemd/system M=$tmp/mark
mkdir -p "$OWN" "$ETC" "$LIB" "$M"
E=$BIN/emberctl
unit() { cat >"$1"; }

# ---- the service watchdog ----
unit "$OWN/wddead.service" <<EOF
[Service]
Type=notify
WatchdogSec=1
Restart=on-watchdog
RestartSec=200ms
ExecStart=$P watchdog 2 200
ExecStopPost=/bin/sh -c 'echo "\$SERVICE_RESULT \$EXIT_CODE \$EXIT_STATUS" >>$M/wddead.log'
EOF
unit "$OWN/wdalive.service" <<EOF
[Service]
Type=notify
WatchdogSec=1
ExecStart=$P watchdog 100000 200
ExecStopPost=/bin/sh -c 'echo "\$SERVICE_RESULT" >>$M/wdalive.log'
EOF
unit "$OWN/wdoff.service" <<EOF
[Service]
Type=notify
WatchdogSec=0
ExecStart=$P watchdog 1 100
ExecStopPost=/bin/sh -c 'echo "\$SERVICE_RESULT" >>$M/wdoff.log'
EOF
unit "$OWN/wdtrig.service" <<EOF
[Service]
Type=notify
WatchdogSec=30
WatchdogSignal=SIGUSR1
ExecStart=$P trigger 300
ExecStopPost=/bin/sh -c 'echo "\$SERVICE_RESULT \$EXIT_CODE \$EXIT_STATUS" >>$M/wdtrig.log'
EOF
unit "$OWN/wdusec.service" <<EOF
[Service]
Type=notify
WatchdogSec=60
ExecStart=$P usec 400000 2 100
ExecStopPost=/bin/sh -c 'echo "\$SERVICE_RESULT" >>$M/wdusec.log'
EOF
unit "$OWN/wdenv.service" <<EOF
[Service]
WatchdogSec=60
ExecStart=$P env
EOF
# Pings for 30 s, then stops: the re-executed PID 1 must still time it out.
unit "$OWN/wdreexec.service" <<EOF
[Service]
Type=notify
WatchdogSec=1
ExecStart=$P watchdog 150 200
ExecStopPost=/bin/sh -c 'echo "\$SERVICE_RESULT" >>$M/wdreexec.log'
EOF
# As journald does: one datagram socket connected to NOTIFY_SOCKET at start, used for
# every WATCHDOG=1 after. daemon-reexec must keep that socket, not bind a new one at the
# same path (the connected one would then reach nothing: ECONNREFUSED, and the watchdog
# kills the service).
cat >"$tmp/wdconn.py" <<'EOF'
import os, socket, sys, time
path = os.environ["NOTIFY_SOCKET"]
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.connect(path)
s.send(b"READY=1")
while True:
    time.sleep(0.2)
    try:
        s.send(b"WATCHDOG=1")
    except OSError as e:
        print("send failed:", e, flush=True)
EOF
unit "$OWN/wdconn.service" <<EOF
[Service]
Type=notify
WatchdogSec=1
ExecStart=/usr/bin/python3 $tmp/wdconn.py
ExecStopPost=/bin/sh -c 'echo "\$SERVICE_RESULT" >>$M/wdconn.log'
EOF

# ---- the fd store ----
unit "$OWN/fdkeep.service" <<EOF
[Service]
FileDescriptorStoreMax=2
Restart=on-failure
RestartSec=100ms
ExecStart=$P fdstore mystore
EOF
unit "$OWN/fdnone.service" <<EOF
[Service]
NotifyAccess=all
Restart=on-failure
RestartSec=300ms
StartLimitBurst=2
StartLimitInterval=60
ExecStart=$P fdstore mystore
EOF
unit "$OWN/fdgone.service" <<EOF
[Service]
FileDescriptorStoreMax=2
Restart=on-failure
RestartSec=300ms
StartLimitBurst=2
ExecStart=$P fdremove mystore
[Unit]
StartLimitIntervalSec=60
EOF

# A hostile service: 400 fds for the store (its max allows 65535), one message each.
# PID 1 keeps at most 256 in all and stays up. Started by name, after the other fd
# store cases (the total is shared).
unit "$LIB/fdflood.service" <<EOF
[Service]
FileDescriptorStoreMax=65535
Environment=PROBE_QUIET=1
ExecStart=$P fdflood 400
EOF

# ---- NotifyAccess= (the READY=1 comes from a child of the main process; started by
# name, as one never gets ready) ----
for a in main all; do
unit "$LIB/nacc$a.service" <<EOF
[Service]
Type=notify
NotifyAccess=$a
TimeoutStartSec=infinity
ExecStart=/bin/sh -c '$H/notify-send READY=1; exec sleep 1000'
EOF
done

# ---- Sockets=: a socket unit that activates another service ----
unit "$OWN/otherd.service" <<EOF
[Service]
ExecStart=/bin/sleep 1000
EOF
unit "$OWN/extra.socket" <<EOF
[Socket]
ListenStream=$tmp/extra.sock
Service=otherd.service
EOF
unit "$OWN/sockuser.service" <<EOF
[Service]
Sockets=extra.socket
ExecStart=$P env
EOF

# ---- reload propagation ----
unit "$OWN/reloader.service" <<EOF
[Unit]
PropagatesReloadTo=reloadee2.service
[Service]
ExecStart=/bin/sleep 1000
ExecReload=/bin/true
EOF
unit "$OWN/reloadee.service" <<EOF
[Unit]
ReloadPropagatedFrom=reloader.service
[Service]
ExecStart=/bin/sleep 1000
ExecReload=/bin/sh -c 'echo reloaded >>$M/reloadee.log'
EOF

unit "$OWN/reloadee2.service" <<EOF
[Service]
ExecStart=/bin/sleep 1000
ExecReload=/bin/sh -c 'echo reloaded >>$M/reloadee2.log'
EOF
unit "$OWN/bystander.service" <<EOF
[Service]
ExecStart=/bin/sleep 1000
ExecReload=/bin/sh -c 'echo reloaded >>$M/bystander.log'
EOF

# ---- job timeout ----
unit "$OWN/slow.service" <<EOF
[Service]
ExecStartPre=/bin/sleep 4
ExecStart=/bin/sleep 1000
EOF
unit "$OWN/jobby.service" <<EOF
[Unit]
Wants=slow.service
After=slow.service
JobTimeoutSec=1
OnFailure=jobby-noticed.service
[Service]
ExecStart=/bin/sleep 1000
EOF
unit "$LIB/jobby-noticed.service" <<EOF
[Service]
Type=oneshot
ExecStart=/bin/sh -c 'echo noticed >$M/jobby-noticed'
EOF
unit "$OWN/jobok.service" <<EOF
[Unit]
Wants=slow.service
After=slow.service
[Service]
ExecStart=/bin/sleep 1000
EOF

# ---- units started only by dependencies (systemd directory, enabled offline) ----
unit "$LIB/refuser.service" <<EOF
[Unit]
RefuseManualStart=yes
[Service]
ExecStart=/bin/sleep 1000
EOF
unit "$LIB/stopper.service" <<EOF
[Unit]
RefuseManualStop=yes
[Service]
ExecStart=/bin/sleep 1000
EOF
unit "$LIB/helperd.service" <<EOF
[Unit]
StopWhenUnneeded=yes
[Service]
ExecStart=/bin/sleep 1000
EOF
unit "$LIB/puller.service" <<EOF
[Unit]
Wants=refuser.service stopper.service helperd.service
[Service]
ExecStart=/bin/sleep 1000
[Install]
WantedBy=multi-user.target
EOF
$E --root="$tmp" -q enable puller >/dev/null 2>&1 || fail enable-puller "emberctl enable failed"
# Enabled, running, then disabled and reloaded (timedated's DisableUnitFiles and Reload
# before its StopUnit): as in systemd, a reload does not unload a running unit.
unit "$LIB/keeper.service" <<EOF
[Service]
ExecStart=/bin/sleep 1000
[Install]
WantedBy=multi-user.target
EOF
$E --root="$tmp" -q enable keeper >/dev/null 2>&1 || fail enable-keeper "emberctl enable failed"
# logind's pair: a runtime directory (a oneshot that remains) that a user manager requires
# and is ordered after. Stopped and started again, the manager must find it made again.
unit "$LIB/rtdir.service" <<EOF
[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/bin/sh -c 'sleep 0.3; mkdir -p $M/rtdir'
ExecStop=/bin/rmdir $M/rtdir
EOF
unit "$LIB/usermgr.service" <<EOF
[Unit]
Requires=rtdir.service
After=rtdir.service
[Service]
ExecStart=/bin/sh -c 'test -d $M/rtdir || exit 1; exec sleep 1000'
EOF
# As systemd's suspend.target: a target that requires a oneshot (no RemainAfterExit=)
# and stops when unneeded. Each start of it runs the oneshot again: the phone sleeps
# every time, not only the first.
unit "$LIB/napper.service" <<EOF
[Service]
Type=oneshot
ExecStart=/bin/sh -c 'echo nap >>$M/napper'
EOF
unit "$LIB/nap.target" <<EOF
[Unit]
Requires=napper.service
After=napper.service
StopWhenUnneeded=yes
EOF
# A StopWhenUnneeded= unit stays while what wants it is still on its way down (systemd:
# a unit that is not inactive pins it), as a slice outlives the services in it.
unit "$LIB/slowpin.service" <<EOF
[Unit]
Wants=pinned.service
[Service]
ExecStart=/bin/sh -c 'trap "sleep 1; rm -f $M/slowpin-up; exit 0" TERM; touch $M/slowpin-up; while :; do sleep 0.1; done'
EOF
unit "$LIB/pinned.service" <<EOF
[Unit]
StopWhenUnneeded=yes
[Service]
ExecStart=/bin/sleep 1000
ExecStop=/bin/sh -c 'if [ -e $M/slowpin-up ]; then echo early; else echo after; fi >$M/pinned.order'
EOF

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$E" M="$M"
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
state() { "\$E" --json status "\$1" 2>/dev/null | sed -n 's/.*"state":"\\([^"]*\\)".*/\\1/p'; }
restarts() { "\$E" --json status "\$1" 2>/dev/null | sed -n 's/.*"restarts":\\([0-9]*\\).*/\\1/p'; }
wait_state() {
	i=0
	while [ \$i -lt \${3:-200} ]; do
		s=\$(state "\$1"); for want in \$2; do [ "\$s" = "\$want" ] && return 0; done
		sleep 0.05; i=\$((i+1))
	done
	return 1
}
wait_file() { i=0; while [ \$i -lt \${3:-200} ]; do grep -q "\$2" "\$1" 2>/dev/null && return 0; sleep 0.05; i=\$((i+1)); done; return 1; }
expect() { wait_state "\$2" "\$3" && ok "\$1" || bad "\$1" "\$2 is '\$(state \$2)', expected \$3"; }

# Service output before the re-execution below (PID 1's log buffers do not carry over).
expect wdenv-up wdenv ready
expect fdkeep-up fdkeep ready
sleep 0.3
L=\$("\$E" log wdenv)
echo "\$L" | grep -q '^WATCHDOG_USEC=60000000\$' && echo "\$L" | grep -q '^WATCHDOG_PID=self\$' &&
	echo "\$L" | grep -q '^NOTIFY_SOCKET=set\$' && ok watchdog-environment || bad watchdog-environment "\$L"
expect sockets-user-up sockuser ready
L=\$("\$E" log sockuser)
echo "\$L" | grep -q '^LISTEN_FDS=1\$' && echo "\$L" | grep -q '^LISTEN_FDNAMES=extra.socket\$' && ok sockets-passes-fds || bad sockets-passes-fds "\$L"
wait_file_log() { i=0; while [ \$i -lt 200 ]; do "\$E" log "\$1" | grep -q "\$2" && return 0; sleep 0.05; i=\$((i+1)); done; return 1; }
wait_file_log fdkeep 'restored mystore: token-' && ok fdstore-back-after-restart || bad fdstore-back-after-restart "\$("\$E" log fdkeep)"
tok=\$("\$E" log fdkeep | sed -n 's/.*stored \\(token-[0-9]*\\)\$/\\1/p' | head -1)
"\$E" log fdkeep | grep -q "restored mystore: \$tok\$" && ok fdstore-same-file || bad fdstore-same-file "stored \$tok; \$("\$E" log fdkeep)"
# Re-execute while wdreexec still pings; its deadline must carry over.
expect wdreexec-up wdreexec ready
expect wdconn-up wdconn ready
"\$E" daemon-reexec >/dev/null 2>&1 || bad daemon-reexec-1 "refused"
sleep 0.5

expect wddead-up wddead ready
wait_file \$M/wddead.log 'watchdog killed 6' && ok watchdog-kills-with-sigabrt || bad watchdog-kills-with-sigabrt "\$(cat \$M/wddead.log 2>&1)"
i=0; while [ "\$(restarts wddead)" = 0 ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
[ "\$(restarts wddead)" -ge 1 ] && ok restart-on-watchdog || bad restart-on-watchdog "restarts \$(restarts wddead)"
expect wddead-back-up wddead ready
wait_file \$M/wdtrig.log 'watchdog killed 10' && ok watchdog-trigger-and-signal || bad watchdog-trigger-and-signal "\$(cat \$M/wdtrig.log 2>&1)"
expect watchdog-no-restart-by-default wdtrig failed
"\$E" status wdtrig | grep -q 'watchdog' && ok watchdog-status-says-why || bad watchdog-status-says-why "\$("\$E" status wdtrig)"
wait_file \$M/wdusec.log '^watchdog' && ok watchdog-usec-from-service || bad watchdog-usec-from-service "\$(cat \$M/wdusec.log 2>&1)"
wait_state wdreexec failed 800 && "\$E" status wdreexec | grep -q 'watchdog timeout' && ok watchdog-deadline-survives-reexec ||
	bad watchdog-deadline-survives-reexec "\$("\$E" status wdreexec)"
wait_file \$M/wdreexec.log '^watchdog' && ok watchdog-result-survives-reexec || bad watchdog-result-survives-reexec "\$(cat \$M/wdreexec.log 2>&1)"
sleep 1
[ "\$(state wdalive)" = ready ] && [ ! -e \$M/wdalive.log ] && ok watchdog-pinged-service-kept || bad watchdog-pinged-service-kept "\$(state wdalive) \$(cat \$M/wdalive.log 2>&1)"
[ "\$(state wdoff)" = ready ] && [ ! -e \$M/wdoff.log ] && ok watchdog-sec-0-is-off || bad watchdog-sec-0-is-off "\$(state wdoff) \$(cat \$M/wdoff.log 2>&1)"
[ "\$(state wdconn)" = ready ] && [ "\$(restarts wdconn)" = 0 ] && [ ! -e \$M/wdconn.log ] &&
	! "\$E" log wdconn | grep -q 'send failed' && ok notify-socket-kept-over-reexec ||
	bad notify-socket-kept-over-reexec "\$(state wdconn), \$(restarts wdconn) restarts, \$(cat \$M/wdconn.log 2>&1) \$("\$E" log wdconn | tail -n 2)"

# The fd store.
"\$E" daemon-reexec >/dev/null 2>&1 || bad daemon-reexec-2 "refused"
sleep 0.5
"\$E" restart fdkeep
wait_file_log fdkeep "restored mystore: \$tok\$" && ok fdstore-survives-reexec || bad fdstore-survives-reexec "\$("\$E" log fdkeep)"
sleep 1
"\$E" log fdnone | grep -q restored && bad fdstore-needs-max "\$("\$E" log fdnone)" || ok fdstore-needs-max
"\$E" log fdgone | grep -q restored && bad fdstore-remove "\$("\$E" log fdgone)" || ok fdstore-remove
"\$E" stop fdkeep; wait_state fdkeep stopped; "\$E" start fdkeep
wait_file_log fdkeep 'stored token-'; sleep 0.5
"\$E" log fdkeep | tail -n 2 | grep -q 'stored token-' && ok fdstore-released-on-stop || bad fdstore-released-on-stop "\$("\$E" log fdkeep | tail -n 3)"

# The flood: bounded by the total, PID 1 alive, its fds bounded.
n0=\$(ls /proc/1/fd | wc -l)
"\$E" start fdflood
wait_file_log fdflood 'flooded' && ok fdflood-sent || bad fdflood-sent "\$("\$E" log fdflood)"
n=\$(ls /proc/1/fd | wc -l)
[ \$((n - n0)) -le 258 ] && ok fdstore-bounded-under-flood || bad fdstore-bounded-under-flood "PID 1 holds \$n fds, \$n0 before the flood"
"\$E" stop fdflood; wait_state fdflood stopped
n2=\$(ls /proc/1/fd | wc -l)
[ "\$n2" -lt "\$n" ] && [ "\$n2" -lt 100 ] && ok fdstore-flood-released || bad fdstore-flood-released "PID 1 holds \$n2 fds (\$n before)"

# NotifyAccess=
"\$E" start naccall; "\$E" --no-block start naccmain
expect notify-access-all naccall ready
sleep 1; [ "\$(state naccmain)" = running ] && ok notify-access-main-refuses-child || bad notify-access-main-refuses-child "naccmain is \$(state naccmain)"

# Sockets=

# ReloadPropagatedFrom=
"\$E" reload reloader >/dev/null 2>&1 || bad reload-reloader "refused"
wait_file \$M/reloadee.log reloaded && ok reload-propagated || bad reload-propagated "no reload of reloadee"
wait_file \$M/reloadee2.log reloaded && ok propagates-reload-to || bad propagates-reload-to "no reload of reloadee2"
[ ! -e \$M/bystander.log ] && ok reload-not-propagated-elsewhere || bad reload-not-propagated-elsewhere "bystander reloaded"

# JobTimeoutSec=: the start is given up, the unit left inactive (systemd's job result
# "timeout"), its OnFailure= runs
expect job-timeout-fails jobby stopped
"\$E" -q is-failed jobby && bad job-timeout-not-failed "is-failed says yes" || ok job-timeout-not-failed
wait_file \$M/jobby-noticed noticed && ok job-timeout-on-failure-runs || bad job-timeout-on-failure-runs "no OnFailure= run"
"\$E" status jobby | grep -q 'JobTimeoutSec' && ok job-timeout-says-why || bad job-timeout-says-why "\$("\$E" status jobby)"
wait_state jobok ready 200 && ok job-without-timeout-waits || bad job-without-timeout-waits "jobok is \$(state jobok)"

# RefuseManualStart=, RefuseManualStop=, StopWhenUnneeded=
expect dependency-starts-refuser refuser ready
expect dependency-starts-helper helperd ready
"\$E" stop refuser; wait_state refuser stopped; expect manual-stop-allowed refuser "stopped stopping"
out=\$("\$E" start refuser 2>&1); rc=\$?
[ \$rc = 1 ] && echo "\$out" | grep -q 'refused' && ok refuse-manual-start || bad refuse-manual-start "rc \$rc: \$out"
sleep 0.3; [ "\$(state refuser)" = stopped ] && ok refused-start-runs-nothing || bad refused-start-runs-nothing "refuser is \$(state refuser)"
out=\$("\$E" stop stopper 2>&1); rc=\$?
[ \$rc = 1 ] && echo "\$out" | grep -q 'refused' && [ "\$(state stopper)" = ready ] && ok refuse-manual-stop || bad refuse-manual-stop "rc \$rc: \$out; \$(state stopper)"
"\$E" restart stopper >/dev/null 2>&1; [ \$? = 1 ] && ok refuse-manual-restart || bad refuse-manual-restart "restart allowed"
"\$E" stop puller
expect stop-when-unneeded helperd "stopped stopping"
[ "\$(state stopper)" = ready ] && ok needed-units-without-key-stay || bad needed-units-without-key-stay "stopper is \$(state stopper)"
"\$E" start helperd; sleep 0.5
expect unneeded-manual-start-stops-again helperd "stopped stopping"
# sessions: a start with the control protocol's "hold" (ember-activator's, for what a
# session's scope requires) keeps a StopWhenUnneeded= unit up, until a stop by name.
wait_state helperd stopped
held=\$(python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET); s.connect("/run/ember/control")
s.send(b"start helperd hold"); print(s.recv(4096).decode())')
sleep 1
[ "\$held" = X0 ] && [ "\$(state helperd)" = ready ] && ok held-unit-stays-needed || bad held-unit-stays-needed "reply '\$held', helperd is \$(state helperd)"
"\$E" stop helperd; wait_state helperd stopped; "\$E" start helperd; sleep 0.5
expect stop-by-name-ends-hold helperd "stopped stopping"
# Requires= on a oneshot that remains: stopped, it is started again with what requires it,
# and first (After=).
"\$E" start usermgr; expect requirer-up usermgr ready
"\$E" stop rtdir; wait_state usermgr stopped; wait_state rtdir stopped
[ ! -d \$M/rtdir ] && ok required-oneshot-stopped || bad required-oneshot-stopped "rtdir is \$(state rtdir)"
"\$E" start usermgr; wait_state usermgr "ready failed"
[ "\$(state usermgr)" = ready ] && [ -d \$M/rtdir ] && ok stopped-oneshot-pulled-in-again ||
	bad stopped-oneshot-pulled-in-again "usermgr is \$(state usermgr), rtdir is \$(state rtdir)"
# A disabled unit that runs stays loaded and running over a reload; a stop stops it.
expect enabled-unit-up keeper ready
"\$E" --root=$tmp -q disable keeper; "\$E" daemon-reload >/dev/null; sleep 0.5
[ "\$(state keeper)" = ready ] && ok reload-keeps-disabled-running-unit || bad reload-keeps-disabled-running-unit "keeper is '\$(state keeper)'"
"\$E" stop keeper; wait_state keeper stopped && ok disabled-unit-stops-by-name || bad disabled-unit-stops-by-name "keeper is '\$(state keeper)'"
# A finished oneshot is down: what requires it runs it again.
"\$E" start nap.target; wait_file \$M/napper nap; wait_state nap.target stopped
"\$E" start nap.target; i=0; while [ "\$(grep -c nap \$M/napper)" -lt 2 ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
[ "\$(grep -c nap \$M/napper)" = 2 ] && ok finished-oneshot-runs-again || bad finished-oneshot-runs-again "napper ran \$(grep -c nap \$M/napper) time(s)"
# StopWhenUnneeded=: kept until what wants it is down.
"\$E" start slowpin; expect pinned-up pinned ready
"\$E" stop slowpin; wait_state pinned stopped 200
[ "\$(cat \$M/pinned.order 2>&1)" = after ] && ok unneeded-waits-for-stopping-pin ||
	bad unneeded-waits-for-stopping-pin "pinned stopped while slowpin was: \$(cat \$M/pinned.order 2>&1)"
kill -0 1 && ok pid1-alive || bad pid1-alive gone
exit 0
EOS
chmod +x "$tmp/guest.sh"
timeout 240 unshare --pid --mount --uts --fork --mount-proc \
	env container=ember-test "$BIN/ember-init" ember.services="$OWN:$ETC:$LIB" \
	ember.run="$tmp/guest.sh" ember.shell=none >"$tmp/log" 2>&1
rc=$?; [ -n "$KEEP_LOG" ] && cp "$tmp/log" "$KEEP_LOG"
grep -E '^(PASS|FAIL|SKIP) ' "$tmp/log"
grep -q '^FAIL ' "$tmp/log" && FAILED=1
[ "$(grep -c "fdflood: FDSTORE=1: ember's store is full" "$tmp/log")" = 1 ] && pass fdstore-full-said-once ||
	fail fdstore-full-said-once "$(grep -c "store is full" "$tmp/log") lines"
grep -q '^EMBER-RUN-EXIT=0$' "$tmp/log" && pass guest-completed || fail guest-completed "rc $rc; $(tail -5 "$tmp/log" | tr '\n' ' ')"

# ---- SuccessAction= / FailureAction=: each powers the (namespace's) system off ----
boot_with() { # NAME UNIT-TEXT: a boot with that unit and a sleeper; ember-init must end
	rm -rf "$tmp/act"; mkdir -p "$tmp/act"
	printf '%b' "$2" >"$tmp/act/$1.service"
	printf '[Service]\nExecStart=/bin/sleep 1000\n' >"$tmp/act/sleeper.service"
	timeout "${3:-20}" unshare --pid --mount --uts --fork --mount-proc \
		env container=ember-test "$BIN/ember-init" ember.services="$tmp/act" \
		ember.shell=none >"$tmp/act.log" 2>&1
}
boot_with done '[Unit]\nSuccessAction=poweroff\n[Service]\nType=oneshot\nExecStart=/bin/true\n'
[ $? != 124 ] && grep -q 'SuccessAction=poweroff' "$tmp/act.log" && pass success-action-poweroff ||
	fail success-action-poweroff "$(tail -5 "$tmp/act.log" | tr '\n' ' ')"
boot_with broken '[Unit]\nFailureAction=reboot-force\n[Service]\nExecStart=/bin/false\n'
[ $? != 124 ] && grep -q 'FailureAction=reboot-force' "$tmp/act.log" && pass failure-action-reboot-force ||
	fail failure-action-reboot-force "$(tail -5 "$tmp/act.log" | tr '\n' ' ')"
boot_with fine '[Unit]\nFailureAction=poweroff\n[Service]\nType=oneshot\nExecStart=/bin/true\nRemainAfterExit=yes\n' 4
[ $? = 124 ] && pass failure-action-not-on-success || fail failure-action-not-on-success "$(tail -5 "$tmp/act.log" | tr '\n' ' ')"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 80 "$tmp/log"; }
finish
