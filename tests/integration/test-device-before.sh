#!/bin/sh
# Before= a device unit, against the real ember-init as PID 1 of a PID+mount namespace:
# ignored, as systemd ignores it (".device units cannot be delayed"; Debian's nbd-client
# ships Before=dev-%i.device). holder.service (Before=dev-null.device) takes 3 s to
# start; user.service (Requires=, After=dev-null.device) must not wait for it: it has
# started (its mark is older) before holder is done.
. "$(dirname "$0")/../lib.sh"
need_guest device-before
[ -c /dev/null ] || { skip device-before "no /dev/null device"; finish; }
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M"
printf '[Unit]\nBefore=dev-null.device\n[Service]\nType=oneshot\nRemainAfterExit=yes\nExecStart=/bin/sleep 3\nExecStartPost=/bin/touch %s/holder\n' "$M" >"$S/holder.service"
printf '[Unit]\nRequires=dev-null.device\nAfter=dev-null.device\n[Service]\nType=oneshot\nRemainAfterExit=yes\nExecStart=/bin/touch %s/user\n' "$M" >"$S/user.service"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
# (the test's command runs once the boot has settled: the marks' times tell the order)
i=0; while [ ! -e $M/holder ] && [ \$i -lt 200 ]; do sleep 0.05; i=\$((i+1)); done
if [ -e $M/user ] && [ $M/user -ot $M/holder ]; then echo "PASS device-not-delayed-by-before"
else echo "FAIL device-not-delayed-by-before: user started \$(stat -c %y $M/user 2>&1), holder done \$(stat -c %y $M/holder 2>&1)"; fi
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log"
finish
