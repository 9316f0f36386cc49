#!/bin/sh
# Benchmark: launch latency of running `true` with every capability, as whole processes:
#   empower --pipe true          (as the user, through empowerd; policy: nopass)
#   setpriv --ambient-caps ...   (as root, dropping to the user: no policy, no daemon)
#   doas -u USER true            (opendoas, setuid root; nopass rule; no capabilities)
# Prints the median of each and its ratio to setpriv. Goal: empower no slower than
# setpriv. Needs root; creates a throwaway user, and writes /etc/doas.conf only while it
# runs when none exists (restored on exit).
#   bench/empower.sh [RUNS]     (default 300)
#   bench/empower.sh --baseline DIR [RUNS]
#       also runs empower/empowerd/ember-caps from DIR (an older build, e.g. a worktree
#       of an earlier commit built with `make`) against this build and against a second
#       daemon of this build, in rounds of one launch each: wall and CPU time per launch
#       (CPU from each daemon's own cgroup), the median of the per-round ratios with a
#       95 % interval, and the same for this build against itself (the noise floor).
#       "No slower than before" is read from these rows. Run it alone on the machine
#       (e.g. under `flock /tmp/ember-heavy.lock`): other load widens the intervals.
set -eu
. "$(dirname "$0")/lib.sh"
BASE=
if [ "${1:-}" = "--baseline" ]; then
	BASE=${2:?--baseline needs a directory with empower, empowerd and ember-caps}
	shift 2
fi
RUNS=${1:-300}
EMPOWER=$TOP/out/bin/empower EMPOWERD=$TOP/out/bin/empowerd CAPS=$TOP/out/bin/ember-caps
for f in "$EMPOWER" "$EMPOWERD" "$CAPS"; do
	[ -x "$f" ] || { echo "bench: build first: make out/bin/empower out/bin/empowerd out/bin/ember-caps" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "bench: needs root" >&2; exit 1; }

U=empbench-$$
W=$(mktemp -d /tmp/empower-bench.XXXXXX)
DPID= BPID= DOAS_CONF=
cleanup() {
	[ -z "$DPID" ] || kill "$DPID" 2>/dev/null || true
	[ -z "$BPID" ] || kill "$BPID" 2>/dev/null || true
	[ -z "$DOAS_CONF" ] || rm -f /etc/doas.conf
	userdel "$U" >/dev/null 2>&1 || true
	rm -rf "$W"
}
trap cleanup EXIT INT TERM
useradd -M -U -d /nonexistent -s /bin/sh "$U"
chmod 0755 "$W"
printf 'permit nopass %s\n' "$U" >"$W/empower.conf"
"$EMPOWERD" --socket "$W/sock" --config "$W/empower.conf" --caps-helper "$CAPS" --cgroup none 2>/dev/null &
DPID=$!
for _ in $(seq 100); do [ -S "$W/sock" ] && break; sleep 0.05; done
if [ -n "$BASE" ]; then
	for f in empower empowerd ember-caps; do
		[ -x "$BASE/$f" ] || { echo "bench: $BASE/$f: missing" >&2; exit 1; }
	done
	"$BASE/empowerd" --socket "$W/base.sock" --config "$W/empower.conf" \
		--caps-helper "$BASE/ember-caps" --cgroup none 2>/dev/null &
	BPID=$!
	for _ in $(seq 100); do [ -S "$W/base.sock" ] && break; sleep 0.05; done
fi

# setpriv's "all" fails when the bounding set lacks a capability: name the missing ones.
bnd=$(sed -n 's/^CapBnd:[[:space:]]*//p' /proc/self/status)
drop= i=0
for name in $(setpriv --list-caps); do
	[ $(((0x$bnd >> i) & 1)) = 1 ] || drop="$drop,-$name"
	i=$((i + 1))
done
SETPRIV="setpriv --reuid=$U --regid=$U --init-groups --inh-caps=+all$drop --ambient-caps=+all$drop true"

DOAS=
if command -v doas >/dev/null; then
	if [ ! -e /etc/doas.conf ]; then
		printf 'permit nopass %s as %s\n' "$U" "$U" >/etc/doas.conf
		chmod 0400 /etc/doas.conf
		DOAS_CONF=1
		DOAS="doas -u $U true"
	elif doas -C /etc/doas.conf -u "$U" true 2>/dev/null; then
		DOAS="doas -u $U true"
	fi
