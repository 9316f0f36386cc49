#!/bin/sh
# The same Debian 12 disk (scripts/distro-image.sh) booted with ember-init and with its own
# systemd, in pairs, alternating which goes first (issue 16). Per boot:
#   ssh      seconds from kernel start until sshd answers with its banner on the forwarded
#            loopback port, on the host's clock alone: kernel start is when the kernel's
#            first line ("Probing EDD") reaches the serial port, the banner is polled with a
#            new connection every 0.5 s, each kept 5 s (QEMU's user network holds a
#            connection while it retries its SYN to a guest without an address, so one
#            long-waiting connection measures that retry schedule, not sshd)
#   ssh_guest  the same moment on the guest's clock, from each init's own records: the later
#            of sshd ready (ember's ready_us, systemd's ActiveEnterTimestampMonotonic) and
#            NetworkManager's DHCP lease (the journal): sshd is reachable once both happened
#   up       seconds from kernel start until every enabled service is up, as the init
#            itself reports it (ember-init's "ready: ... ms since kernel start" line;
#            systemd-analyze's kernel + userspace time to its default target)
#   pid1_rss, pid1_pss   /proc/1/smaps_rollup, kB
#   helpers  kB (Pss) of the init's own processes besides PID 1 that run after boot
#            (ember-* and "(ember-session)", which holds a logind session beside its
#            service; for systemd "(sd-pam)", which it keeps beside the user manager)
#   usermgr  kB (Pss) of systemd's per-user managers (`systemd --user`, comm "systemd"
#            but not PID 1), which logind asks for when the measuring SSH login arrives:
#            the same program under both inits since ember runs user@UID too
#   init_forks  processes PID 1 itself created after the initramfs handed over to it
#            (the kernel's sched_process_fork trace event, on for both inits from the
#            command line; counted where the forking task is PID 1 named ember-init or
#            systemd)
#   forks    /proc/stat "processes": every process created since boot, whole system
#            (services, their children, the SSH login included)
#   pid1_cpu  seconds of CPU PID 1 used (user + system, /proc/1/stat), the initramfs's
#            short share included: the init's own cost within the boot
#   down     seconds from `poweroff` over SSH until QEMU has exited, host clock (polled
#            every 0.2 s; nan after 180 s)
#   bench/distro.sh [PAIRS]     (default 3; EMBER_DISTRO_PAIRS too)
# Run it alone: `flock /tmp/ember-heavy.lock bench/distro.sh`. docs/benchmarks.md has results.
set -eu
. "$(dirname "$0")/lib.sh"
PAIRS=${1:-${EMBER_DISTRO_PAIRS:-3}}
TMO=${EMBER_DISTRO_BOOT_TIMEOUT:-600}
W=$TOP/out/bench/distro
cache=${EMBER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ember}/distro-bench
mkdir -p "$W"
make -C "$TOP" -s all >/dev/null

