#!/bin/sh
# Inside the guest: swap units on a real kernel (test-swap.sh). dev-zram0.swap, enabled
# by a swap.target.wants/ link, is on with its priority; dev-zram1.swap (What= not its
# name) is refused and the boot went on; stop, start, and a swapoff behind ember's back.
ok() { echo "EMBER-TEST PASS $1"; }
bad() { echo "EMBER-TEST FAIL $1: $2"; }
state() { emberctl --json status "$1" | sed -n 's/.*"state":"\([^"]*\)".*/\1/p'; }
wait_state() { i=0; while [ "$(state "$1")" != "$2" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; }
prio() { awk '$1 == "/dev/zram0" { print $5 }' /proc/swaps; }

wait_state dev-zram0.swap ready
[ "$(state dev-zram0.swap)" = ready ] && ok swap-unit-ready ||
	bad swap-unit-ready "$(state dev-zram0.swap); $(emberctl status dev-zram0.swap 2>&1 | head -8)"
[ "$(prio)" = 77 ] && ok swap-on-with-priority || bad swap-on-with-priority "$(cat /proc/swaps)"
[ "$(state swap.target)" = ready ] && ok swap-target-reached || bad swap-target-reached "$(state swap.target)"
emberctl status dev-zram0.swap | grep -q 'dev-zram0.device' && ok swap-binds-to-its-device ||
	bad swap-binds-to-its-device "$(emberctl status dev-zram0.swap | head -14)"
wait_state after-swap ready
grep -q '^/dev/zram0 ' /run/after-swap.txt 2>/dev/null && ok ordered-after-swap-target ||
	bad ordered-after-swap-target "after-swap saw: $(cat /run/after-swap.txt 2>&1)"

# The unit whose What= is not its name: refused, with the reason; nothing else stopped.
out=$(emberctl status dev-zram1.swap 2>&1)
printf '%s\n' "$out" | grep -q 'does not match the unit name' && ok bad-what-refused-with-reason ||
	bad bad-what-refused-with-reason "$out"
[ "$(grep -c zram /proc/swaps)" = 1 ] && ok bad-unit-turned-nothing-on || bad bad-unit-turned-nothing-on "$(cat /proc/swaps)"

# stop: swapoff(2); start: swapon(2) with the same flags.
emberctl stop dev-zram0.swap; wait_state dev-zram0.swap stopped
[ "$(state dev-zram0.swap)" = stopped ] && [ -z "$(prio)" ] && ok stop-turns-swap-off ||
	bad stop-turns-swap-off "$(state dev-zram0.swap); $(cat /proc/swaps)"
emberctl start dev-zram0.swap; wait_state dev-zram0.swap ready
[ "$(state dev-zram0.swap)" = ready ] && [ "$(prio)" = 77 ] && ok start-turns-swap-on ||
	bad start-turns-swap-on "$(state dev-zram0.swap); $(cat /proc/swaps)"

# Turned off behind ember's back: /proc/swaps' watch notices, the unit is stopped.
swapoff /dev/zram0
wait_state dev-zram0.swap stopped
[ "$(state dev-zram0.swap)" = stopped ] && ok swapoff-outside-noticed ||
	bad swapoff-outside-noticed "$(state dev-zram0.swap); $(cat /proc/swaps)"
# Already on when started (a script did it): active, not an error.
swapon /dev/zram0
emberctl start dev-zram0.swap; wait_state dev-zram0.swap ready
[ "$(state dev-zram0.swap)" = ready ] && ok already-on-counts-as-active ||
	bad already-on-counts-as-active "$(state dev-zram0.swap); $(emberctl status dev-zram0.swap | head -8)"
# The swap file: its name with a space is "\040" in /proc/swaps; it came after the mount
# of its file system (RequiresMountsFor= from What=).
F='data-swap\x20file.swap'
wait_state "$F" ready
[ "$(state "$F")" = ready ] && ok swap-file-unit-ready ||
	bad swap-file-unit-ready "$(state "$F"); $(emberctl status "$F" 2>&1 | head -8); $(emberctl log swapfile-setup 2>&1 | tail -3)"
[ "$(awk '$1 == "/data/swap\\040file" { print $2 ":" $5 }' /proc/swaps)" = file:3 ] &&
	ok swap-file-on-with-pri-option || bad swap-file-on-with-pri-option "$(cat /proc/swaps)"
emberctl status "$F" | grep -q 'data.mount' && ok swap-file-requires-its-mount ||
	bad swap-file-requires-its-mount "$(emberctl status "$F" | head -14)"
# Stopped and started again: found in /proc/swaps by its decoded name.
emberctl stop "$F"; wait_state "$F" stopped
[ "$(state "$F")" = stopped ] && ! grep -q '^/data/' /proc/swaps && ok swap-file-stops ||
	bad swap-file-stops "$(state "$F"); $(cat /proc/swaps)"
emberctl start "$F"; wait_state "$F" ready
[ "$(state "$F")" = ready ] && grep -q '^/data/swap\\040file ' /proc/swaps && ok swap-file-starts ||
	bad swap-file-starts "$(state "$F"); $(cat /proc/swaps)"

# swapoff(2) runs in a child of PID 1, the unit's control process. A swapoff that fails
# fails the unit with the reason, the swap stays on: swapoff(2) refuses with ENOMEM when
# the pages could not be committed, which vm.overcommit_memory=2 with a ratio of 0 makes
# certain while it is the only swap (the limit is then the swap's own size, and something
# is always committed). The swap file goes off first, and comes back at the end.
emberctl stop "$F"; wait_state "$F" stopped
echo 2 >/proc/sys/vm/overcommit_memory; echo 0 >/proc/sys/vm/overcommit_ratio
emberctl stop dev-zram0.swap; wait_state dev-zram0.swap failed
echo 0 >/proc/sys/vm/overcommit_memory; echo 50 >/proc/sys/vm/overcommit_ratio
out=$(emberctl status dev-zram0.swap 2>&1)
[ "$(state dev-zram0.swap)" = failed ] && [ -n "$(prio)" ] &&
	printf '%s\n' "$out" | grep -Eq 'swapoff /dev/zram0: (Out of memory|Cannot allocate memory); it stays on' &&
	ok failed-swapoff-fails-unit || bad failed-swapoff-fails-unit "$(cat /proc/swaps); $out"
emberctl --timeout 2 list >/dev/null && ok pid1-answers-after-failed-swapoff ||
	bad pid1-answers-after-failed-swapoff "no answer to list"
emberctl start dev-zram0.swap; wait_state dev-zram0.swap ready
[ "$(state dev-zram0.swap)" = ready ] && ok failed-swap-starts-again ||
	bad failed-swap-starts-again "$(state dev-zram0.swap); $(emberctl status dev-zram0.swap | head -8)"

# While a long swapoff runs PID 1 answers: a process in a cgroup allowed 16 MiB fills
# 160 MiB, most of it goes to zram0; then the limit is lifted and the swap unit stopped.
# The unit shows "stopping" (old ember made the call itself and answered nothing until
# it returned, the unit already stopped) and list answers within 2 s meanwhile.
echo +memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
mkdir -p /sys/fs/cgroup/swap-fill
echo 16M >/sys/fs/cgroup/swap-fill/memory.max
rm -f /run/filled
sh -c 'echo $$ >/sys/fs/cgroup/swap-fill/cgroup.procs; exec /test/mem-fill 160 /run/filled' &
fill=$!
i=0; while [ ! -e /run/filled ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
used=$(awk '$1 == "/dev/zram0" { print $4 }' /proc/swaps)
echo max >/sys/fs/cgroup/swap-fill/memory.max
t0=$(date +%s)
emberctl stop dev-zram0.swap >/dev/null 2>&1 &
seen=0 answered=0 i=0
while [ $i -lt 300 ]; do
	st=$(state dev-zram0.swap)
	[ "$st" = stopped ] && break
	if [ "$st" = stopping ]; then
		seen=$((seen+1))
		emberctl --timeout 2 list >/dev/null 2>&1 && answered=$((answered+1))
	fi
	i=$((i+1))
done
wait_state dev-zram0.swap stopped
t1=$(date +%s)
echo "swap.sh: swapoff of ${used:-?} KiB took about $((t1-t0)) s; stopping seen $seen times, list answered $answered"
[ "$seen" -gt 0 ] && [ "$answered" = "$seen" ] && [ "$(state dev-zram0.swap)" = stopped ] &&
	[ -z "$(prio)" ] && ok pid1-answers-during-swapoff ||
	bad pid1-answers-during-swapoff "used ${used:-?} KiB; stopping seen $seen, answered $answered; $(state dev-zram0.swap); $(cat /proc/swaps)"

# PID 1 re-executed while a swapoff runs: the new PID 1 adopts the swapoff child (its
# control process and phase are in the state handed over) and the unit ends stopped
# with the swap off, or failed with a reason; never left in stopping. The fill's pages
# go back to zram0 first (the cgroup's limit again), so the swapoff has them to read.
emberctl start dev-zram0.swap; wait_state dev-zram0.swap ready
echo 16M >/sys/fs/cgroup/swap-fill/memory.max
echo max >/sys/fs/cgroup/swap-fill/memory.max
used=$(awk '$1 == "/dev/zram0" { print $4 }' /proc/swaps)
emberctl stop dev-zram0.swap >/dev/null 2>&1 &
i=0; while [ "$(state dev-zram0.swap)" != stopping ] && [ "$(state dev-zram0.swap)" != stopped ] && [ $i -lt 100 ]; do i=$((i+1)); done
before=$(state dev-zram0.swap)
emberctl daemon-reexec
i=0; while ! emberctl --timeout 2 list >/dev/null 2>&1 && [ $i -lt 50 ]; do sleep 0.2; i=$((i+1)); done
after=$(state dev-zram0.swap)
i=0; while [ "$(state dev-zram0.swap)" = stopping ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
st=$(state dev-zram0.swap)
out=$(emberctl status dev-zram0.swap 2>&1)
echo "swap.sh: swapoff of ${used:-?} KiB across a re-execution: $before before it, $after after it, then $st"
{ { [ "$st" = stopped ] && [ -z "$(prio)" ]; } ||
  { [ "$st" = failed ] && printf '%s\n' "$out" | grep -q 'swapoff'; }; } &&
	emberctl --timeout 2 list >/dev/null && ok swapoff-across-reexec-settles ||
	bad swapoff-across-reexec-settles "used ${used:-?} KiB; $before, then $after, then $st; $(cat /proc/swaps); $out"
[ "$before" = stopping ] || echo "swap.sh: the swapoff ended before the re-execution ($before): the case above did not overlap it"

# TimeoutSec= bounds the swapoff: the child gets SIGKILL, swapoff(2) gives up and puts
# the swap back, the unit fails. Only where the swapoff above lasted for 10 looks or
# more (about 1 s on TCG; a KVM guest may be too quick for a 100 ms limit to be sure).
emberctl start dev-zram0.swap; wait_state dev-zram0.swap ready
if [ "$seen" -ge 10 ]; then
	# swapoff(2) looks for a signal between processes (not within one's pages): 16
	# processes of 10 MiB each, so the SIGKILL makes it give up.
	kill "$fill"; wait "$fill" 2>/dev/null
	echo 16M >/sys/fs/cgroup/swap-fill/memory.max
	rm -f /run/filled.*
	fill=
	for n in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
		sh -c 'echo $$ >/sys/fs/cgroup/swap-fill/cgroup.procs; exec /test/mem-fill 10 /run/filled.'$n &
		fill="$fill $!"
	done
	i=0; while [ "$(ls /run/filled.* 2>/dev/null | wc -l)" -lt 16 ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
	echo "swap.sh: $(awk '$1 == "/dev/zram0" { print $4 }' /proc/swaps) KiB in zram0 before the timed-out swapoff"
	mkdir -p /etc/ember/services/dev-zram0.swap.d
	printf '[Swap]\nTimeoutSec=100ms\n' >/etc/ember/services/dev-zram0.swap.d/timeout.conf
	emberctl daemon-reload
	echo max >/sys/fs/cgroup/swap-fill/memory.max
	emberctl stop dev-zram0.swap; wait_state dev-zram0.swap failed
	out=$(emberctl status dev-zram0.swap 2>&1)
	[ "$(state dev-zram0.swap)" = failed ] && [ -n "$(prio)" ] &&
		printf '%s\n' "$out" | grep -q 'swapoff timed out after 0.100s; /dev/zram0 stays on' &&
		ok swapoff-timeout-kills-and-fails || bad swapoff-timeout-kills-and-fails "$(cat /proc/swaps); $out"
	rm -r /etc/ember/services/dev-zram0.swap.d; emberctl daemon-reload
	emberctl start dev-zram0.swap; wait_state dev-zram0.swap ready
else
	echo "EMBER-TEST SKIP swapoff-timeout-kills-and-fails: the swapoff was seen running $seen times only, too quick for a 100 ms limit"
fi
kill $fill 2>/dev/null; wait $fill 2>/dev/null
rmdir /sys/fs/cgroup/swap-fill 2>/dev/null
emberctl start "$F"; wait_state "$F" ready
[ "$(state dev-zram0.swap)" = ready ] && [ "$(state "$F")" = ready ] && ok swaps-on-again ||
	bad swaps-on-again "$(state dev-zram0.swap) $(state "$F"); $(cat /proc/swaps)"
# A swap a script turns on, with no unit: the end of the shutdown turns it off too
# (test-swap.sh reads the console), as it would keep a swap file's file system busy.
id=$(cat /sys/class/zram-control/hot_add 2>/dev/null)
if [ -n "$id" ] && echo 16M >/sys/block/zram$id/disksize && mkswap /dev/zram$id >/dev/null 2>&1 &&
	swapon /dev/zram$id; then
	ok orphan-swap-on
else
	bad orphan-swap-on "zram$id: $(cat /proc/swaps)"
fi
kill -0 1 && ok pid1-alive || bad pid1-alive gone
# The swap stays on: the shutdown turns it off (test-swap.sh reads the console).
