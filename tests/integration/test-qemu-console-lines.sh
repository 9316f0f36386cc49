#!/bin/sh
# tests/qemu/lib.sh reads the guest's results off the serial console, which the kernel
# shares: a kernel message printed while the guest had written part of a result line
# lands in its middle. Such a line must still be relayed (a FAIL above all, which was
# lost and so hidden), other result lines kept apart, and EMBER-RUN-EXIT found.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
QEMU_WORK=$tmp/work
. "$TOP/tests/qemu/lib.sh"

# relayed LOG-TEXT: what relay_guest_results prints for a console log, and whether it
# set FAILED (as "failed=1" last), with the caller's FAILED kept.
relayed() {
	printf '%b' "$1" >"$tmp/console.log"
	saved=$FAILED FAILED=0
	out=$(relay_guest_results "$tmp/console.log"; echo "failed=$FAILED")
	FAILED=$saved
}
# expect NAME WANT: the relayed lines, joined with '|'
expect() {
	got=$(printf '%s\n' "$out" | tr '\n' '|')
	[ "$got" = "$2" ] && pass "$1" || fail "$1" "got '$got', expected '$2'"
}

relayed 'EMBER-TEST PASS a\r\nEMBER-TEST FAIL b: why\r\n'
expect plain-lines 'PASS a|FAIL b: why|failed=1|'
relayed 'EMBER-TEST FA[   12.345678] ember-init: crasher: exited\r\nIL split-fail: why\r\nEMBER-TEST PASS after\r\n'
expect split-fail-relayed 'FAIL split-fail: why|PASS after|failed=1|'
relayed 'EMBER-TEST PA[    3.000001] a\r\n[    3.000002] b\r\nSS two-messages\r\n'
expect two-messages-in-a-line 'PASS two-messages|failed=0|'
# a FAIL quoting dmesg, then another result: both, the FAIL not swallowed
relayed 'EMBER-TEST FAIL quoted: dmesg says [    5.123456] oops\r\nEMBER-TEST PASS next\r\n'
expect fail-quoting-dmesg-kept 'FAIL quoted: dmesg says|PASS next|failed=1|'
printf 'EMBER-RUN-E[   9.000000] x: y\r\nXIT=0\r\n' >"$tmp/exit.log"
[ "$(guest_status "$tmp/exit.log")" = 0 ] && pass split-run-exit-found ||
	fail split-run-exit-found "got '$(guest_status "$tmp/exit.log")'"
printf '[   1.000000] Linux version\r\nEMBER-RUN-EXIT=3\r\n' >"$tmp/exit.log"
[ "$(guest_status "$tmp/exit.log")" = 3 ] && pass run-exit-status || fail run-exit-status "got '$(guest_status "$tmp/exit.log")'"
finish
