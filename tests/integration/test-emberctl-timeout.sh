#!/bin/sh
# emberctl against a server that accepts and never answers, and one whose backlog is
# full and never accepts: --timeout ends both with exit 111 and a clear message (it used
# to hang forever). `timeout 30` only guards the test itself.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || { skip emberctl-timeout "python3 missing"; finish; }
T=$(mktemp -d)
python3 - "$T/mute" "$T/full" <<'PY' &
import os, socket, sys, time
mute = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET); mute.bind(sys.argv[1]); mute.listen(8)
full = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET); full.bind(sys.argv[2]); full.listen(0)
# Fill the backlog of "full" (never accepted) so that a further connect blocks.
held = []
for _ in range(4):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET); s.setblocking(False)
    try: s.connect(sys.argv[2]); held.append(s)
    except OSError: pass
clients = []
end = time.time() + 40
while time.time() < end:
    mute.settimeout(0.2)
    try: clients.append(mute.accept()[0])  # accept, read nothing, answer nothing
    except socket.timeout: pass
PY
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$T"' EXIT
i=0; while [ ! -S "$T/full" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
sleep 0.5

out=$(timeout 30 "$BIN/emberctl" --socket "$T/mute" --timeout 1 list 2>&1); rc=$?
[ $rc = 111 ] && printf '%s' "$out" | grep -q 'no answer from PID 1' && pass timeout-on-mute-server ||
	fail timeout-on-mute-server "rc $rc (124: hung): $out"
out=$(timeout 30 "$BIN/emberctl" --socket "$T/full" --timeout 1 status x 2>&1); rc=$?
[ $rc = 111 ] && pass timeout-on-full-backlog || fail timeout-on-full-backlog "rc $rc (124: hung): $out"
out=$(EMBER_CONTROL_SOCKET="$T/mute" timeout 30 "$BIN/emberctl" list 2>&1); rc=$?
[ $rc = 111 ] && pass default-timeout || fail default-timeout "rc $rc (124: hung): $out"
out=$(timeout 30 "$BIN/emberctl" --socket "$T/mute" --timeout x list 2>&1); rc=$?
[ $rc = 100 ] && pass bad-timeout-is-usage || fail bad-timeout-is-usage "rc $rc: $out"
finish
