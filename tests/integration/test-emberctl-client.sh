#!/bin/sh
# emberctl against canned replies served by tests/helpers/ctl-replay (no PID 1 needed):
# the requests it sends, its views of good replies, its exit codes, and clear errors,
# never a crash, for servers that are missing or that send garbage.
. "$(dirname "$0")/../lib.sh"
EMBERCTL=$BIN/emberctl
REPLAY=$HELPERS/ctl-replay
if [ ! -x "$EMBERCTL" ] || [ ! -x "$REPLAY" ]; then
	fail build "run make out/bin/emberctl unit-tests first (missing $EMBERCTL or $REPLAY)"
	finish
fi
T=$(mktemp -d)
SERVERS= N=0
cleanup() {
	# Servers exit after their one connection; kill those a failed case left waiting.
	for pid in $SERVERS; do kill "$pid" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT

# serve REPLY: one connection on a fresh socket $SOCK answered with REPLY (ctl-replay's
# file format, one packet per line); the request lands in $T/req.
serve() {
	N=$((N + 1))
	SOCK=$T/sock$N
	printf '%s\n' "$1" >"$T/reply$N"
	rm -f "$T/req"
	pid=$("$REPLAY" -r "$T/req" "$SOCK" "$T/reply$N") || { fail serve "ctl-replay did not start"; finish; }
	SERVERS="$SERVERS $pid"
}

# ctl ARGS...: run emberctl against the served socket; sets $out, $err, $rc.
ctl() {
	out=$("$EMBERCTL" --socket "$SOCK" "$@" 2>"$T/err")
	rc=$?
	err=$(cat "$T/err")
}

# expect NAME CODE [STDOUT-PATTERN [STDERR-PATTERN]]: check $rc and grep patterns.
expect() {
	name=$1 code=$2
	if [ "$rc" != "$code" ]; then
		fail "$name" "exit $rc, expected $code; stderr: $err"
	elif [ -n "${3:-}" ] && ! printf '%s\n' "$out" | grep -q -e "$3"; then
		fail "$name" "stdout lacks '$3': $out"
	elif [ -n "${4:-}" ] && ! printf '%s\n' "$err" | grep -q -e "$4"; then
		fail "$name" "stderr lacks '$4': $err"
	else
		pass "$name"
	fi
}

request_is() {
	got=$(cat "$T/req" 2>/dev/null)
	[ "$got" = "$2" ] && pass "$1" || fail "$1" "request '$got', expected '$2'"
}

# Bytes, not text: json.loads() on bytes insists on valid UTF-8.
json_valid() { printf '%s' "$out" | python3 -c 'import json, sys; json.loads(sys.stdin.buffer.read())' 2>&1; }

LIST='Rname=sshd\nstate=running\nmain_pid=412\nrestarts=0\nsince_us=1000000\ndescription=OpenSSH server\ntype=notify\n\n
Rname=bad\nstate=failed\nmain_pid=0\nrestarts=3\nsince_us=-1\ndescription=Broken \\x1b[31m\nerror=exec: No such file\ntype=simple\n\n
X0'
STATUS_RUNNING='Rname=sshd\nstate=running\nmain_pid=412\nrestarts=1\nsince_us=2500000\ndescription=OpenSSH server\nstatus_text=Ready\ntype=notify\nmemory_current=4404019\nmemory_peak=5242880\nhugetlb_bytes=0\npids_current=3\ncpu_usage_usec=120000\nexit_status=-1\ncgroup=/ember/sshd\nafter=network,udev\nrequires=network\n\n
X0'
STATUS_FAILED='Rname=bad\nstate=failed\nmain_pid=0\nrestarts=3\nsince_us=-1\nerror=exited with status 2\nexit_status=2\n\n
X0'
ANALYZE='Rkind=boot\nuserspace_start_us=1000000\nready_us=3000000\n\n
Rkind=service\nname=udev\nstate=ready\nstarted_us=1100000\nready_us=1600000\nfailed_us=-1\nstopped_us=-1\nafter=\n\n
Rkind=service\nname=network\nstate=ready\nstarted_us=1600000\nready_us=2600000\nfailed_us=-1\nstopped_us=-1\nafter=udev\n\n
Rkind=service\nname=sshd\nstate=running\nstarted_us=2600000\nready_us=2900000\nfailed_us=-1\nstopped_us=-1\nafter=network\n\n
X0'

# ---- reaching PID 1 ----
"$EMBERCTL" --socket "$T/none" list >/dev/null 2>"$T/err"; rc=$?; err=$(cat "$T/err"); out=
expect missing-socket-exits-111 111 "" "$T/none: cannot connect: No such file"
"$REPLAY" -s "$T/stale"
"$EMBERCTL" --socket "$T/stale" list >/dev/null 2>"$T/err"; rc=$?; err=$(cat "$T/err")
expect refused-connection-exits-111 111 "" "cannot connect: Connection refused"
serve "$LIST"
out=$(EMBER_CONTROL_SOCKET=$SOCK "$EMBERCTL" list 2>"$T/err"); rc=$?; err=$(cat "$T/err")
expect socket-from-environment 0 "^sshd  *running  *412"

# ---- good replies ----
serve "$LIST"; ctl list
expect list-table 0 "^NAME  *STATE  *PID  *RESTARTS  *SINCE  *DESCRIPTION$"
request_is list-request "list"
case $out in *'\x1b[31m'*) pass list-escapes-control-bytes ;; *) fail list-escapes-control-bytes "$out" ;; esac
serve "$LIST"; ctl --json list
expect list-json-exits-0 0
why=$(json_valid) && pass list-json-valid || fail list-json-valid "$why: $out"
# A description that is not UTF-8 (a service file may hold any bytes but controls) must
# still give valid JSON: the stray bytes become U+FFFD.
serve 'Rname=odd\nstate=running\nmain_pid=7\nrestarts=0\nsince_us=1\ndescription=caf\xe9 \xc3\x28 \xed\xa0\x80 ok\ntype=simple\n\n
X0'
ctl --json list
why=$(json_valid) && pass list-json-invalid-utf8-valid || fail list-json-invalid-utf8-valid "$why: $out"
case $out in *'caf\ufffd \ufffd( \ufffd\ufffd\ufffd ok'*) pass list-json-invalid-utf8-replaced ;;
*) fail list-json-invalid-utf8-replaced "$out" ;; esac

