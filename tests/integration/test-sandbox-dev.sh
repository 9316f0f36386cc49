#!/bin/sh
# PrivateDevices='s /dev (ember-sandbox --private-devices) shares with the host's /dev
# what systemd's does, each as the host has it: /dev/log (a link to journald's socket, or
# a syslog daemon's socket itself: without it a daemon's syslog() went nowhere, Debian's
# gdnsd in a run-time round), POSIX shared memory (/dev/shm, the same files), message
# queues (/dev/mqueue); and nothing of it where the host has none. The "host" is a /dev
# of the test's own, a tmpfs in a private mount namespace: the machine's /dev is untouched.
. "$(dirname "$0")/../lib.sh"
[ -x "$BIN/ember-sandbox" ] || { fail build "missing $BIN/ember-sandbox (run make)"; finish; }
[ "$(id -u)" = 0 ] || { skip sandbox-dev "needs root (namespaces)"; finish; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# a /dev for the "host" in a mount namespace of its own; $1: link, socket or none
fake_dev='
	mkdir -p "$T/hostdev" && mount --bind /dev "$T/hostdev" && mount -t tmpfs tmpfs /dev || exit 99
	for n in null zero full random urandom tty; do touch /dev/$n && mount --bind "$T/hostdev/$n" /dev/$n || exit 99; done
	mkdir -m 1777 /dev/shm && mkdir /dev/mqueue && mount -t mqueue mqueue /dev/mqueue || exit 99
	case $1 in
	link) ln -s /run/fake-journal/dev-log /dev/log ;;
	socket) touch /dev/log && mount --bind "$T/log.sock" /dev/log || exit 99 ;;
	esac
	echo from-host >/dev/shm/marker'
inside() { # KIND SCRIPT: the script's output in the sandbox
	T=$tmp unshare --mount --propagation private sh -c "$fake_dev"'
		exec "$2" --private-devices -- /bin/sh -c "$3"' sh "$1" "$BIN/ember-sandbox" "$2" 2>&1
}

out=$(inside link 'readlink /dev/log')
[ "$out" = /run/fake-journal/dev-log ] && pass private-dev-log-link || fail private-dev-log-link "$out"

# a syslog daemon's own socket: bound, and a message sent in the sandbox arrives
python3 - "$tmp/log.sock" "$tmp/got" <<'PY' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1]); s.settimeout(10)
open(sys.argv[2], "wb").write(s.recv(256))
PY
listener=$!
i=0; while [ ! -S "$tmp/log.sock" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
out=$(inside socket 'test -S /dev/log && echo socket; logger -u /dev/log -t sandbox-dev hello-from-inside 2>&1')
wait $listener
[ "$out" = socket ] && grep -q hello-from-inside "$tmp/got" 2>/dev/null && pass private-dev-log-socket ||
	fail private-dev-log-socket "$out; got: $(cat "$tmp/got" 2>&1)"

out=$(inside none 'ls /dev/log 2>&1 >/dev/null | grep -c "No such"; cat /dev/shm/marker; echo from-inside >/dev/shm/back; test -d /dev/mqueue && grep -q " /dev/mqueue mqueue " /proc/self/mounts && echo mqueue')
[ "$out" = "$(printf '1\nfrom-host\nmqueue')" ] && pass private-dev-shared-shm-mqueue-no-log ||
	fail private-dev-shared-shm-mqueue-no-log "$(echo "$out" | tr '\n' ' ')"
finish
