#!/bin/sh
# "${NAME:-default}" in a command line, against the real ember-init as PID 1 of a
# PID+mount namespace. systemd leaves it as text for the shell the line runs, and
# Debian's bip.service depends on that (ExecStartPre=/bin/sh -c '[ ${ENABLED:-1} != 0 ]',
# found by a holdout of packages' unit files): ember refused the whole unit. Now the
# shell sees the text: the unit runs when ENABLED is unset or 1 and fails when it is 0,
# as under systemd; "${NAME}" beside it is still ember's to expand.
. "$(dirname "$0")/../lib.sh"
need_guest init-exec-shell-default
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M"
unit() { # NAME ENVIRONMENT-LINE
	printf '[Service]\nType=oneshot\nRemainAfterExit=yes\n%s\nEnvironment=MARK=%s\n' "$2" "$M" >"$S/$1.service"
	printf "ExecStartPre=/bin/sh -c '[ \${ENABLED:-1} != 0 ]'\n" >>"$S/$1.service"
	printf "ExecStart=/bin/sh -c 'echo \"\${WHO:-nobody} \$\$0\" >\${MARK}/%s' \${MARK}\n" "$1" >>"$S/$1.service"
}
unit unset ''
unit enabled 'Environment=ENABLED=1 WHO=me'
unit disabled 'Environment=ENABLED=0'

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
state() { emberctl list | awk -v n="\$1" '\$1 == n { print \$2 }'; }
sleep 1.5
[ "\$(cat $M/unset 2>&1)" = "nobody $M" ] && [ "\$(state unset)" = ready ] && ok default-unset-runs ||
	bad default-unset-runs "state \$(state unset), wrote \$(cat $M/unset 2>&1)"
[ "\$(cat $M/enabled 2>&1)" = "me $M" ] && ok default-set-runs || bad default-set-runs "wrote \$(cat $M/enabled 2>&1)"
[ ! -e $M/disabled ] && [ "\$(state disabled)" = failed ] && ok default-zero-fails ||
	bad default-zero-fails "state \$(state disabled), \$(ls $M)"
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log"
finish
