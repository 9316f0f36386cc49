#!/bin/sh
# Real unit trees under ember-init as PID 1 of a PID+mount namespace: systemd's
# directories next to ember's own, enablement made by `emberctl enable --root` deciding
# what starts (and nothing else loaded), a real package's unit (cron, from the unit corpus
# cache) changed by a drop-in, a template instance (DefaultInstance= and one started by
# name), a mask, a missing Requires= (only that unit fails), an ordering cycle (reported,
# the boot goes on), targets, PartOf=/Conflicts= at run time, enable + reload while up.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
OWN=$tmp/etc/ember/services ETC=$tmp/etc/systemd/system LIB=$tmp/lib/systemd/system
mkdir -p "$OWN" "$ETC" "$LIB" "$tmp/mark"
E=$BIN/emberctl

# A real package's unit, fetched into the corpus cache (tests/... never stores one); a
# machine that cannot fetch it gets a stand-in and the check below says so.
CORPUS=${EMBER_UNIT_CORPUS:-${XDG_CACHE_HOME:-$HOME/.cache}/ember/unit-corpus}
CRON=$CORPUS/cron/lib/systemd/system/cron.service
[ -f "$CRON" ] || "$TOP/scripts/unit-corpus.sh" cron >/dev/null 2>&1
if [ -f "$CRON" ]; then
	cp "$CRON" "$LIB/cron.service"; REAL=yes
else
	printf '[Unit]\nDescription=cron stand-in\n[Service]\nExecStart=/usr/sbin/cron -f\n[Install]\nWantedBy=multi-user.target\n' >"$LIB/cron.service"
	REAL=no
fi
# The drop-in replaces the daemon by a marker (an empty ExecStart= resets the list).
mkdir -p "$ETC/cron.service.d"
printf '[Service]\nExecStart=\nExecStart=/bin/sh -c "echo cron-from-dropin; exec sleep 1000"\n' \
	>"$ETC/cron.service.d/50-test.conf"

