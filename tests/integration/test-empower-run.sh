#!/bin/sh
# empower end to end, as root: the test starts its own empowerd on a private socket with
# its own policy, creates throwaway users (removed at the end, even on failure) and runs
# empower as them. Covers the capabilities and file ownership a permitted user gets,
# -u, policy refusals, passwords and persist (under script(1)), environment scrubbing
# with an LD_PRELOAD marker, exact argument bytes, exit codes and signals, PTY mode
# under tmux, garbage on the socket, and the hostile-input refusals of docs/empower.md.
. "$(dirname "$0")/../lib.sh"
EMPOWER=$BIN/empower
EMPOWERD=$BIN/empowerd
CAPS=$BIN/ember-caps

if [ "$(id -u)" != 0 ]; then
	skip empower "needs root (user switch, capabilities)"
	finish
fi
for f in "$EMPOWER" "$EMPOWERD" "$CAPS"; do
	if [ ! -x "$f" ]; then
		fail empower "$f is missing: run make out/bin/empower out/bin/empowerd out/bin/ember-caps"
		finish
	fi
done

N=$$
U1=empw1-$N U2=empw2-$N U3=empw3-$N U4=empw4-$N U5=empw5-$N UP=empwp-$N UQ=empwq-$N
G=empwg-$N
USERS="$U1 $U2 $U3 $U4 $U5 $UP $UQ"
D=$(mktemp -d /tmp/ember-empower.XXXXXX)
CG=
DPID=
cleanup() {
	[ -n "$DPID" ] && kill "$DPID" 2>/dev/null && wait "$DPID" 2>/dev/null
	tmux -L "empw-$N" kill-server 2>/dev/null
	for u in $USERS; do
		pkill -KILL -u "$u" 2>/dev/null
		userdel "$u" >/dev/null 2>&1
	done
	groupdel "$G" >/dev/null 2>&1
	[ -n "$CG" ] && rmdir "$CG"/session-* "$CG" 2>/dev/null
	rm -rf "$D"
}
trap cleanup EXIT
trap 'cleanup; exit 1' INT TERM

groupadd "$G" || { fail empower "groupadd $G failed"; finish; }
for u in $USERS; do
	useradd -M -U -d /nonexistent -s /bin/sh "$u" || { fail empower "useradd $u failed"; finish; }
done
usermod -a -G "$G" "$U1"
printf '%s:right-horse-battery\n%s:staple-7\n' "$UP" "$UQ" | chpasswd ||
	{ fail empower "chpasswd failed"; finish; }
chmod 0755 "$D"
mkdir -m 0700 "$D/own" && chown "$U1:" "$D/own"
mkdir -m 0700 "$D/private"

cat >"$D/empower.conf" <<CONF
# test policy
permit nopass :$G as $U1
permit nopass $U1 as $U2
permit $UP
permit persist=1h $UQ
permit nopass $U4
deny $U4
permit nopass $U5 cmd /usr/bin/id
CONF
chmod 0644 "$D/empower.conf"

# A cgroup for the sessions when this host lets us make one.
CG2=$(awk '{ for (i = 7; i < NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' \
	/proc/self/mountinfo | head -n 1)
if [ -n "$CG2" ] && [ -w "$CG2/cgroup.procs" ] && mkdir "$CG2/empower-test-$N" 2>/dev/null; then
	CG=$CG2/empower-test-$N
	CGOPT="--cgroup $CG"
else
	CGOPT="--cgroup none"
fi
# shellcheck disable=SC2086
# --legacy-tiocsti warn: the terminal cases below run on hosts with TIOCSTI on
# (test-empower-hostile.sh covers the refusal).
"$EMPOWERD" --socket "$D/sock" --config "$D/empower.conf" --caps-helper "$CAPS" $CGOPT \
	--legacy-tiocsti warn 2>"$D/daemon.log" &
