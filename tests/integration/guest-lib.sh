# Helpers for the guest scripts the integration tests run under ember-init as PID 1 of
# a namespace (ember.run=): one line per case, as tests/lib.sh prints them. The guest
# sets E to its emberctl before sourcing this file.
ok() { echo "PASS $1"; }
bad() { echo "FAIL $1: $2"; }
state() { "$E" --json status "$1" | sed -n 's/.*"state":"\([^"]*\)".*/\1/p'; }
wait_state() { # NAME STATES: up to 15 s for one of STATES
	i=0
	while [ $i -lt 300 ]; do
		s=$(state "$1"); for want in $2; do [ "$s" = "$want" ] && return 0; done
		sleep 0.05; i=$((i+1))
	done
	return 1
}
wait_log() { # NAME TEXT: up to 10 s for TEXT (a grep pattern) in the service's log
	i=0
	while ! "$E" log "$1" | grep -q -- "$2" && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done
	"$E" log "$1" | grep -q -- "$2"
}
has() { # CASE NAME TEXT: the case passes when TEXT shows in NAME's log
	wait_log "$2" "$3" && ok "$1" ||
		bad "$1" "$2: $("$E" log "$2" | tr '\n' ' ') / $("$E" status "$2" | tr '\n' ' ')"
}
