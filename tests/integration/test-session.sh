#!/bin/sh
# ember-session(8) outside a booted system: bad command lines exit 100 and run nothing;
# without a bus, and on a real dbus-daemon where no logind answers, the command runs
# without a session (docs/services.md "Logind sessions"), with its own exit code and
# no XDG_SESSION_ID. The session itself is checked on the Debian disk
# (tests/qemu/test-distro.sh, distro-pam-session*).
. "$(dirname "$0")/../lib.sh"
S=$BIN/ember-session
tmp=$(mktemp -d); trap 'kill $bus_pid 2>/dev/null; rm -rf "$tmp"' EXIT
bus_pid=

# ---- bad command lines: exit 100, the command never runs ----
bad() { # NAME ARGS...: ember-session ARGS -- touch MARKER exits 100 without running it
	name=$1; shift
	rm -f "$tmp/ran"
	out=$("$S" "$@" -- /bin/touch "$tmp/ran" 2>&1); rc=$?
	if [ $rc = 100 ] && [ ! -e "$tmp/ran" ] && printf '%s' "$out" | grep -q '^ember-session: '; then
		pass "session-bad-$name"
	else
		fail "session-bad-$name" "rc=$rc ran=$([ -e "$tmp/ran" ] && echo yes || echo no) out=$out"
	fi
}
bad no-uid --service login
bad no-service --uid 1000
bad uid-not-a-number --uid x --service login
bad uid-out-of-range --uid 4294967295 --service login
bad service-a-path --uid 1000 --service ../../etc/shadow
bad service-control-char --uid 1000 --service "$(printf 'lo\033gin')"
bad tty-not-under-dev --uid 1000 --service login --tty /tmp/tty1
bad tty-dotdot --uid 1000 --service login --tty /dev/../etc/passwd
bad timeout-zero --uid 1000 --service login --timeout 0
bad unknown-option --uid 1000 --service login --seat seat0
bad report-fd-closed --uid 1000 --service login --report-fd 77
rm -f "$tmp/ran"
"$S" --uid 1000 --service login /bin/touch "$tmp/ran" >/dev/null 2>&1; rc=$?
[ $rc = 100 ] && [ ! -e "$tmp/ran" ] && pass session-bad-no-dashes || fail session-bad-no-dashes "rc=$rc"
"$S" --uid 1000 --service login -- touch "$tmp/ran" >/dev/null 2>&1; rc=$?
[ $rc = 100 ] && [ ! -e "$tmp/ran" ] && pass session-bad-relative-command || fail session-bad-relative-command "rc=$rc"
out=$("$S" --uid 1000 --service "$(printf 'x\033]0;evil')" -- /bin/true 2>&1)
case $out in *"$(printf '\033')"*) fail session-bad-escaped "the message holds a raw escape" ;;
	*) pass session-bad-escaped ;; esac

# ---- no bus: the command runs, without a session ----
out=$(DBUS_SYSTEM_BUS_ADDRESS="unix:path=$tmp/no-bus" "$S" --uid 65534 --service login -- \
	/bin/sh -c 'echo "id=${XDG_SESSION_ID:-none}"; exit 7' 2>"$tmp/err"); rc=$?
[ $rc = 7 ] && [ "$out" = id=none ] && grep -q 'no system bus.*running without a logind session' "$tmp/err" &&
	pass session-no-bus-runs-without || fail session-no-bus-runs-without "rc=$rc out=$out err=$(cat "$tmp/err")"
out=$("$S" --uid 65534 --service login --address "unix:path=$tmp/no-bus" -- /nonexistent/cmd 2>&1); rc=$?
[ $rc = 127 ] && printf '%s' "$out" | grep -q 'execve(/nonexistent/cmd)' &&
	pass session-exec-failure-127 || fail session-exec-failure-127 "rc=$rc out=$out"