DPID=$!
for _ in $(seq 100); do [ -S "$D/sock" ] && break; sleep 0.05; done
[ -S "$D/sock" ] || { fail empower "empowerd did not start: $(cat "$D/daemon.log")"; finish; }

# as USER CMD...: run CMD as USER (no capabilities, the user's groups, a plain env).
as() {
	u=$1
	shift
	env -i PATH=/usr/bin:/bin TERM=xterm LANG=C.UTF-8 EMPOWER_SOCKET="$D/sock" \
		setpriv --reuid="$u" --regid="$u" --init-groups -- "$@"
}
# A host whose bounding sets all lack something (a container) gets a "reduced grant"
# warning on every call: EQ is empower with that one line left out of stderr.
EQ=$D/empower-q
cat >"$EQ" <<SH
#!/bin/sh
f=\$(mktemp)
"$EMPOWER" "\$@" 2>"\$f"; rc=\$?
grep -v 'warning: reduced grant' "\$f" >&2
rm -f "\$f"
exit \$rc
SH
chmod 0755 "$EQ"
emp() { u=$1; shift; as "$u" "$EQ" "$@"; }

# The full set a session can get: bounding ∩ permitted of the daemon (this shell).
capfield() { sed -n "s/^$1:[[:space:]]*//p" "/proc/$2/status"; }
FULL=$(printf '%016x' $((0x$(capfield CapBnd $$) & 0x$(capfield CapPrm $$))))

# ---- what a permitted user gets ----------------------------------------------------------
out=$(cd "$D/own" && emp "$U1" --pipe sh -c 'id -u; id -G; touch made; stat -c %U made; pwd; grep ^Cap /proc/self/status' 2>&1)
eff=$(printf '%s\n' "$out" | sed -n 's/^CapEff:[[:space:]]*//p')
amb=$(printf '%s\n' "$out" | sed -n 's/^CapAmb:[[:space:]]*//p')
if [ "$eff" = "$FULL" ] && [ "$amb" = "$FULL" ]; then pass caps-full-set; else
	fail caps-full-set "CapEff $eff CapAmb $amb, expected $FULL: $out"; fi
[ "$(stat -c %U "$D/own/made" 2>/dev/null)" = "$U1" ] && [ "$(printf '%s\n' "$out" | sed -n 3p)" = "$U1" ] &&
	pass file-owned-by-user || fail file-owned-by-user "$(ls -l "$D/own") $out"
want_groups=$(id -G "$U1" | tr ' ' '\n' | sort -n | paste -sd' ' -)
got_groups=$(printf '%s\n' "$out" | sed -n 2p | tr ' ' '\n' | sort -n | paste -sd' ' -)
[ "$(printf '%s\n' "$out" | sed -n 1p)" = "$(id -u "$U1")" ] && [ "$got_groups" = "$want_groups" ] &&
	pass identity-and-groups-exact || fail identity-and-groups-exact "got '$got_groups', expected '$want_groups': $out"
[ "$(printf '%s\n' "$out" | sed -n 4p)" = "$D/own" ] && pass cwd-passed-as-fd || fail cwd-passed-as-fd "$out"

# The daemon cannot enter a directory the user cannot (it is passed as an fd, entered
# as the user): a 0700 directory of root is refused, nothing runs.
out=$(cd "$D" && emp "$U1" --pipe --chdir "$D/private" touch ran 2>&1); rc=$?
[ "$rc" = 126 ] && [ ! -e "$D/private/ran" ] && pass chdir-refused-without-permission ||
	fail chdir-refused-without-permission "rc $rc: $out"
out=$(emp "$U1" --pipe --chdir "$D/own" pwd 2>&1)
[ "$out" = "$D/own" ] && pass chdir-option || fail chdir-option "$out"

if [ -n "$CG" ]; then
	out=$(emp "$U1" --pipe cat /proc/self/cgroup 2>&1)
	case $out in *"0::/"*"empower-test-$N/session-"*) pass session-cgroup ;;
	*) fail session-cgroup "$out" ;; esac
