#!/bin/sh
# Inside the guest: per-service cgroups, limits and figures.
ok() { echo "EMBER-TEST PASS $1"; }
bad() { echo "EMBER-TEST FAIL $1: $2"; }
CG=/sys/fs/cgroup/ember.slice
state() { emberctl --json status "$1" | sed -n 's/.*"state":"\([^"]*\)".*/\1/p'; }
field() { emberctl --json status "$1" | sed -n "s/.*\"$2\":\([-0-9]*\).*/\1/p"; }

[ -d "$CG/forker.service" ] && ok service-cgroup-exists || bad service-cgroup-exists "no $CG/forker.service"
pid=$(field forker main_pid)
grep -qx '0::/ember.slice/forker.service' "/proc/$pid/cgroup" && ok main-process-in-its-cgroup || bad main-process-in-its-cgroup "$(cat /proc/$pid/cgroup)"
[ "$(cat $CG/forker.service/pids.max)" = 6 ] && ok tasksmax-applied || bad tasksmax-applied "pids.max=$(cat $CG/forker.service/pids.max)"
sleep 1
n=$(cat $CG/forker.service/pids.current)
[ "$n" -le 6 ] && ok tasksmax-holds || bad tasksmax-holds "pids.current=$n"
grep -q '^max [1-9]' $CG/forker.service/pids.events && ok tasksmax-refused-forks || bad tasksmax-refused-forks "$(cat $CG/forker.service/pids.events)"
emberctl log forker | grep -q 'fork-many: 15 of 20 forks refused' && ok tasksmax-exact || bad tasksmax-exact "$(emberctl log forker)"
[ "$(cat $CG/forker.service/cpu.weight)" = 42 ] && ok cpuweight-applied || bad cpuweight-applied "$(cat $CG/forker.service/cpu.weight)"
grep -q 'default 77' $CG/forker.service/io.weight 2>/dev/null && ok ioweight-applied || bad ioweight-applied "$(cat $CG/forker.service/io.weight 2>&1)"
[ "$(cat $CG/forker.service/memory.high)" = 104857600 ] && ok memoryhigh-applied || bad memoryhigh-applied "$(cat $CG/forker.service/memory.high)"
[ "$(cat $CG/forker.service/memory.swap.max 2>&1)" = 16777216 ] && ok memoryswapmax-applied || bad memoryswapmax-applied "memory.swap.max=$(cat $CG/forker.service/memory.swap.max 2>&1)"
[ "$(field forker pids_current)" -ge 1 ] && ok status-shows-pids || bad status-shows-pids "$(emberctl --json status forker)"
[ "$(field forker memory_current)" -gt 0 ] && ok status-shows-memory || bad status-shows-memory "$(emberctl --json status forker)"

[ "$(cat $CG/memhog.service/memory.max 2>/dev/null)" = 33554432 ] && ok memorymax-applied || bad memorymax-applied "memory.max=$(cat $CG/memhog.service/memory.max 2>&1)"
i=0; while [ "$(field memhog restarts)" -lt 2 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
r=$(field memhog restarts)
[ "$r" -ge 2 ] && ok oom-killed-service-restarted || bad oom-killed-service-restarted "restarts=$r state=$(state memhog)"
dmesg | grep -q 'Memory cgroup out of memory' && ok kernel-oom-killed-in-cgroup || bad kernel-oom-killed-in-cgroup "no memcg OOM in dmesg"
emberctl status memhog | grep -qi 'status 137\|signal\|SIGKILL\|killed' && ok status-says-killed || bad status-says-killed "$(emberctl status memhog)"

# Stop a service: its cgroup goes away once empty.
emberctl stop forker
i=0; while [ -d $CG/forker.service ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
[ ! -d $CG/forker.service ] && ok stopped-cgroup-removed || bad stopped-cgroup-removed "still there"
[ "$(state forker)" = stopped ] && ok forker-stopped || bad forker-stopped "$(state forker)"

# U2: Type=forking without PIDFile=: GuessMainPID takes the one process left in the cgroup.
i=0; while [ "$(state guess)" != ready ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
gp=$(cat $CG/guess.service/cgroup.procs)
cmd=$(tr '\0' ' ' <"/proc/$gp/cmdline" 2>/dev/null)
[ "$(field guess main_pid)" = "$gp" ] && case $cmd in *4600*) true ;; *) false ;; esac &&
	ok forking-main-pid-guessed ||
	bad forking-main-pid-guessed "state $(state guess), main_pid $(field guess main_pid), cgroup.procs $gp ($cmd)"
# ... and of several processes left, the one whose parent is PID 1 (the daemon), as
# systemd guesses it; ember took none before 2026-12-07
i=0; while [ "$(state guess2)" != ready ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
sleep 0.5
mp=$(field guess2 main_pid)
cmd=$(tr '\0' ' ' <"/proc/$mp/cmdline" 2>/dev/null)
n=$(wc -l <$CG/guess2.service/cgroup.procs)
case $cmd in *4702*) [ "$n" = 3 ] ;; *) false ;; esac && ok forking-main-pid-guessed-of-several ||
	bad forking-main-pid-guessed-of-several "state $(state guess2), main_pid '$mp' ($cmd), $n processes"
# GuessMainPID=no: no main process; the one left being killed empties the cgroup, and the
# unit stops without failing, as under systemd (ember took it as the main process before
# 2026-12-07, and its death failed the unit)
i=0; while [ "$(state guess3)" != ready ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
g3=$(cat $CG/guess3.service/cgroup.procs 2>/dev/null)
m3=$(field guess3 main_pid)
[ -n "$g3" ] && kill -KILL $g3
i=0; while [ "$(state guess3)" = ready ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
[ "$m3" = 0 ] && [ "$(state guess3)" = stopped ] && ok forking-guessmainpid-no ||
	bad forking-guessmainpid-no "main_pid '$m3' (left: $g3), then $(state guess3)"
emberctl stop guess
i=0; while [ "$(state guess)" != stopped ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
[ -n "$gp" ] && [ ! -d /proc/$gp ] && ok forking-guessed-stopped || bad forking-guessed-stopped "$gp survived"

# The boot chart and the JSON timings, copied out through the console for the host to
# parse (tests/qemu/test-services.sh). memhog is stopped first: each of its OOM kills
# prints a kernel line that could land in the middle of the copy.
copy_out() { # NAME FILE: base64 lines tagged with NAME, then the file's md5
	base64 "$2" | sed "s/^/EMBER-B64 $1 /"
	echo "EMBER-MD5 $1 $(md5sum <"$2" | cut -d' ' -f1)"
}
emberctl stop memhog
i=0; while [ "$(state memhog)" != stopped ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
emberctl analyze --svg /tmp/boot.svg >/dev/null && [ -s /tmp/boot.svg ] && ok analyze-svg-written ||
	bad analyze-svg-written "emberctl analyze --svg failed or wrote nothing"
emberctl analyze --json >/tmp/analyze.json && ok analyze-json-written ||
	bad analyze-json-written "emberctl analyze --json failed"
copy_out svg /tmp/boot.svg
copy_out json /tmp/analyze.json
echo "PID1-RSS-KB $(sed -n 's/^VmRSS:[^0-9]*\([0-9]*\).*/\1/p' /proc/1/status)"
exit 0
