#!/bin/sh
# Timer units and a wall clock that is stepped (NTP on a phone that booted at its RTC's
# time) while PID 1 is busy: the calendar timers count from the new time, every step is
# noticed. The host's clock is never touched: the steps happen in the guest
# (guest/clock-step.sh).
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
img=$QEMU_WORK/clock-step.cpio
qemu_image "$img" --dir "$TOP/tests/qemu/guest:/test" \
	--dir "$TOP/tests/qemu/services-clock:/etc/ember/services"
qemu_test "$img" clock-step 240 clock-step.sh
finish
