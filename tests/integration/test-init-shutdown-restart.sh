#!/bin/sh
# A shutdown that comes while a unit waits to restart: the restart is off, and so is its
# deadline. Left armed, it fired while a slower unit still stopped and was taken for a
# stop timeout of the long-gone unit ("stop timed out, killing its whole cgroup").
# And a shutdown that takes long says which units it still waits for, every 10 s (one
# that waited minutes on a unit with TimeoutStopSec=1800 said nothing at all).
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/services"
printf '[Service]\nType=notify\nExecStart=/bin/sh -c "sleep 0.2; exit 1"\nRestart=on-failure\nRestartSec=1\n' \
	>"$tmp/services/flap.service"
printf '[Service]\nExecStart=/bin/sleep 1000\nExecStop=/bin/sleep 3\n' >"$tmp/services/slow.service"
printf '[Service]\nExecStart=/bin/sleep 1000\nExecStop=/bin/sleep 12\n' >"$tmp/services/lingering.service"
# more of them than one line can name: the line is cut short, and says so
for i in 01 02 03 04 05 06 07 08 09 10 11 12; do
	printf '[Service]\nExecStart=/bin/sleep 1000\nExecStop=/bin/sleep 12\n' \
		>"$tmp/services/zz-one-of-many-lingering-units-$i.service"
done
cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
sleep 0.5
"$BIN/emberctl" --json status flap | grep -q '"sub_state":"auto-restart"' && echo "PASS restart-pending-at-shutdown" ||
	echo "FAIL restart-pending-at-shutdown: \$("$BIN/emberctl" status flap | head -n 3)"
exit 0
EOS
chmod +x "$tmp/guest.sh"
timeout 90 unshare --pid --mount --uts --fork --mount-proc \
	env container=ember-test "$BIN/ember-init" ember.services="$tmp/services" \
	ember.run="$tmp/guest.sh" ember.shell=none >"$tmp/log" 2>&1
rc=$?
grep -E '^(PASS|FAIL) ' "$tmp/log"
grep -q '^FAIL ' "$tmp/log" && FAILED=1
grep -q 'shutdown: poweroff now' "$tmp/log" && pass shutdown-completes || fail shutdown-completes "rc $rc"
grep -q 'slow: stopped' "$tmp/log" && pass slow-unit-stopped || fail slow-unit-stopped "no stop line"
if grep -q 'flap: stop timed out' "$tmp/log"; then
	fail no-stop-timeout-for-pending-restart "$(grep 'flap:' "$tmp/log" | tail -n 2 | tr '\n' ' ')"
else
	pass no-stop-timeout-for-pending-restart
fi
! grep -A20 'stopping services' "$tmp/log" | grep -q 'flap: started' && pass no-restart-during-shutdown ||
	fail no-restart-during-shutdown "flap started again while the system stopped"
line=$(grep 'shutdown: still stopping after 10 s (at most 180 s): ' "$tmp/log" | head -n 1)
echo "$line" | grep -q ': lingering, zz-one-of-many-lingering-units-01, .*, \.\.\.$' && [ ${#line} -le 320 ] &&
	pass slow-shutdown-names-what-it-waits-for ||
	fail slow-shutdown-names-what-it-waits-for "${#line} bytes: $line"
[ "$(grep -c 'still stopping' "$tmp/log")" = 1 ] && pass slow-shutdown-reported-every-10-s ||
	fail slow-shutdown-reported-every-10-s "$(grep -c 'still stopping' "$tmp/log") reports in a 12 s stop"
finish
