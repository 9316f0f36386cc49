#!/bin/sh
# emberctl status of a service restarted after its main process was killed by a signal,
# against the real ember-init as PID 1 of a PID+mount namespace: while the restart is
# pending it shows the signal, and once the new process runs no exit at all. (On the
# Debian disk with phosh, a phoc killed by SIGSEGV showed "Exit: status 139" after its
# restart: the signal was cleared at the start, the status kept.)
. "$(dirname "$0")/../lib.sh"
need_guest init-restart-status
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M"
cat >"$S/crashy.service" <<EOU
[Service]
Restart=on-failure
RestartSec=1500ms
ExecStart=/bin/sh -c "if [ -e $M/once ]; then exec sleep 60; fi; touch $M/once; kill -SEGV \$\$\$\$"
EOU

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
i=0; while [ ! -e $M/once ] && [ \$i -lt 30 ]; do sleep 0.1; i=\$((i + 1)); done
sleep 0.5
emberctl status crashy >$M/pending 2>&1
grep -q 'Exit: killed by signal 11' $M/pending && ok restart-pending-shows-signal ||
	bad restart-pending-shows-signal "\$(tr '\n' '|' <$M/pending)"
grep -q 'State: failed (auto-restart) since' $M/pending && ok restart-pending-says-auto-restart ||
	bad restart-pending-says-auto-restart "\$(tr '\n' '|' <$M/pending)"
sleep 2
emberctl status crashy >$M/running 2>&1
grep -q 'Main PID\|running\|ready' $M/running && ! grep -q 'Exit:' $M/running && ok restarted-shows-no-exit ||
	bad restarted-shows-no-exit "\$(tr '\n' '|' <$M/running)"
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log"
finish
