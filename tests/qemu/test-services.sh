#!/bin/sh
# ember-init's supervisor on the Debian 6.1 kernel: each service in its own cgroup with
# its limits (MemoryMax -> OOM kill -> restart, TasksMax holds, weights), and shutdown in
# reverse dependency order with TimeoutStopSec enforced.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
img=$QEMU_WORK/services.cpio
qemu_image "$img" --dir "$TOP/tests/qemu/guest:/test" --file "$TOP/out/tests/helpers/fork-many:/test/fork-many" \
	--dir "$TOP/tests/qemu/services-limits:/etc/ember/services"
qemu_test "$img" services 180 services-limits.sh
log=$QEMU_WORK/services.log
clean=$(tr -d '\r' <"$log")
# Shutdown order: stubborn (after upper) first, then upper, then base.
order=$(printf '%s\n' "$clean" | sed -n 's/.*ember-init: \(stubborn\|upper\|base\): stopped$/\1/p' | tr '\n' ' ')
[ "$order" = "stubborn upper base " ] && pass shutdown-reverse-order || fail shutdown-reverse-order "order: $order"
printf '%s\n' "$clean" | grep -q 'stubborn: stop timed out, killing its whole cgroup' &&
	pass stop-timeout-kills || fail stop-timeout-kills "no kill line"
printf '%s\n' "$clean" | grep -q 'upper-got-term' && pass service-got-sigterm || fail service-got-sigterm "no upper-got-term"
finish