rootfs=$("$TOP"/scripts/rootfs.sh)
key=$( (echo "$rootfs"; cat "$TOP"/scripts/distro-image.sh "$TOP"/distro/debian/initramfs-init "$TOP"/distro/debian/ember-initctl "$TOP"/distro/debian/lsb-init-functions-ember \
	"$TOP"/distro/debian/dpkg-post-invoke-ember "$TOP"/distro/debian/dpkg-status-logger-ember "$TOP"/distro/debian/rc-tools-ember "$TOP"/distro/debian/install.sh \
	"$TOP"/out/bin/*) | sha256sum | cut -c1-16)
img=$cache/image-$key
if [ ! -f "$img/.done" ]; then
	rm -rf "$cache"/image-*
	mkdir -p "$img"
	ssh-keygen -q -t ed25519 -N '' -C ember-distro-bench -f "$img/key" </dev/null
	"$TOP"/scripts/distro-image.sh "$img" --key "$img/key.pub" >"$W/image.log" 2>&1
	touch "$img/.done"
fi
# The same for both inits: every fork recorded from the start (a few thousand events;
# 4 MB per CPU is room for ~10x that).
TRACE="trace_event=sched:sched_process_fork trace_buf_size=4M"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
gssh() {
	ssh -i "$img/key" -p "$port" -o BatchMode=yes -o ConnectTimeout=30 \
		-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR \
		root@127.0.0.1 "$@" </dev/null
}

# Seconds since START (epoch, float) when sshd on PORT first sends its banner; QEMU's
# user network accepts every connection itself, so only the banner proves sshd is there.
wait_banner() {
	python3 - "$1" "$2" "$TMO" <<'EOF'
import selectors, socket, sys, time
port, start, tmo = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
sel, born, next_try = selectors.DefaultSelector(), {}, 0.0
def drop(s):
    sel.unregister(s); s.close(); del born[s]
while time.time() - start < tmo:
    now = time.time()
    # sshd forks and re-executes itself per connection before its banner (0.3 s once
    # booted, a few seconds while the boot loads the guest): a connection is kept 5 s.
    if now >= next_try and len(born) < 10:
        s = socket.socket(); s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
        sel.register(s, selectors.EVENT_READ); born[s] = now; next_try = now + 0.5
    for key, _ in sel.select(timeout=0.05):
        try:
            data = key.fileobj.recv(8)
        except OSError:
            data = b""
        if data.startswith(b"SSH-"):
            print("%.2f" % (time.time() - start)); sys.exit(0)
        drop(key.fileobj)
    for s in [s for s, t in born.items() if now - t > 5]:
        drop(s)
sys.exit(1)
EOF
}

# Copies QEMU's console output to FILE and writes to FILE.kernel the host time (epoch) when
# the kernel's first line arrives.
STAMP_CONSOLE=$(cat <<'EOF'
import sys, time
out, seen, tail = open(sys.argv[1], "wb"), False, b""
while True:
    data = sys.stdin.buffer.read1(4096)
    if not data:
        break
    if not seen and b"Probing EDD" in tail + data:
        open(sys.argv[1] + ".kernel", "w").write("%.3f\n" % time.time()); seen = True
    tail = (tail + data)[-16:]
    out.write(data); out.flush()
EOF
)
stamp_console() { python3 -u -c "$STAMP_CONSOLE" "$1"; }

# The guest's numbers after boot, as "ssh_guest pid1_rss pid1_pss helpers usermgr init_forks
# forks pid1_cpu" (see the top).
GUEST_NUMBERS=$(cat <<'EOF'
kb() { awk "/^$2:/ { print \$2 }" /proc/$1/smaps_rollup 2>/dev/null; }
if [ "$(cat /proc/1/comm)" = systemd ]; then
	ready=$(systemctl show -p ActiveEnterTimestampMonotonic --value ssh)
else
	ready=$(emberctl --json status ssh | sed -n 's/.*"ready_us":\([0-9]*\).*/\1/p')
fi
lease=$(journalctl -b -o short-monotonic --no-pager 2>/dev/null |
	sed -n 's/^\[ *\([0-9.]*\)\] [^ ]* NetworkManager\[[0-9]*\]: .*new lease.*/\1/p' | head -n 1)
sshg=$(awk -v r="${ready:-0}" -v l="${lease:-nan}" 'BEGIN { r /= 1e6
	if (l == "nan" || r == 0) print "nan"; else printf "%.2f\n", (r > l ? r : l) }')
h=0 um=0
for p in $(ps -e -o pid=,comm= | awk '$1 != 1 && ($2 ~ /^\(?ember-/ || $2 == "(sd-pam)") { print $1 }'); do
	h=$((h + $(kb $p Pss || echo 0)))
done
for p in $(ps -e -o pid=,comm= | awk '$1 != 1 && $2 == "systemd" { print $1 }'); do
	um=$((um + $(kb $p Pss || echo 0)))
done
t=/sys/kernel/tracing
[ -e $t/trace ] || mount -t tracefs tracefs $t
# A full ring buffer overwrites its oldest events: then the count is unknown.
f=$(awk '/^# entries-in-buffer/ { split($3, a, "/"); lost = a[1] != a[2] }
	/sched_process_fork: comm=(ember-init|systemd) pid=1 / { n++ }
	END { print lost ? "nan" : n + 0 }' $t/trace)
echo "$sshg $(kb 1 Rss) $(kb 1 Pss) $h $um $f $(awk '/^processes/ { print $2 }' /proc/stat)" \
	"$(awk -v hz=$(getconf CLK_TCK) '{ printf "%.2f", ($14 + $15) / hz }' /proc/1/stat)"
EOF
)

# boot INIT N: one boot; appends "init ssh up ssh_guest pid1_rss pid1_pss helpers usermgr
# init_forks forks pid1_cpu down".
boot() {
	which=$1 n=$2 log=$W/console-$1-$2.log
	cp --sparse=always "$img/disk.img" "$W/disk.img"
	ln -sfn "$img/initramfs.cpio" "$W/initramfs.cpio"
	start=$(python3 -c 'import time; print(time.time())')
	rm -f "$log.kernel"
	{ EMBER_SSH_PORT=$port EMBER_APPEND="$TRACE" timeout -k 5 "$TMO" "$TOP"/scripts/run-distro.sh \
		"$W" "$which" </dev/null 2>&1 | stamp_console "$log"; } &
	qpid=$!
	banner=$(wait_banner "$port" "$start") || banner=nan
	kernel=$(cat "$log.kernel" 2>/dev/null) || kernel=nan
	ssh_s=$(awk -v b="$banner" -v s="$start" -v k="$kernel" \
		'BEGIN { if (b == "nan" || k == "nan") print "nan"; else printf "%.2f\n", s + b - k }')
	up=nan i=0
	while [ "$up" = nan ] && [ $i -lt "$TMO" ]; do
		case $which in
		ember) up=$(tr -d '\r' <"$log" | sed -n 's/.*ember-init: ready: boot took [0-9]* ms in ember-init (\([0-9]*\) ms since kernel start).*/\1/p' |
			awk 'NR == 1 { printf "%.2f\n", $1 / 1000 }') ;;
		systemd) up=$(gssh 'systemctl is-system-running --wait >/dev/null 2>&1; systemd-analyze time' 2>/dev/null |
			sed -n 's/^Startup finished in \([0-9.]*\)s (kernel) + \([0-9.]*\(min [0-9.]*\)\{0,1\}\)s (userspace).*/\1 \2/p' |
			awk '{ u = $2; if (u ~ /min/) { split(u, m, "min "); u = m[1] * 60 + m[2] } printf "%.2f\n", $1 + u }') ;;
		esac
		[ -n "$up" ] || up=nan
		[ "$up" != nan ] || { sleep 2; i=$((i + 2)); }
	done
	sleep 10 # late starters settle before memory is read
	nums=$(gssh "$GUEST_NUMBERS" 2>/dev/null) || nums="nan nan nan nan nan nan nan nan"
	set -- $nums
	[ $# = 8 ] || nums="nan nan nan nan nan nan nan nan"
	# Where the time went, as each init tells it (read after the numbers above).
	case $which in
	ember) gssh 'emberctl analyze' >"$W/analyze-$which-$n.txt" 2>&1 || true ;;
	systemd) gssh 'systemd-analyze critical-chain ssh.service multi-user.target; systemd-analyze blame' \
		>"$W/analyze-$which-$n.txt" 2>&1 || true ;;
	esac
	# The whole journal, so a gap between the inits can be followed afterwards (the lease
	# above is the journal's stamp, which may come ~0.2 s after NetworkManager's own).
	gssh 'journalctl -b -o short-monotonic --no-pager' >"$W/journal-$which-$n.txt" 2>&1 || true
	t0=$(python3 -c 'import time; print(time.time())')
	gssh poweroff >/dev/null 2>&1 || true
	i=0
	while pgrep -f "hostfwd=tcp:127.0.0.1:$port-" >/dev/null && [ $i -lt 900 ]; do sleep 0.2; i=$((i + 1)); done
	if pgrep -f "hostfwd=tcp:127.0.0.1:$port-" >/dev/null; then
		down=nan
	else
		down=$(python3 -c "import time; print('%.2f' % (time.time() - $t0))")
	fi
	pkill -f "hostfwd=tcp:127.0.0.1:$port-" 2>/dev/null || true
	wait "$qpid" 2>/dev/null || true
	echo "$which $ssh_s $up $nums $down" | tee -a "$W/results"
}

