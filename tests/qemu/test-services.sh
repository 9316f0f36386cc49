#!/bin/sh
# ember-init's supervisor on the Debian 6.1 kernel: each service in its own cgroup with
# its limits (MemoryMax -> OOM kill -> restart, TasksMax holds, weights), and shutdown in
# reverse dependency order with TimeoutStopSec enforced.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
img=$QEMU_WORK/services.cpio
qemu_image "$img" --dir "$TOP/tests/qemu/guest:/test" --file "$TOP/out/tests/helpers/fork-many:/test/fork-many" \
	--dir "$TOP/tests/qemu/services-limits:/etc/ember/services"
qemu_test "$img" services 180 services-limits.sh
log=$QEMU_WORK/services.log
clean=$(tr -d '\r' <"$log")
# Shutdown order: stubborn (after upper) first, then upper, then base.
order=$(printf '%s\n' "$clean" | sed -n 's/.*ember-init: \(stubborn\|upper\|base\): stopped$/\1/p' | tr '\n' ' ')
[ "$order" = "stubborn upper base " ] && pass shutdown-reverse-order || fail shutdown-reverse-order "order: $order"
printf '%s\n' "$clean" | grep -q 'stubborn: stop timed out, killing its whole cgroup' &&
	pass stop-timeout-kills || fail stop-timeout-kills "no kill line"
printf '%s\n' "$clean" | grep -q 'upper-got-term' && pass service-got-sigterm || fail service-got-sigterm "no upper-got-term"

# `emberctl analyze --svg` and `--json` in the guest, copied out through the console
# (base64 lines and an md5): every service of this boot must be in both.
services=$(for f in "$TOP"/tests/qemu/services-limits/*.service; do basename "$f" .service; done)
copied() { # NAME FILE: decode the guest's copy NAME into FILE; fails if it came damaged
	printf '%s\n' "$clean" | sed -n "s/^EMBER-B64 $1 //p" | base64 -d >"$2" 2>/dev/null || return 1
	sum=$(printf '%s\n' "$clean" | sed -n "s/^EMBER-MD5 $1 //p")
	[ -n "$sum" ] && [ "$(md5sum <"$2" | cut -d' ' -f1)" = "$sum" ]
}
svg=$QEMU_WORK/services-boot.svg json=$QEMU_WORK/services-analyze.json
# shellcheck disable=SC2086 # one argument per service name
if ! copied svg "$svg"; then
	fail analyze-svg-chart "no intact copy of the SVG on the console; console log: $log"
elif why=$(python3 - "$svg" $services 2>&1 <<'PY'
# Well-formed SVG; each service has exactly one bar (a rect titled "NAME: ...") of
# non-negative width and a label; no bar for anything else.
import sys
import xml.etree.ElementTree as ET
NS = '{http://www.w3.org/2000/svg}'
want = sys.argv[2:]
try:
    root = ET.parse(sys.argv[1]).getroot()
except ET.ParseError as e:
    sys.exit(f'not well-formed XML: {e}')
if root.tag != NS + 'svg':
    sys.exit(f'root element {root.tag}, not svg')
bars = {}
for rect in root.iter(NS + 'rect'):
    title = rect.find(NS + 'title')
    if title is not None:  # the background rect has none
        bars.setdefault((title.text or '').split(':')[0], []).append(rect.get('width'))
labels = [t.text or '' for t in root.iter(NS + 'text')]
bad = []
for name in want:
    widths = bars.pop(name, [])
    if len(widths) != 1:
        bad.append(f'{name}: {len(widths)} bars')
    elif not widths[0] or float(widths[0]) < 0:
        bad.append(f'{name}: bar width {widths[0]!r}')
    if not any(t.startswith(name + ' (') for t in labels):
        bad.append(f'{name}: no label')
bad += [f'unexpected bar {name!r}' for name in bars]
sys.exit('; '.join(bad) or None)
PY
); then
	pass analyze-svg-chart
else
	fail analyze-svg-chart "$why"
fi
# shellcheck disable=SC2086
if ! copied json "$json"; then
	fail analyze-json-services "no intact copy of the JSON on the console; console log: $log"
elif why=$(python3 - "$json" $services 2>&1 <<'PY'
import json, sys
try:
    doc = json.load(open(sys.argv[1]))
    got = sorted(s['name'] for s in doc['services'])
except (ValueError, KeyError, TypeError) as e:
    sys.exit(f'not analyze JSON: {e!r}')
if got != sorted(sys.argv[2:]):
    sys.exit(f'services {got}, expected {sorted(sys.argv[2:])}')
PY
); then
	pass analyze-json-services
else
	fail analyze-json-services "$why"
fi
finish
