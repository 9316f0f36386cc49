#!/bin/sh
# Inside the guest: automount units on a real kernel (test-automount.sh). The autofs is
# mounted at boot and nothing on it; the first look at the path mounts the tmpfs (PID 1
# mounts on its own autofs without waking it); a mount that fails makes the look fail
# instead of hang; TimeoutIdleSec= unmounts; a stop answers whoever waits and unmounts.
ok() { echo "EMBER-TEST PASS $1"; }
bad() { echo "EMBER-TEST FAIL $1: $2"; }
state() { emberctl --json status "$1" | sed -n 's/.*"state":"\([^"]*\)".*/\1/p'; }
wait_state() { i=0; while [ "$(state "$1")" != "$2" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; }
# /proc/mounts is read, never the paths themselves (that would trigger them).
mounted() { awk -v p="$1" -v t="$2" '$2 == p && $3 == t { f = 1 } END { exit !f }' /proc/mounts; }

wait_state mnt-auto.automount ready
[ "$(state mnt-auto.automount)" = ready ] && mounted /mnt/auto autofs && ! mounted /mnt/auto tmpfs &&
	ok autofs-mounted-at-boot || bad autofs-mounted-at-boot "$(state mnt-auto.automount); $(emberctl status mnt-auto.automount 2>&1 | head -6); $(grep /mnt /proc/mounts)"
[ "$(state mnt-auto.mount)" != ready ] && ok mount-not-started-at-boot || bad mount-not-started-at-boot "$(state mnt-auto.mount)"
grep ' /mnt/auto autofs ' /proc/mounts | grep -q 'direct' && ok autofs-direct-v5 ||
	bad autofs-direct-v5 "$(grep ' /mnt/auto ' /proc/mounts)"
emberctl --json status mnt-auto.automount | grep -q '"triggers":"mnt-auto.mount"' && ok status-names-its-mount ||
	bad status-names-its-mount "$(emberctl --json status mnt-auto.automount)"
emberctl list 2>&1 | grep -q 'mnt-auto.automount' && ok listed || bad listed "$(emberctl list 2>&1 | head -20)"

# The first look: the tmpfs is mounted, then ls goes on (no hang: PID 1's own mount(2)
# did not trigger the autofs it serves).
if timeout 20 ls /mnt/auto >/dev/null 2>&1; then ok access-triggers-mount; else bad access-triggers-mount "ls: $?"; fi
mounted /mnt/auto tmpfs && ok tmpfs-mounted-on-access || bad tmpfs-mounted-on-access "$(grep /mnt/auto /proc/mounts)"
[ "$(state mnt-auto.mount)" = ready ] && ok mount-unit-active || bad mount-unit-active "$(state mnt-auto.mount)"
echo hello >/mnt/auto/file && [ "$(cat /mnt/auto/file)" = hello ] && ok file-on-mounted-fs || bad file-on-mounted-fs "$(ls -la /mnt/auto)"
emberctl --json status mnt-auto.automount | grep -q '"sub_state":"running"' && ok sub-state-running ||
	bad sub-state-running "$(emberctl --json status mnt-auto.automount)"
[ "$(stat -c %a /mnt/auto)" = 755 ] && ok mount-options-applied || bad mount-options-applied "$(stat -c %a /mnt/auto)"

# A mount unit that fails: the look fails with an error, fast; PID 1 goes on.
start=$(date +%s)
timeout 20 ls /mnt/bad >/dev/null 2>&1; rc=$?
[ "$rc" != 0 ] && [ "$rc" != 124 ] && [ $(( $(date +%s) - start )) -lt 10 ] && ok failed-mount-fails-access ||
	bad failed-mount-fails-access "ls exited $rc after $(( $(date +%s) - start ))s"
[ "$(state mnt-bad.mount)" = failed ] && ok failed-mount-unit-failed || bad failed-mount-unit-failed "$(state mnt-bad.mount)"
[ "$(state mnt-bad.automount)" = ready ] && mounted /mnt/bad autofs && ok automount-survives-failed-mount ||
	bad automount-survives-failed-mount "$(state mnt-bad.automount)"
timeout 20 ls /mnt/bad >/dev/null 2>&1; rc=$?
[ "$rc" != 0 ] && [ "$rc" != 124 ] && ok second-access-fails-too || bad second-access-fails-too "ls exited $rc"
emberctl --timeout 2 list >/dev/null && ok pid1-answers || bad pid1-answers "no answer to list"

# Where= not matching the name: refused, with the reason.
emberctl status mnt-typo.automount 2>&1 | grep -q 'does not match the unit name' && ok where-mismatch-refused ||
	bad where-mismatch-refused "$(emberctl status mnt-typo.automount 2>&1 | head -5)"

# TimeoutIdleSec=2: mounted on access, unmounted once idle, mounted afresh on the next.
timeout 20 touch /mnt/idle/mark || bad idle-access "touch: $?"
mounted /mnt/idle tmpfs && ok idle-mount-on-access || bad idle-mount-on-access "$(grep /mnt/idle /proc/mounts)"
i=0; while mounted /mnt/idle tmpfs && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done
! mounted /mnt/idle tmpfs && mounted /mnt/idle autofs && ok idle-timeout-unmounts ||
	bad idle-timeout-unmounts "$(grep /mnt/idle /proc/mounts)"
wait_state mnt-idle.mount stopped
[ "$(state mnt-idle.mount)" = stopped ] && ok idle-mount-unit-stopped || bad idle-mount-unit-stopped "$(state mnt-idle.mount)"
[ ! -e /mnt/idle/mark ] && mounted /mnt/idle tmpfs && ok remounted-afresh-after-expiry ||
	bad remounted-afresh-after-expiry "$(ls -la /mnt/idle 2>&1); $(grep /mnt/idle /proc/mounts)"

# A look that waits on a slow mount, and the automount stopped meanwhile: the look fails
# (the stop answers it), PID 1 answers all along.
start=$(date +%s)
timeout 30 ls /mnt/slow >/dev/null 2>&1 &
lspid=$!
i=0; while ! state slow-before-mount | grep -qE 'starting|running' && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
sleep 1
kill -0 $lspid 2>/dev/null && ok access-waits-for-mount || bad access-waits-for-mount "ls did not wait; $(state mnt-slow.mount)"
emberctl --timeout 2 list >/dev/null && ok pid1-answers-while-access-waits || bad pid1-answers-while-access-waits "no answer"
emberctl stop mnt-slow.automount
wait $lspid; rc=$?
[ "$rc" != 0 ] && [ "$rc" != 124 ] && [ $(( $(date +%s) - start )) -lt 20 ] && ok stop-fails-waiting-access ||
	bad stop-fails-waiting-access "ls exited $rc after $(( $(date +%s) - start ))s"
wait_state mnt-slow.automount stopped
! mounted /mnt/slow autofs && ok stop-unmounts-autofs || bad stop-unmounts-autofs "$(grep /mnt/slow /proc/mounts)"
emberctl stop slow-before-mount mnt-slow.mount >/dev/null 2>&1

# A look that waits on a slow mount while PID 1 re-executes: the answer the old PID 1
# owed is handed over, the new one gives it once the mount is up. (An ember that lost it
# left ls waiting in the kernel until the automount stopped: timeout's 124.)
wait_state mnt-reexec.automount ready
start=$(date +%s)
timeout 40 ls /mnt/reexec >/dev/null 2>&1 &
lspid=$!
i=0; while ! state reexec-before-mount | grep -qE 'starting|running' && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
kill -0 $lspid 2>/dev/null && ok reexec-access-waits || bad reexec-access-waits "ls did not wait; $(state mnt-reexec.mount)"
emberctl daemon-reexec
i=0; while ! emberctl --timeout 2 list >/dev/null 2>&1 && [ $i -lt 50 ]; do sleep 0.2; i=$((i+1)); done
wait $lspid; rc=$?
[ "$rc" = 0 ] && [ $(( $(date +%s) - start )) -lt 30 ] && mounted /mnt/reexec tmpfs &&
	ok access-answered-across-reexec ||
	bad access-answered-across-reexec "ls exited $rc after $(( $(date +%s) - start ))s; $(state mnt-reexec.mount); $(grep /mnt/reexec /proc/mounts)"
emberctl --timeout 2 list >/dev/null && [ "$(state mnt-reexec.mount)" = ready ] && ok pid1-alive-after-reexec ||
	bad pid1-alive-after-reexec "$(state mnt-reexec.mount)"
emberctl stop mnt-reexec.automount >/dev/null 2>&1

# Stop with the mount on it: both go; then the path is a plain directory.
emberctl stop mnt-auto.automount
wait_state mnt-auto.automount stopped
! mounted /mnt/auto autofs && ! mounted /mnt/auto tmpfs && ok stop-unmounts-both ||
	bad stop-unmounts-both "$(grep /mnt/auto /proc/mounts)"
timeout 10 ls /mnt/auto >/dev/null 2>&1 && ok plain-directory-after-stop || bad plain-directory-after-stop "ls: $?"
[ "$(stat -c %a /mnt/auto)" = 750 ] && ok directory-mode || bad directory-mode "$(stat -c %a /mnt/auto)"
emberctl start mnt-auto.automount; wait_state mnt-auto.automount ready
mounted /mnt/auto autofs && ok start-again || bad start-again "$(state mnt-auto.automount)"
emberctl --json status mnt-auto.automount | grep -q '"sub_state":"waiting"' && ok sub-state-waiting ||
	bad sub-state-waiting "$(emberctl --json status mnt-auto.automount)"
timeout 20 cat /mnt/auto/nothing >/dev/null 2>&1; mounted /mnt/auto tmpfs && ok triggers-after-restart ||
	bad triggers-after-restart "$(grep /mnt/auto /proc/mounts)"
# Hostile: a flood. 4x AUTOMOUNT_WAIT_MAX (16) processes look at the path at once while
# its mount takes 4 s to come up. The kernel holds them all on one wait (one packet, one
# token: it asks once per path), so PID 1's table of owed answers is not what bounds them;
# whatever the count, each process must end, on the tmpfs (mode 712, which no autofs
# directory has) or with an error, never hang; PID 1 answers all along.
flood=64
rm -rf /tmp/flood; mkdir -p /tmp/flood
wait_state mnt-flood.automount ready
start=$(date +%s)
j=0
while [ $j -lt $flood ]; do
	( m=$(timeout 30 stat -c %a /mnt/flood/. 2>/dev/null); echo "$? $m" >/tmp/flood/$j ) &
	j=$((j+1))
done
i=0; while ! state flood-before-mount | grep -qE 'starting|running' && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
emberctl --timeout 2 list >/dev/null && emberctl --timeout 2 status mnt-flood.automount >/dev/null &&
	ok pid1-answers-during-flood || bad pid1-answers-during-flood "no answer while $flood processes wait"
wait
took=$(( $(date +%s) - start ))
saw=$(cat /tmp/flood/* | grep -cx '0 712')
hung=$(cat /tmp/flood/* | grep -c '^124 ')
ended=$(ls /tmp/flood | wc -l)
echo "flood: $flood processes, $saw on the tmpfs, $hung hung, $((ended - saw - hung)) errors, ${took}s"
[ "$ended" = $flood ] && [ "$hung" = 0 ] && [ $took -lt 25 ] && ok flood-none-hangs ||
	bad flood-none-hangs "$ended of $flood ended, $hung hung (timeout), ${took}s"
[ "$saw" -ge 16 ] && ok flood-within-cap-see-mount || bad flood-within-cap-see-mount "$saw of $flood saw the tmpfs: $(sort /tmp/flood/* | uniq -c)"
mounted /mnt/flood tmpfs && [ "$(state mnt-flood.mount)" = ready ] && ok flood-mounted ||
	bad flood-mounted "$(state mnt-flood.mount); $(grep /mnt/flood /proc/mounts)"
# Afterwards the automount still works: the mount stopped, the next look mounts again.
emberctl stop mnt-flood.mount >/dev/null 2>&1; wait_state mnt-flood.mount stopped
! mounted /mnt/flood tmpfs && [ "$(state mnt-flood.automount)" = ready ] &&
	[ "$(timeout 30 stat -c %a /mnt/flood/.)" = 712 ] && mounted /mnt/flood tmpfs &&
	ok automount-works-after-flood ||
	bad automount-works-after-flood "$(state mnt-flood.automount) $(state mnt-flood.mount); $(grep /mnt/flood /proc/mounts)"
emberctl stop mnt-flood.automount >/dev/null 2>&1

# The idle check across re-executions. Its child (a fork of PID 1) asks the kernel to
# expire (AUTOFS_DEV_IOCTL_EXPIRE) and waits there for PID 1's answer: a few
# milliseconds, so it is stopped (stop-pid1-fork) to be still there when PID 1
# re-executes. The new PID 1 must take it over as its idle check: three rounds let it
# go on (the expiry ends, tmpfs unmounted, and the child is reaped), a fourth stops the
# automount meanwhile, which must end the child (only a PID 1 that knows it can; an
# ember that did not left it stopped for good, waiting on an automount gone).
gone() { i=0; while [ -e /proc/$1 ] && [ "$(cut -d' ' -f3 /proc/$1/stat)" != Z ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; ! [ -e /proc/$1 ]; }
reexec() {
	emberctl daemon-reexec
	i=0; while ! emberctl --timeout 2 list >/dev/null 2>&1 && [ $i -lt 50 ]; do sleep 0.2; i=$((i+1)); done
}
wait_state mnt-expire.automount ready
round=0 expired=0 reaped=0
while [ $round -lt 3 ]; do
	round=$((round+1))
	timeout 20 touch /mnt/expire/mark || bad "expire-round-$round-access" "touch: $?"
	child=$(/test/stop-pid1-fork 10) || { bad "expire-round-$round-idle-check" "no idle check's child within 10 s"; continue; }
	reexec
	kill -CONT $child
	i=0; while { mounted /mnt/expire tmpfs || [ "$(state mnt-expire.mount)" != stopped ]; } && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
	! mounted /mnt/expire tmpfs && [ "$(state mnt-expire.mount)" = stopped ] && expired=$((expired+1)) ||
		echo "expire round $round: not expired: $(state mnt-expire.mount); $(grep /mnt/expire /proc/mounts)"
	gone $child && reaped=$((reaped+1)) || echo "expire round $round: idle check $child left: $(cat /proc/$child/stat)"
done
[ $expired = 3 ] && ok expiry-completes-across-reexec || bad expiry-completes-across-reexec "$expired of 3 rounds expired"
[ $reaped = 3 ] && ok idle-check-reaped-after-reexec || bad idle-check-reaped-after-reexec "$reaped of 3 reaped"
timeout 20 touch /mnt/expire/mark || bad expire-stop-round-access "touch: $?"
if child=$(/test/stop-pid1-fork 10); then
	reexec
	emberctl stop mnt-expire.automount >/dev/null 2>&1
	gone $child && ok stop-ends-idle-check-across-reexec ||
		bad stop-ends-idle-check-across-reexec "idle check $child of the old PID 1 left: $(cut -d' ' -f1-5 /proc/$child/stat)"
	kill -CONT $child 2>/dev/null
else
	bad stop-ends-idle-check-across-reexec "no idle check's child within 10 s"
fi
wait_state mnt-expire.automount stopped
emberctl start mnt-expire.automount; wait_state mnt-expire.automount ready
[ "$(timeout 20 sh -c 'ls -a /mnt/expire | wc -l')" = 2 ] && mounted /mnt/expire tmpfs &&
	ok expire-remounts-after-reexec || bad expire-remounts-after-reexec "$(state mnt-expire.mount); $(grep /mnt/expire /proc/mounts)"
i=0; while mounted /mnt/expire tmpfs && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
! mounted /mnt/expire tmpfs && ok expiry-runs-after-reexec || bad expiry-runs-after-reexec "$(grep /mnt/expire /proc/mounts)"
emberctl stop mnt-expire.automount >/dev/null 2>&1
exit 0