fi

# Time each command as a whole process (vfork, exec, wait) from a python3 process: for
# empower and doas one running as the user, for setpriv one running as root (it needs
# the privilege). Same spawning path for all three.
cat >"$W/timer.py" <<'PY'
import statistics, subprocess, sys, time
runs, argv = int(sys.argv[1]), sys.argv[2:]
env = {"PATH": "/usr/bin:/bin", "EMPOWER_SOCKET": sys.argv[0].rsplit("/", 1)[0] + "/sock"}
def once():
    t = time.perf_counter()
    r = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    d = time.perf_counter() - t
    if r.returncode != 0:
        sys.exit("bench: %s failed (%d): %s" % (" ".join(argv), r.returncode, r.stderr.decode()[:200]))
    return d
for _ in range(10):
    once()  # warm caches
print("%.4f" % (statistics.median(once() for _ in range(runs)) * 1000))
PY
chmod 0755 "$W/timer.py"
# Debian's python3: a per-user one (pyenv) may not be readable by the bench user.
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
as_user() { setpriv --reuid="$U" --regid="$U" --init-groups -- "$@"; }

t_setpriv=$($PY "$W/timer.py" "$RUNS" $SETPRIV)
t_empower=$(as_user $PY "$W/timer.py" "$RUNS" "$EMPOWER" --pipe true)
printf '%-26s %10s %8s\n' "launch of \`true\`" "median ms" "ratio"
printf '%-26s %10.3f %8.2f\n' "setpriv --ambient-caps" "$t_setpriv" 1
printf '%-26s %10.3f %8s\n' "empower --pipe" "$t_empower" "$(ratio "$t_empower" "$t_setpriv")"
if [ -n "$DOAS" ]; then
	# shellcheck disable=SC2086
	t_doas=$(as_user $PY "$W/timer.py" "$RUNS" $DOAS)
	printf '%-26s %10.3f %8s\n' "doas -u USER (opendoas)" "$t_doas" "$(ratio "$t_doas" "$t_setpriv")"
else
	echo "doas: not installed, or /etc/doas.conf exists and does not permit the bench user; skipped"
fi
[ -n "$BASE" ] || exit 0

# This build against the baseline, and against a second daemon of this same build (the
# self-check: the noise floor of the method), launch by launch in rounds: each round
# launches all three once, in an order that cycles through all six, so a change in the
# machine's load hits all alike and none always goes first. Per launch: wall time (the
# client's fork, exec and wait, from the timer) and CPU time, the client's (wait4's
# rusage) plus the daemon side's (its session, the child, ember-caps and the command),
# read from the daemon's own cgroup (cpu.stat usage_usec, exact to the microsecond;
# after each launch the timer waits until the session has left the cgroup). Ratios are
# taken per round (this/baseline, this/this) and summarised by their median with a 95 %
# distribution-free interval (order statistics of the sign test: no assumption about
# the shape of the noise). Without a writable cgroup2 hierarchy the CPU column is the
# client's alone.
CG=$(awk '{ for (i = 7; i < NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") { print $5; exit } break } }' /proc/self/mountinfo)
CGS=
if [ -n "$CG" ] && mkdir "$CG/empower-bench-$$" 2>/dev/null; then
	CGS=$CG/empower-bench-$$
	for side in this base self; do
		mkdir "$CGS/$side"
	done
fi
"$EMPOWERD" --socket "$W/self.sock" --config "$W/empower.conf" --caps-helper "$CAPS" --cgroup none 2>/dev/null &
SPID=$!
for _ in $(seq 100); do [ -S "$W/self.sock" ] && break; sleep 0.05; done
cleanup_cgroups() {
	kill "$SPID" 2>/dev/null || true
	cleanup
	if [ -n "$CGS" ]; then
		sleep 0.2 # the daemons leave their cgroups when they have exited
		for side in this base self; do
			rmdir "$CGS/$side" 2>/dev/null || true
		done
		rmdir "$CGS" 2>/dev/null || true
	fi
}
trap cleanup_cgroups EXIT INT TERM
if [ -n "$CGS" ]; then
	echo "$DPID" >"$CGS/this/cgroup.procs"
	echo "$BPID" >"$CGS/base/cgroup.procs"
	echo "$SPID" >"$CGS/self/cgroup.procs"