unit() { printf '%b' "$2" >"$1"; }
unit "$OWN/own.service" '[Service]\nExecStart=/bin/sleep 1000\n'
unit "$OWN/slowstop.service" '[Service]\nExecStart=/bin/sleep 1000\nExecStop=/bin/sleep 1\n'
# bound to slowstop and wanted by it through a link, as ember-activator is to dbus
unit "$OWN/slowpal.service" '[Unit]\nBindsTo=slowstop.service\nAfter=slowstop.service\n[Service]\nExecStart=/bin/sleep 1000\n'
mkdir -p "$OWN/slowstop.service.wants" && ln -s ../slowpal.service "$OWN/slowstop.service.wants/"
unit "$LIB/vendor-on.service" '[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n'
unit "$LIB/vendor-off.service" '[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n'
unit "$LIB/greeter@.service" '[Unit]\nDescription=greeter %I\n[Service]\nExecStart=/bin/sh -c "echo greet %i %I; exec sleep 1000"\n[Install]\nWantedBy=multi-user.target\nDefaultInstance=world\n'
unit "$LIB/masked.service" '[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n'
unit "$LIB/needy.service" '[Unit]\nRequires=absent.service\n[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n'
unit "$LIB/cyc1.service" '[Unit]\nAfter=cyc2.service\n[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n'
unit "$LIB/cyc2.service" '[Unit]\nAfter=cyc1.service\n[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n'
unit "$LIB/base.service" '[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\nAlso=part.service\n'
unit "$LIB/part.service" '[Unit]\nPartOf=base.service\nAfter=base.service\n[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n'
unit "$LIB/rival.service" '[Unit]\nConflicts=base.service\n[Service]\nExecStart=/bin/sleep 1000\n'
unit "$LIB/tied.service" '[Unit]\nBindsTo=vendor-on.service\nAfter=vendor-on.service\n[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n'
unit "$LIB/picky.service" '[Unit]\nRequisite=late.service\n[Service]\nExecStart=/bin/sleep 1000\n'
unit "$LIB/slowpoke.service" '[Service]\nExecStartPre=/bin/sleep 2\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n'
unit "$LIB/picky2.service" '[Unit]\nRequisite=slowpoke.service\n[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n'
unit "$LIB/lead.service" '[Unit]\nWants=helper.service\n[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n'
unit "$LIB/helper.service" '[Service]\nExecStart=/bin/sleep 1000\n'
# started by name: solo pulls in nothing, so it is loaded alone (the others' files are not
# read again, as on systemd); duo wants duopal, not loaded, so the loader loads both
unit "$LIB/solo.service" '[Service]\nExecStart=/bin/sleep 1000\n'
unit "$LIB/duo.service" '[Unit]\nWants=duopal.service\n[Service]\nExecStart=/bin/sleep 1000\n'
unit "$LIB/duopal.service" '[Service]\nExecStart=/bin/sleep 1000\n'
# ... and so are the few units one pulls in that are not loaded (an instance's slice,
# made from a prefix drop-in as logind's user-1000.slice), and a unit asked for by an
# alias (bus activation: dbus-org.freedesktop.hostname1.service); a pulled socket unit
# still takes the full reload
unit "$LIB/rundir@.service" '[Unit]\nAfter=own.service\n[Service]\nExecStart=/bin/sleep 1000\nSlice=tenant-%i.slice\n'
mkdir -p "$LIB/tenant-.slice.d"
unit "$LIB/tenant-.slice.d/10-defaults.conf" '[Unit]\nDescription=tenant %j\n'
unit "$LIB/tenant.slice" '[Unit]\nDescription=tenants\n'
unit "$LIB/namer.service" '[Service]\nExecStart=/bin/sleep 1000\n'
ln -s namer.service "$LIB/dbus-org.example.namer1.service"
# an alias a loaded unit names (After=) takes the full reload: it rewrites such names
unit "$OWN/orderer.service" '[Unit]\nAfter=dbus-org.example.other1.service\n[Service]\nExecStart=/bin/sleep 1000\n'
unit "$LIB/other.service" '[Service]\nExecStart=/bin/sleep 1000\n'
ln -s other.service "$LIB/dbus-org.example.other1.service"
# more units started by name over a long uptime than PID 1 keeps places for: a unit that
# is down again gives its place up
unit "$LIB/once@.service" '[Service]\nType=oneshot\nExecStart=/bin/true\n'
# a start while what the unit requires is still stopping brings that back up after its
# stop, as systemd queues the start job
unit "$LIB/slowdep.service" '[Service]\nExecStart=/bin/sleep 1000\nExecStop=/bin/sleep 1\n'
unit "$LIB/onslow.service" '[Unit]\nRequires=slowdep.service\nAfter=slowdep.service\n[Service]\nExecStart=/bin/sleep 1000\n'
unit "$LIB/plugged.service" '[Unit]\nWants=plug.socket\n[Service]\nExecStart=/bin/sleep 1000\n'
unit "$LIB/plug.socket" "[Socket]\nListenStream=$tmp/plug.sock\n"
unit "$LIB/plug.service" '[Service]\nExecStart=/bin/sleep 1000\n'
unit "$LIB/stale.service" '[Unit]\nDescription=as booted\n[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n'
unit "$LIB/late.service" '[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n'
# both enabled, one says Conflicts= of the other (Debian's atopacct and acct): the boot
# starts only the one that says it, as systemd's boot transaction does
unit "$LIB/winner.service" '[Unit]\nConflicts=loser.service\n[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n'
unit "$LIB/loser.service" '[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n'
# a timer's service wants a unit (Debian's fwupd-refresh wants network-online.target):
# that unit starts with the service, when the timer fires, not at boot
unit "$LIB/tick.timer" '[Timer]\nOnCalendar=2099-01-01\n[Install]\nWantedBy=timers.target\n'
unit "$LIB/tick.service" '[Unit]\nWants=tickdep.service\n[Service]\nType=oneshot\nExecStart=/bin/true\n'
unit "$LIB/tickdep.service" '[Service]\nExecStart=/bin/sleep 1000\n'
# a service that fails and restarts for good (Debian's pdns-recursor, its port taken),
# ordered before a target (nss-lookup.target) that another service is ordered after:
# its failed start ends what the target waited for, as systemd's start job ends
# "failed" though a restart follows; the follower starts while it keeps restarting
unit "$LIB/flappy.service" '[Unit]\nWants=lookup.target\nBefore=lookup.target\nStartLimitIntervalSec=0\n[Service]\nType=notify\nExecStart=/bin/sh -c "sleep 0.3; exit 1"\nRestart=on-failure\nRestartSec=2\n[Install]\nWantedBy=multi-user.target\n'
unit "$LIB/lookup.target" '[Unit]\nDescription=lookups\n'
# ... while a unit that requires it, started by name during a restart delay, waits for
# the restart (systemd queues its start job behind it) instead of failing at once
unit "$LIB/needsflappy.service" '[Unit]\nRequires=flappy.service\nAfter=flappy.service\n[Service]\nExecStart=/bin/sleep 1000\n'
unit "$LIB/afterlookup.service" '[Unit]\nAfter=lookup.target flappy.service\n[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n'

