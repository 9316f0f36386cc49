#!/bin/sh
# docs/services.md's compatibility table is the one the code generates
# (scripts/compat-table.sh): the docs cannot drift from init/service.c and
# init/unit-compat.c.
. "$(dirname "$0")/../lib.sh"
if [ ! -x "$BIN/emberctl" ]; then
	fail build "run make first (missing $BIN/emberctl)"
	finish
fi
check compat-table-matches-code env EMBERCTL="$BIN/emberctl" "$TOP/scripts/compat-table.sh" --check
# and the check can fail: a table with one row changed is caught
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/docs" "$T/scripts"
cp "$TOP/scripts/compat-table.sh" "$T/scripts/"
sed 's/^| \[Service\] | `RestrictFileSystems=` | [^|]*|/| [Service] | `RestrictFileSystems=` | supported |/' \
	"$TOP/docs/services.md" >"$T/docs/services.md"
expect_fail stale-table-is-caught env EMBERCTL="$BIN/emberctl" "$T/scripts/compat-table.sh" --check
finish