serve "$STATUS_RUNNING"; ctl status sshd
expect status-running-exits-0 0 "State: running since 2.500s after boot"
request_is status-request "status sshd"
serve "$STATUS_FAILED"; ctl status bad
expect status-failed-exits-3 3 "Error: exited with status 2"
serve "$STATUS_FAILED"; ctl status bad --json
expect status-json-failed-exits-3 3
why=$(json_valid) && pass status-json-valid || fail status-json-valid "$why: $out"
serve 'Enosuch: no such service
X4'; ctl status nosuch
expect no-such-service-exits-4 4 "" "^emberctl: nosuch: no such service$"
serve 'Esshd: ExecStart failed: permission denied
X1'; ctl start sshd
expect start-failure-exits-1 1 "" "emberctl: sshd: ExecStart failed"
request_is start-request "start sshd"
serve 'X0'; ctl --no-block restart sshd
expect restart-exits-0 0
request_is restart-request "restart sshd"
serve 'X0'; ctl poweroff
request_is poweroff-request "poweroff"

serve 'Tline 1\n
Tline 2\n
X0'; ctl log sshd -f
expect log-prints-text 0
[ "$out" = "line 1
line 2" ] && pass log-text-exact || fail log-text-exact "$out"
request_is log-follow-request "log sshd follow"

serve "$ANALYZE"; ctl analyze
expect analyze-chain 0 '^`-network @1.600s +1.000s$'
request_is analyze-request "analyze"
serve "$ANALYZE"; ctl analyze --json
why=$(json_valid) && pass analyze-json-valid || fail analyze-json-valid "$why: $out"
serve "$ANALYZE"; ctl analyze --svg "$T/boot.svg"
expect analyze-svg-exits-0 0 "^sshd @1.900s"
why=$(python3 -c 'import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
bars = [e for e in r.iter("{http://www.w3.org/2000/svg}rect") if e.get("class")]
sys.exit(0 if len(bars) == 3 else "%d bars" % len(bars))' "$T/boot.svg" 2>&1) &&
	pass analyze-svg-well-formed || fail analyze-svg-well-formed "$why"

# ---- servers that break the protocol: exit 5 and a message, never a crash ----
# bad_reply NAME REPLY PATTERN [ARGS...] (default: list)
bad_reply() {
	name=$1 reply=$2 pattern=$3; shift 3
	[ $# -gt 0 ] || set -- list
	serve "$reply"; ctl "$@"
	expect "$name" 5 "" "^emberctl: bad reply from PID 1: $pattern"
}
bad_reply garbage-kind 'Zgarbage' "unknown packet kind 0x5a"
bad_reply binary-garbage '\x00\xff\x01\x02' "unknown packet kind 0x00"
bad_reply no-final-status 'Rname=a\n\n' "the connection closed before the final status"
bad_reply closed-at-once '' "the connection closed"
bad_reply malformed-status 'Xyes' "malformed final status"
bad_reply unknown-status 'X7' "unknown exit status 7"
bad_reply bad-escape 'Rname=a\\q\n\n
X0' "unknown escape"
bad_reply truncated-record 'Rname=a\n
X0' "truncated record"
bad_reply record-line-cut 'Rname=a
X0' "record packet that does not end with a complete line"
long=$(head -c 5000 /dev/zero | tr '\0' a)
bad_reply oversized-packet "T$long" "reply packet longer than 4096 bytes"
bad_reply status-without-record 'X0' "no record for sshd" status sshd

# ---- emberctl verbs (issue 17): the requests they send ----
serve 'X0'; ctl kill -s HUP --kill-whom=main sshd
expect kill-exits-0 0
request_is kill-request "kill sshd signal=1 whom=main"
serve 'X0'; ctl kill sshd.service
request_is kill-default-term-all "kill sshd signal=15"
serve 'Rt_ms=5\ntext=one\neol=1\n\n
Rt_ms=9\ntext=two\neol=1\n\n
Rcursor=40\n\n
X0'; ctl log sshd -n 1
expect log-lines-exits-0 0 "^two$"
request_is log-stamped-request "log sshd stamped"
[ "$out" = two ] && pass log-lines-only-last || fail log-lines-only-last "$out"
serve 'Rname=a\nstate=failed\nactive_state=failed\n\n
X0'; ctl is-active a
expect is-active-failed-3 3 "^failed$"
request_is is-active-asks-list "list"

serve 'Tadded x\n
X0'; ctl daemon-reload
expect daemon-reload-exits-0 0 "^added x$"
request_is daemon-reload-is-reload "reload"

# ---- usage ----
usage_error() {
	name=$1; shift
	"$EMBERCTL" --socket "$T/none" "$@" >/dev/null 2>"$T/err"; rc=$?; err=$(cat "$T/err"); out=
	expect "$name" 100 "" "^emberctl: "
}
usage_error usage-no-command
usage_error usage-unknown-command bogus
usage_error usage-missing-name status
usage_error usage-extra-name status sshd other
usage_error usage-invalid-name status ../etc
usage_error usage-json-on-action --json start sshd
usage_error usage-follow-on-status status sshd -f
usage_error usage-svg-on-list list --svg x.svg
usage_error usage-json-and-svg-on-stdout analyze --json --svg -
usage_error usage-unknown-option list --frobnicate
out=$("$EMBERCTL" --version 2>&1); rc=$?; err=
expect version 0 "^emberctl (ember) "
out=$("$EMBERCTL" --help 2>&1); rc=$?
expect help 0 "^usage: emberctl"
finish
