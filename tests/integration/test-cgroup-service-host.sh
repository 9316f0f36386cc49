#!/bin/sh
# ember's per-service cgroup library (cgroup/service.h) on the host's cgroup2, through
# tests/helpers/cg-service. The host's cgroup2 is used as found: never mounted or
# remounted (its options are superblock-wide). Everything happens below one uniquely
# named test cgroup, which is emptied and removed on exit, failure included. Limits
# need controllers, which a hybrid host's cgroup2 lacks: there the test proves the
# error path, and QEMU proves the limits.
. "$(dirname "$0")/../lib.sh"
H=$HELPERS/cg-service
GUARD=100 # x 0.1 s: a hang guard for waits on the kernel, not a timing assertion

CG2=$(awk '{ for (i = 7; i < NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' \
	/proc/self/mountinfo | head -n 1)
if [ -z "$CG2" ] || [ ! -w "$CG2/cgroup.procs" ]; then
	skip cgroup-service-host "no writable cgroup2 mount on this host"
	finish
fi
[ -x "$H" ] || { fail cgroup-service-host "$H missing: run make unit-tests"; finish; }

ROOT=$CG2/ember-test-$$-$(date +%s%N | tail -c 7)
SUB=$ROOT/ember
REL=${SUB#"$CG2"} # the path /proc/PID/cgroup shows
TMP=$(mktemp -d)

# Empty and remove a test cgroup tree without ember's code (which may be what broke).
teardown_cgroup() {
	[ -d "$1" ] || return 0
	if [ -e "$1/cgroup.kill" ]; then
		echo 1 >"$1/cgroup.kill" 2>/dev/null
	else
		find "$1" -name cgroup.procs -exec cat {} + 2>/dev/null | while read -r p; do kill -9 "$p" 2>/dev/null; done
	fi
	find "$1" -name cgroup.freeze -exec sh -c 'for f; do echo 0 >"$f"; done' sh {} + 2>/dev/null
	n=0
	while grep -q 'populated 1' "$1/cgroup.events" 2>/dev/null && [ $n -lt $GUARD ]; do
		sleep 0.1; n=$((n + 1))
	done
	find "$1" -depth -type d -exec rmdir {} + 2>/dev/null
}
cleanup() {
	teardown_cgroup "$ROOT"
	[ -d "$ROOT" ] && echo "FAIL cleanup: $ROOT still exists"
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# wait_for CMD...: until CMD succeeds, within the hang guard.
wait_for() {
	n=0
	until "$@"; do
		[ $n -ge $GUARD ] && return 1
		sleep 0.1; n=$((n + 1))
	done
}
procs_at_least() { [ "$(wc -l <"$SUB/$1.service/cgroup.procs")" -ge "$2" ]; }
pid_gone() { ! kill -0 "$1" 2>/dev/null; }

# ---- ember's subtree -----------------------------------------------------------------
# The test's root is a fresh cgroup below the host's root, so controllers are only ever
# enabled inside it, never in the host's root.
mkdir "$ROOT" || { fail subtree-init "mkdir $ROOT"; finish; }
self_before=$(sed -n 's/^0:://p' /proc/self/cgroup)
if out=$("$H" init "$ROOT" ember 2>&1) && [ -d "$SUB" ]; then
	want=$(tr ' ' '\n' <"$ROOT/cgroup.controllers" | grep -x -e memory -e pids -e cpu -e io | sort | paste -sd,)
	got=$(printf '%s\n' "$out" | sed -n 's/^enabled=//p' | tr ',' '\n' | sort | paste -sd,)
	missing=""
	for c in $(echo "$got" | tr ',' ' '); do
		grep -qw "$c" "$SUB/cgroup.subtree_control" || missing="$missing $c"
	done
	if [ "$got" = "$want" ] && [ -z "$missing" ]; then
		pass subtree-init-enables-available-controllers
	else
		fail subtree-init-enables-available-controllers "available '$want', reported '$got', not in subtree_control:$missing"
	fi
	# With no controllers to enable, nothing forces the caller to move.
	if [ -z "$want" ]; then
		case $out in
		*"self=$self_before"*) pass subtree-init-leaves-caller-in-place ;;
		*) fail subtree-init-leaves-caller-in-place "$out" ;;
		esac
	fi
else
	fail subtree-init-enables-available-controllers "$out"
	finish
fi

