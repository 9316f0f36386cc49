#!/bin/sh
# A daemon-reload gives a unit the verdict of its new file: a unit loaded invalid (or a
# template's instance) starts once its file is fixed, and one that broke is refused,
# with the reason. Before, a unit stayed invalid after its fix until the next boot
# (found on a Debian 13 disk, run-time round 10b). Real ember-init as PID 1 of a
# PID+mount namespace.
. "$(dirname "$0")/../lib.sh"
need_guest init-reload-verdict
S=$tmp/lib/systemd/system
mkdir -p "$S" "$tmp/own"
printf '[Service]\nExecStart=/bin/sleep 600\nKillSignal=BOGUS\n' >"$S/fixme.service"
printf '[Service]\nExecStart=/bin/sleep 600\nKillSignal=BOGUS\n' >"$S/tmpl@.service"
printf '[Service]\nExecStart=/bin/sleep 600\n' >"$S/breakme.service"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
st() { emberctl --json status "\$1" | sed -n 's/.*"state":"\\([^"]*\\)".*/\\1/p'; }
emberctl start fixme 2>/dev/null && bad invalid-refused "started" || ok invalid-refused
emberctl start tmpl@x 2>/dev/null && bad invalid-instance-refused "started" || ok invalid-instance-refused
emberctl start breakme && emberctl stop breakme || bad valid-starts "\$(emberctl status breakme)"
printf '[Service]\nExecStart=/bin/sleep 600\n' >$S/fixme.service
printf '[Service]\nExecStart=/bin/sleep 600\n' >$S/tmpl@.service
printf '[Service]\nExecStart=/bin/sleep 600\nKillSignal=BOGUS\n' >$S/breakme.service
emberctl daemon-reload >/dev/null 2>&1
emberctl start fixme && [ "\$(st fixme)" = ready ] && ok fixed-unit-starts-after-reload ||
	bad fixed-unit-starts-after-reload "\$(emberctl status fixme | tr '\n' ' ')"
emberctl start tmpl@x && [ "\$(st tmpl@x)" = ready ] && ok fixed-instance-starts-after-reload ||
	bad fixed-instance-starts-after-reload "\$(emberctl status tmpl@x | tr '\n' ' ')"
out=\$(emberctl start breakme 2>&1) && bad broken-unit-refused-after-reload "started" || {
	echo "\$out" | grep -q "KillSignal=BOGUS" && ok broken-unit-refused-after-reload ||
		bad broken-unit-refused-after-reload "\$out"; }
[ "\$(st breakme)" = invalid ] && ok broken-unit-invalid || bad broken-unit-invalid "\$(st breakme)"
emberctl stop fixme tmpl@x
exit 0
EOS
run_guest "$tmp/own:$S" "$tmp/guest.sh" "$tmp/log"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 30 "$tmp/log"; }
finish
