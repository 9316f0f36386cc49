#!/bin/sh
# Timer units under the real ember-init as PID 1 of a PID+mount namespace, enabled into
# timers.target as a package enables them:
#  - OnBootSec= long past (the host booted long ago) elapses once at start, and not again
#    after daemon-reexec (the last elapse carries over, and so does the delay
#    RandomizedDelaySec= drew for the next one)
#  - OnActiveSec= + OnUnitActiveSec= repeat at the interval, no faster; a stopped timer
#    starts nothing more
#  - OnCalendar= with seconds elapses on the wall clock's even seconds
#  - Persistent=yes: a stamp older than the last calendar elapse elapses at once and is
#    renewed; without a stamp nothing elapses and the stamp is made; a stamp in the
#    future is not used
#  - the unit to start is running: it is left running (one start), PID 1 does not spin
#  - RemainAfterElapse=no: the timer stops after its last elapse
#  - a timer whose unit does not exist fails with a reason; the boot goes on
#  - OnUnitInactiveSec= of a unit that never ran does not elapse
#  - a drop-in that changes OnCalendar=, then reload: the new event counts
#  - hostile: OnUnitInactiveSec=0 on a job that ends at once would start it for ever:
#    the timer fails (trigger limit) after 20 elapses in 2 s, PID 1 goes on
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d /tmp/embertimer.XXXXXX); trap 'rm -rf "$tmp"' EXIT
OWN=$tmp/etc/ember/services ETC=$tmp/etc/systemd/system LIB=$tmp/lib/systemd/system
mkdir -p "$OWN" "$ETC/timers.target.wants" "$LIB" "$tmp/mark"
E=$BIN/emberctl
M=$tmp/mark

unit() { printf '%b' "$2" >"$LIB/$1"; }
stamp_job() { # a oneshot that appends the wall-clock time to its mark
	unit "$1.service" "[Service]\nType=oneshot\nExecStart=/bin/sh -c 'date +%%s.%%N >>$M/$1'\n"
}
stamp_job boot;  unit boot.timer '[Timer]\nOnBootSec=1s\n'
stamp_job every; unit every.timer '[Timer]\nOnActiveSec=1s\nOnUnitActiveSec=2s\n'
stamp_job cal;   unit cal.timer '[Timer]\nOnCalendar=*:*:0/2\nAccuracySec=1s\n'
stamp_job pers;  unit pers.timer '[Timer]\nOnCalendar=daily\nPersistent=true\n'
stamp_job fresh; unit fresh.timer '[Timer]\nOnCalendar=daily\nPersistent=true\n'
stamp_job ahead; unit ahead.timer '[Timer]\nOnCalendar=daily\nPersistent=true\n'
stamp_job once;  unit once.timer '[Timer]\nOnActiveSec=1s\nRemainAfterElapse=no\n'
unit long.service "[Service]\nExecStart=/bin/sh -c 'date +%%s >>$M/long; exec sleep 1000'\n"
unit long.timer '[Timer]\nOnActiveSec=1s\nOnUnitActiveSec=1s\n'
unit orphan.timer '[Timer]\nOnActiveSec=1s\n'
# Hostile: a job that ends at once, run again as soon as it ends, for ever.
stamp_job spin;  unit spin.timer '[Timer]\nOnActiveSec=0\nOnUnitInactiveSec=0\n'
# A unit that never ran gives OnUnitInactiveSec= nothing to count from.
stamp_job idle;  unit idle.timer '[Timer]\nOnUnitInactiveSec=1s\n'
# RandomizedDelaySec=: the delay drawn for the coming elapse stays over daemon-reexec.
stamp_job rand;  unit rand.timer '[Timer]\nOnCalendar=*-*-* 00:00:00 UTC\nRandomizedDelaySec=12h\n'
for t in boot every cal pers fresh ahead once long orphan spin idle rand; do
	printf '[Install]\nWantedBy=timers.target\n' >>"$LIB/$t.timer"
	ln -s "$LIB/$t.timer" "$ETC/timers.target.wants/$t.timer"
