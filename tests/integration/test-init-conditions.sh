#!/bin/sh
# Conditions and asserts in the real supervisor: ember-init as PID 1 of a PID+mount
# namespace (with container=ember-test in its environment, as container managers set
# it). A condition that does not hold leaves the service inactive ("condition-failed",
# not a failure) and its status names the condition; an assert that does not hold
# fails the start; "!" and "|" are honoured; services whose conditions hold run.
. "$(dirname "$0")/../lib.sh"
[ -x "$BIN/ember-init" ] && [ -x "$BIN/emberctl" ] || { fail build "run make first"; finish; }
command -v unshare >/dev/null || { skip conditions "no unshare"; finish; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/services"
S=$tmp/services
unit() { # NAME UNIT-LINES: a long-running service with those [Unit] lines
	printf '[Unit]\n%b[Service]\nExecStart=/bin/sleep 1000\n' "$2" >"$S/$1.service"
}
unit cond-skip "ConditionPathExists=$tmp/absent\n"
unit cond-holds "ConditionPathExists=$tmp/services\nConditionDirectoryNotEmpty=$tmp/services\n"
unit cond-not "ConditionPathExists=!$tmp/services\n"
unit in-container "ConditionVirtualization=container\n"
unit not-container "ConditionVirtualization=!container\n"
unit trigger-one "ConditionPathExists=|$tmp/absent\nConditionEnvironment=|container=ember-test\n"
unit trigger-none "ConditionPathExists=|$tmp/absent\nConditionEnvironment=|container=other\n"
unit assert-fails "AssertPathExists=$tmp/absent\n"
unit assert-holds "AssertPathIsDirectory=$tmp/services\n"
unit cond-before-assert "ConditionPathExists=$tmp/absent\nAssertPathExists=$tmp/absent\n"
unit needs-skipped "Requires=cond-skip\nAfter=cond-skip\n"
# ExecCondition= (Samba's units): 0 goes on, 1..254 skips, 255 or a signal fails.
excond() { # NAME EXIT-CODE-OF-THE-CONDITION
	printf '[Service]\nExecCondition=/bin/sh -c "exit %s"\nExecCondition=/bin/sh -c "touch %s/%s.cond2"\nExecStartPre=/bin/sh -c "touch %s/%s.pre"\nExecStart=/bin/sleep 1000\n' \
		"$2" "$tmp" "$1" "$tmp" "$1" >"$S/$1.service"
}
excond excond-pass 0
excond excond-skip 1
excond excond-skip254 254
excond excond-fail 255

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
state() { "\$E" --json status "\$1" | sed -n 's/.*"state":"\\([^"]*\\)".*/\\1/p'; }
wait_state() {
	i=0
	while [ \$i -lt 200 ]; do
		s=\$(state "\$1"); for want in \$2; do [ "\$s" = "\$want" ] && return 0; done
		sleep 0.05; i=\$((i+1))
	done
	return 1
}
expect() { wait_state "\$2" "\$3" && ok "\$1" || bad "\$1" "\$2 is \$(state \$2), expected \$3"; }
expect condition-not-met-skips cond-skip condition-failed
"\$E" status cond-skip | grep -q "condition failed: ConditionPathExists=$tmp/absent" &&
	ok status-names-condition || bad status-names-condition "\$("\$E" status cond-skip)"
expect conditions-met-run cond-holds "running ready"
expect negated-condition cond-not condition-failed
expect virtualization-container in-container "running ready"
expect virtualization-negated not-container condition-failed
expect one-trigger-suffices trigger-one "running ready"
expect no-trigger-holds trigger-none condition-failed
expect assert-fails-start assert-fails failed
"\$E" status assert-fails | grep -q "assertion failed: AssertPathExists=$tmp/absent" &&
	ok status-names-assert || bad status-names-assert "\$("\$E" status assert-fails)"
expect assert-holds-runs assert-holds "running ready"
expect conditions-before-asserts cond-before-assert condition-failed
# As systemd: the skipped unit's start job is done, not failed, so what requires it runs.
expect requires-skipped-unit-starts needs-skipped "running ready"
expect exec-condition-0-runs excond-pass "running ready"
[ -e $tmp/excond-pass.cond2 ] && [ -e $tmp/excond-pass.pre ] && ok exec-condition-then-pre ||
	bad exec-condition-then-pre "second condition or ExecStartPre= did not run"
expect exec-condition-1-skips excond-skip condition-failed
expect exec-condition-254-skips excond-skip254 condition-failed
[ ! -e $tmp/excond-skip.cond2 ] && [ ! -e $tmp/excond-skip.pre ] && ok exec-condition-skip-runs-nothing-more ||
	bad exec-condition-skip-runs-nothing-more "a later line ran"
"\$E" status excond-skip | grep -q "ExecCondition= exited with status 1" && ok exec-condition-status-says-why ||
	bad exec-condition-status-says-why "\$("\$E" status excond-skip | tr '\n' ' ')"
expect exec-condition-255-fails excond-fail failed
"\$E" start cond-skip >/dev/null 2>&1
expect manual-start-checks-again cond-skip condition-failed
touch "$tmp/absent"
"\$E" start cond-skip >/dev/null 2>&1
expect condition-rechecked-on-start cond-skip "running ready"
kill -0 1 && ok pid1-alive || bad pid1-alive gone
exit 0
EOS
chmod +x "$tmp/guest.sh"
timeout 60 unshare --pid --mount --uts --fork --mount-proc \
	env container=ember-test "$BIN/ember-init" ember.services="$S" \
	ember.run="$tmp/guest.sh" ember.shell=none >"$tmp/log" 2>&1
rc=$?
grep -E '^(PASS|FAIL|SKIP) ' "$tmp/log"
grep -q '^FAIL ' "$tmp/log" && FAILED=1
grep -q '^EMBER-RUN-EXIT=0$' "$tmp/log" && pass guest-completed || fail guest-completed "rc $rc; $(tail -5 "$tmp/log" | tr '\n' ' ')"
grep -q "cond-skip: condition failed: ConditionPathExists=$tmp/absent, skipped" "$tmp/log" &&
	pass skip-logged || fail skip-logged "no log line"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 40 "$tmp/log"; }
finish
