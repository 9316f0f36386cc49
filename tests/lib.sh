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

finish() { exit "$FAILED"; }
