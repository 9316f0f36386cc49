#!/bin/sh
# ember-init on the host: refuses to run unless PID 1, and runs as PID 1 of a PID+mount
# namespace (container mode): test mode, reaping, status report, clean stop.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# The host's own unit directories are not this test's: a PID 1 reading them would start
# the host's enabled units inside the namespace.

out=$("$BIN/ember-init" 2>&1); rc=$?
[ $rc = 100 ] && pass refuses-when-not-pid1 || fail refuses-when-not-pid1 "exit $rc"
case $out in *"must run as PID 1"*) pass refusal-says-why ;; *) fail refusal-says-why "$out" ;; esac
check help "$BIN/ember-init" --help
check version sh -c "'$BIN/ember-init' --version | grep -q '^ember-init (ember) '"

# The guest's long sleep has a length of its own: other tests' "sleep 1000" may run beside.
nap=1000.$$
cat >"$tmp/guest.sh" <<'EOS'
#!/bin/sh
echo "pid1=$(readlink /proc/1/exe)"
sh -c 'for i in 1 2 3 4; do (sleep 0.1 &); done'
sleep 0.6
echo "zombies=$(grep -l '^State:.*Z' /proc/[0-9]*/status 2>/dev/null | wc -l)"
sleep @NAP@ &
exit 7
EOS
sed -i "s/@NAP@/$nap/" "$tmp/guest.sh"
chmod +x "$tmp/guest.sh"
timeout 30 unshare --pid --mount --uts --fork --mount-proc \
	env container=ember-test "$BIN/ember-init" ember.services="$tmp/no-units" ember.run="$tmp/guest.sh" >"$tmp/log" 2>&1
rc=$?
[ $rc != 124 ] && pass namespace-run-terminates || fail namespace-run-terminates "timed out"
grep -q "^pid1=$BIN/ember-init$" "$tmp/log" && pass runs-as-pid1-of-namespace || fail runs-as-pid1-of-namespace "$(head -3 "$tmp/log")"
grep -q '^zombies=0$' "$tmp/log" && pass reaps-orphans || fail reaps-orphans "$(grep zombies "$tmp/log")"
grep -q '^EMBER-RUN-EXIT=7$' "$tmp/log" && pass reports-run-status || fail reports-run-status "no EMBER-RUN-EXIT=7"
grep -q 'shutdown: poweroff now' "$tmp/log" && pass powers-off-after-run || fail powers-off-after-run "no poweroff line"
# The background sleep was killed with the namespace: nothing of ours is left behind.
pgrep -f "sleep $nap" >/dev/null && fail leaves-nothing-running "sleep $nap survived" || pass leaves-nothing-running

# ember.cgroup= naming a directory that is not on cgroup2: said, and the boot goes on
# without cgroups.
printf '#!/bin/sh\nexit 0\n' >"$tmp/true.sh"; chmod +x "$tmp/true.sh"
timeout 30 unshare --pid --mount --uts --fork --mount-proc \
	env container=ember-test "$BIN/ember-init" ember.services="$tmp/no-units" ember.cgroup="$tmp" ember.run="$tmp/true.sh" >"$tmp/log3" 2>&1
grep -q "cgroups: $tmp is not on cgroup2; services run without cgroups" "$tmp/log3" &&
	grep -q '^EMBER-RUN-EXIT=0$' "$tmp/log3" && pass cgroup-root-not-cgroup2-reported ||
	fail cgroup-root-not-cgroup2-reported "$(grep -E 'cgroup|EMBER-RUN' "$tmp/log3" | tr '\n' ' ')"

# A run command that asks for poweroff and is still running when the world is stopped:
# its status (killed by SIGTERM) is still reported, so a harness never sees none.
cat >"$tmp/asks.sh" <<'EOS'
#!/bin/sh
kill -USR2 1
sleep 1001
EOS
chmod +x "$tmp/asks.sh"
timeout 30 unshare --pid --mount --uts --fork --mount-proc \
	env container=ember-test "$BIN/ember-init" ember.services="$tmp/no-units" ember.run="$tmp/asks.sh" >"$tmp/log2" 2>&1
grep -q '^EMBER-RUN-EXIT=143$' "$tmp/log2" && pass run-status-reported-when-stopped ||
	fail run-status-reported-when-stopped "$(grep -E 'EMBER-RUN|shutdown' "$tmp/log2" | tr '\n' ' ')"
finish