done
# A system that has run before: pers.timer last elapsed two days ago; ahead.timer's
# stamp lies two days in the future (the clock was set back): it must not be used.
OLD=$(($(date +%s) - 2 * 86400)) AHEAD=$(($(date +%s) + 2 * 86400))

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$E" M="$M"
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
state() { "\$E" --json status "\$1" 2>/dev/null | sed -n 's/.*"state":"\\([^"]*\\)".*/\\1/p'; }
wait_state() {
	i=0
	while [ \$i -lt 200 ]; do
		[ "\$(state "\$1")" = "\$2" ] && return 0
		sleep 0.05; i=\$((i+1))
	done
	return 1
}
expect() { wait_state "\$2" "\$3" && ok "\$1" || bad "\$1" "\$2 is '\$(state \$2)', expected \$3"; }
lines() { [ -f "\$1" ] && wc -l <"\$1" || echo 0; }
cpu_ticks() { awk '{ print \$14 + \$15 }' /proc/1/stat; }
# pers.timer's runs, less its own daily elapse when the test crosses midnight (within
# AccuracySec='s minute after it): that is no missed elapse run again (a run at 00:00
# failed reexec-persistent-not-again with "2 runs")
pers_runs() {
	n=0
	[ -f \$M/pers ] || { echo 0; return; }
	while read -r t; do
		[ \$n -gt 0 ] && [ "\$(date -d "@\${t%.*}" +%H%M%S)" -lt 000105 ] && continue
		n=\$((n+1))
	done <\$M/pers
	echo \$n
}

expect timer-active every.timer ready
expect orphan-fails orphan.timer failed
"\$E" status orphan.timer | grep -q "orphan: not found, nothing to start" && ok orphan-says-why || bad orphan-says-why "\$("\$E" status orphan.timer | tail -3)"
expect spin-limited spin.timer failed
"\$E" status spin.timer | grep -q "trigger limit hit" && ok spin-says-why || bad spin-says-why "\$("\$E" status spin.timer | tail -3)"
n=\$(lines \$M/spin)
[ "\$n" -ge 20 ] && [ "\$n" -le 21 ] && ok spin-bounded || bad spin-bounded "spin ran \$n times"
t0=\$(cpu_ticks)
sleep 7
# every.timer: at 1 s, then 2 s after each start: 3 or 4 runs in ~7 s, never faster.
n=\$(lines \$M/every)
[ "\$n" -ge 3 ] && [ "\$n" -le 4 ] && ok unit-active-repeats || bad unit-active-repeats "\$n runs in 7 s"
awk 'NR > 1 && \$1 - prev < 1.8 { bad = 1 } { prev = \$1 } END { exit bad }' \$M/every && ok unit-active-interval || bad unit-active-interval "\$(cat \$M/every | tr '\n' ' ')"
[ "\$(lines \$M/idle)" = 0 ] && ok unit-inactive-never-ran-waits || bad unit-inactive-never-ran-waits "idle ran \$(lines \$M/idle) times"
[ "\$(lines \$M/boot)" = 1 ] && ok boot-past-elapses-once || bad boot-past-elapses-once "\$(lines \$M/boot) runs"
n=\$(lines \$M/cal)
[ "\$n" -ge 3 ] && ok calendar-elapses || bad calendar-elapses "\$n runs in 7 s"
awk '\$1 % 2 >= 1.5 { bad = 1 } END { exit bad }' \$M/cal && ok calendar-on-even-seconds || bad calendar-on-even-seconds "\$(cat \$M/cal | tr '\n' ' ')"
[ "\$(pers_runs)" = 1 ] && ok persistent-missed-elapses || bad persistent-missed-elapses "\$(lines \$M/pers) runs"
[ \$(stat -c %Y /var/lib/systemd/timers/stamp-pers.timer) -gt $OLD ] && ok persistent-stamp-renewed || bad persistent-stamp-renewed "mtime \$(stat -c %Y /var/lib/systemd/timers/stamp-pers.timer)"
[ "\$(lines \$M/fresh)" = 0 ] && ok persistent-first-boot-waits || bad persistent-first-boot-waits "ran \$(lines \$M/fresh) times"
[ -e /var/lib/systemd/timers/stamp-fresh.timer ] && ok persistent-stamp-made || bad persistent-stamp-made "no stamp"
"\$E" --json list-timers | grep -q '"name":"ahead.timer"[^}]*"last_elapse_s":-1' && [ "\$(lines \$M/ahead)" = 0 ] &&
	ok persistent-future-stamp-ignored || bad persistent-future-stamp-ignored "\$("\$E" --json list-timers | tr '{' '\n' | grep ahead.timer)"
