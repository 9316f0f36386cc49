#!/bin/sh
# What `make run` gives a user: a shell on the serial console (the demo's init.conf asks
# for it), which powers the machine off (SIGUSR2 via busybox poweroff) or reboots it
# (SIGTERM) cleanly. And what a system without init.conf gets (a package half installed,
# /etc/ember wiped): no shell at all, while the boot goes on.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
img=$QEMU_WORK/console.cpio
qemu_image "$img" --file "$TOP/etc/demo/init.conf:/etc/ember/init.conf"

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

# No init.conf, no word on the command line: the services start, no process has the
# console as its input (but PID 1), and ember-init says it started no shell. A service of the
# image's own looks, reports and powers off.
svc=$QEMU_WORK/no-conf-services
rm -rf "$svc"; mkdir -p "$svc"
cat >"$svc/no-shell-check.service" <<'EOF'
[Service]
Type=oneshot
StandardOutput=console
ExecStart=/bin/sh /etc/no-shell-check
EOF
cat >"$QEMU_WORK/no-shell-check" <<'EOF'
sleep 1
found=""
for p in /proc/[0-9]*; do
	[ "$p" = /proc/1 ] && continue
	case $(readlink "$p/fd/0" 2>/dev/null) in
	/dev/console | /dev/ttyS0) found="$found ${p#/proc/}=$(cat "$p/comm")" ;;
	esac
done
[ -e /etc/ember/init.conf ] && echo "EMBER-TEST FAIL no-conf-image: /etc/ember/init.conf exists"
[ -z "$found" ] && echo "EMBER-TEST PASS no-conf-no-console-shell" ||
	echo "EMBER-TEST FAIL no-conf-no-console-shell: console processes:$found"
echo NO-SHELL-CHECK-DONE
poweroff
EOF
img2=$QEMU_WORK/console-no-conf.cpio
qemu_image "$img2" --dir "$svc:/etc/ember/services" --file "$QEMU_WORK/no-shell-check:/etc/no-shell-check"
log=$QEMU_WORK/console-no-conf.log
qemu_run "$img2" "$log" 120 "ember.debug_exit=0"
relay_guest_results "$log"
clean=$(tr -d '\r' <"$log")
if [ "$QEMU_RC" = 124 ]; then
	fail no-conf-boots "QEMU timed out; log kept"
elif printf '%s\n' "$clean" | grep -q NO-SHELL-CHECK-DONE; then
	pass no-conf-boots
else
	fail no-conf-boots "the check service never ran; log kept"
fi
printf '%s\n' "$clean" | grep -q 'console shell .* started' &&
	fail no-conf-ember-starts-no-shell "ember-init started a console shell" ||
	pass no-conf-ember-starts-no-shell
[ "$FAILED" = 0 ] || cp "$log" "$TOP/out/test-logs/"
finish
