#!/bin/sh
# MODE=flag: booted with ember.rescue. MODE=failure: an essential service failed.
ok() { echo "EMBER-TEST PASS $1"; }
bad() { echo "EMBER-TEST FAIL $1: $2"; }
state() { emberctl --json status "$1" | sed -n 's/.*"state":"\([^"]*\)".*/\1/p'; }
sleep 1
shell=$(grep -l '^-sh' /proc/[0-9]*/cmdline 2>/dev/null | head -n 1)
[ -n "$shell" ] && ok rescue-shell-running || bad rescue-shell-running "no login shell on the console"
if grep -q 'ember.rescue' /proc/cmdline; then
	dmesg | grep -q 'rescue: ember.rescue on the kernel command line' && ok rescue-announced || bad rescue-announced "no log line"
	[ -e /run/storage-ok ] && ok essential-started || bad essential-started "storage did not run"
	[ "$(state extra)" = inactive ] && ok non-essential-left-out || bad non-essential-left-out "extra is $(state extra)"
else
	dmesg | grep -q 'rescue: essential service broken-essential failed' && ok failure-announced || bad failure-announced "no log line"
	[ "$(state extra)" = ready ] && ok others-still-run || bad others-still-run "extra is $(state extra)"
fi
exit 0
