#!/bin/sh
# ember-caps on its own, as root: identity and capability options, exit codes, the
# failure report on --report-fd, and that nothing runs when it refuses.
. "$(dirname "$0")/../lib.sh"
CAPS=$BIN/ember-caps
PROBE=$HELPERS/exec-probe

if [ "$(id -u)" != 0 ]; then
	skip ember-caps "needs root"
	finish
fi
if [ ! -x "$CAPS" ] || [ ! -x "$PROBE" ]; then
	fail ember-caps "build out/bin/ember-caps and make unit-tests first"
	finish
fi
if ! id nobody >/dev/null 2>&1; then
	skip ember-caps "no user nobody on this host"
	finish
fi
D=$(mktemp -d /tmp/ember-caps.XXXXXX)
trap 'rm -rf "$D"' EXIT
trap 'rm -rf "$D"; exit 1' INT TERM
chmod 0777 "$D"
NUID=$(id -u nobody) NGID=$(id -g nobody) NGROUPS=$(id -G nobody | tr ' ' '\n' | sort -n | paste -sd, -)

field() { printf '%s\n' "$2" | sed -n "s/^$1=//p" | head -n 1; }
expect() {
	name=$1 out=$2
	shift 2
	for kv in "$@"; do
		got=$(field "${kv%%=*}" "$out")
		if [ "$got" != "${kv#*=}" ]; then
			fail "$name" "${kv%%=*} is '$got', expected '${kv#*=}'"
			return
		fi
	done
	pass "$name"
}
# exits NAME CODE MESSAGE-PART ARGS...: ember-caps ARGS -- touch exits CODE, says why,
# and the command did not run.
exits() {
	name=$1 code=$2 want=$3
	shift 3
	rm -f "$D/ran"
	out=$("$CAPS" "$@" -- /usr/bin/touch touch "$D/ran" 2>&1)
	rc=$?
	if [ -e "$D/ran" ]; then
		fail "$name" "the command ran: $out"
	elif [ $rc -ne "$code" ]; then
		fail "$name" "exit $rc, expected $code: $out"
	else
		case $out in
		*"$want"*) pass "$name" ;;
		*) fail "$name" "no '$want' in: $out" ;;
		esac
	fi
}
status_field() { sed -n "s/^$1:[[:space:]]*//p" /proc/self/status; }

out=$("$CAPS" --help 2>&1); rc=$?
case $rc:$out in 0:*"usage: ember-caps"*) pass help ;; *) fail help "exit $rc: $out" ;; esac
out=$("$CAPS" --version 2>&1); rc=$?
version=$(sed -n 's/^VERSION = //p' "$TOP/config.mk")
[ $rc = 0 ] && [ "$out" = "ember-caps (ember) $version" ] && pass version || fail version "exit $rc: $out"

# ---- usage errors: 100, nothing runs ----
exits usage-uid-without-gid 100 "--uid: needs --gid" --uid 1
exits usage-uid-minus-one 100 "4294967295: not a valid id" --uid 4294967295 --gid 0
exits usage-uid-65535 100 "65535: not a valid id" --uid 65535 --gid 0
exits usage-bad-cap 100 "cap_frobnicate: not a capability" --ambient cap_net_raw,cap_frobnicate
exits usage-twice 100 "--gid: given twice" --gid 1 --gid 2
exits usage-unknown-option 100 "--frob: unknown option" --frob
exits usage-bad-groups 100 "--groups: 1,x" --uid 1 --gid 1 --groups 1,x
out=$("$CAPS" --uid 1 --gid 1 /usr/bin/touch "$D/ran" 2>&1); rc=$?
[ $rc = 100 ] && [ ! -e "$D/ran" ] && pass usage-needs-dashdash || fail usage-needs-dashdash "exit $rc: $out"
out=$("$CAPS" -- /usr/bin/touch 2>&1); rc=$?
[ $rc = 100 ] && pass usage-needs-argv0 || fail usage-needs-argv0 "exit $rc: $out"

# ---- identity and capabilities ----
out=$("$CAPS" --user nobody --no-new-privs --chdir "$D" -- "$PROBE" probe 2>&1)
expect user-nobody "$out" "uid=$NUID,$NUID,$NUID" "gid=$NGID,$NGID,$NGID" "groups=$NGROUPS" \
	CapEff=0000000000000000 CapAmb=0000000000000000 NoNewPrivs=1 "cwd=$D"

out=$("$CAPS" --uid "$NUID" --gid "$NGID" --ambient cap_net_raw,cap_kill -- "$PROBE" probe 2>&1)
expect explicit-ids-no-groups "$out" "uid=$NUID,$NUID,$NUID" "gid=$NGID,$NGID,$NGID" groups= \
	CapAmb=0000000000002020 CapEff=0000000000002020

all=$(printf '%016x' $(( 0x$(status_field CapBnd) & 0x$(status_field CapPrm) )))
out=$("$CAPS" --user nobody --ambient all -- "$PROBE" probe 2>&1)
expect ambient-all "$out" "uid=$NUID,$NUID,$NUID" "CapAmb=$all" "CapEff=$all"