# Enablement, offline, as on an image: what starts is decided here.
R="$E --root=$tmp -q"
$R enable cron vendor-on vendor-off greeter@ masked needy cyc1 cyc2 base tied slowpoke picky2 lead stale winner loser tick.timer flappy afterlookup >/dev/null 2>&1 &&
	pass enable-offline || fail enable-offline "$($R enable cron 2>&1)"
$R disable vendor-off
$R mask masked
[ "$($E --root="$tmp" is-enabled vendor-on)" = enabled ] && pass is-enabled-enabled || fail is-enabled-enabled "$($E --root="$tmp" is-enabled vendor-on)"
[ "$($E --root="$tmp" is-enabled vendor-off)" = disabled ] && pass is-enabled-disabled || fail is-enabled-disabled "$($E --root="$tmp" is-enabled vendor-off)"
[ "$($E --root="$tmp" is-enabled masked)" = masked ] && pass is-enabled-masked || fail is-enabled-masked "$($E --root="$tmp" is-enabled masked)"
[ -L "$ETC/multi-user.target.wants/greeter@world.service" ] && pass default-instance-linked || fail default-instance-linked "no greeter@world link"
[ -L "$ETC/multi-user.target.wants/part.service" ] && pass also-followed || fail also-followed "no part.service link"
$E --root="$tmp" is-enabled vendor-off masked >/dev/null; [ $? = 1 ] && pass is-enabled-exit-1 || fail is-enabled-exit-1 "exit 0"
# Bad input: refused, nothing written outside the tree.
unit "$ETC/local.service" '[Service]\nExecStart=/bin/true\n'
$E --root="$tmp" -q mask local 2>/dev/null; [ $? = 1 ] && [ -f "$ETC/local.service" ] && [ ! -L "$ETC/local.service" ] &&
	pass mask-refuses-real-file || fail mask-refuses-real-file "replaced or wrong exit"
$E --root="$tmp" enable '../../../etc/passwd' 2>/dev/null; [ $? = 1 ] && pass enable-refuses-path || fail enable-refuses-path "accepted"
$E --root=relative enable cron 2>/dev/null; [ $? = 100 ] && pass root-must-be-absolute || fail root-must-be-absolute "accepted"
$E --root="$tmp" enable nothere 2>/dev/null; [ $? = 1 ] && pass enable-missing-fails || fail enable-missing-fails "exit 0"
rm "$ETC/local.service"
[ "$($E --root="$tmp" is-enabled rival)" = static ] && pass is-enabled-static || fail is-enabled-static "$($E --root="$tmp" is-enabled rival)"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$E"
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
state() { "\$E" --json status "\$1" 2>/dev/null | sed -n 's/.*"state":"\\([^"]*\\)".*/\\1/p'; }
wait_state() {
	i=0
	while [ \$i -lt 200 ]; do
		s=\$(state "\$1"); for want in \$2; do [ "\$s" = "\$want" ] && return 0; done
		sleep 0.05; i=\$((i+1))
	done
	return 1
}
expect() { wait_state "\$2" "\$3" && ok "\$1" || bad "\$1" "\$2 is '\$(state \$2)', expected \$3"; }

expect own-unit-starts own ready
expect enabled-vendor-unit-starts vendor-on ready
"\$E" status vendor-off >/dev/null 2>&1; [ \$? = 4 ] && ok disabled-unit-not-loaded || bad disabled-unit-not-loaded "vendor-off is \$(state vendor-off)"
"\$E" status late >/dev/null 2>&1; [ \$? = 4 ] && ok unreferenced-unit-not-loaded || bad unreferenced-unit-not-loaded "late is \$(state late)"
expect dropin-unit-starts cron ready
sleep 0.2
"\$E" log cron | grep -q cron-from-dropin && ok dropin-overrides-execstart || bad dropin-overrides-execstart "\$("\$E" log cron | tail -3)"
expect default-instance-starts 'greeter@world' ready
sleep 0.2
"\$E" log 'greeter@world' | grep -q '^greet world world' && ok instance-specifiers || bad instance-specifiers "\$("\$E" log 'greeter@world')"
"\$E" start 'greeter@second' && expect instance-started-by-name 'greeter@second' ready || bad instance-started-by-name "start refused"
sleep 0.2
"\$E" log 'greeter@second' | grep -q '^greet second second' && ok instance-by-name-specifiers || bad instance-by-name-specifiers "\$("\$E" log 'greeter@second')"
expect mask-honoured masked masked
expect missing-requires-fails-unit needy "invalid failed"
"\$E" status needy | grep -q 'absent' && ok missing-requires-named || bad missing-requires-named "\$("\$E" status needy)"
expect cycle-member-1-starts cyc1 ready
expect cycle-member-2-starts cyc2 ready
expect target-reached multi-user.target ready
expect after-restarting-unit-starts afterlookup ready
expect target-after-restarting-unit-reached lookup.target ready
[ "\$("\$E" --json status flappy | sed -n 's/.*"restarts":\([0-9]*\).*/\1/p')" -ge 1 ] 2>/dev/null &&
	ok restarting-unit-restarts || bad restarting-unit-restarts "\$("\$E" status flappy | head -n 5)"
