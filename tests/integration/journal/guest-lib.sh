# Sourced by the guest scripts of the journald tests, with E (emberctl) and J (this
# directory) set: the cases' output, a unit's state and main pid, the journal's entries.
ok() { echo "PASS $1"; }
bad() { echo "FAIL $1: $2"; }
state() { "$E" --json status "$1" | sed -n 's/.*"state":"\([^"]*\)".*/\1/p'; }
main_pid() { "$E" --json status "$1" | sed -n 's/.*"main_pid":\([0-9]*\).*/\1/p'; }
entry() { python3 "$J/entries.py" "$1"; }
# journald writes what it read a moment later: wait for an entry.
wait_entry() { i=0; while [ $i -lt 100 ]; do [ -n "$(entry "$1")" ] && return 0; sleep 0.1; i=$((i+1)); done; return 1; }
wait_log() { i=0; while [ $i -lt 100 ]; do "$E" log "$1" | grep -q "$2" && return 0; sleep 0.1; i=$((i+1)); done; return 1; }
wait_state() { i=0; while [ "$(state "$1")" != "$2" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; }