# A root holding a process, with controllers to enable: the caller must move into
# ember/init (the "no internal processes" rule). A fresh cgroup below the test root
# (which now has controllers enabled, so it cannot hold processes itself).
if [ -n "$want" ]; then
	MROOT=$ROOT/moving
	mkdir "$MROOT"
	out=$(sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" init "$1" ember' sh "$MROOT" "$H" 2>&1)
	case $out in
	*"self=${MROOT#"$CG2"}/ember/init"*) pass subtree-init-moves-caller-to-init-leaf ;;
	*) fail subtree-init-moves-caller-to-init-leaf "$out" ;;
	esac
else
	skip subtree-init-moves-caller-to-init-leaf "the host's cgroup2 offers no controllers (hybrid), so nothing forces the move"
fi

# ---- placing a process -----------------------------------------------------------------
# The child prints its cgroup as its first act after clone3 (child-cgroup=), then execs
# cat, which prints it again.
out=$("$H" spawn clone "$SUB" placed --wait cat /proc/self/cgroup 2>&1)
rc=$?
if [ $rc = 2 ]; then
	skip clone-into-places-child-before-it-runs "clone3(CLONE_INTO_CGROUP) unsupported by kernel $(uname -r): $out"
elif [ $rc = 0 ] && printf '%s\n' "$out" | grep -qx "child-cgroup=$REL/placed.service" &&
	printf '%s\n' "$out" | grep -qx "0::$REL/placed.service" &&
	printf '%s\n' "$out" | grep -q 'method=clone3'; then
	pass clone-into-places-child-before-it-runs
else
	fail clone-into-places-child-before-it-runs "rc=$rc $out"
fi

out=$("$H" spawn attach "$SUB" attached --wait cat /proc/self/cgroup 2>&1)
if [ $? = 0 ] && printf '%s\n' "$out" | grep -qx "0::$REL/attached.service" &&
	printf '%s\n' "$out" | grep -q 'method=fork'; then
	pass fork-and-attach-fallback-places-child
else
	fail fork-and-attach-fallback-places-child "$out"
fi

check populated-0-after-exit sh -c '[ "$("$1" populated "$2" attached)" = 0 ]' sh "$H" "$SUB"
check remove-empty-service "$H" remove "$SUB" attached
[ ! -d "$SUB/attached.service" ] && pass remove-deletes-cgroup || fail remove-deletes-cgroup "still there"

# ---- figures ---------------------------------------------------------------------------
"$H" spawn auto "$SUB" busy --wait sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done' >/dev/null 2>&1
out=$("$H" stats "$SUB" busy 2>&1)
cpu=$(printf '%s\n' "$out" | sed -n 's/^cpu_usage_usec=//p')
case $cpu in
'' | unset | 0 | *[!0-9]*) fail stats-cpu-usage "$out" ;;
*) pass stats-cpu-usage ;;
esac
stats_ok=1
for f in memory_current:memory.current pids_current:pids.current memory_peak:memory.peak; do
	v=$(printf '%s\n' "$out" | sed -n "s/^${f%%:*}=//p")
	if [ -e "$SUB/busy.service/${f#*:}" ]; then
		case $v in '' | unset | *[!0-9]*) stats_ok=0 ;; esac
	else
		[ "$v" = unset ] || stats_ok=0
	fi
done
[ $stats_ok = 1 ] && pass stats-missing-files-unset || fail stats-missing-files-unset "$out"

# ---- limits ----------------------------------------------------------------------------
"$H" spawn auto "$SUB" limited --wait true >/dev/null 2>&1
if [ -e "$SUB/limited.service/memory.max" ]; then
	"$H" limits "$SUB" limited 64M - - >/dev/null 2>&1
	[ "$(cat "$SUB/limited.service/memory.max")" = 67108864 ] && pass limits-memory-max ||
		fail limits-memory-max "memory.max is $(cat "$SUB/limited.service/memory.max")"
else
	out=$("$H" limits "$SUB" limited 64M - - 2>&1)
	if [ $? = 1 ] && [ "$out" = "error: memory.max: no such file: the memory controller is not enabled for this cgroup" ]; then
		pass limits-missing-controller-named
	else
		fail limits-missing-controller-named "$out"
	fi
	check limits-unset-need-no-controller "$H" limits "$SUB" limited - - -
fi
out=$("$H" limits "$SUB" limited - - 20000 2>&1)
[ $? = 1 ] && [ "$out" = "error: cpu.weight: 20000 is out of range 1..10000" ] &&
	pass limits-weight-out-of-range || fail limits-weight-out-of-range "$out"

