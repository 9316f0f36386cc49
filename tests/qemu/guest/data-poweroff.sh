#!/bin/sh
# Let the writer run, then power off through emberctl while it writes.
i=0; while ! grep -q ' /data ' /proc/mounts && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done
grep -q ' /data ' /proc/mounts && echo "EMBER-TEST PASS data-mounted" || echo "EMBER-TEST FAIL data-mounted: not mounted"
sleep 2
# Once poweroff is accepted, shutdown may end this script before it exits by itself.
trap 'exit 0' TERM
emberctl poweroff && echo "EMBER-TEST PASS poweroff-accepted" || echo "EMBER-TEST FAIL poweroff-accepted: emberctl failed"
exit 0
