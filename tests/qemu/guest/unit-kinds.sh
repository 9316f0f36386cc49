#!/bin/sh
# Inside the guest: mount, device and slice units, Slice= and Delegate= on a real cgroup2;
# a socket unit's own cgroup for its commands.
ok() { echo "EMBER-TEST PASS $1"; }
bad() { echo "EMBER-TEST FAIL $1: $2"; }
CG=/sys/fs/cgroup/ember.slice
state() { emberctl --json status "$1" | sed -n 's/.*"state":"\([^"]*\)".*/\1/p'; }
field() { emberctl --json status "$1" | sed -n "s/.*\"$2\":\([-0-9]*\).*/\1/p"; }
wait_state() { i=0; while [ "$(state "$1")" != "$2" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; }

# tmp.mount as distributions ship it, pulled in by RequiresMountsFor=/tmp/deleg.
[ "$(state tmp.mount)" = ready ] && ok tmp-mount-unit-ready || bad tmp-mount-unit-ready "$(state tmp.mount)"
grep -q '^tmpfs /tmp tmpfs rw,nosuid,nodev' /proc/mounts && ok tmp-mounted-with-options ||
	bad tmp-mounted-with-options "$(grep ' /tmp ' /proc/mounts)"
emberctl status deleg | grep -q 'tmp.mount' && ok requires-mounts-for-unit-file ||
	bad requires-mounts-for-unit-file "$(emberctl status deleg | head -12)"

# A device present at boot; built-in slices.
[ "$(state on-console)" = ready ] && ok device-present-at-boot || bad device-present-at-boot "on-console is $(state on-console)"
[ "$(state dev-ttyS0.device)" = ready ] && ok device-unit-ready || bad device-unit-ready "$(state dev-ttyS0.device)"
[ "$(state system.slice)" = ready ] && ok builtin-system-slice || bad builtin-system-slice "$(state system.slice)"

# Slice=kinds-sub.slice: ember/kinds.slice/kinds-sub.slice/sliced.service, parents active.
wait_state sliced ready
pid=$(field sliced main_pid)
grep -qx '0::/ember.slice/kinds.slice/kinds-sub.slice/sliced.service' "/proc/$pid/cgroup" &&
	ok service-in-slice-cgroup || bad service-in-slice-cgroup "$(cat /proc/$pid/cgroup)"
[ "$(state kinds.slice)" = ready ] && [ "$(state kinds-sub.slice)" = ready ] &&
	ok parent-slices-active || bad parent-slices-active "kinds.slice $(state kinds.slice), kinds-sub.slice $(state kinds-sub.slice)"
grep -qw memory $CG/kinds.slice/kinds-sub.slice/cgroup.subtree_control && ok slice-passes-controllers ||
	bad slice-passes-controllers "$(cat $CG/kinds.slice/kinds-sub.slice/cgroup.subtree_control)"
[ -e $CG/kinds.slice/kinds-sub.slice/sliced.service/memory.current ] && ok sliced-service-accounted ||
	bad sliced-service-accounted "no memory.current"
emberctl status sliced | grep -q 'kinds.slice/kinds-sub.slice/sliced.service' && ok status-shows-slice-path ||
	bad status-shows-slice-path "$(emberctl status sliced | grep -i cgroup)"
emberctl stop sliced; wait_state sliced stopped
[ ! -d $CG/kinds.slice/kinds-sub.slice/sliced.service ] && ok sliced-cgroup-removed || bad sliced-cgroup-removed "still there"

# [Slice] resource keys on the slice's own directory: lim.slice's on lim.slice/ (the parent
# of the service's slice), lim-sub.slice's on lim-sub.slice/, where they hold for the
# service (fork-many has no limit of its own: the slice's TasksMax=6 refuses 15 forks).
wait_state limited ready
L=$CG/lim.slice
[ "$(cat $L/pids.max)" = 40 ] && ok slice-tasksmax-on-parent || bad slice-tasksmax-on-parent "pids.max=$(cat $L/pids.max 2>&1)"
[ "$(cat $L/memory.max)" = 67108864 ] && ok slice-memorymax || bad slice-memorymax "memory.max=$(cat $L/memory.max 2>&1)"
[ "$(cat $L/cpu.weight)" = 50 ] && ok slice-cpuweight || bad slice-cpuweight "cpu.weight=$(cat $L/cpu.weight 2>&1)"
[ "$(cat $L/lim-sub.slice/pids.max)" = 6 ] && ok nested-slice-tasksmax || bad nested-slice-tasksmax "pids.max=$(cat $L/lim-sub.slice/pids.max 2>&1)"
[ "$(cat $L/lim-sub.slice/limited.service/pids.max)" = max ] && ok service-in-limited-slice-unlimited ||
	bad service-in-limited-slice-unlimited "$(cat $L/lim-sub.slice/limited.service/pids.max 2>&1)"
i=0; while ! emberctl log limited | grep -q fork-many && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
emberctl log limited | grep -q 'fork-many: 15 of 20 forks refused' && ok slice-tasksmax-holds ||
	bad slice-tasksmax-holds "$(emberctl log limited | tail -2)"
# A reload writes a slice's and a running service's changed limits at once (as systemd
# does), nothing restarts: drop-ins change lim.slice's and limited's, their removal brings
# the files' values back.
S=/etc/ember/services
pid=$(field limited main_pid)
mkdir -p $S/lim.slice.d
printf '[Slice]\nTasksMax=25\nMemoryMax=32M\n' >$S/lim.slice.d/50-reload.conf
mkdir -p $S/limited.service.d
printf '[Service]\nTasksMax=30\n' >$S/limited.service.d/50-reload.conf
emberctl daemon-reload >/dev/null
[ "$(cat $L/lim-sub.slice/limited.service/pids.max)" = 30 ] && ok reload-applies-service-limits ||
	bad reload-applies-service-limits "pids.max=$(cat $L/lim-sub.slice/limited.service/pids.max)"
[ "$(cat $L/pids.max)" = 25 ] && [ "$(cat $L/memory.max)" = 33554432 ] && ok reload-applies-slice-limits ||
	bad reload-applies-slice-limits "pids.max=$(cat $L/pids.max) memory.max=$(cat $L/memory.max)"
[ "$(field limited main_pid)" = "$pid" ] && [ "$(state limited)" = ready ] && ok reload-limits-no-restart ||
	bad reload-limits-no-restart "limited $(state limited), pid $(field limited main_pid) was $pid"
rm -r $S/lim.slice.d $S/limited.service.d
emberctl daemon-reload >/dev/null
[ "$(cat $L/lim-sub.slice/limited.service/pids.max)" = max ] && ok reload-removed-service-limit-max ||
	bad reload-removed-service-limit-max "pids.max=$(cat $L/lim-sub.slice/limited.service/pids.max)"
[ "$(cat $L/pids.max)" = 40 ] && [ "$(cat $L/memory.max)" = 67108864 ] && ok reload-dropin-removed-limits-back ||
	bad reload-dropin-removed-limits-back "pids.max=$(cat $L/pids.max) memory.max=$(cat $L/memory.max)"
# A slice no service uses: its start alone makes its directory with its limits.
[ "$(state idle.slice)" = ready ] && [ "$(cat $CG/idle.slice/pids.max 2>&1)" = 9 ] && ok slice-start-applies-limits ||
	bad slice-start-applies-limits "idle.slice $(state idle.slice), pids.max=$(cat $CG/idle.slice/pids.max 2>&1)"
grep -q 'default 300' $CG/idle.slice/io.weight 2>/dev/null && ok slice-ioweight ||
	bad slice-ioweight "$(cat $CG/idle.slice/io.weight 2>&1)"
# Keys removed in a reload go back to the kernel's defaults, on a slice left without any.
printf '[Unit]\nDescription=idle, its limits removed\n' >$S/idle.slice
emberctl daemon-reload >/dev/null
[ "$(cat $CG/idle.slice/pids.max)" = max ] && grep -q 'default 100' $CG/idle.slice/io.weight &&
	ok reload-removed-keys-kernel-default ||
	bad reload-removed-keys-kernel-default "pids.max=$(cat $CG/idle.slice/pids.max) $(cat $CG/idle.slice/io.weight)"
# x-.slice.d/10.conf (TasksMax=33%) configures x-7.slice, which has no file, not x.slice:
# 33% of the kernel's task limit as systemd computes it, min(pid_max - 1, threads-max).
wait_state xseven ready
t=$(($(cat /proc/sys/kernel/pid_max) - 1)); tm=$(cat /proc/sys/kernel/threads-max)
[ "$tm" -lt "$t" ] && t=$tm
want=$((t * 3300 / 10000))
[ "$(cat $CG/x.slice/x-7.slice/pids.max 2>&1)" = "$want" ] && ok slice-prefix-dropin-percent ||
	bad slice-prefix-dropin-percent "pids.max=$(cat $CG/x.slice/x-7.slice/pids.max 2>&1), want $want"
[ "$(cat $CG/x.slice/pids.max 2>&1)" = max ] && ok prefix-dropin-not-on-x-slice ||
	bad prefix-dropin-not-on-x-slice "x.slice pids.max=$(cat $CG/x.slice/pids.max 2>&1)"

# Delegate=memory pids to uid 4242: it may build its own tree; without Delegate= it may not.
wait_state deleg ready; wait_state undeleg ready; sleep 0.5
[ "$(stat -c %u:%g $CG/deleg.service)" = 4242:4242 ] && ok delegated-dir-owned ||
	bad delegated-dir-owned "$(stat -c %u:%g $CG/deleg.service)"
[ "$(stat -c %u $CG/deleg.service/cgroup.subtree_control)" = 4242 ] && ok delegated-files-owned ||
	bad delegated-files-owned "$(ls -ln $CG/deleg.service | head -5)"
grep -qw memory $CG/deleg.service/cgroup.controllers && ok delegated-controllers-available ||
	bad delegated-controllers-available "$(cat $CG/deleg.service/cgroup.controllers)"
emberctl log deleg | grep -q deleg-managed-own-tree && ok delegatee-manages-subtree ||
	bad delegatee-manages-subtree "$(emberctl log deleg | tail -3)"
grep -qw memory $CG/deleg.service/cgroup.subtree_control && [ -e $CG/deleg.service/leaf/memory.current ] &&
	ok delegatee-enabled-controller || bad delegatee-enabled-controller "$(cat $CG/deleg.service/cgroup.subtree_control)"
emberctl log undeleg | grep -q undeleg-refused && ok undelegated-refused ||
	bad undelegated-refused "$(emberctl log undeleg | tail -3)"
[ "$(stat -c %u $CG/undeleg.service)" = 0 ] && ok undelegated-dir-root || bad undelegated-dir-root "$(stat -c %u $CG/undeleg.service)"
# DelegateSubgroup=: the main process in the subgroup (the user's too), ExecStartPre= in
# the unit's own cgroup, as in systemd; the subgroup goes with the unit
wait_state delegsub ready; sleep 0.3
emberctl log delegsub | grep -q "main 0::/ember.slice/delegsub.service/supervisor$" &&
	ok delegate-subgroup-main || bad delegate-subgroup-main "$(emberctl log delegsub | tail -3)"
emberctl log delegsub | grep -q "pre 0::/ember.slice/delegsub.service$" &&
	ok delegate-subgroup-pre-in-unit || bad delegate-subgroup-pre-in-unit "$(emberctl log delegsub | tail -3)"
[ "$(stat -c %u $CG/delegsub.service/supervisor 2>&1)" = 4242 ] && ok delegate-subgroup-owned ||
	bad delegate-subgroup-owned "$(ls -ln $CG/delegsub.service 2>&1 | head -5)"
emberctl stop delegsub; wait_state delegsub stopped
[ ! -d $CG/delegsub.service ] && ok delegate-subgroup-removed || bad delegate-subgroup-removed "$(ls $CG/delegsub.service)"
emberctl stop deleg; wait_state deleg stopped
[ ! -d $CG/deleg.service ] && ok delegated-tree-removed || bad delegated-tree-removed "$(ls $CG/deleg.service)"
# A socket unit's commands run in its own cgroup (ember.slice/leftover.socket), as on
# systemd: what ExecStartPre= leaves behind is the unit's, and goes when it stops.
wait_state leftover.socket ready
pid=$(cat /run/leftover.pid 2>/dev/null)
[ -n "$pid" ] && grep -qx '0::/ember.slice/leftover.socket' "/proc/$pid/cgroup" &&
	ok socket-command-leftover-in-its-cgroup ||
	bad socket-command-leftover-in-its-cgroup "pid '$pid': $(cat /proc/$pid/cgroup 2>&1)"
grep -qx "$pid" $CG/leftover.socket/cgroup.procs 2>/dev/null && ok socket-cgroup-holds-leftover ||
	bad socket-cgroup-holds-leftover "$(cat $CG/leftover.socket/cgroup.procs 2>&1)"
emberctl status leftover.socket | grep -q 'ember.slice/leftover.socket' && ok socket-status-shows-cgroup ||
	bad socket-status-shows-cgroup "$(emberctl status leftover.socket | head -12 | tr '\n' ' ')"
emberctl stop leftover.socket; wait_state leftover.socket stopped
[ "$(state leftover.socket)" = stopped ] && ok socket-with-leftover-stops ||
	bad socket-with-leftover-stops "$(state leftover.socket)"
[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null && ok socket-stop-kills-leftover ||
	bad socket-stop-kills-leftover "pid '$pid' alive: $(cat /proc/$pid/cmdline 2>&1 | tr '\0' ' ')"
[ ! -d $CG/leftover.socket ] && ok socket-cgroup-removed || bad socket-cgroup-removed "still there"
# A slice limit the kernel refuses is logged once, not on each start below the slice
# (the host counts the lines). refuse.slice holds a process: the kernel enables no
# domain controller in it (EBUSY), so refuse-sub.slice has no memory.max for its
# MemoryMax=. pids, a threaded controller, is enabled: refuse.slice is then a thread
# root, and the service cannot enter refuse-sub.slice ("fork: Not supported"); each
# start still writes the slice's limits before it forks.
mkdir $CG/refuse.slice
sleep 1000 & echo $! >$CG/refuse.slice/cgroup.procs
printf '[Slice]\nMemoryMax=8M\n' >$S/refuse-sub.slice
printf '[Service]\nType=oneshot\nSlice=refuse-sub.slice\nExecStart=/bin/true\n' >$S/refuse-once.service
emberctl daemon-reload >/dev/null
for n in 1 2 3; do emberctl start refuse-once; wait_state refuse-once failed; done
[ "$(state refuse-once)" = failed ] && ok refused-slice-service-tried ||
	bad refused-slice-service-tried "$(emberctl status refuse-once | head -8 | tr '\n' ' ')"
kill -0 1 && ok pid1-alive || bad pid1-alive gone
