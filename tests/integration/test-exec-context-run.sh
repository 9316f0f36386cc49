#!/bin/sh
# The execution context as ember-init applies it, on the host as root: tests/helpers/
# exec-run forks and calls exec_context_exec() (lib/exec-context.c) to start
# tests/helpers/exec-probe, which prints what it got. Every field is checked, with a
# user switch to a throwaway user (removed at the end, even on failure), ambient
# capabilities through ember-caps, bounding-set drops, and refusals that run nothing.
. "$(dirname "$0")/../lib.sh"
RUN=$HELPERS/exec-run
PROBE=$HELPERS/exec-probe
CAPS=$BIN/ember-caps

if [ "$(id -u)" != 0 ]; then
	skip exec-context "needs root (user switch, capabilities)"
	finish
fi
for f in "$RUN" "$PROBE" "$CAPS"; do
	if [ ! -x "$f" ]; then
		fail exec-context "$f is missing: run make out/bin/ember-caps unit-tests"
		finish
	fi
done

U=ember-ec-$$
G=ember-ecg-$$
D=$(mktemp -d /tmp/ember-ec.XXXXXX)
cleanup() {
	userdel "$U" >/dev/null 2>&1
	groupdel "$G" >/dev/null 2>&1
	rm -rf "$D"
}
trap cleanup EXIT
trap 'cleanup; exit 1' INT TERM
groupadd "$G" || { fail exec-context "groupadd $G failed"; finish; }
useradd -M -U -d /nonexistent -s /usr/sbin/nologin -G "$G" "$U" ||
	{ fail exec-context "useradd $U failed"; finish; }
UID_=$(id -u "$U") GID_=$(id -g "$U") TGID=$(getent group "$G" | cut -d: -f3)
# The kernel keeps supplementary groups sorted.
GROUPS_=$(printf '%s\n%s\n' "$GID_" "$TGID" | sort -n | paste -sd, -)
chmod 0755 "$D"
mkdir -m 0700 "$D/private" "$D/own"
chown "$U:" "$D/own"

# field KEY OUTPUT: the value of the first KEY=... line.
field() { printf '%s\n' "$2" | sed -n "s/^$1=//p" | head -n 1; }
# expect NAME OUTPUT KEY=VALUE...: every key has exactly that value.
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
# refused NAME MESSAGE-PART RUN-ARGS...: exec-run reports a failure naming it, and the
# command (touch $D/own/ran) never ran.
refused() {
	name=$1 want=$2
	shift 2
	rm -f "$D/own/ran"
	out=$("$RUN" "$@" -- /usr/bin/touch touch "$D/own/ran" 2>&1)
	rc=$?
	if [ -e "$D/own/ran" ]; then
		fail "$name" "the command ran (exit $rc): $out"
	elif [ $rc -eq 0 ]; then
		fail "$name" "exit 0: $out"
	else
		case $out in
		*"$want"*) pass "$name" ;;
		*) fail "$name" "exit $rc without '$want': $out" ;;
		esac
	fi
}
hexmask() { printf '%016x' "$1"; }
status_field() { sed -n "s/^$1:[[:space:]]*//p" /proc/self/status; }

# ---- as root: limits, priority, umask, directory, environment ----
out=$("$RUN" --umask 027 --rlimit NOFILE=100:200 --rlimit CORE=0:0 --nice 5 --oom 300 \
	--chdir /tmp --env FOO=bar --env EMPTY= -- "$PROBE" probe 2>&1)
expect root-context "$out" uid=0,0,0 umask=0027 nofile=100:200 core=0:0 nice=5 \
	oom_score_adj=300 cwd=/tmp
envs=$(printf '%s\n' "$out" | sed -n 's/^env=//p' | paste -sd' ' -)
[ "$envs" = "FOO=bar EMPTY=" ] && pass environment-replaced || fail environment-replaced "got: $envs"

# ---- user switch without capabilities ----
out=$("$RUN" --user "$U" --nnp --chdir "$D/own" -- "$PROBE" probe 2>&1)
expect user-switch "$out" "uid=$UID_,$UID_,$UID_" "gid=$GID_,$GID_,$GID_" \
	"groups=$GROUPS_" CapPrm=0000000000000000 CapEff=0000000000000000 \
	CapAmb=0000000000000000 NoNewPrivs=1 "cwd=$D/own"

# Privileged steps run before the switch: a negative nice needs CAP_SYS_NICE.
if [ $(( 0x$(status_field CapBnd) >> 23 & 1 )) = 1 ]; then
	out=$("$RUN" --user "$U" --nice -5 --rlimit NOFILE=64:64 -- "$PROBE" probe 2>&1)
	expect privileged-steps-first "$out" "uid=$UID_,$UID_,$UID_" nice=-5 nofile=64:64
