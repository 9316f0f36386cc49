#!/bin/sh
# A start that fails because of another unit, against the real ember-init as PID 1 of a
# PID+mount namespace; the units have [Install], so only the linked ones start at boot. As systemd's start job with result "dependency" (found on the
# Debian disk: a unit after a failed one was "failed" under ember, "inactive" under
# systemd, so list --failed differed):
#  - a unit whose required unit failed, and the units waiting on it in turn, stay
#    inactive: not in list --failed, is-failed says no;
#  - their OnFailure= units run; Restart= does not (the next try would fail the same way);
#  - a start asked for by a client fails, and says why; so does one whose Requisite= is
#    not active, which leaves the unit inactive too;
#  - once what it requires works, the same unit starts.
. "$(dirname "$0")/../lib.sh"
need_guest init-dependency-failed
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M"
printf '[Service]\nType=oneshot\nRemainAfterExit=yes\nExecStart=/bin/sh -c "test -e %s/fixed"\n[Install]\nWantedBy=multi-user.target\n' "$M" >"$S/broken.service"
printf '[Unit]\nRequires=broken.service\nAfter=broken.service\nOnFailure=noticed.service\n[Service]\nRestart=always\nRestartSec=100ms\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n' >"$S/needsbroken.service"
printf '[Unit]\nRequires=needsbroken.service\nAfter=needsbroken.service\n[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n' >"$S/second.service"
printf '[Service]\nType=oneshot\nExecStart=/bin/touch %s/noticed\n[Install]\nWantedBy=multi-user.target\n' "$M" >"$S/noticed.service"
printf '[Unit]\nRequisite=idle.service\nAfter=idle.service\n[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n' >"$S/needsidle.service"
printf '[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n' >"$S/idle.service"
mkdir -p "$S/multi-user.target.wants"
for u in broken needsbroken second; do
	ln -s "../$u.service" "$S/multi-user.target.wants/$u.service"
done

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
field() { emberctl show -p "\$2" --value "\$1" 2>&1; }
why() { emberctl status "\$1" 2>&1 | tr '\n' ' '; }
sleep 1.5
for u in needsbroken second; do
	[ "\$(field \$u ActiveState)" = inactive ] && [ "\$(field \$u Result)" = dependency ] &&
		ok "\$u-left-inactive" || bad "\$u-left-inactive" "\$(why \$u)"
done
failed=\$(emberctl --json list --failed | grep -o '"name":"[^"]*"' | tr '\n' ' ')
[ "\$failed" = '"name":"broken" ' ] && ok list-failed-names-only-the-failed-one ||
	bad list-failed-names-only-the-failed-one "[\$failed]"
emberctl is-failed needsbroken >/dev/null && bad is-failed-says-no "exit 0" || ok is-failed-says-no
emberctl is-failed broken >/dev/null && ok is-failed-of-the-failed-one || bad is-failed-of-the-failed-one "\$(why broken)"
[ -e $M/noticed ] && ok on-failure-runs || bad on-failure-runs "noticed.service: \$(why noticed)"
err=\$(emberctl start needsbroken 2>&1); rc=\$?
[ \$rc != 0 ] && echo "\$err" | grep -q 'dependency failed: broken' &&
	ok client-start-fails-and-says-why || bad client-start-fails-and-says-why "rc \$rc: \$err"
[ "\$(field needsbroken ActiveState)" = inactive ] && ok client-start-leaves-it-inactive ||
	bad client-start-leaves-it-inactive "\$(why needsbroken)"
err=\$(emberctl start needsidle 2>&1); rc=\$?
[ \$rc != 0 ] && echo "\$err" | grep -q 'Requisite=idle is not active' &&
	[ "\$(field needsidle ActiveState)" = inactive ] && ok requisite-fails-start-leaves-inactive ||
	bad requisite-fails-start-leaves-inactive "rc \$rc: \$err; \$(why needsidle)"
touch $M/fixed
emberctl start second >/dev/null 2>&1
[ "\$(field second ActiveState)" = active ] && [ "\$(field needsbroken ActiveState)" = active ] &&
	[ "\$(field needsbroken Result)" = success ] && ok starts-once-the-dependency-works ||
	bad starts-once-the-dependency-works "\$(why second) | \$(why needsbroken)"
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log"
grep -q 'needsbroken: restarting' "$tmp/log" && fail dependency-failure-not-restarted "$(grep needsbroken "$tmp/log" | head -5 | tr '\n' ' ')" ||
	pass dependency-failure-not-restarted
finish
