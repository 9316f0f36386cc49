#!/bin/sh
# emberctl calendar next to systemd-analyze calendar (systemd 252 on this machine): the
# normalized form and the next five elapses, in UTC and in local time with daylight
# saving (Europe/Berlin), for Debian's own OnCalendar= lines (every one in the unit
# corpus when it is cached) and the forms systemd.time(7) documents; events systemd
# refuses are refused. Both compute from "now": a mismatch is tried once more, in case
# the clock crossed an elapse between the two.
. "$(dirname "$0")/../lib.sh"
E=$BIN/emberctl
if ! command -v systemd-analyze >/dev/null 2>&1; then
	skip calendar-vs-systemd "systemd-analyze is not installed (scripts/deps.sh installs systemd)"
	finish
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/events" <<'EOS'
daily
weekly
monthly
yearly
quarterly
semiannually
hourly
minutely
*-*-* 6:00
*-*-* 6,18:00
Sun *-*-* 03:10:00
Sun *-*-1..7 1:00:00
Mon..Fri 8..17:0/15
Sat,Sun 10:00
*-*-* *:00:00
*:*:0/10
*-02~03
*-*~01 23:00
*-02-29 12:00
*-*-31 04:00
Fri *-*-13 13:13:13
2027..2030-06-* 00:00 UTC
*-*-* 02:30
*-*-* 06:00 UTC
1:05:00
EOS
CORPUS=${EMBER_UNIT_CORPUS:-$HOME/.cache/ember/unit-corpus}
[ -d "$CORPUS" ] && find "$CORPUS" -name '*.timer' -exec sed -n 's/^OnCalendar=//p' {} + |
	sed 's/^ *//' | sort -u >>"$tmp/events"

# The lines both print: the forms and the elapses, not "From now" (it ticks).
ours() { TZ=$1 "$E" calendar --iterations 5 "$2" 2>&1 | grep -v 'From now:'; }
theirs() { TZ=$1 systemd-analyze calendar --iterations=5 "$2" 2>&1 | grep -v 'From now:'; }

while IFS= read -r ev; do
	[ -n "$ev" ] || continue
	for tz in UTC Europe/Berlin; do
		a=$(ours "$tz" "$ev") b=$(theirs "$tz" "$ev")
		[ "$a" = "$b" ] || { a=$(ours "$tz" "$ev"); b=$(theirs "$tz" "$ev"); }
		if [ "$a" = "$b" ]; then
			pass "same-as-systemd ($tz): $ev"
		else
			fail "same-as-systemd ($tz): $ev" "$(printf 'ember:\n%s\nsystemd:\n%s' "$a" "$b" | tr '\n' '|')"
		fi
	done
done <"$tmp/events"

# Refused by both (ember says why; exit 1).
for ev in 'bogus' '25:00' '*-13-01' '*-02-32' '*:0/0' '*:5..1' 'Fri..Mon' '1-2-3-4' '1:2:3:4' \
	'06:00 *-*-*' ''; do
	systemd-analyze calendar "$ev" >/dev/null 2>&1 && { skip "refused-like-systemd: '$ev'" "systemd accepts it"; continue; }
	out=$("$E" calendar "$ev" 2>&1); rc=$?
	[ $rc = 1 ] && printf '%s' "$out" | grep -q 'emberctl: calendar: ".*": ' &&
		pass "refused-like-systemd: '$ev'" || fail "refused-like-systemd: '$ev'" "rc $rc: $out"
done
# Hostile text is escaped in the error, never sent to the terminal raw.
out=$("$E" calendar "$(printf '\033]0;pwned\007')" 2>&1)
printf '%s' "$out" | grep -q "$(printf '\033')" && fail calendar-error-escaped "raw ESC in: $out" ||
	pass calendar-error-escaped
"$E" calendar --json --iterations 2 weekly | grep -q '^\[{"original":"weekly","normalized":"Mon \*-\*-\* 00:00:00","next_elapse_s":\[[0-9]*,[0-9]*\]}\]$' &&
	pass calendar-json || fail calendar-json "$("$E" calendar --json --iterations 2 weekly)"
finish
