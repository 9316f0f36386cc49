#!/bin/sh
# What `make run` gives a user: a shell on the serial console, which powers the machine
# off (SIGUSR2 via busybox poweroff) or reboots it (SIGTERM) cleanly.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
img=$QEMU_WORK/console.cpio
qemu_image "$img"

drive() { # NAME COMMAND EXPECT-ON-CONSOLE
	log=$QEMU_WORK/console-$1.log
	"$TOP"/tests/qemu/console.py --log "$log" --timeout 120 \
		--expect 'ember:/# ' --send 'echo shell-works-$((6*7))' --expect 'shell-works-42' \
		--send "$2" -- "$TOP"/scripts/qemu-boot.sh "$img" "ember.debug_exit=0"
	rc=$?
	if [ $rc != 0 ]; then
		fail "$1" "QEMU/console exit $rc; log kept"; cp "$log" "$TOP/out/test-logs/"
	elif ! grep -q "$3" "$log"; then
		fail "$1" "no '$3' on the console"; cp "$log" "$TOP/out/test-logs/"
	elif grep -q 'Kernel panic' "$log"; then
		fail "$1" "kernel panic"; cp "$log" "$TOP/out/test-logs/"
	else
		pass "$1"
	fi
}
mkdir -p "$TOP/out/test-logs"
drive shell-poweroff poweroff 'reboot: Power down'
drive shell-reboot 'kill -TERM 1' 'reboot: Restarting system'
finish