# ---- a fake org.freedesktop.login1 (tests/helpers/fake-logind.c): the fd it sends goes
# to the service only when it is the write end of a FIFO; no other fd from the bus does ----
fake_logind() { # MODE ARGS...: start it and wait until it owns the name
	DBUS_SYSTEM_BUS_ADDRESS="unix:path=$tmp/bus" "$HELPERS/fake-logind" "$@" >"$tmp/fl.out" 2>&1 &
	fl_pid=$!
	i=0; while ! grep -q requested "$tmp/fl.out" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
}
probe_session() { # run exec-probe in a session; its output in $tmp/probe, in $fds
	# the fds it got that it does not get without ember-session (the harness may pass some)
	base=,$("$HELPERS/exec-probe" | sed -n 's/^fds=//p'),
	"$S" --uid 65534 --service login --address "unix:path=$tmp/bus" --timeout 5 -- \
		"$HELPERS/exec-probe" exec-probe >"$tmp/probe" 2>"$tmp/err"; prc=$?
	fds=
	for f in $(sed -n 's/^fds=//p' "$tmp/probe" | tr , ' '); do
		case $base in *,$f,*) ;; *) fds="$fds${fds:+,}$f" ;; esac
	done
	return $prc
}
# The pids other than fake-logind's that have the session's fifo open.
fifo_holders() {
	for p in /proc/[0-9]*; do
		[ "${p#/proc/}" = "$fl_pid" ] && continue
		ls -l "$p/fd" 2>/dev/null | grep -q "$tmp/fl/session.fifo" && echo "${p#/proc/}"
	done
}
# As systemd's (sd-pam): one process of the user's holds the fifo, and nothing else of
# the session's leader; it goes when the leader does, though a child the leader left
# behind runs on (a phone shell's daemons after its compositor crashed): logind then
# ends the session.
fifo_holder_tests() {
	"$S" --uid 65534 --service login --address "unix:path=$tmp/bus" --timeout 5 -- \
		/bin/sh -c "sleep 60 & echo \$! >$tmp/straggler; sleep 2" 2>"$tmp/err" &
	leader=$!
	i=0; while [ ! -s "$tmp/straggler" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	# the holder sets itself up beside the leader: on a loaded machine it may still be
	# on its way (its name, its user, its fds) when the straggler is there; wait for it
	i=0 held=no
	while :; do
		h=$(echo $(fifo_holders))
		[ -n "$h" ] && [ "$h" = "${h%% *}" ] && [ "$h" != "$leader" ] &&
			[ "$h" != "$(cat "$tmp/straggler")" ] && [ "$(stat -c %u "/proc/$h")" = 65534 ] &&
			[ "$(cat "/proc/$h/comm")" = "(ember-session)" ] &&
			[ "$(ls "/proc/$h/fd" | wc -l)" = 4 ] && held=yes && break
		[ $i -ge 15 ] && break
		sleep 0.1; i=$((i + 1))
	done
	[ $held = yes ] && pass session-fifo-held-by-one-user-process ||
		fail session-fifo-held-by-one-user-process "holders: $h (leader $leader, straggler $(cat "$tmp/straggler")) uid $(stat -c %u "/proc/$h" 2>&1) comm $(cat "/proc/$h/comm" 2>&1) fds $(ls "/proc/$h/fd" 2>&1 | wc -l) err=$(cat "$tmp/err")"
	wait $leader
	i=0; while [ -n "$(fifo_holders)" ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
	kill -0 "$(cat "$tmp/straggler")" 2>/dev/null && [ -z "$(fifo_holders)" ] &&
		pass session-fifo-closed-with-leader ||
		fail session-fifo-closed-with-leader "holders after the leader: $(echo $(fifo_holders))"
	kill "$(cat "$tmp/straggler")" 2>/dev/null
}
hostile_logind_tests() {
	mkdir -p "$tmp/fl"; echo secret >"$tmp/root-file"
	fake_logind fifo "$tmp/fl"
	# the unit asks for VT 2 on seat1; the session has neither: they must not stay set
	export XDG_VTNR=2 XDG_SEAT=seat1
	probe_session; rc=$?
	unset XDG_VTNR XDG_SEAT
	# the service gets no fd: a process of its own holds the fifo (fifo_holder_tests)
	[ $rc = 0 ] && grep -q '^env=XDG_SESSION_ID=c1$' "$tmp/probe" && [ -z "$fds" ] &&
		pass session-fake-logind-fifo-not-inherited ||
		fail session-fake-logind-fifo-not-inherited "rc=$rc new fds=$fds err=$(cat "$tmp/err")"
	[ $rc = 0 ] && ! grep -q '^env=XDG_VTNR=' "$tmp/probe" && ! grep -q '^env=XDG_SEAT=' "$tmp/probe" &&
		pass session-units-vtnr-unset ||
		fail session-units-vtnr-unset "rc=$rc $(grep '^env=XDG' "$tmp/probe" | tr '\n' ' ')"
	fifo_holder_tests
	kill $fl_pid; wait $fl_pid 2>/dev/null; rm -f "$tmp/fl/session.fifo"

	fake_logind file "$tmp/root-file"
	probe_session; rc=$?
	[ $rc = 0 ] && [ -z "$fds" ] && ! grep -q '^env=XDG_SESSION_ID' "$tmp/probe" &&
		grep -q 'not a FIFO' "$tmp/err" && pass session-forged-fd-refused ||
		fail session-forged-fd-refused "rc=$rc new fds=$fds err=$(cat "$tmp/err")"
	kill $fl_pid; wait $fl_pid 2>/dev/null

	fake_logind extra "$tmp/fl" "$tmp/root-file"
	probe_session; rc=$?
	[ $rc = 0 ] && [ -z "$fds" ] && grep -q '^env=XDG_SESSION_ID=c1$' "$tmp/probe" &&
		pass session-extra-fds-closed ||
		fail session-extra-fds-closed "rc=$rc new fds=$fds err=$(cat "$tmp/err")"
	kill $fl_pid; wait $fl_pid 2>/dev/null; rm -f "$tmp/fl/session.fifo"
}
# A peer that is not logind sends replies nobody asked for to each new client, for the
# serials its first calls get, while the name's owner stays silent. On BUS (a config file), ember-session must not take it: no session, the command
# runs after the timeout.
forged_reply_test() { # NAME CONFIG [MODE]
	bus_up "$2"
	DBUS_SYSTEM_BUS_ADDRESS="unix:path=$tmp/bus" "$HELPERS/bus-name-owner" \
		org.freedesktop.login1 >"$tmp/owner.out" 2>&1 &
	owner_pid=$!
	mkdir -p "$tmp/fl"; rm -f "$tmp/fl/session.fifo"
	fake_logind "${3:-forge}" "$tmp/fl"
	i=0; while ! grep -q requested "$tmp/owner.out" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	start=$(date +%s)
	out=$(timeout 20 "$S" --uid 65534 --service login --address "unix:path=$tmp/bus" --timeout 2 -- \
		/bin/sh -c 'echo "id=${XDG_SESSION_ID:-none}"' 2>"$tmp/err"); rc=$?
	took=$(($(date +%s) - start))
	[ $rc = 0 ] && [ "$out" = id=none ] && [ $took -le 6 ] && pass "$1" ||
		fail "$1" "rc=$rc took=${took}s out=$out err=$(cat "$tmp/err") forger=$(cat "$tmp/fl.out")"
	kill $fl_pid $owner_pid; wait $fl_pid $owner_pid 2>/dev/null
	kill $bus_pid; wait $bus_pid 2>/dev/null; bus_pid=
}
bus_up() { # POLICY: a dbus-daemon on $tmp/bus with that default policy
	rm -f "$tmp/bus"
	cat >"$tmp/bus.conf" <<EOC
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <listen>unix:path=$tmp/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">$1</policy>
</busconfig>
EOC
	dbus-daemon --config-file="$tmp/bus.conf" --nofork --nopidfile >"$tmp/bus.log" 2>&1 &
	bus_pid=$!
	i=0; while [ ! -S "$tmp/bus" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
}

# ---- a real bus without logind: CreateSession is refused, the command runs ----
if command -v dbus-daemon >/dev/null; then
	cat >"$tmp/bus.conf" <<EOC
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <listen>unix:path=$tmp/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/>
  </policy>
</busconfig>
EOC
	dbus-daemon --config-file="$tmp/bus.conf" --nofork --nopidfile >"$tmp/bus.log" 2>&1 &
	bus_pid=$!
	i=0; while [ ! -S "$tmp/bus" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	out=$("$S" --uid 65534 --service login --address "unix:path=$tmp/bus" --timeout 5 -- \
		/bin/sh -c 'echo "id=${XDG_SESSION_ID:-none} rt=${XDG_RUNTIME_DIR:-none}"' 2>"$tmp/err"); rc=$?
	[ $rc = 0 ] && [ "$out" = "id=none rt=none" ] &&
		grep -q 'logind refused the session (org.freedesktop.DBus.Error.ServiceUnknown' "$tmp/err" &&
		pass session-no-logind-runs-without || fail session-no-logind-runs-without "rc=$rc out=$out err=$(cat "$tmp/err")"
	hostile_logind_tests
	kill $bus_pid 2>/dev/null; wait $bus_pid 2>/dev/null; bus_pid=
	# dbus-daemon's own guard: an <allow> passes only requested replies by default
	open='<allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/>'
	forged_reply_test session-forged-reply-bus-drops "$open"
	# a bus that lets them through: ember-session itself checks the sender
	forged_reply_test session-forged-reply-sender-checked \
		"$open<allow send_requested_reply=\"false\" send_destination=\"*\"/><allow receive_requested_reply=\"false\" receive_sender=\"*\"/>"
	# a peer flooding it with signals: the timeout still holds, memory stays its buffer
	forged_reply_test session-flood-bounded "$open" flood
else
	skip session-no-logind-runs-without "dbus-daemon missing"
fi

# ---- a login uid already set for another user, and no right to change it: refused ----
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ] && [ -w /proc/self/loginuid ] &&
	sh -c 'echo 65534 >/proc/self/loginuid' 2>/dev/null; then
	lu() { # UID: ember-session for UID in a process whose login uid is 65534, immutable to it
		sh -c 'echo 65534 >/proc/self/loginuid; exec setpriv --bounding-set -audit_control "$@"' sh \
			"$S" --uid "$1" --service login --address "unix:path=$tmp/no-bus" -- \
			/bin/cat /proc/self/loginuid 2>"$tmp/err"
	}
	out=$(lu 1000); rc=$?
	[ $rc = 111 ] && [ -z "$out" ] && grep -q 'loginuid: cannot set uid 1000' "$tmp/err" &&
		pass session-loginuid-other-user-refused ||
		fail session-loginuid-other-user-refused "rc=$rc out=$out err=$(cat "$tmp/err")"
	out=$(lu 65534); rc=$?
	[ $rc = 0 ] && [ "$out" = 65534 ] && pass session-loginuid-same-user-runs ||
		fail session-loginuid-same-user-runs "rc=$rc out=$out err=$(cat "$tmp/err")"
else
	skip session-loginuid-other-user-refused "no audit login uid to set here"
fi

# ---- systemd's user manager gets no session (pam_systemd's rule), only its runtime dir ----
# (its stack, the host's own systemd-user, may note things on stderr: not looked at here)
out=$("$S" --uid 4000000 --service systemd-user --address "unix:path=$tmp/no-bus" -- \
	/bin/sh -c 'echo "id=${XDG_SESSION_ID:-none}"' 2>"$tmp/um.err"); rc=$?
[ $rc = 0 ] && [ "$out" = id=none ] && pass session-user-manager-no-call ||
	fail session-user-manager-no-call "rc=$rc out=$out $(cat "$tmp/um.err")"
finish
