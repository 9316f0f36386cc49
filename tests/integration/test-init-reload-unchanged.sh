#!/bin/sh
# A daemon-reload says "changed" only of a unit whose files changed: a service its timer
# started, running during the reload, was said changed (the seventh holdout's run-time
# round: prometheus-node-exporter-apt), because the loader had loaded it on demand at
# boot and as a unit that is up at the reload. Real ember-init as PID 1 of a PID+mount
# namespace.
. "$(dirname "$0")/../lib.sh"
need_guest init-reload-unchanged
# two directories: units are loaded as on a distribution, by what the boot reaches
S=$tmp/lib/systemd/system
mkdir -p "$S/timers.target.wants" "$tmp/own"
printf '[Timer]\nOnActiveSec=1\n[Install]\nWantedBy=timers.target\n' >"$S/job.timer"
ln -s ../job.timer "$S/timers.target.wants/job.timer"
printf '[Service]\nType=oneshot\nExecStart=/bin/sleep 30\n' >"$S/job.service"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
st() { emberctl list | awk -v u="\$1" '\$1 == u { print \$2 }'; }
i=0; while [ "\$(st job)" != starting ] && [ "\$(st job)" != running ] && [ \$i -lt 50 ]; do sleep 0.1; i=\$((i+1)); done
out=\$(emberctl daemon-reload 2>&1)
s=\$(st job)
case \$s in starting|running) ;; *) bad reload-job-running "job is \$s" ;; esac
echo "\$out" | grep -q "changed" && bad running-triggered-unit-not-changed "\$out" || ok running-triggered-unit-not-changed
sed -i 's/sleep 30/sleep 31/' $S/job.service
emberctl daemon-reload 2>&1 | grep -q "changed job" && ok edited-unit-changed || bad edited-unit-changed "no changed line"
exit 0
EOS
run_guest "$tmp/own:$S" "$tmp/guest.sh" "$tmp/log"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 30 "$tmp/log"; }
finish
