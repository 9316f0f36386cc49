#!/bin/sh
# Control experiment: open the watchdog ourselves (ember-init was not asked to) and never
# pet it. The machine must be reset before this script ends.
i=0; while [ ! -e /dev/watchdog0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
echo 6 > /sys/class/watchdog/watchdog0/timeout 2>/dev/null
exec 3>/dev/watchdog0
echo "watchdog armed by the test, not petted"
sleep 40
echo "EMBER-TEST FAIL unpetted-watchdog-resets: still running after 40 s"
exit 1