: >"$W/results"
echo "init ssh_s up_s ssh_guest_s pid1_rss_kB pid1_pss_kB helpers_kB usermgr_kB init_forks forks pid1_cpu_s down_s"
p=1
while [ $p -le "$PAIRS" ]; do
	if [ $((p % 2)) = 1 ]; then boot ember $p; boot systemd $p; else boot systemd $p; boot ember $p; fi
	p=$((p + 1))
done

col() { awk -v w="$1" -v c="$2" '$1 == w { print $c }' "$W/results"; }
echo
echo "over $PAIRS pairs: medians, ember/systemd of the medians, median of the per-pair ratios, the pairs"
for c in 2:ssh_s 3:up_s 4:ssh_guest_s 5:pid1_rss_kB 6:pid1_pss_kB 7:helpers_kB 8:usermgr_kB \
	9:init_forks 10:forks 11:pid1_cpu_s 12:down_s; do
	i=${c%%:*} name=${c#*:}
	col ember "$i" >"$W/e.tmp"
	col systemd "$i" >"$W/s.tmp"
	e=$(median <"$W/e.tmp") s=$(median <"$W/s.tmp")
	pairs=$(paste -d' ' "$W/e.tmp" "$W/s.tmp" | awk '{ if ($2 > 0) printf "%.3f\n", $1 / $2; else print "nan" }')
	printf '%-12s ember %9s  systemd %9s  ratio %5s  per-pair median %5s  (%s)\n' "$name" "$e" "$s" \
		"$(ratio "$e" "$s")" "$(printf '%s\n' "$pairs" | grep -v nan | median)" "$(echo $pairs)"
done
rm -f "$W/e.tmp" "$W/s.tmp" "$W/disk.img"
