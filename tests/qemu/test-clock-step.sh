#!/bin/sh
# Timer units and a wall clock that is stepped (NTP on a phone that booted at its RTC's
# time) while PID 1 is busy: the calendar timers count from the new time, every step is
# noticed; with one CPU and with two. The host's clock is never touched: the steps happen in the guest
# (guest/clock-step.sh).
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
img=$QEMU_WORK/clock-step.cpio
qemu_image "$img" --dir "$TOP/tests/qemu/guest:/test" \
	--dir "$TOP/tests/qemu/services-clock:/etc/ember/services"
qemu_test "$img" clock-step 240 clock-step.sh
# Two CPUs: a step fires the watch's timer on one while PID 1 runs on the other, a moment
# before the kernel marks the watch cancelled (the Debian disk's timers, which boot with
# -smp 2, elapsed that way).
qemu_test "$img" clock-step-smp2 240 clock-step.sh "" -smp 2
finish
