#!/bin/sh
# ember.failed_retry=: a service given up at its start limit is tried again after that
# many seconds, against the real ember-init as PID 1 of a PID+mount namespace. Its start
# limit failed its socket units (service-start-limit-hit, as systemd); the retry makes
# them listen again first. Before 2026-12-07 it did not, and the retry ended at once on
# the failed socket (result "dependency"): a socket-activated service stayed unreachable.
#  - flop, started by traffic on flop.socket: back to waiting for its socket, listening;
#    the next client starts it;
#  - loop, which the boot pulls in (multi-user.target.wants/), as chasquid: started
#    again, once its socket listens.
. "$(dirname "$0")/../lib.sh"
need_guest init-failed-retry
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M"
run() { printf '/bin/sh -c "echo x >>%s/%s; exit 1"' "$M" "$1"; }
printf '[Socket]\nListenStream=%s/flop.sock\n' "$tmp" >"$S/flop.socket"
printf '[Service]\nRestart=always\nExecStart=%s\n' "$(run flop)" >"$S/flop.service"
printf '[Socket]\nListenStream=%s/loop.sock\n' "$tmp" >"$S/loop.socket"
printf '[Unit]\nRequires=loop.socket\nAfter=loop.socket\n[Service]\nRestart=always\nExecStart=%s\n[Install]\nWantedBy=multi-user.target\n' "$(run loop)" >"$S/loop.service"
mkdir -p "$S/multi-user.target.wants"
ln -s ../loop.service "$S/multi-user.target.wants/loop.service"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
st() { emberctl list | awk -v u="\$1" '\$1 == u { print \$2 }'; }
starts() { wc -l <$M/\$1 2>/dev/null || echo 0; }
client() { python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])" "\$1" 2>/dev/null; }
client $tmp/flop.sock
i=0; while { [ "\$(st flop)" != permanent-failure ] || [ "\$(st loop)" != permanent-failure ]; } && [ \$i -lt 50 ]; do sleep 0.1; i=\$((i+1)); done
[ "\$(st flop.socket)" = failed ] && [ "\$(st loop.socket)" = failed ] && [ "\$(starts flop)" = 5 ] &&
	ok given-up-sockets-failed || bad given-up-sockets-failed "flop \$(st flop) (\$(starts flop) starts), sockets \$(st flop.socket) \$(st loop.socket)"
# the retry (ember.failed_retry=3)
i=0; while [ "\$(st flop.socket)" != ready ] && [ \$i -lt 60 ]; do sleep 0.1; i=\$((i+1)); done
[ "\$(st flop.socket)" = ready ] && [ "\$(st flop)" = stopped ] && [ "\$(starts flop)" = 5 ] &&
	ok retry-socket-listens-again || bad retry-socket-listens-again "socket \$(st flop.socket), flop \$(st flop), \$(starts flop) starts"
client $tmp/flop.sock && ok retry-client-connects || bad retry-client-connects "refused"
i=0; while [ "\$(starts flop)" -lt 6 ] && [ \$i -lt 50 ]; do sleep 0.1; i=\$((i+1)); done
[ "\$(starts flop)" -ge 6 ] && ok retry-client-starts-service || bad retry-client-starts-service "\$(starts flop) starts, flop \$(st flop)"
i=0; while [ "\$(starts loop)" -lt 6 ] && [ \$i -lt 50 ]; do sleep 0.1; i=\$((i+1)); done
[ "\$(starts loop)" -ge 6 ] && ok retry-started-with-its-socket || bad retry-started-with-its-socket "\$(starts loop) starts, loop \$(st loop), socket \$(st loop.socket): \$(emberctl status loop | grep -i 'error\|result' | tr '\n' ' ')"
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log" : ember.failed_retry=3
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 40 "$tmp/log"; }
finish
