#!/bin/sh
ok() { echo "EMBER-TEST PASS $1"; }
bad() { echo "EMBER-TEST FAIL $1: $2"; }
i=0; while ! ls -l /proc/1/fd 2>/dev/null | grep -q watchdog && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
ls -l /proc/1/fd | grep -q watchdog && ok pid1-holds-watchdog || bad pid1-holds-watchdog "not open"
t=$(cat /sys/class/watchdog/watchdog0/timeout 2>/dev/null)
[ "$t" = 6 ] && ok timeout-set || bad timeout-set "timeout=$t"
# Three timeouts pass: the machine is reset unless PID 1 keeps petting.
sleep 18
ok survives-three-timeouts
exit 0
