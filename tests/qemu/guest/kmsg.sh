#!/bin/sh
# Inside the guest: StandardOutput=kmsg / StandardError=kmsg (services-kmsg/).
ok() { echo "EMBER-TEST PASS $1"; }
bad() { echo "EMBER-TEST FAIL $1: $2"; status=1; }
status=0
state() { emberctl --json status "$1" | sed -n 's/.*"state":"\([^"]*\)".*/\1/p'; }
wait_state() { # NAME STATE: up to 20 s
	i=0; while [ "$(state "$1")" != "$2" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done
}
# kmsg_has CASE PRI NAME TEXT: a record "<PRI>NAME[PID]: TEXT". Writers to /dev/kmsg get
# the user facility (1): the raw priority is 8 + the level.
kmsg_has() {
	if dmesg -r | grep -qE "^<$2>(\[[ 0-9.]+\] )?$3\[[0-9]+\]: $4\$"; then
		ok "$1"
	else
		bad "$1" "no <$2>$3[PID]: $4 in dmesg; found: $(dmesg -r | grep -F "$4" | tr '\n' '|')"
	fi
}

for s in kmsgsay kmsgshare kmsgerr; do wait_state $s stopped; done
# No service of this boot sets CPUWeight= or IOWeight=: cpu and io stay off, memory and
# pids are on for every service (services-limits checks that a weight turns them on).
ctl=$(cat /sys/fs/cgroup/ember.slice/cgroup.subtree_control)
has() { case " $ctl " in *" $1 "*) true ;; *) false ;; esac; }
if has cpu || has io; then
	bad controllers-on-demand "ember/cgroup.subtree_control: $ctl"
elif has memory && has pids; then
	ok controllers-on-demand
else
	bad controllers-on-demand "memory and pids not both on: $ctl"
fi
kmsg_has stdout-line-in-kmsg 14 kmsgsay ember-kmsg-stdout-line
kmsg_has stderr-own-pipe-at-err-priority 11 kmsgsay ember-kmsg-stderr-line
kmsg_has partial-line-sent-at-exit 14 kmsgsay ember-kmsg-partial
kmsg_has shared-stderr-at-info-priority 14 kmsgshare ember-kmsg-shared-stderr
kmsg_has stderr-only-forwarded 11 kmsgerr ember-kmsg-err-only
dmesg | grep -q ember-kmsg-not-forwarded && bad stdout-log-not-forwarded "found in dmesg" ||
	ok stdout-log-not-forwarded
emberctl log kmsgsay | grep -q '^ember-kmsg-stdout-line$' && ok log-buffer-still-kept ||
	bad log-buffer-still-kept "$(emberctl log kmsgsay)"
emberctl log kmsgerr | grep -q '^ember-kmsg-not-forwarded$' && ok log-buffer-of-stdout ||
	bad log-buffer-of-stdout "$(emberctl log kmsgerr)"

# The flood: yes(1) as fast as it can, LogRateLimitBurst=20 per LogRateLimitIntervalSec=1s.
wait_state flood ready
t0=$(cut -d. -f1 /proc/uptime)
touch /run/flood-go
i=0; while ! dmesg | grep -q 'flood: [0-9]* lines suppressed$' && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
dmesg | grep -q 'flood: [0-9]* lines suppressed$' && ok flood-suppressed-record ||
	bad flood-suppressed-record "none in dmesg after 30 s"
# PID 1 keeps answering while the flood goes on (the timeout only guards against a hang).
timeout 10 emberctl status flood >/tmp/flood-status 2>&1 && grep -qE 'ready|running' /tmp/flood-status &&
	ok status-answers-during-flood || bad status-answers-during-flood "$(cat /tmp/flood-status)"
emberctl log flood | grep -q '^ember-kmsg-flood$' && ok flood-in-log-buffer ||
	bad flood-in-log-buffer "$(emberctl log flood | tail -n 3)"
emberctl stop flood
wait_state flood stopped
t1=$(cut -d. -f1 /proc/uptime)
# Bounded: the burst, then at most 20 lines for every second the flood ran (rounded up).
n=$(dmesg | grep -c 'flood\[[0-9]*\]: ember-kmsg-flood$')
max=$((20 + 20 * (t1 - t0 + 2)))
[ "$n" -ge 20 ] && [ "$n" -le "$max" ] && ok flood-rate-limited ||
	bad flood-rate-limited "$n flood lines in dmesg over $((t1 - t0)) s, expected 20..$max"
echo "KMSG-FLOOD lines=$n seconds=$((t1 - t0))"
# Our exit hangs up the console, which discards what the serial line has not sent yet:
# give it time to drain (a lost FAIL line would still show in the exit status).
sleep 1
exit $status
