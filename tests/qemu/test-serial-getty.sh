#!/bin/sh
# serial-getty on ttyS0 (Debian's unit keys: StandardInput=tty, TTYPath=/dev/ttyS0,
# TTYReset=, TTYVHangup=) under the real ember-init on the Debian kernel: agetty from
# util-linux gives a login prompt on the serial console; the session has the terminal
# as stdin and controlling tty; after a logout the getty restarts (TTYVHangup= and
# TTYReset= again) and the second session powers the machine off.
# console.py drops the rest of a chunk once a pattern matched: each expect below is the
# last thing printed in its phase (or spans the phase), never two patterns per chunk.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
agetty=$(command -v agetty || echo /sbin/agetty)
[ -x "$agetty" ] || { skip serial-getty "agetty (util-linux) not installed"; finish; }
libs=""
for lib in $(ldd "$agetty" | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p'); do
	libs="$libs --file $lib:$lib"
done
img=$QEMU_WORK/getty.cpio
# shellcheck disable=SC2086 # one --file option per library
qemu_image "$img" --file "$agetty:/sbin/agetty" $libs \
	--file "$TOP/tests/qemu/guest/ember-test-login:/usr/bin/ember-test-login" \
	--dir "$TOP/tests/qemu/services-getty:/etc/ember/services"
log=$QEMU_WORK/getty.log
mkdir -p "$TOP/out/test-logs"
"$TOP"/tests/qemu/console.py --log "$log" --timeout 150 \
	--expect 'login: ' --send root \
	--expect 'ctty-ok[\s\S]*login: ' --send off \
	--expect 'logged-in-as-off stdin=/dev/ttyS0' \
	-- "$TOP"/scripts/qemu-boot.sh "$img" "ember.shell=none"
rc=$?
clean=$(tr -d '\r' <"$log")
ok() { printf '%s\n' "$clean" | grep -q -- "$2" && pass "$1" || { fail "$1" "no '$2' on the console; log $log"; cp "$log" "$TOP/out/test-logs/"; }; }
[ $rc = 0 ] && pass getty-session-driven || { fail getty-session-driven "console.py exit $rc; log $log"; cp "$log" "$TOP/out/test-logs/"; }
ok getty-login-prompt 'login: '
ok getty-tty-is-stdin 'logged-in-as-root stdin=/dev/ttyS0'
ok getty-restarts-after-logout 'logged-in-as-off stdin=/dev/ttyS0'
ok getty-controlling-tty 'ctty-ok'
ok getty-session-powers-off 'reboot: Power down'
printf '%s\n' "$clean" | grep -q 'Kernel panic' && fail getty-no-panic "kernel panic" || pass getty-no-panic
finish