# ---- stopping a tree whose members ignore SIGTERM -----------------------------------------
# The tree: a TERM-ignoring shell that forks without pause, three TERM-ignoring
# loops with children of their own, and one sleep started before the trap (so TERM
# kills it).
tree_cmd='sleep 100000 & echo $! >"$1"; trap "" TERM
for i in 1 2 3; do sh -c "while :; do sleep 100 & wait; done" & done
while :; do /bin/true; done'

"$H" spawn auto "$SUB" tree sh -c "$tree_cmd" sh "$TMP/sleeper" >/dev/null 2>&1 </dev/null
if wait_for procs_at_least tree 8 && [ -s "$TMP/sleeper" ]; then
	sleeper=$(cat "$TMP/sleeper")
	"$H" kill "$SUB" tree 15
	if wait_for pid_gone "$sleeper" && [ "$("$H" populated "$SUB" tree)" = 1 ]; then
		pass term-reaches-tree-and-ignorers-survive
	else
		fail term-reaches-tree-and-ignorers-survive "sleeper $sleeper alive or tree gone: $(wc -l <"$SUB/tree.service/cgroup.procs") procs"
	fi
	# poll(2) on cgroup.events wakes when another process empties the cgroup.
	"$H" wait-empty "$SUB" tree >"$TMP/wait" 2>&1 &
	waiter=$!
	wait_for grep -qs armed "$TMP/wait"
	"$H" kill "$SUB" tree 9
	wait $waiter
	rc=$?
	if [ $rc = 0 ] && grep -q 'populated=0 wakeups=[1-9]' "$TMP/wait"; then
		pass cgroup-kill-empties-tree-and-poll-wakes
	else
		fail cgroup-kill-empties-tree-and-poll-wakes "rc=$rc $(cat "$TMP/wait")"
	fi
	check remove-after-kill "$H" remove "$SUB" tree
else
	fail term-reaches-tree-and-ignorers-survive "the tree did not start: $(wc -l <"$SUB/tree.service/cgroup.procs" 2>&1) procs"
fi

# The fallback for kernels before 5.14 (no cgroup.kill), forced: freeze, pid by pid,
# thaw. Part of the tree lives in a nested cgroup below the service's.
"$H" spawn auto "$SUB" fallback sh -c "$tree_cmd" sh "$TMP/sleeper2" >/dev/null 2>&1 </dev/null
if wait_for procs_at_least fallback 8; then
	mkdir "$SUB/fallback.service/nested"
	sh -c 'echo $$ >"$1/cgroup.procs"; trap "" TERM; while :; do sleep 100 & wait; done' sh \
		"$SUB/fallback.service/nested" </dev/null >/dev/null 2>&1 &
	wait_for grep -q 'populated 1' "$SUB/fallback.service/nested/cgroup.events"
	out=$("$H" wait-empty "$SUB" fallback --kill-procs 2>&1)
	if [ $? = 0 ] && printf '%s\n' "$out" | grep -q 'populated=0 wakeups=[1-9]' &&
		grep -q 'populated 0' "$SUB/fallback.service/nested/cgroup.events"; then
		pass fallback-kill-empties-tree-and-nested
	else
		fail fallback-kill-empties-tree-and-nested "$out; $(wc -l <"$SUB/fallback.service/cgroup.procs") procs left"
	fi
	if [ -e "$SUB/fallback.service/cgroup.freeze" ]; then
		[ "$(cat "$SUB/fallback.service/cgroup.freeze")" = 0 ] && pass fallback-thaws ||
			fail fallback-thaws "cgroup.freeze is $(cat "$SUB/fallback.service/cgroup.freeze")"
	fi
	check remove-removes-nested "$H" remove "$SUB" fallback
	[ ! -d "$SUB/fallback.service" ] && pass remove-nested-gone || fail remove-nested-gone "still there"
else
	fail fallback-kill-empties-tree-and-nested "the tree did not start"
fi

# A populated cgroup is not removed.
"$H" spawn auto "$SUB" busyremove sleep 100000 >/dev/null 2>&1 </dev/null
wait_for procs_at_least busyremove 1
out=$("$H" remove "$SUB" busyremove 2>&1)
case $out in
*": Device or resource busy" | *": Resource busy") pass remove-refuses-populated ;;
*) fail remove-refuses-populated "$out" ;;
esac
"$H" kill "$SUB" busyremove 9

# ---- the end: everything the test made goes away ---------------------------------------------
teardown_cgroup "$ROOT"
[ ! -d "$ROOT" ] && pass test-cgroups-removed || fail test-cgroups-removed "$ROOT remains"
finish