[ "\$(lines \$M/long)" = 1 ] && ok running-unit-left-running || bad running-unit-left-running "started \$(lines \$M/long) times"
expect running-unit-up long ready
# PID 1 in 7 s of repeating timers: well under a second of CPU (a spin would use all 7).
used=\$(( \$(cpu_ticks) - t0 ))
[ \$used -lt 100 ] && ok pid1-does-not-spin || bad pid1-does-not-spin "\$used ticks of CPU in 7 s"
[ "\$(lines \$M/once)" = 1 ] && ok remain-no-elapsed || bad remain-no-elapsed "\$(lines \$M/once) runs"
expect remain-no-stops once.timer stopped
"\$E" list | grep -q "cal.timer" && ok timer-listed || bad timer-listed "\$("\$E" list | head)"
# list-timers: the active ones (not once.timer, done; not orphan.timer, failed)
lt=\$("\$E" list-timers)
echo "\$lt" | grep -q "9 timers listed" && ok list-timers-active || bad list-timers-active "\$lt"
echo "\$lt" | grep -E "^[A-Z][a-z][a-z] [0-9-]+ [0-9:]+ .* cal.timer +cal\$" >/dev/null && ok list-timers-next || bad list-timers-next "\$lt"
"\$E" --json list-timers | grep -q '"name":"pers.timer"[^}]*"last_elapse_s":[1-9][^}]*"sub_state":"waiting"' && ok list-timers-json || bad list-timers-json "\$("\$E" --json list-timers)"
st=\$("\$E" status cal.timer)
echo "\$st" | grep -q "Triggers: cal\$" && echo "\$st" | grep -q "Trigger: .* (in " && ok status-shows-trigger || bad status-shows-trigger "\$st"

"\$E" stop every.timer
sleep 0.5; n=\$(lines \$M/every); sleep 3
[ "\$(lines \$M/every)" = "\$n" ] && ok stopped-timer-starts-nothing || bad stopped-timer-starts-nothing "\$n -> \$(lines \$M/every)"

next_of() { "\$E" --json list-timers | tr '{' '\n' | sed -n "s/.*\"name\":\"\$1\".*\"next_elapse_s\":\([0-9-]*\).*/\1/p"; }
rand0=\$(next_of rand.timer)
"\$E" daemon-reexec && sleep 2
expect reexec-timer-active cal.timer ready
rand1=\$(next_of rand.timer)
[ -n "\$rand0" ] && [ "\$rand0" = "\$rand1" ] && [ \$((rand0 % 86400)) != 0 ] && ok reexec-random-delay-kept ||
	bad reexec-random-delay-kept "next elapse \$rand0 before, \$rand1 after"
n=\$(lines \$M/cal); sleep 3
[ "\$(lines \$M/cal)" -gt "\$n" ] && ok reexec-calendar-goes-on || bad reexec-calendar-goes-on "\$n -> \$(lines \$M/cal)"
[ "\$(lines \$M/boot)" = 1 ] && ok reexec-boot-not-again || bad reexec-boot-not-again "\$(lines \$M/boot) runs"
[ "\$(pers_runs)" = 1 ] && ok reexec-persistent-not-again || bad reexec-persistent-not-again "\$(lines \$M/pers) runs: \$(cat \$M/pers | tr '\\n' ' ')"
# A drop-in replaces cal.timer's event (an empty OnCalendar= clears it); after a reload
# its next elapse is the new event's, midnight UTC, not the old one's even second.
mkdir -p $ETC/cal.timer.d
printf '[Timer]\nOnCalendar=\nOnCalendar=*-*-* 00:00:00 UTC\n' >$ETC/cal.timer.d/50-new.conf
"\$E" reload >/dev/null
next=\$("\$E" --json list-timers | tr '{' '\n' | sed -n 's/.*"name":"cal.timer".*"next_elapse_s":\([0-9-]*\).*/\1/p')
[ -n "\$next" ] && [ \$((next % 86400)) = 0 ] && ok reload-new-calendar || bad reload-new-calendar "next elapse \$next"
[ "\$(next_of rand.timer)" = "\$rand0" ] && ok reload-random-delay-kept || bad reload-random-delay-kept "next elapse \$rand0, after the reload \$(next_of rand.timer)"
kill -0 1 && ok pid1-alive || bad pid1-alive gone
echo GUEST-CHECKS-DONE
exit 0
EOS
chmod +x "$tmp/guest.sh"
# /var/lib/systemd is a tmpfs of the namespace: the stamps never touch the host's.
timeout 120 unshare --pid --mount --uts --fork --mount-proc sh -c '
	mount --make-rprivate / && mount -t tmpfs -o size=1m tmpfs /var/lib/systemd &&
	mkdir -p /var/lib/systemd/timers && touch -d "@$1" /var/lib/systemd/timers/stamp-pers.timer &&
	touch -d "@$2" /var/lib/systemd/timers/stamp-ahead.timer || exit 99
	shift 2; exec env container=ember-test "$@"' sh "$OLD" "$AHEAD" \
	"$BIN/ember-init" ember.services="$OWN:$ETC:$LIB" ember.run="$tmp/guest.sh" ember.shell=none \
	>"$tmp/log" 2>&1
rc=$?
guest_results "$tmp/log" "$rc"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 60 "$tmp/log"; }
finish