fi
cat >"$W/rounds.py" <<'PY'
import itertools, math, os, statistics, subprocess, sys, time
runs, cgs = int(sys.argv[1]), sys.argv[2]
sides = [dict(name=a[0], pid=int(a[1]), sock=a[2], argv=[a[3], "--pipe", "true"],
              cg=cgs and "%s/%s" % (cgs, a[0]), wall=[], cpu=[])
         for a in (sys.argv[3:7], sys.argv[7:11], sys.argv[11:15])]
def usage(side):
    if not side["cg"]:
        return 0.0
    for line in open(side["cg"] + "/cpu.stat"):
        if line.startswith("usage_usec "):
            return int(line.split()[1]) / 1e6
def settle(side):
    # the session has exited (and the daemon reaped it) when only the daemon is left
    if not side["cg"]:
        return
    for _ in range(2000):
        if open(side["cg"] + "/cgroup.procs").read().split() == [str(side["pid"])]:
            return
        time.sleep(0.0002)
def once(side):
    env = {"PATH": "/usr/bin:/bin", "EMPOWER_SOCKET": side["sock"]}
    u = usage(side)
    t = time.perf_counter()
    p = subprocess.Popen(side["argv"], env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    d = time.perf_counter() - t
    p.returncode = 0  # reaped here
    if status != 0:
        sys.exit("bench: %s: empower failed (status %d)" % (side["name"], status))
    settle(side)
    return d, ru.ru_utime + ru.ru_stime + usage(side) - u
for side in sides:
    for _ in range(10):
        once(side)
orders = list(itertools.permutations(sides))
for i in range(runs):
    for side in orders[i % len(orders)]:
        wall, cpu = once(side)
        side["wall"].append(wall * 1000)
        side["cpu"].append(cpu * 1000)
def interval(ratios):
    # 95 % interval of the median: the k-th smallest and largest of n, with k the largest
    # for which P(Binomial(n, 1/2) < k) <= 2.5 % (exact, in integers)
    n, r = len(ratios), sorted(ratios)
    k, below = 0, 0
    while (below + math.comb(n, k)) * 40 <= 2 ** n:
        below += math.comb(n, k)
        k += 1
    return statistics.median(r), r[max(k - 1, 0)], r[min(n - k, n - 1)]
this, base, self_ = sides
for side in sides:
    print("side %s %.4f %.4f" % (side["name"], statistics.median(side["wall"]),
                                 statistics.median(side["cpu"])))
for name, other in (("base", base), ("self", self_)):
    for what in ("wall", "cpu"):
        rs = [a / b for a, b in zip(this[what], other[what])]
        ahead = sum(r < 1 for r in rs)
        print("ratio %s %s %.4f %.4f %.4f %d %d" % ((name, what) + interval(rs) + (ahead, len(rs))))
PY
chmod 0755 "$W/rounds.py"
as_user $PY "$W/rounds.py" "$RUNS" "$CGS" this "$DPID" "$W/sock" "$EMPOWER" \
	base "$BPID" "$W/base.sock" "$BASE/empower" \
	self "$SPID" "$W/self.sock" "$EMPOWER" >"$W/rounds.out"
side() { awk -v s="$1" -v f="$2" '$1 == "side" && $2 == s { print $f }' "$W/rounds.out"; }
ratio_row() {
	awk -v s="$1" -v w="$2" '$1 == "ratio" && $2 == s && $3 == w {
		printf "%.3f [%.3f, %.3f] (%d/%d ahead)", $4, $5, $6, $7, $8 }' "$W/rounds.out"
}
echo
echo "this build vs baseline: $RUNS rounds; per launch, medians; ratios: median of the"
echo "per-round ratios [95 % interval]; CPU: client + daemon side$([ -n "$CGS" ] || echo " (no cgroup2: client only)")"
printf '%-22s %10s %10s\n' "" "wall ms" "cpu ms"
printf '%-22s %10.3f %10.3f\n' "baseline" "$(side base 3)" "$(side base 4)"
printf '%-22s %10.3f %10.3f\n' "this build" "$(side this 3)" "$(side this 4)"
printf '%-22s %10.3f %10.3f\n' "this build (2nd)" "$(side self 3)" "$(side self 4)"
echo "this/baseline  wall $(ratio_row base wall)"
echo "               cpu  $(ratio_row base cpu)"
echo "this/this      wall $(ratio_row self wall)   (self-check: the noise floor)"
echo "               cpu  $(ratio_row self cpu)"
