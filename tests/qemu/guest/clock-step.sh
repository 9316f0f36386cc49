#!/bin/sh
# Inside the guest: the wall clock is stepped over a daily timer's next elapse while
# PID 1 is busy (a reload, so the step lands between its poll and its next look at the
# timers), and while it is idle, again and again. The timer must count from the new time (docs/timers.md):
# no elapse for the day jumped over, and each step is noticed.
ok() { echo "EMBER-TEST PASS $1"; }
bad() { echo "EMBER-TEST FAIL $1: $2"; }
state() { emberctl --json status "$1" | sed -n 's/.*"state":"\([^"]*\)".*/\1/p'; }
i=0; while [ "$(state daily-mark.timer)" != ready ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
[ "$(state daily-mark.timer)" = ready ] && ok timer-active || bad timer-active "$(state daily-mark.timer)"

# Units for the reloads to read (not loaded: nothing enables them), so that each reload
# keeps PID 1 away from its poll for a while.
mkdir -p /run/ember/services
n=0; while [ $n -lt 150 ]; do
	printf '[Service]\nExecStart=/bin/true\n[Install]\nWantedBy=multi-user.target\n' >/run/ember/services/filler-$n.service
	n=$((n + 1))
done
rounds=0
for delay in 0 0.01 0.02 0.03 0.05 0.07 0.1 0.15 0 0.01 0.02 0.04 0.06 0.08 0.12 0.2; do
	date -s "2030-01-01 23:59:00" >/dev/null # before the elapse; PID 1 counts from here
	sleep 0.5
	(while [ ! -e /run/stop-reloads ]; do emberctl reload >/dev/null 2>&1; done) &
	sleep "$delay"
	date -s "2030-01-03 12:00:00" >/dev/null # over the elapse at 2030-01-02 00:00
	sleep 0.3
	touch /run/stop-reloads; wait; rm -f /run/stop-reloads
	rounds=$((rounds + 1))
done
# And with PID 1 idle in its poll: the step fires the watch's timer (armed at that
# elapse) and wakes PID 1, on a second CPU a moment before the kernel marks the watch
# cancelled.
n=0
while [ $n -lt 16 ]; do
	date -s "2030-01-01 23:59:00" >/dev/null
	sleep 0.3
	date -s "2030-01-03 12:00:00" >/dev/null
	sleep 0.2
	n=$((n + 1)) rounds=$((rounds + 1))
done
[ ! -s /run/daily-marks ] && ok no-elapse-for-a-day-jumped-over ||
	bad no-elapse-for-a-day-jumped-over "$(wc -l </run/daily-marks) elapses in $rounds steps"
steps=$(dmesg | grep -c 'the clock was set')
[ "$steps" -ge $((2 * rounds)) ] && ok every-step-noticed || bad every-step-noticed "$steps notices of $((2 * rounds)) steps"
emberctl --json list-timers | grep -q '"name":"daily-mark.timer"' && ok timer-still-listed ||
	bad timer-still-listed "$(emberctl list-timers 2>&1)"
