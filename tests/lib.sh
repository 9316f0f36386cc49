# Shared helpers for shell tests. A test prints one line per case:
#   PASS name | FAIL name: why | SKIP name: reason
# tests/run counts those lines; see tests/README.md.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${BIN:-$TOP/out/bin}
HELPERS=${HELPERS:-$TOP/out/tests/helpers} # tests/run may point both at copies (see there)
FAILED=0

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; FAILED=1; }
skip() { echo "SKIP $1: $2"; }

# check NAME CMD...: the case passes when CMD exits 0.
check() {
	name=$1; shift
	if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$(printf '%s' "$out" | tail -n 5 | tr '\n' ' ')"; fi
}

# expect_fail NAME CMD...: the case passes when CMD exits non-zero.
expect_fail() {
	name=$1; shift
	if "$@" >/dev/null 2>&1; then fail "$name" "command succeeded: $*"; else pass "$name"; fi
}

# guest_results LOG RC: the cases a guest script (ember.run=) printed into ember-init's
# output, and whether it got to its last line, GUEST-CHECKS-DONE.
guest_results() {
	grep -E '^(PASS|FAIL|SKIP) ' "$1"
	grep -q '^FAIL ' "$1" && FAILED=1
	grep -q '^GUEST-CHECKS-DONE$' "$1" && pass guest-completed ||
		fail guest-completed "rc $2; $(tail -5 "$1" | tr '\n' ' ')"
}

# run_guest SERVICES GUEST LOG [SETUP]: the real ember-init as PID 1 of a new PID+mount
# namespace (container=ember-test) with the units in SERVICES, running the script GUEST
# (ember.run=, its cases printed as PASS/FAIL/SKIP lines, ending with exit 0) once it is
# up; SETUP, a shell command, runs in the namespace first (mounts of its own). Then the
# guest's cases, and whether it got to its end (EMBER-RUN-EXIT=0). Further arguments
# after SETUP are ember-init's own (ember.failed_retry=3).
run_guest() {
	_services=$1 _guest=$2 _log=$3 _setup=${4:-:}
	shift 3
	[ $# -gt 0 ] && shift
	chmod +x "$_guest"
	timeout 120 unshare --pid --mount --uts --fork --mount-proc \
		sh -c "$_setup"' && exec env container=ember-test "$0" "$@"' "$BIN/ember-init" \
		ember.services="$_services" ember.run="$_guest" ember.shell=none "$@" >"$_log" 2>&1
	rc=$?
	grep -E '^(PASS|FAIL|SKIP) ' "$_log"
	grep -q '^FAIL ' "$_log" && FAILED=1
	grep -q '^EMBER-RUN-EXIT=0$' "$_log" && pass guest-completed ||
		fail guest-completed "rc $rc; $(tail -5 "$_log" | tr '\n' ' ')"
}

finish() { exit "$FAILED"; }

# need_journald NAME: what running Debian's systemd-journald under ember-init needs (tools,
# the program, root); skips the test otherwise. Then tmp, a directory removed at exit.
need_journald() {
	for tool in journalctl python3 unshare; do
		command -v $tool >/dev/null || { skip "$1" "$tool missing (scripts/deps.sh installs it)"; finish; }
	done
	[ -x /lib/systemd/systemd-journald ] || { skip "$1" "no systemd-journald (package systemd)"; finish; }
	[ "$(id -u)" = 0 ] || { skip "$1" "needs root (namespaces, journald)"; finish; }
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
}

# run_journald_guest DIR LOG [UNSHARE OPTION...]: ember-init as PID 1 of new namespaces
# (container=ember-test) with the units in DIR/services, running DIR/guest.sh (ending with
# GUEST-CHECKS-DONE), where journald's directories (/run/systemd, /run/log,
# /var/log/journal) are tmpfs of the test's own; then the guest's cases.
run_journald_guest() {
	_dir=$1 _log=$2
	shift 2
	chmod +x "$_dir/guest.sh"
	mkdir -p /var/log/journal
	timeout 180 unshare --mount --propagation private sh -c '
		for d in /run/systemd /run/log /var/log/journal; do
			mkdir -p "$d" && mount -t tmpfs -o mode=0755 tmpfs "$d" || exit 1
		done
		dir=$1 init=$2
		shift 2
		exec unshare --pid --mount --uts --fork --mount-proc "$@" env container=ember-test "$init" \
		ember.services="$dir/services" ember.run="$dir/guest.sh" ember.shell=none' \
		sh "$_dir" "$BIN/ember-init" "$@" >"$_log" 2>&1
	guest_results "$_log" $?
}

# need_guest NAME: what a test of ember-init as PID 1 of namespaces needs (the programs
# built, root); then tmp, a directory removed at exit, 0755 (services may run as nobody).
need_guest() {
	for p in ember-init emberctl; do
		[ -x "$BIN/$p" ] || { fail build "missing $BIN/$p (run make)"; finish; }
	done
	[ "$(id -u)" = 0 ] || { skip "$1" "needs root (namespaces)"; finish; }
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	chmod 755 "$tmp"
}
