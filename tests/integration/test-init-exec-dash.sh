#!/bin/sh
# ExecStart= with "-", as systemd, against the real ember-init as PID 1 of a PID+mount
# namespace (found with Debian's own units in a run-time round: lm-sensors has two "-"
# lines whose programs exit 1, smcroute a "-" script that is missing): a failure is
# recorded and counts as success, so a oneshot goes on with its next line and ends
# active, and no restart follows. (A start that fails because a unit it requires failed:
# test-init-dependency-failed.sh.)
. "$(dirname "$0")/../lib.sh"
need_guest init-exec-dash
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M"
printf '[Service]\nType=oneshot\nRemainAfterExit=yes\nExecStart=-/bin/false\nExecStart=-/nonexistent/startup.sh\nExecStart=/bin/touch %s/last-line\n' "$M" >"$S/dash.service"
printf '[Service]\nRestart=on-failure\nRestartSec=100ms\nExecStart=-/bin/sh -c "echo x >>%s/simple-runs; exit 3"\n' "$M" >"$S/dashsimple.service"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
state() { emberctl list | awk -v n="\$1" '\$1 == n { print \$2 }'; }
sleep 1.5
[ -e $M/last-line ] && [ "\$(state dash)" = ready ] && ok dash-lines-count-as-success ||
	bad dash-lines-count-as-success "state \$(state dash), last line \$([ -e $M/last-line ] && echo ran || echo not run)"
[ "\$(wc -l <$M/simple-runs)" = 1 ] && ok dash-failure-not-restarted || bad dash-failure-not-restarted "\$(wc -l <$M/simple-runs) runs, \$(state dashsimple)"
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log"
finish