out=$("$CAPS" --user nobody --bounding 0x400 --ambient all -- "$PROBE" probe 2>&1)
expect ambient-all-within-new-bounding "$out" CapBnd=0000000000000400 CapAmb=0000000000000400

out=$("$CAPS" --bounding none -- "$PROBE" probe 2>&1)
expect root-empty-bounding "$out" uid=0,0,0 CapBnd=0000000000000000 CapEff=0000000000000000

# Without /proc (early boot, a sandbox that hides it) the sets are read one capability
# at a time instead of from /proc/self/status: same grants, same refusals.
if command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
	out=$(unshare -m sh -c 'mount -t tmpfs none /proc && "$1" --user nobody --bounding 0x2400 \
		--ambient all -- /bin/sh sh -c "echo ran"' sh "$CAPS" 2>&1)
	[ "$out" = ran ] && pass no-proc-ambient-all || fail no-proc-ambient-all "$out"
	out=$(unshare -m sh -c 'mount -t tmpfs none /proc && "$1" --user nobody --bounding cap_kill \
		--ambient cap_net_raw -- /bin/sh sh -c "echo ran"' sh "$CAPS" 2>&1); rc=$?
	case "$rc:$out" in
	1:*"not in the bounding and permitted sets"*) pass no-proc-refuses-unavailable ;;
	*) fail no-proc-refuses-unavailable "exit $rc: $out" ;;
	esac
else
	skip no-proc-ambient-all "no mount namespaces here"
fi

# The fd checks use fds 3 and 7 themselves: one the caller left open there (flock(1)
# passes its lock on fd 3) would be saved by the shell on fd 10 and seen as a leak.
exec 3>&- 7>&-
base=$(field fds "$("$PROBE")")
out=$("$CAPS" --user nobody --chdir-fd 7 -- "$PROBE" probe 7<"$D" 2>&1)
expect chdir-fd-closed "$out" "cwd=$D" "fds=$base"

out=$("$CAPS" --user nobody -- /bin/sh 'my argv0' -c 'printf "%s|" "$0" "$@"' x 'a b' -- --uid 2>&1)
[ "$out" = "x|a b|--|--uid|" ] && pass arguments-byte-exact || fail arguments-byte-exact "$out"

# ---- refusals with their exit codes ----
exits unknown-user 2 "not found in /etc/passwd" --user "nosuch-ember-$$"
exits cap-unavailable 1 "ambient cap_net_raw: not in the bounding and permitted sets" \
	--user nobody --bounding cap_kill --ambient cap_net_raw
exits chdir-fails 111 "chdir(/nonexistent/ember): No such file or directory" \
	--user nobody --chdir /nonexistent/ember
exits chdir-as-user 111 "Permission denied" --user nobody --chdir /root
rm -f "$D/ran"
out=$("$CAPS" --user nobody --chdir /nonexistent/ember --chdir-optional -- /usr/bin/touch touch "$D/ran" 2>&1)
[ -e "$D/ran" ] && pass chdir-optional || fail chdir-optional "$out"
out=$("$CAPS" --user nobody -- /nonexistent/cmd cmd 2>&1); rc=$?
[ $rc = 127 ] && [ "${out#*execve(/nonexistent/cmd)}" != "$out" ] && pass exec-fails-127 ||
	fail exec-fails-127 "exit $rc: $out"
# Without CAP_SETPCAP in the effective set the bounding set cannot shrink: refused.
if command -v setpriv >/dev/null; then
	rm -f "$D/ran"
	out=$(setpriv --reuid "$NUID" --regid "$NGID" --clear-groups "$CAPS" --bounding cap_kill \
		-- /usr/bin/touch touch "$D/ran" 2>&1); rc=$?
	[ $rc = 111 ] && [ ! -e "$D/ran" ] &&
		[ "${out#*drop cap_chown from the bounding set: Operation not permitted}" != "$out" ] &&
		pass refuses-unprivileged-bounding ||
		fail refuses-unprivileged-bounding "exit $rc: $out"
else
	skip refuses-unprivileged-bounding "setpriv is not installed"
fi

# ---- the report pipe: a record on failure, nothing (closed on exec) on success ----
"$CAPS" --report-fd 3 --user nobody --chdir /nonexistent/ember -- /bin/true true 3>"$D/report" 2>/dev/null
size=$(wc -c <"$D/report")
[ "$size" = 16 ] && pass report-on-failure || fail report-on-failure "record of $size bytes"
out=$("$CAPS" --report-fd 3 --user nobody -- "$PROBE" probe 3>"$D/report2" 2>&1)
size=$(wc -c <"$D/report2")
[ "$size" = 0 ] && [ "$(field fds "$out")" = "$base" ] && pass report-fd-closed-on-exec ||
	fail report-fd-closed-on-exec "record of $size bytes, fds $(field fds "$out")"
finish
