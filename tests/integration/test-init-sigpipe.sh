#!/bin/sh
# IgnoreSIGPIPE= against the real ember-init as PID 1 of a PID+mount namespace: as under
# systemd, a service's commands start with SIGPIPE ignored (the default, yes), so a
# write to a pipe whose reader has gone fails with EPIPE and the writer goes on; with
# IgnoreSIGPIPE=no (Debian's getty units) SIGPIPE has its default action and ends it.
# No other signal is ignored either way, also when ember-init's parent left some ignored
# (here SIGHUP and SIGUSR1: a container's manager, a test harness), as systemd resets
# every signal for its services.
. "$(dirname "$0")/../lib.sh"
for p in ember-init emberctl; do
	[ -x "$BIN/$p" ] || { fail build "missing $BIN/$p (run make)"; finish; }
done
[ "$(id -u)" = 0 ] || { skip init-sigpipe "needs root (namespaces)"; finish; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M"
# the writer prints into a pipe whose reader (true) has ended, then notes that it lives on
printf '(sleep 0.3; printf x; echo "rc=$?" >"$1") | true\n' >"$tmp/writer.sh"
for u in default no; do
	{
		printf '[Service]\nType=oneshot\n'
		[ $u = default ] || printf 'IgnoreSIGPIPE=no\n'
		printf 'ExecStart=/bin/sh -c "exec grep ^SigIgn /proc/self/status >%s/ign-%s"\n' "$M" $u
		printf 'ExecStart=/bin/sh %s/writer.sh %s/wrote-%s\n' "$tmp" "$M" $u
	} >"$S/pipe-$u.service"
done

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
for u in default no; do
	i=0; while [ "\$(emberctl show -p ActiveState --value pipe-\$u)" = activating ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
done
[ "\$(cat $M/ign-default 2>&1)" = "SigIgn:	0000000000001000" ] && ok sigpipe-ignored-by-default ||
	bad sigpipe-ignored-by-default "\$(cat $M/ign-default 2>&1)"
[ "\$(cat $M/wrote-default 2>&1)" = "rc=1" ] && ok writer-gets-epipe || bad writer-gets-epipe "\$(cat $M/wrote-default 2>&1)"
[ "\$(cat $M/ign-no 2>&1)" = "SigIgn:	0000000000000000" ] && ok ignore-sigpipe-no ||
	bad ignore-sigpipe-no "\$(cat $M/ign-no 2>&1)"
[ ! -e $M/wrote-no ] && ok ignore-sigpipe-no-writer-ends || bad ignore-sigpipe-no-writer-ends "\$(cat $M/wrote-no)"
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log" "trap '' HUP USR1"
finish