else
	skip session-cgroup "no writable cgroup2 mount here"
fi

# No pipe inside the session: its shell holds a pipe's end until it has forked both
# sides, and ls may list it meanwhile (a loaded run saw "0 1 2 3"); ":" keeps the shell
# from exec'ing ls, whose own directory fd would show.
out=$(emp "$U1" --pipe sh -c 'ls /proc/$$/fd; :' 2>&1 | paste -sd" " -)
[ "$out" = "0 1 2" ] && pass no-leaked-fds || fail no-leaked-fds "open fds: $out"

# ---- -u USER ------------------------------------------------------------------------------
out=$(emp "$U1" --pipe -u "$U2" sh -c 'id -un; sed -n "s/^CapEff:[[:space:]]*//p" /proc/self/status' 2>&1)
[ "$out" = "$U2
$FULL" ] && pass user-option || fail user-option "$out"
out=$(emp "$U1" --pipe -u "$U3" id -un 2>&1); rc=$?
[ "$rc" = 125 ] && pass user-option-not-permitted || fail user-option-not-permitted "rc $rc: $out"
for bad in '#-1' '#4294967295' 4294967295 65535 nosuchuser-$N ''; do
	out=$(emp "$U1" --pipe -u "$bad" touch "$D/own/bad-user" 2>&1); rc=$?
	if [ "$rc" = 0 ] || [ -e "$D/own/bad-user" ]; then
		fail "user-option-bad-$bad" "rc $rc: $out"; rm -f "$D/own/bad-user"
	else pass "user-option-bad-$bad"; fi
done

# ---- policy refusals ----------------------------------------------------------------------
out=$(emp "$U3" --pipe touch "$D/u3-ran" 2>&1); rc=$?
[ "$rc" = 125 ] && [ ! -e "$D/u3-ran" ] && printf '%s' "$out" | grep -q 'no matching rule' &&
	pass no-rule-refused || fail no-rule-refused "rc $rc: $out"
out=$(emp "$U4" --pipe true 2>&1); rc=$?
[ "$rc" = 125 ] && printf '%s' "$out" | grep -q 'denied.*line 7' && pass deny-after-permit-wins ||
	fail deny-after-permit-wins "rc $rc: $out"
out=$(emp "$U5" --pipe id -u 2>&1); rc=$?
[ "$rc" = 0 ] && [ "$out" = "$(id -u "$U5")" ] && pass cmd-rule-permits || fail cmd-rule-permits "rc $rc: $out"
out=$(emp "$U5" --pipe /usr/bin/id -un 2>&1)
[ "$out" = "$U5" ] && pass cmd-rule-any-args || fail cmd-rule-any-args "$out"
out=$(emp "$U5" --pipe true 2>&1); rc=$?
[ "$rc" = 125 ] && pass cmd-rule-other-command-refused || fail cmd-rule-other-command-refused "rc $rc: $out"
out=$(emp "$U5" --pipe --setenv FOO=1 id 2>&1); rc=$?
[ "$rc" = 125 ] && printf '%s' "$out" | grep -q setenv && pass setenv-refused-for-cmd-rule ||
	fail setenv-refused-for-cmd-rule "rc $rc: $out"
# A PATH planted by the caller does not choose the command.
mkdir -p "$D/fakebin" && printf '#!/bin/sh\necho fake\n' >"$D/fakebin/id" && chmod 755 "$D/fakebin/id"
out=$(env -i PATH="$D/fakebin:/usr/bin:/bin" EMPOWER_SOCKET="$D/sock" setpriv --reuid="$U5" \
	--regid="$U5" --init-groups -- "$EQ" --pipe id -u 2>&1)
[ "$out" = "$(id -u "$U5")" ] && pass fixed-path-search || fail fixed-path-search "$out"

cp "$D/empower.conf" "$D/bad.conf"
chmod 0664 "$D/bad.conf"
kill "$DPID"; wait "$DPID" 2>/dev/null
"$EMPOWERD" --socket "$D/sock" --config "$D/bad.conf" --caps-helper "$CAPS" --cgroup none \
	--legacy-tiocsti warn 2>>"$D/daemon.log" &
DPID=$!
for _ in $(seq 100); do [ -S "$D/sock" ] && break; sleep 0.05; done
out=$(emp "$U1" --pipe touch "$D/own/bad-conf" 2>&1); rc=$?
[ "$rc" = 125 ] && [ ! -e "$D/own/bad-conf" ] && printf '%s' "$out" | grep -q 'writable by group' &&
	pass policy-group-writable-refused || fail policy-group-writable-refused "rc $rc: $out"
chmod 0644 "$D/bad.conf"; chown "$U1" "$D/bad.conf"
out=$(emp "$U1" --pipe touch "$D/own/bad-conf" 2>&1); rc=$?
[ "$rc" = 125 ] && [ ! -e "$D/own/bad-conf" ] && printf '%s' "$out" | grep -q 'not owned by root' &&
	pass policy-not-root-owned-refused || fail policy-not-root-owned-refused "rc $rc: $out"
chown root "$D/bad.conf"; printf 'permit nopass %s cmd relative\n' "$U1" >>"$D/bad.conf"
out=$(emp "$U1" --pipe touch "$D/own/bad-conf" 2>&1); rc=$?
[ "$rc" = 125 ] && [ ! -e "$D/own/bad-conf" ] && printf '%s' "$out" | grep -q 'line 9' &&
	pass policy-syntax-error-refused || fail policy-syntax-error-refused "rc $rc: $out"
# The policy is read on each request: fixing it takes effect without a restart.
cp "$D/empower.conf" "$D/bad.conf"
out=$(emp "$U1" --pipe true 2>&1); rc=$?
[ "$rc" = 0 ] && pass policy-reread-per-request || fail policy-reread-per-request "rc $rc: $out"

# ---- passwords (a terminal from script(1)) ------------------------------------------------
# pw_run USER INPUT CMD: run CMD as USER on a new terminal, typing INPUT; output in $D/pw.
pw_run() {
	u=$1 input=$2
	shift 2
	printf '%s\n' "$input" | timeout 30 script -qec "env -i PATH=/usr/bin:/bin TERM=xterm \
		EMPOWER_SOCKET=$D/sock setpriv --reuid=$u --regid=$u --init-groups -- $*" /dev/null \
		>"$D/pw" 2>&1
	tr -d '\r' <"$D/pw" >"$D/pw.txt"
}
pw_run "$UP" right-horse-battery "$EMPOWER --pipe sh -c 'echo ran-\$(id -un); exit 5'"
grep -q "password for $UP" "$D/pw.txt" && grep -q "ran-$UP" "$D/pw.txt" && pass password-accepted ||
	fail password-accepted "$(cat "$D/pw.txt")"
pw_run "$UP" wrong-guess "$EMPOWER --pipe touch $D/pw-wrong-ran"
grep -q 'wrong password' "$D/pw.txt" && [ ! -e "$D/pw-wrong-ran" ] && pass wrong-password-refused ||
	fail wrong-password-refused "$(cat "$D/pw.txt")"
out=$(emp "$UP" --pipe touch "$D/pw-notty-ran" </dev/null 2>&1); rc=$?
[ "$rc" = 125 ] && [ ! -e "$D/pw-notty-ran" ] && pass password-needs-terminal ||
	fail password-needs-terminal "rc $rc: $out"
# persist: the second request on the same terminal and session asks nothing.
pw_run "$UQ" staple-7 "sh -c '$EMPOWER --pipe echo first-ok; $EMPOWER --pipe echo second-ok'"
[ "$(grep -c "password for $UQ" "$D/pw.txt")" = 1 ] && grep -q second-ok "$D/pw.txt" &&
	pass persist-on-same-terminal || fail persist-on-same-terminal "$(cat "$D/pw.txt")"
# ... but not on another terminal.
pw_run "$UQ" wrong "$EMPOWER --pipe echo third-ok"
grep -q "password for $UQ" "$D/pw.txt" && ! grep -q third-ok "$D/pw.txt" &&
	pass persist-not-on-other-terminal || fail persist-not-on-other-terminal "$(cat "$D/pw.txt")"

# ---- environment --------------------------------------------------------------------------
if cc -shared -fPIC -o "$D/marker.so" -x c - 2>/dev/null <<'C'
#include <unistd.h>
__attribute__((constructor)) static void mark(void) { write(2, "PRELOAD-MARKER\n", 15); }
C
then
	chmod 0755 "$D/marker.so"
	control=$(as "$U1" env LD_PRELOAD="$D/marker.so" /usr/bin/env 2>&1)
	out=$(as "$U1" env LD_PRELOAD="$D/marker.so" LD_LIBRARY_PATH="$D" GCONV_PATH="$D" \
		HOME=/tmp/fake IFS=x LANG=../../x "$EMPOWER" --pipe /usr/bin/env 2>&1)
	if ! printf '%s' "$control" | grep -q PRELOAD-MARKER; then
		fail env-ld-preload-scrubbed "the marker library does not work: $control"
	elif printf '%s' "$out" | grep -Eq 'PRELOAD-MARKER|^LD_|GCONV|IFS=|HOME=/tmp/fake|LANG='; then
		fail env-ld-preload-scrubbed "$out"
	else
		pass env-ld-preload-scrubbed
	fi
else
	skip env-ld-preload-scrubbed "no C compiler to build the marker library"
fi
out=$(emp "$U1" --pipe /usr/bin/env 2>&1 | sort | paste -sd' ' -)
[ "$out" = "HOME=/nonexistent LANG=C.UTF-8 LOGNAME=$U1 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin SHELL=/bin/sh TERM=xterm USER=$U1" ] &&
	pass env-allowlist-exact || fail env-allowlist-exact "$out"
out=$(emp "$U1" --pipe --setenv FOO=bar=baz sh -c 'echo "$FOO"' 2>&1)
[ "$out" = "bar=baz" ] && pass setenv-option || fail setenv-option "$out"

# ---- arguments, exit codes, signals -------------------------------------------------------
nl='
'
printf '[%s]\n' 'a b' '' "x${nl}y" '\n\\' '"q"' "'s'" '$(id)' '*' '-u' '--' "$(printf '\377\001')" >"$D/args.want"
emp "$U1" --pipe printf '[%s]\n' 'a b' '' "x${nl}y" '\n\\' '"q"' "'s'" '$(id)' '*' '-u' '--' "$(printf '\377\001')" >"$D/args.got" 2>&1
cmp -s "$D/args.want" "$D/args.got" && pass argument-bytes-exact || fail argument-bytes-exact "$(od -c "$D/args.got" | head -5)"
out=$(emp "$U1" --pipe printf '%s\n' --pipe -u root 2>&1)
[ "$out" = "--pipe${nl}-u${nl}root" ] && pass options-after-command-are-arguments || fail options-after-command-are-arguments "$out"
out=$(echo piped-in | emp "$U1" --pipe cat 2>&1)
[ "$out" = piped-in ] && pass pipe-stdin || fail pipe-stdin "$out"
for code in 0 1 3 42 255; do
	emp "$U1" --pipe sh -c "exit $code" >/dev/null 2>&1; rc=$?
	[ "$rc" = "$code" ] && pass "exit-code-$code" || fail "exit-code-$code" "got $rc"
done
emp "$U1" --pipe sh -c 'kill -KILL $$' >/dev/null 2>&1; rc=$?
[ "$rc" = 137 ] && pass exit-on-signal || fail exit-on-signal "got $rc, expected 137"
out=$(emp "$U1" --pipe "$D/no-such-command" 2>&1); rc=$?
[ "$rc" = 127 ] && pass command-not-found || fail command-not-found "rc $rc: $out"
out=$(emp "$U1" --pipe no-such-command-$N 2>&1); rc=$?
[ "$rc" = 127 ] && pass command-not-in-path || fail command-not-in-path "rc $rc: $out"
out=$(emp "$U1" --pipe "$D/empower.conf" 2>&1); rc=$?
[ "$rc" = 126 ] && pass command-not-executable || fail command-not-executable "rc $rc: $out"

# signal_case NAME SIG EXPECT: SIG sent to the client reaches the command.
signal_case() {
	name=$1 sig=$2 expect=$3
	rm -f "$D/own/started" "$D/own/got"
	# exec: $! must be empower itself, not a subshell (which ignores SIGINT)
	(exec env -i PATH=/usr/bin:/bin EMPOWER_SOCKET="$D/sock" setpriv --reuid="$U1" \
		--regid="$U1" --init-groups -- "$EMPOWER" --pipe sh -c "trap 'echo $sig >$D/own/got; \
		exit 9' $sig; touch $D/own/started; while :; do sleep 0.1; done" >/dev/null 2>&1) &
	cpid=$!
	for _ in $(seq 200); do [ -e "$D/own/started" ] && break; sleep 0.05; done
	kill -"$sig" "$cpid"
	wait "$cpid"; rc=$?
	[ "$rc" = "$expect" ] && [ "$(cat "$D/own/got" 2>/dev/null)" = "$sig" ] && pass "$name" ||
		fail "$name" "rc $rc, command saw '$(cat "$D/own/got" 2>/dev/null)'"
}
signal_case signal-int-relayed INT 9
signal_case signal-term-relayed TERM 9
signal_case signal-hup-relayed HUP 9

# ---- a setuid target is not empowered, and we say so ---------------------------------------
cp /usr/bin/id "$D/suid-id" && chmod 4755 "$D/suid-id"
out=$(emp "$U1" --pipe "$D/suid-id" 2>&1)
printf '%s' "$out" | grep -q 'not empowered' && pass setuid-target-warned || fail setuid-target-warned "$out"

# ---- PTY mode under tmux ------------------------------------------------------------------
if command -v tmux >/dev/null; then
	T="tmux -L empw-$N"
	rm -f "$D/own/pty" "$D/own/winch"
	cat >"$D/pty.sh" <<SH
#!/bin/sh
tty >$D/own/pty.tmp; stty size >>$D/own/pty.tmp; mv $D/own/pty.tmp $D/own/pty
trap 'stty size >$D/own/winch.tmp; mv $D/own/winch.tmp $D/own/winch; exit 6' WINCH
while :; do sleep 0.1; done
SH
	chmod 755 "$D/pty.sh"
	$T new-session -d -x 100 -y 30 "env -i PATH=/usr/bin:/bin TERM=xterm EMPOWER_SOCKET=$D/sock \
		setpriv --reuid=$U1 --regid=$U1 --init-groups -- sh -c 'tty >$D/own/outer-tty; \
		$EMPOWER $D/pty.sh; echo \$? >$D/own/pty-rc; sleep 30'"
	for _ in $(seq 200); do [ -e "$D/own/pty" ] && break; sleep 0.05; done
	inner=$(head -n 1 "$D/own/pty" 2>/dev/null)
	size=$(sed -n 2p "$D/own/pty" 2>/dev/null)
	[ -n "$inner" ] && [ "$inner" != "$(cat "$D/own/outer-tty" 2>/dev/null)" ] && [ "$size" = "30 100" ] &&
		pass pty-new-terminal || fail pty-new-terminal "inner '$inner' outer '$(cat "$D/own/outer-tty" 2>/dev/null)' size '$size'"
	$T resize-window -x 120 -y 40 2>/dev/null || $T refresh-client -C 120x40 2>/dev/null
	for _ in $(seq 200); do [ -e "$D/own/pty-rc" ] && break; sleep 0.05; done
	[ "$(cat "$D/own/winch" 2>/dev/null)" = "40 120" ] && [ "$(cat "$D/own/pty-rc" 2>/dev/null)" = 6 ] &&
		pass pty-window-size-relayed || fail pty-window-size-relayed "winch '$(cat "$D/own/winch" 2>/dev/null)' rc '$(cat "$D/own/pty-rc" 2>/dev/null)'"
	$T kill-server 2>/dev/null
else
	skip pty-new-terminal "tmux is not installed"
fi
# PTY mode forced without a terminal (script(1) gives the outer one): output comes back.
printf 'typed-line\n' | timeout 30 script -qec "env -i PATH=/usr/bin:/bin TERM=xterm \
	EMPOWER_SOCKET=$D/sock setpriv --reuid=$U1 --regid=$U1 --init-groups -- \
	$EMPOWER --pty sh -c 'read l; echo got-\$l; test -t 0 && echo is-tty'" /dev/null >"$D/pty2" 2>&1
grep -q got-typed-line "$D/pty2" && grep -q is-tty "$D/pty2" && pass pty-mode-relays ||
	fail pty-mode-relays "$(tr -d '\r' <"$D/pty2")"

# ---- the daemon survives garbage ------------------------------------------------------------
python3 - "$D/sock" <<'PY' >"$D/garbage.log" 2>&1
import os, socket, sys, array
path = sys.argv[1]
def conn():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.connect(path)
    s.settimeout(20)
    return s
import random
random.seed(1)
sent = 0
for i in range(60):
    s = conn()
    kind = i % 6
    try:
      try:
        if kind == 0:
            s.send(os.urandom(random.randint(1, 200)))
        elif kind == 1:
            s.send(b"\x01\x00\x00\x00" + os.urandom(40))
        elif kind == 2:
            s.send(b"x" * 70000)  # larger than a message may be
        elif kind == 3:  # fds that do not match the flags
            fds = array.array("i", [0, 1, 2, 0, 1, 2, 0])
            s.sendmsg([b"\x01\x00\x00\x00\x02\x00\x00\x00" + b"\x00" * 12 + b"\x00\x00true\x00"],
                      [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
        elif kind == 4:  # a valid-looking request with a non-directory as cwd
            fds = array.array("i", [0, 0, 1, 2])
            s.sendmsg([b"\x01\x00\x00\x00\x02\x00\x00\x00" + b"\x00" * 8 + b"\x01\x00\x00\x00" +
                       b"\x00\x00true\x00"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
        else:
            s.send(b"")
        sent += 1
      except OSError as e:  # EMSGSIZE for the oversized datagram: still a probe
        sent += 1
      try:
          s.recv(4096)
      except Exception:
          pass
    finally:
        s.close()
print("sent %d" % sent)
PY
grep -q '^sent 60$' "$D/garbage.log" && kill -0 "$DPID" 2>/dev/null &&
	out=$(emp "$U1" --pipe echo still-alive 2>&1) && [ "$out" = still-alive ] &&
	pass daemon-survives-garbage || fail daemon-survives-garbage "$(tail -n 5 "$D/garbage.log") $out"
grep -q 'malformed request' "$D/daemon.log" && pass garbage-refusals-logged ||
	fail garbage-refusals-logged "$(tail -n 5 "$D/daemon.log")"

# ---- logging ------------------------------------------------------------------------------
emp "$U1" --pipe printf "$(printf 'log\033[31m\nx')" >/dev/null 2>&1
grep -q "user $U1 .* as $U1 .*'log\\\\x1b\[31m\\\\x0ax'" "$D/daemon.log" && ! grep -q "$(printf '\033')" "$D/daemon.log" &&
	pass session-logged-escaped || fail session-logged-escaped "$(grep "'log" "$D/daemon.log")"

finish
