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
#       of an earlier commit built with `make`) against this build: alternating rounds,
#       each daemon's CPU time per launch (its own and its sessions', from /proc), and
#       the ratios this/baseline. "No slower than before" is read from these rows.
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

# This build against the baseline, launch by launch in pairs (AB, then BA: neither side
# always goes first), so a change in the machine's load hits both alike. Wall time per
# launch (median) and CPU time per launch: the client's (wait4's rusage of each launch)
# plus the daemon's (utime+stime of empowerd and of its reaped sessions, ember-caps and
# the command included, from /proc/PID/stat, over the whole run), which load inflates
# less than wall time.
cat >"$W/pair.py" <<'PY'
import os, statistics, subprocess, sys, time
runs = int(sys.argv[1])
sides = [dict(name=a[0], pid=int(a[1]), sock=a[2], argv=[a[3], "--pipe", "true"], wall=[], cpu=0.0)
         for a in (sys.argv[2:6], sys.argv[6:10])]
tick = os.sysconf("SC_CLK_TCK")
def daemon_cpu(pid):
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in f[11:15]) / tick  # utime stime cutime cstime
def once(side):
    env = {"PATH": "/usr/bin:/bin", "EMPOWER_SOCKET": side["sock"]}
    t = time.perf_counter()
    p = subprocess.Popen(side["argv"], env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    d = time.perf_counter() - t
    p.returncode = 0  # reaped here
    if status != 0:
        sys.exit("bench: %s: empower failed (status %d)" % (side["name"], status))
    return d, ru.ru_utime + ru.ru_stime
for side in sides:
    for _ in range(10):
        once(side)
    side["cpu0"] = daemon_cpu(side["pid"])
for i in range(runs):
    for side in (sides if i % 2 == 0 else sides[::-1]):
        wall, cpu = once(side)
        side["wall"].append(wall)
        side["cpu"] += cpu
time.sleep(0.2)  # the last sessions are reaped
for side in sides:
    side["cpu"] += daemon_cpu(side["pid"]) - side["cpu0"]
    print("%s %.4f %.4f" % (side["name"], statistics.median(side["wall"]) * 1000, side["cpu"] * 1000 / runs))
PY
chmod 0755 "$W/pair.py"
as_user $PY "$W/pair.py" "$RUNS" this "$DPID" "$W/sock" "$EMPOWER" \
	baseline "$BPID" "$W/base.sock" "$BASE/empower" >"$W/pair.out"
read -r _ w_new c_new <"$W/pair.out"
sed -n 2p "$W/pair.out" >"$W/pair.base"
read -r _ w_base c_base <"$W/pair.base"
echo
printf '%-26s %10s %8s %12s %8s\n' "this build vs baseline" "median ms" "ratio" "cpu ms/run" "ratio"
printf '%-26s %10.3f %8s %12.3f %8s\n' "empower (baseline)" "$w_base" 1 "$c_base" 1
printf '%-26s %10.3f %8s %12.3f %8s\n' "empower (this build)" "$w_new" "$(ratio "$w_new" "$w_base")" \
	"$c_new" "$(ratio "$c_new" "$c_base")"
