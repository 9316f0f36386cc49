#!/bin/sh
# tests/run itself, on a tree of fake tests: a test file that is not executable fails
# (it was passed over without a word, and two integration tests and a QEMU test never
# ran in CI that way), a test that exits non-zero without a FAIL line fails, and the
# summary line counts each.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
mkdir -p "$T/tests/integration" "$T/out"
cp "$TOP/tests/run" "$T/tests/run"
printf '#!/bin/sh\necho "PASS one"\n' >"$T/tests/integration/test-a.sh"
printf '#!/bin/sh\necho "FAIL would-be-hidden: x"\n' >"$T/tests/integration/test-b.sh"
printf '#!/bin/sh\nexit 3\n' >"$T/tests/integration/test-c.sh"
chmod +x "$T/tests/integration/test-a.sh" "$T/tests/integration/test-c.sh"
out=$(bash "$T/tests/run" integration 2>&1); rc=$?
printf '%s\n' "$out" | grep -qx 'FAIL integration/test-b.sh: not executable (chmod +x it)' &&
	pass non-executable-test-fails || fail non-executable-test-fails "$out"
printf '%s\n' "$out" | grep -qx 'FAIL integration/test-c.sh: exited 3' &&
	pass silent-nonzero-exit-fails || fail silent-nonzero-exit-fails "$out"
printf '%s\n' "$out" | tail -n 1 | grep -qx '1 passed, 2 failed, 0 skipped' && [ "$rc" -ne 0 ] &&
	pass summary-counts-them || fail summary-counts-them "rc $rc: $(printf '%s\n' "$out" | tail -n 1)"
# Every test file of the tree is executable (what the runner now insists on).
bad=$(for f in "$TOP"/tests/integration/test-* "$TOP"/tests/qemu/test-* "$TOP"/tests/static/test-*; do
	[ -e "$f" ] && [ ! -x "$f" ] && echo "$f"; done)
[ -z "$bad" ] && pass test-files-executable || fail test-files-executable "$bad"
finish