i=0; while [ "\$("\$E" --json status flappy | sed -n 's/.*"sub_state":"\([^"]*\)".*/\1/p')" != auto-restart ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
"\$E" --no-block start needsflappy 2>/dev/null
sleep 0.5
[ "\$(state needsflappy)" = waiting ] && ok requirer-waits-for-restart || bad requirer-waits-for-restart "needsflappy is \$(state needsflappy): \$("\$E" status needsflappy | tail -n 4 | tr '\n' ' ')"
"\$E" stop needsflappy 2>/dev/null
"\$E" stop flappy
expect basic-target-reached basic.target ready
expect conflicter-starts-at-boot winner ready
[ "\$(state tickdep)" = inactive ] && ok timer-service-wants-wait-for-it || bad timer-service-wants-wait-for-it "tickdep is \$(state tickdep)"
"\$E" start tick && expect timer-service-start-pulls-in-wants tickdep ready || bad timer-service-start-pulls-in-wants "start refused"
[ "\$(state loser)" = inactive ] && ok conflicted-not-started-at-boot || bad conflicted-not-started-at-boot "loser is \$(state loser)"
"\$E" start loser && expect conflicted-starts-by-name loser ready || bad conflicted-starts-by-name "start refused"
expect conflicted-start-stops-conflicter winner "stopped stopping"
expect partof-unit-up part ready
"\$E" start rival && expect conflicts-stops-other base "stopped stopping" || bad conflicts-stops-other "start refused"
expect partof-follows-stop part "stopped stopping"
expect conflicting-unit-runs rival ready
expect bindsto-unit-up tied ready
"\$E" stop vendor-on && expect bindsto-follows-stop tied "stopped stopping" || bad bindsto-follows-stop "stop refused"
"\$E" start picky 2>/dev/null && bad requisite-not-started-fails "start succeeded" ||
	expect requisite-not-started-fails picky stopped
"\$E" status picky | grep -q 'Requisite=late is not active' && ok requisite-not-started-says-why || bad requisite-not-started-says-why "\$("\$E" status picky)"
expect requisite-not-started-stays-down late inactive
expect requisite-inactive-fails picky2 stopped
"\$E" status picky2 | grep -q 'Requisite=slowpoke is not active' && ok requisite-inactive-says-why || bad requisite-inactive-says-why "\$("\$E" status picky2)"
expect requisite-target-starts-on-its-own slowpoke ready
"\$E" --root="$tmp" -q enable late && "\$E" reload >/dev/null && expect enable-then-reload-starts late ready ||
	bad enable-then-reload-starts "enable or reload failed"
# A unit started by name is loaded without reading the other units' files again.
expect stale-unit-up stale ready
sed -i 's/^Description=as booted/Description=edited, no reload/' "$LIB/stale.service"
"\$E" start solo && expect start-loads-unit-alone solo ready || bad start-loads-unit-alone "start refused"
"\$E" status stale | grep -q 'as booted' && ok start-by-name-reads-no-other-file ||
	bad start-by-name-reads-no-other-file "\$("\$E" status stale | head -n 2)"
"\$E" start duo && expect start-loads-what-it-wants duopal ready || bad start-loads-what-it-wants "start refused"
expect start-loads-with-wants duo ready
"\$E" start rundir@7 && expect start-instance-pulls-in-slice tenant-7.slice ready ||
	bad start-instance-pulls-in-slice "start refused"
expect start-instance-with-slice rundir@7 ready
"\$E" status tenant-7.slice | grep -q 'tenant 7' && ok slice-prefix-dropin-applied ||
	bad slice-prefix-dropin-applied "\$("\$E" status tenant-7.slice | head -n 2)"
"\$E" status stale | grep -q 'as booted' && ok pulled-slice-reads-no-other-file ||
	bad pulled-slice-reads-no-other-file "\$("\$E" status stale | head -n 2)"
sed -i 's/^Description=.*/Description=edited before the alias/' "$LIB/stale.service"
"\$E" start dbus-org.example.namer1.service && expect start-by-alias namer ready ||
	bad start-by-alias "start refused"
"\$E" status dbus-org.example.namer1.service >/dev/null && ok status-by-alias || bad status-by-alias "unknown"
! "\$E" status stale | grep -q 'before the alias' && ok alias-reads-no-other-file ||
	bad alias-reads-no-other-file "\$("\$E" status stale | head -n 2)"
"\$E" start plugged && expect start-pulls-in-socket plug.socket ready || bad start-pulls-in-socket "start refused"
"\$E" status stale | grep -q 'before the alias' && ok pulled-socket-takes-reload ||
	bad pulled-socket-takes-reload "\$("\$E" status stale | head -n 2)"
sed -i 's/^Description=.*/Description=edited before the named alias/' "$LIB/stale.service"
"\$E" start dbus-org.example.other1.service && expect start-by-named-alias other ready ||
	bad start-by-named-alias "start refused"
"\$E" status stale | grep -q 'before the named alias' && ok named-alias-takes-reload ||
	bad named-alias-takes-reload "\$("\$E" status stale | head -n 2)"
# A start by name pulls in what the unit wants, as systemd's start job does.
expect wanted-unit-up-at-boot helper ready
"\$E" stop lead && "\$E" stop helper && wait_state helper "stopped" && wait_state lead stopped
"\$E" start lead && expect start-pulls-in-wants helper ready || bad start-pulls-in-wants "start refused"
# A start while the unit is stopping runs once the stop is done (systemd queues it).
pid0=\$("\$E" --json status slowstop | sed -n 's/.*"main_pid":\([0-9]*\).*/\1/p')
"\$E" --no-block stop slowstop
[ "\$(state slowstop)" = stopping ] && "\$E" start slowstop && expect start-while-stopping-starts-again slowstop ready ||
	bad start-while-stopping-starts-again "slowstop is \$(state slowstop)"
[ "\$("\$E" --json status slowstop | sed -n 's/.*"main_pid":\([0-9]*\).*/\1/p')" != "\$pid0" ] &&
	ok start-while-stopping-new-run || bad start-while-stopping-new-run "main pid \$pid0 still"
# ... and that start pulls in what the unit wants, as a start after the stop would.
expect start-while-stopping-pulls-in-wants slowpal ready
"\$E" start onslow && expect requires-loaded-and-up slowdep ready || bad requires-loaded-and-up "start refused"
expect requirer-up onslow ready
"\$E" --no-block stop slowdep
[ "\$(state slowdep)" = stopping ] && "\$E" start onslow && expect start-brings-back-stopping-requirement slowdep ready ||
	bad start-brings-back-stopping-requirement "slowdep is \$(state slowdep)"
expect start-with-stopping-requirement-up onslow ready
n=0; k=1
while [ \$k -le 40 ]; do
	"\$E" start "once@\$k" >/dev/null 2>&1 && wait_state "once@\$k" "stopped inactive" && n=\$((n+1))
	k=\$((k+1))
done
[ \$n = 40 ] && ok many-started-by-name || bad many-started-by-name "\$n of 40 started"
# Idle, PID 1 sleeps: reached targets and exited oneshots give it nothing to poll (it
# used to wake every second for each of them).
sleep 1
w0=\$(awk '/^voluntary_ctxt_switches/ { print \$2 }' /proc/1/status)
sleep 4
w1=\$(awk '/^voluntary_ctxt_switches/ { print \$2 }' /proc/1/status)
[ \$((w1 - w0)) -le 2 ] && ok pid1-idle-sleeps || bad pid1-idle-sleeps "\$((w1 - w0)) wake-ups in 4 s"
kill -0 1 && ok pid1-alive || bad pid1-alive gone
exit 0
EOS
chmod +x "$tmp/guest.sh"
timeout 120 unshare --pid --mount --uts --fork --mount-proc \
	env container=ember-test "$BIN/ember-init" ember.services="$OWN:$ETC:$LIB" \
	ember.run="$tmp/guest.sh" ember.shell=none >"$tmp/log" 2>&1
rc=$?
grep -E '^(PASS|FAIL|SKIP) ' "$tmp/log"
grep -q '^FAIL ' "$tmp/log" && FAILED=1
grep -q '^EMBER-RUN-EXIT=0$' "$tmp/log" && pass guest-completed || fail guest-completed "rc $rc; $(tail -5 "$tmp/log" | tr '\n' ' ')"
grep -q 'ordering cycle.*broken by dropping' "$tmp/log" && pass cycle-reported || fail cycle-reported "no cycle line in the log"
[ "$REAL" = yes ] && pass real-cron-unit-used || skip real-cron-unit-used "scripts/unit-corpus.sh cron could not fetch the package"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 60 "$tmp/log"; }
finish
