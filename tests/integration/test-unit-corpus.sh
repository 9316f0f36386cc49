#!/bin/sh
# Issue 12's corpus test: `emberctl verify` over real Debian 12 packages' system unit
# files (scripts/unit-corpus.sh fetches them into ~/.cache/ember/unit-corpus; never
# committed). Prints the acceptance table: files that are clean (load, run as systemd
# would), changes (load, but a warning says what runs differently) and refused, by
# package, and the top causes.
#
# Fails when a file listed in tests/corpus/clean.txt (units that loaded cleanly before)
# no longer does. The list only ever grows: `--update-baseline` adds the files that are
# clean now. The issue's bar (95 % clean) is reported as PASS or SKIP, not FAIL, until
# the features it needs have landed.
. "$(dirname "$0")/../lib.sh"
# EMBER_UNIT_SUITE=trixie (test-unit-corpus-trixie.sh): Debian 13's units, a baseline
# of their own
BASELINE=$TOP/tests/corpus/clean${EMBER_UNIT_SUITE:+-$EMBER_UNIT_SUITE}.txt
UPDATE=0
[ "${1:-}" = "--update-baseline" ] && UPDATE=1

EMBERCTL=$BIN/emberctl
if [ ! -x "$EMBERCTL" ]; then
	fail build "run make first (missing $EMBERCTL)"
	finish
fi
if ! CORPUS=$("$TOP/scripts/unit-corpus.sh" 2>"${TMPDIR:-/tmp}/unit-corpus.$$.log" | tail -n 1); then
	[ -d "$CORPUS" ] || { skip corpus "cannot fetch: $(tail -n 3 "${TMPDIR:-/tmp}/unit-corpus.$$.log" | tr '\n' ' ')"; rm -f "${TMPDIR:-/tmp}/unit-corpus.$$.log"; finish; }
	echo "# some packages could not be fetched: $(tr '\n' ' ' <"${TMPDIR:-/tmp}/unit-corpus.$$.log")"
fi
rm -f "${TMPDIR:-/tmp}/unit-corpus.$$.log"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# The units: regular files only (.wants links and alias links point at units counted
# once already); drop-ins (*.d/*.conf) are not units of their own.
(cd "$CORPUS" && find . \( -path ./.debs -o -path ./.apt \) -prune -o -type f \
	\( -name '*.service' -o -name '*.socket' -o -name '*.target' -o -name '*.timer' -o -name '*.path' \) -print | sed 's|^\./||' |
	LC_ALL=C sort) >"$T/units"
total=$(wc -l <"$T/units")
if [ "$total" -ge 250 ]; then
	pass corpus-has-250-units
else
	fail corpus-has-250-units "only $total unit files in $CORPUS"
fi

# One verify run over every file (paths relative to the corpus, so the report reads
# package/path).
set --
while IFS= read -r f; do set -- "$@" "$f"; done <"$T/units"
(cd "$CORPUS" && "$EMBERCTL" verify --json "$@") >"$T/verify.json"
rc=$?
if [ "$rc" -le 1 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/verify.json" 2>"$T/json.err"; then
	pass verify-runs-over-corpus
else
	fail verify-runs-over-corpus "exit $rc, $(head -c 300 "$T/json.err")"
	finish
fi

python3 - "$T/verify.json" "$T/clean" <<'PY'
import collections, json, re, sys
doc = json.load(open(sys.argv[1]))
units = doc["units"]
by_pkg = collections.defaultdict(collections.Counter)
causes = {"changes": collections.Counter(), "refused": collections.Counter()}
clean = []
for u in units:
    pkg = u["file"].split("/", 1)[0]
    by_pkg[pkg][u["result"]] += 1
    if u["result"] == "clean":
        clean.append(u["file"])
    seen = set()
    for d in u["diagnostics"]:
        if d["severity"] == "note":
            continue
        # the cause: the key, or the kind of problem for whole-file messages
        m = d["message"]
        key = re.split(r"[:=]", m, 1)[0] if d["line"] else re.sub(r"^[^ ]+: ", "", m).split(":")[0]
        if key.endswith((".service", ".socket", ".target", ".timer", ".path")):
            key = m.split(": ", 1)[1].split(":")[0] if ": " in m else key
        cls = "refused" if d["severity"] == "error" else "changes"
        if (cls, key) not in seen:
            seen.add((cls, key))
            causes[cls][key] += 1
n = len(units)
c = collections.Counter(u["result"] for u in units)
pct = lambda k: 100.0 * c[k] / n if n else 0
print("# Unit corpus: %d files" % n)
print("# | result | files | share |")
print("# |---|---|---|")
for k in ("clean", "changes", "refused"):
    print("# | %s | %d | %.1f %% |" % (k, c[k], pct(k)))
print("# | loads (clean + changes) | %d | %.1f %% |" % (c["clean"] + c["changes"], pct("clean") + pct("changes")))
print("#")
print("# | package | files | clean | changes | refused |")
print("# |---|---|---|---|---|")
for pkg in sorted(by_pkg):
    p = by_pkg[pkg]
    print("# | %s | %d | %d | %d | %d |" % (pkg, sum(p.values()), p["clean"], p["changes"], p["refused"]))
for cls, title in (("refused", "errors (files refused by)"), ("changes", "warnings (files run differently by)")):
    print("#")
    print("# top %s:" % title)
    for key, count in causes[cls].most_common(15):
        print("#   %4d  %s" % (count, key))
open(sys.argv[2], "w").write("".join(f + "\n" for f in sorted(clean)))
PY
pct=$(python3 - "$T/verify.json" <<'PY'
import json, sys
u = json.load(open(sys.argv[1]))["units"]
print("%.1f" % (100.0 * sum(x["result"] == "clean" for x in u) / max(len(u), 1)))
PY
)

# No regression: every file in the baseline still loads cleanly.
touch "$BASELINE"
regressed=$(LC_ALL=C comm -23 "$BASELINE" "$T/clean")
if [ -z "$regressed" ]; then
	pass corpus-no-regression
else
	fail corpus-no-regression "no longer clean: $(echo "$regressed" | tr '\n' ' ')"
fi
new=$(LC_ALL=C comm -13 "$BASELINE" "$T/clean" | wc -l)
if [ "$UPDATE" = 1 ]; then
	LC_ALL=C sort -u "$BASELINE" "$T/clean" >"$T/baseline" && cp "$T/baseline" "$BASELINE"
	echo "# baseline: $new file(s) added to $BASELINE"
elif [ "$new" -gt 0 ]; then
	echo "# $new file(s) clean now but not in the baseline: run with --update-baseline"
fi

if python3 -c "import sys; sys.exit(0 if float('$pct') >= 95 else 1)"; then
	pass corpus-95-percent-clean
else
	skip corpus-95-percent-clean "$pct % clean; issue 12 is done at 95 %"
fi
finish
