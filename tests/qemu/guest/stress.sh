#!/bin/sh
# Inside the guest (tests/qemu/test-stress.sh): PID 1 under pressure. Ends with
# kill -38 1, which must power off (systemd's SIGRTMIN+4), not halt.
ok() { echo "EMBER-TEST PASS $1"; }
bad() { echo "EMBER-TEST FAIL $1: $2"; }
CG=/sys/fs/cgroup/ember.slice
state() { emberctl --json status "$1" | sed -n 's/.*"state":"\([^"]*\)".*/\1/p'; }
field() { emberctl --json status "$1" | sed -n "s/.*\"$2\":\([-0-9]*\).*/\1/p"; }
wait_state() { i=0; while [ "$(state "$1")" != "$2" ] && [ $i -lt "${3:-100}" ]; do sleep 0.1; i=$((i+1)); done; [ "$(state "$1")" = "$2" ]; }
zombies() { grep -l '^State:.*Z' /proc/[0-9]*/status 2>/dev/null | wc -l; }

wait_state victim ready || bad victim-up "$(state victim)"

# ---- orphan storm: 2000 orphans re-parented to PID 1 at once, none left a zombie ----
/test/fork-many 2000 >/dev/null & fm=$!
sleep 2
kill -9 $fm; wait $fm 2>/dev/null
pkill -9 -P 1 -x fork-many 2>/dev/null
sleep 2
z=$(zombies)
[ "$z" = 0 ] && ok orphan-storm-reaped || bad orphan-storm-reaped "$z zombies"

# ---- the process table full for 5 s (pids.max=0 over every service), then back ----
a=$(field victim main_pid); r0=$(field victim restarts)
echo 0 >$CG/pids.max
kill -9 "$a"
sleep 5
s=$(state victim)
[ "$s" != permanent-failure ] && [ "$s" != failed ] && ok starved-not-a-failure || bad starved-not-a-failure "victim is $s"
r=$(field victim restarts)
[ $((r - r0)) -le 1 ] && ok starved-starts-not-counted || bad starved-starts-not-counted "restarts $r0 -> $r"
echo max >$CG/pids.max
wait_state victim ready 100 && [ "$(field victim main_pid)" != "$a" ] && ok recovers-after-exhaustion ||
	bad recovers-after-exhaustion "victim is $(state victim): $(emberctl status victim | tail -n 3)"

# ---- a hostile user on both sockets while root works ----
emberctl restart waker
/test/ctl-hog -u 65534 8 /run/ember/control /run/ember/notify victim >/tmp/hog.out 2>&1 & hog=$!
sleep 1
fails=0
for i in 1 2 3 4 5 6 7 8 9 10; do emberctl --timeout 5 list >/dev/null || fails=$((fails+1)); done
[ $fails = 0 ] && ok root-lists-under-hostile-user || bad root-lists-under-hostile-user "$fails of 10 failed"
emberctl --timeout 5 stop victim && wait_state victim stopped && emberctl --timeout 5 start victim &&
	wait_state victim ready && ok root-stops-starts-under-hostile-user || bad root-stops-starts-under-hostile-user "$(state victim)"
wait_state waker ready 150 && ok notify-ready-despite-flood || bad notify-ready-despite-flood "waker is $(state waker)"
wait $hog
grep -q 'ctl-hog: [0-9]* connection attempts' /tmp/hog.out && ok hostile-user-ran || bad hostile-user-ran "$(cat /tmp/hog.out)"
emberctl status waker | grep -q pwned && bad notify-outsider-ignored "STATUS from the hog" || ok notify-outsider-ignored

# ---- crash signals sent with kill: logged, ignored; supervision goes on ----
for s in SEGV BUS ILL FPE ABRT; do kill -$s 1; done
a=$(field victim main_pid); kill -9 "$a"
i=0; while [ "$(field victim main_pid)" = "$a" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
wait_state victim ready && ok supervised-after-kill-segv || bad supervised-after-kill-segv "$(state victim)"
dmesg | grep -q 'signal 11 (.*) sent by pid [0-9]* (uid 0): not a crash' && ok kill-segv-logged || bad kill-segv-logged "no line"

# ---- a real crash of PID 1 (a fault injected with ptrace), services kept ----
a=$(field victim main_pid); w=$(field waker main_pid)
if /test/crash-pid1 1; then
	i=0; while ! emberctl --timeout 2 list >/dev/null 2>&1 && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
	[ "$(field victim main_pid)" = "$a" ] && [ "$(field waker main_pid)" = "$w" ] && ok crash-keeps-services ||
		bad crash-keeps-services "$(emberctl list)"
	dmesg | grep -q 'CRASH: SIGSEGV; re-executing' && ok crash-re-executes || bad crash-re-executes "no line"
	kill -9 "$a"
	i=0; while [ "$(field victim main_pid)" = "$a" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
	wait_state victim ready && ok restarted-by-new-pid1 || bad restarted-by-new-pid1 "$(state victim)"
else
	bad crash-injected "crash-pid1 failed"
fi
z=$(zombies)
[ "$z" = 0 ] && ok no-zombies-at-the-end || bad no-zombies-at-the-end "$z"

# ---- systemd's numbering: 38 = SIGRTMIN+4 = power off (the host checks the log) ----
echo "EMBER-STRESS-DONE"
kill -38 1
sleep 60
bad poweroff-by-signal-38 "still running"
