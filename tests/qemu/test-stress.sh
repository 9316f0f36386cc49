#!/bin/sh
# PID 1 under pressure in one boot (issue 14; docs/supervision.md): an orphan storm, the
# process table full for 5 s and recovery, a hostile user on the control and notify
# sockets while root works, crash signals sent with kill, a real crash injected with
# ptrace (services kept), and kill -38 1 powering off as systemd numbers it.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
H=$TOP/out/tests/helpers
img=$QEMU_WORK/stress.cpio
qemu_image "$img" --dir "$TOP/tests/qemu/guest:/test" --file "$H/fork-many:/test/fork-many" \
	--file "$H/ctl-hog:/test/ctl-hog" --file "$H/crash-pid1:/test/crash-pid1" \
	--file "$H/notify-send:/test/notify-send" \
	--dir "$TOP/tests/qemu/services-stress:/etc/ember/services"
log=$QEMU_WORK/stress.log
qemu_run "$img" "$log" 240 "ember.run=/test/stress.sh"
relay_guest_results "$log"
clean=$(tr -d '\r' <"$log")
if ! printf '%s\n' "$clean" | grep -q '^EMBER-STRESS-DONE'; then
	fail stress-completes "the guest did not get to the end (QEMU exit $QEMU_RC); console log: $log"
elif [ "$QEMU_RC" != 124 ] && printf '%s\n' "$clean" | grep -q 'signal 38 from pid [0-9]*: poweroff requested' &&
	printf '%s\n' "$clean" | grep -q 'shutdown: poweroff: stopping every process'; then
	pass signal-38-powers-off
else
	fail signal-38-powers-off "no 'signal 38 ... poweroff requested' and poweroff shutdown (QEMU exit $QEMU_RC); console log: $log"
fi
grep -q 'Kernel panic' "$log" && fail no-panic "kernel panic; console log: $log"
if [ "$FAILED" != 0 ]; then
	mkdir -p "$TOP/out/test-logs"
	cp "$log" "$TOP/out/test-logs/qemu-console-stress.log"
fi
finish
