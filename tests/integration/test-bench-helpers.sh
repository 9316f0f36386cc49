#!/bin/sh
# The benchmarks' guest helpers refuse bad arguments before doing anything (boot-ready
# would otherwise wait for a wrong number of services, or power the machine off).
. "$(dirname "$0")/../lib.sh"
R=$HELPERS/boot-ready

usage_refused() { # NAME ARGS...: exit 2 and the usage line
	name=$1; shift
	out=$("$R" "$@" 2>&1); rc=$?
	case "$rc:$out" in 2:*"usage: boot-ready"*) pass "$name" ;; *) fail "$name" "exit $rc: $out" ;; esac
}
usage_refused boot-ready-no-count
usage_refused boot-ready-poweroff-no-count --poweroff
usage_refused boot-ready-count-not-a-number abc
usage_refused boot-ready-count-negative -3
usage_refused boot-ready-count-trailing 5x
usage_refused boot-ready-too-many-arguments 1 2
finish
