#!/bin/sh
# Benchmark: launch latency of running `true` with every capability, as whole processes:
#   empower --pipe true          (as the user, through empowerd; policy: nopass)
#   setpriv --ambient-caps ...   (as root, dropping to the user: no policy, no daemon)
#   doas -u USER true            (opendoas, setuid root; nopass rule; no capabilities)
# Prints the median of each and its ratio to setpriv. Goal: empower no slower than
# setpriv. Needs root; creates a throwaway user, and writes /etc/doas.conf only while it
# runs when none exists (restored on exit).
#   bench/empower.sh [RUNS]     (default 300)
set -eu
. "$(dirname "$0")/lib.sh"
RUNS=${1:-300}
EMPOWER=$TOP/out/bin/empower EMPOWERD=$TOP/out/bin/empowerd CAPS=$TOP/out/bin/ember-caps
for f in "$EMPOWER" "$EMPOWERD" "$CAPS"; do
	[ -x "$f" ] || { echo "bench: build first: make out/bin/empower out/bin/empowerd out/bin/ember-caps" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "bench: needs root" >&2; exit 1; }

U=empbench-$$
W=$(mktemp -d /tmp/empower-bench.XXXXXX)
DPID= DOAS_CONF=
cleanup() {
	[ -z "$DPID" ] || kill "$DPID" 2>/dev/null || true
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