else
	skip privileged-steps-first "cap_sys_nice is not in this host's bounding set"
fi

# The working directory is entered as the user: root could enter a 0700 root dir.
refused workdir-entered-as-user "chdir($D/private): Permission denied" \
	--user "$U" --chdir "$D/private"
out=$("$RUN" --chdir "$D/private" -- "$PROBE" probe 2>&1)
expect workdir-root-control "$out" "cwd=$D/private"

# A directory fd (empower's way) is entered and not inherited.
base=$(field fds "$("$PROBE")")
out=$("$RUN" --user "$U" --chdir-fd "$D/own" -- "$PROBE" probe 2>&1)
expect workdir-fd "$out" "cwd=$D/own" "fds=$base"

# ---- capabilities through ember-caps ----
out=$("$RUN" --user "$U" --ambient cap_net_bind_service --caps-helper "$CAPS" \
	-- "$PROBE" probe 2>&1)
expect ambient-net-bind-service "$out" "uid=$UID_,$UID_,$UID_" "gid=$GID_,$GID_,$GID_" \
	"groups=$GROUPS_" CapInh=0000000000000400 CapPrm=0000000000000400 \
	CapEff=0000000000000400 CapAmb=0000000000000400 NoNewPrivs=0 "fds=$base"

# Proof by use: bind port 80 as the user in a private network namespace; without the
# ambient capability the same bind is refused.
if unshare -n true 2>/dev/null; then
	out=$(unshare -n "$RUN" --user "$U" --ambient cap_net_bind_service --caps-helper "$CAPS" \
		-- "$PROBE" probe --bind 80 2>&1)
	expect binds-port-80 "$out" "uid=$UID_,$UID_,$UID_" bind=ok
	out=$(unshare -n "$RUN" --user "$U" -- "$PROBE" probe --bind 80 2>&1)
	expect port-80-refused-without-cap "$out" "uid=$UID_,$UID_,$UID_" "bind=Permission denied"
else
	skip binds-port-80 "unshare -n is not permitted here"
fi

# all = bounding ∩ permitted at run time (this host may lack some, e.g. cap_sys_resource).
all=$(hexmask $(( 0x$(status_field CapBnd) & 0x$(status_field CapPrm) )))
out=$("$RUN" --user "$U" --ambient all --caps-helper "$CAPS" -- "$PROBE" probe 2>&1)
expect ambient-all "$out" "uid=$UID_,$UID_,$UID_" "CapAmb=$all" "CapEff=$all" "CapPrm=$all"

out=$("$RUN" --bounding cap_kill,cap_net_bind_service --caps-helper "$CAPS" \
	-- "$PROBE" probe 2>&1)
expect bounding-drop "$out" uid=0,0,0 CapBnd=0000000000000420 CapEff=0000000000000420

# Everything at once through ember-caps: the fields it does not apply itself still are.
out=$("$RUN" --user "$U" --bounding cap_net_bind_service,cap_net_raw \
	--ambient cap_net_bind_service --nnp --umask 077 --rlimit NOFILE=50:60 \
	--chdir "$D/own" --env ONLY=1 --caps-helper "$CAPS" -- "$PROBE" probe 2>&1)
expect caps-path-full-context "$out" "uid=$UID_,$UID_,$UID_" "groups=$GROUPS_" \
	CapBnd=0000000000002400 CapAmb=0000000000000400 CapEff=0000000000000400 \
	NoNewPrivs=1 umask=0077 nofile=50:60 "cwd=$D/own" env=ONLY=1

# ---- refusals: a message saying why, and nothing runs ----
rm -f "$D/own/ran"
out=$("$RUN" --user "nosuch-$U" -- /usr/bin/touch touch "$D/own/ran" 2>&1)
if [ $? -ne 0 ] && [ ! -e "$D/own/ran" ] && [ "${out#*not found}" != "$out" ]; then
	pass unknown-user-refused
else
	fail unknown-user-refused "$out"
fi
refused missing-workdir "chdir(/nonexistent/ember): No such file or directory" \
	--user "$U" --chdir /nonexistent/ember
refused missing-workdir-caps-path "chdir(/nonexistent/ember): No such file or directory" \
	--user "$U" --chdir /nonexistent/ember --ambient cap_kill --caps-helper "$CAPS"
refused ambient-outside-bounding "ambient cap_net_raw: not in the bounding and permitted sets" \
	--user "$U" --bounding cap_kill --ambient cap_net_raw --caps-helper "$CAPS"
refused missing-caps-helper "execve(/nonexistent/ember-caps): No such file or directory" \
	--user "$U" --ambient cap_kill --caps-helper /nonexistent/ember-caps
finish
