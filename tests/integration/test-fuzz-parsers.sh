#!/bin/sh
# A short libFuzzer run (FUZZ_SECONDS each, default 10) of every parser of untrusted
# input (tests/fuzz/). `make fuzz` runs them longer. Needs `make fuzz-build` (make check
# does it).
. "$(dirname "$0")/../lib.sh"
if ! ls "$TOP"/out/fuzz/fuzz-* >/dev/null 2>&1; then
	skip fuzz-parsers "harnesses not built (make fuzz-build; needs clang)"
	finish
fi
"$TOP"/tests/fuzz/run "${FUZZ_SECONDS:-10}" || FAILED=1
finish
