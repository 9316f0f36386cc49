#!/bin/sh
# The seccomp keys (SystemCallFilter= ... ProtectClock=) on the real kernel. First
# ember-sandbox alone on the host: for each key, seccomp-probe makes the call it guards
# once without the option (it works) and once with it (it fails as systemd.exec(5) says,
# or the process dies of SIGSYS). Then the real ember-init as PID 1 of a PID+mount+UTS
# namespace: services with the keys, as a user (the filter after ember-caps' setuid,
# no_new_privs implied) and as root, a kill, an unknown name that runs nothing, the "+"
# prefix, and a real Debian unit from the corpus (util-linux's fstrim.service, whose
# filter lists @system-service) running its real program.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
SB=$BIN/ember-sandbox
P=$HELPERS/seccomp-probe

# key_case NAME ACTION WANT OPTION...: ACTION=ok without the options; with them the
# probe's line matches the extended regex ACTION=WANT.
key_case() {
	name=$1 action=$2 want=$3
	shift 3
	without=$(unshare --uts "$SB" -- "$P" --dir="$tmp" "$action" 2>&1)
	with=$(unshare --uts "$SB" "$@" -- "$P" --dir="$tmp" "$action" 2>&1)
	if [ "$without" = "$action=ok" ] && printf '%s\n' "$with" | grep -Eqx "$action=$want"; then
		pass "$name"
	else
		fail "$name" "without: $without / with: $with"
	fi
}

# killed NAME ACTION OPTION...: with the options the probe dies of SIGSYS (exit 159) at
# ACTION after a first getpid worked; without them it runs to the end.
killed() {
	name=$1 action=$2
	shift 2
	without=$("$SB" -- "$P" getpid "$action" 2>&1); rc0=$?
	with=$("$SB" "$@" -- "$P" getpid "$action" 2>/dev/null); rc=$?
	if [ $rc0 = 0 ] && [ $rc = 159 ] && [ "$with" = getpid=ok ]; then
		pass "$name"
	else
		fail "$name" "without: rc $rc0 $without / with: rc $rc $with"
	fi
}

# ---- MemoryDenyWriteExecute= (musl turns mmap's EPERM into ENOMEM)
key_case mdwe-mprotect-exec mprotect-exec errno:1 --memory-deny-write-execute
key_case mdwe-mmap-wx mmap-wx 'errno:(1|12)' --memory-deny-write-execute
key_case mdwe-shmat-exec shmat-exec errno:1 --memory-deny-write-execute
key_case mdwe-mmap-rw-allowed mmap-rw ok --memory-deny-write-execute
# ---- RestrictRealtime=
key_case realtime-fifo sched-fifo errno:1 --restrict-realtime
key_case realtime-setattr sched-setattr errno:1 --restrict-realtime
key_case realtime-batch-allowed sched-batch ok --restrict-realtime
# ---- LockPersonality=
key_case personality-linux32 personality-linux32 errno:1 --lock-personality
key_case personality-query-allowed personality-query ok --lock-personality
# ---- RestrictSUIDSGID=
key_case suid-chmod chmod-suid errno:1 --restrict-suid-sgid
key_case sgid-create create-sgid errno:1 --restrict-suid-sgid
key_case sgid-mkdir mkdir-sgid errno:1 --restrict-suid-sgid
key_case suid-plain-chmod-allowed chmod-plain ok --restrict-suid-sgid
# ---- RestrictAddressFamilies= (EAFNOSUPPORT = 97)
key_case families-allow-list socket-inet errno:97 --restrict-address-families=AF_UNIX
key_case families-allowed socket-unix ok --restrict-address-families=AF_UNIX
key_case families-deny-list socket-netlink errno:97 '--restrict-address-families=~AF_NETLINK'
key_case families-none socket-unix errno:97 --restrict-address-families=none
key_case families-later-line-removes socket-inet6 errno:97 \
	'--restrict-address-families=AF_UNIX AF_INET6' '--restrict-address-families=~AF_INET6'
# ---- RestrictNamespaces=
key_case namespaces-yes unshare-net errno:1 --restrict-namespaces=yes
key_case namespaces-deny-net unshare-net errno:1 '--restrict-namespaces=~net'
key_case namespaces-other-allowed unshare-uts ok '--restrict-namespaces=~net'
key_case namespaces-allow-list unshare-net errno:1 '--restrict-namespaces=uts ipc'
key_case namespaces-setns-zero setns-any errno:1 --restrict-namespaces=uts
# ---- ProtectHostname= (the probe runs in a UTS namespace of its own either way)
key_case hostname-denied sethostname errno:1 --protect-hostname
# ---- ProtectKernelLogs=: syslog() refused, /dev/kmsg and /proc/kmsg behind empty files
key_case kernel-logs-syslog syslog errno:1 --protect-kernel-logs
key_case kernel-logs-dev-kmsg kmsg errno:0 --protect-kernel-logs
# ---- ProtectClock= (settimeofday(NULL, NULL) sets nothing where it is allowed)
key_case clock-settimeofday settimeofday errno:1 --protect-clock
# ---- SystemCallFilter= and SystemCallErrorNumber=
key_case filter-deny-errno uname errno:13 '--system-call-filter=~uname:EACCES'
key_case filter-error-number uname errno:1 '--system-call-filter=~uname' \
	--system-call-error-number=EPERM
key_case filter-allow-list-errno uname errno:1 --system-call-filter=@basic-io \
	--system-call-error-number=EPERM
key_case filter-later-line-removes sched-fifo errno:1 --system-call-filter=@system-service \
	'--system-call-filter=~@privileged @resources' --system-call-error-number=EPERM
key_case filter-reset uname ok '--system-call-filter=~uname' --system-call-filter=
killed filter-deny-kills uname '--system-call-filter=~uname'
killed filter-allow-list-kills uname '--system-call-filter=@basic-io ioctl' # musl's stdio asks ioctl()
killed filter-errno-kill-word uname '--system-call-filter=~uname:kill' \
	--system-call-error-number=EPERM
# ---- SystemCallArchitectures=native: another ABI is killed (x86-64: x32)
if [ "$(uname -m)" = x86_64 ]; then
	killed archs-native-x32 x32-getpid --system-call-architectures=native
else
	skip archs-native-x32 "not x86-64"
fi
# ---- real programs under @system-service (dynamic glibc ones from the host)
check system-service-runs-ls "$SB" --system-call-filter=@system-service \
	'--system-call-filter=~@privileged @resources' --system-call-architectures=native \
	--memory-deny-write-execute --restrict-realtime --lock-personality -- /bin/ls /
check system-service-runs-sh "$SB" --system-call-filter=@system-service -- /bin/sh -c 'id >/dev/null'
# ---- bad input: a clear refusal, nothing runs
"$SB" --system-call-filter=no_such_call -- /bin/touch "$tmp/ran" 2>"$tmp/err"; rc=$?
[ $rc = 100 ] && [ ! -e "$tmp/ran" ] && grep -q 'unknown system call no_such_call' "$tmp/err" &&
	pass unknown-name-runs-nothing || fail unknown-name-runs-nothing "rc $rc $(cat "$tmp/err")"
for bad in '--system-call-filter=@nope' '--system-call-error-number=EWHAT' \
	   '--restrict-address-families=AF_NOPE' '--restrict-namespaces=time' \
	   '--system-call-architectures=vax'; do
	"$SB" "$bad" -- /bin/touch "$tmp/ran" 2>/dev/null; rc=$?
	[ $rc = 100 ] && [ ! -e "$tmp/ran" ] && pass "refused ${bad%%=*}" || fail "refused ${bad%%=*}" "rc $rc"
done
# ---- the chain as ember-init builds it: ember-sandbox --caps-chain -- ember-caps ...
cp "$P" "$tmp/probe" && chmod 755 "$tmp/probe"
out=$("$SB" --caps-chain --system-call-filter=@system-service \
	'--system-call-filter=~@privileged @resources' -- "$BIN/ember-caps" --uid 65534 --gid 65534 \
	-- "$tmp/probe" probe nnp getpid 2>&1)
[ "$out" = "$(printf 'nnp=ok\ngetpid=ok')" ] && pass caps-chain-user-nnp-implied ||
	fail caps-chain-user-nnp-implied "$out"
out=$("$SB" --caps-chain --restrict-realtime -- "$BIN/ember-caps" -- "$tmp/probe" probe nnp 2>&1)
[ "$out" = nnp=errno:0 ] && pass caps-chain-root-keeps-privs || fail caps-chain-root-keeps-privs "$out"
out=$("$SB" --caps-chain --restrict-realtime -- "$BIN/ember-caps" --bounding cap_kill -- \
	"$tmp/probe" probe nnp 2>&1)
[ "$out" = nnp=ok ] && pass caps-chain-no-sys-admin-nnp || fail caps-chain-no-sys-admin-nnp "$out"

# ---- through ember-init
mkdir -p "$tmp/services"
for f in "$TOP"/tests/integration/seccomp/*.service; do
	sed "s|@PROBE@|$tmp/probe|g" "$f" >"$tmp/services/$(basename "$f")"
done
# The corpus unit, as Debian ships it, except ExecStart= (the real fstrim, asked only for
# its version: no trimming of the host's disks) and its ConditionVirtualization=!container
# (this test runs in a container).
CORPUS=${EMBER_UNIT_CORPUS:-${XDG_CACHE_HOME:-$HOME/.cache}/ember/unit-corpus}
corpus=$CORPUS/util-linux/lib/systemd/system/fstrim.service
[ -f "$corpus" ] || "$TOP/scripts/unit-corpus.sh" util-linux >/dev/null 2>&1
if [ -f "$corpus" ] && [ -x /sbin/fstrim ] && grep -q '^SystemCallFilter=.*@system-service' "$corpus"; then
	sed -e 's|^ExecStart=.*|ExecStart=/sbin/fstrim --version|' -e '/^ConditionVirtualization=/d' \
		"$corpus" >"$tmp/services/fstrim.service"
	"$BIN/emberctl" verify "$tmp/services/fstrim.service" >"$tmp/verify" 2>&1 &&
		grep -q ': clean$' "$tmp/verify" && pass corpus-fstrim-verifies-clean ||
		fail corpus-fstrim-verifies-clean "$(tr '\n' ' ' <"$tmp/verify")"
else
	skip corpus-fstrim "scripts/unit-corpus.sh util-linux could not fetch the package, or no /sbin/fstrim"
fi
cat >"$tmp/boot.sh" <<EOS
#!/bin/sh
mount -t tmpfs -o mode=0755 tmpfs /run || exit 1
exec "$BIN/ember-init" ember.services="$tmp/services" ember.run="$tmp/guest.sh" ember.shell=none
EOS
cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
state() { "\$E" --json status "\$1" | sed -n 's/.*"state":"\\([^"]*\\)".*/\\1/p'; }
wait_state() { # NAME STATES: up to 15 s
	i=0
	while [ \$i -lt 300 ]; do
		s=\$(state "\$1"); for want in \$2; do [ "\$s" = "\$want" ] && return 0; done
		sleep 0.05; i=\$((i+1))
	done
	return 1
}
wait_log() { # NAME TEXT: up to 10 s for TEXT in the service's log
	i=0
	while ! "\$E" log "\$1" | grep -qx -- "\$2" && [ \$i -lt 200 ]; do sleep 0.05; i=\$((i+1)); done
	"\$E" log "\$1" | grep -qx -- "\$2"
}
has() { wait_log "\$2" "\$3" && ok "\$1" || bad "\$1" "\$2: \$("\$E" log "\$2" | tr '\n' ' ') / \$("\$E" status "\$2" | tr '\n' ' ')"; }

has init-user-nnp-implied sc-user nnp=ok
has init-user-getpid sc-user getpid=ok
has init-user-resources-removed sc-user sched-fifo=errno:1
has init-user-mdwe sc-user mprotect-exec=errno:1
has init-user-families sc-user socket-inet=errno:97
has init-user-unix-allowed sc-user socket-unix=ok
has init-root-no-nnp sc-root nnp=errno:0
has init-root-hostname sc-root sethostname=errno:1
has init-root-syslog sc-root syslog=errno:1
has init-root-clock sc-root settimeofday=errno:1
has init-root-personality sc-root personality-linux32=errno:1
has init-root-suid sc-root chmod-suid=errno:1
has init-root-plain-chmod sc-root chmod-plain=ok
has init-root-namespaces-net sc-root unshare-net=errno:1
has init-root-namespaces-uts sc-root unshare-uts=ok
[ "\$(hostname)" != seccomp-probe ] && ok init-hostname-unchanged || bad init-hostname-unchanged "\$(hostname)"
wait_state sc-kill failed permanent-failure && ok init-kill-fails || bad init-kill-fails "\$(state sc-kill)"
"\$E" log sc-kill | grep -q '^uname=' && bad init-kill-before-uname "uname returned" || ok init-kill-before-uname
wait_state sc-bad failed permanent-failure && ok init-unknown-name-fails || bad init-unknown-name-fails "\$(state sc-bad)"
"\$E" log sc-bad | grep -q bad-ran && bad init-unknown-name-runs-nothing "it ran" || ok init-unknown-name-runs-nothing
has init-plus-prefix-unfiltered sc-plus uname=ok
if [ -f "$tmp/services/fstrim.service" ]; then
	wait_state fstrim stopped exited && ok corpus-fstrim-ran || bad corpus-fstrim-ran "\$(state fstrim): \$("\$E" status fstrim | tr '\n' ' ')"
	"\$E" log fstrim | grep -q '^fstrim from util-linux' && ok corpus-fstrim-output || bad corpus-fstrim-output "\$("\$E" log fstrim | tr '\n' ' ')"
fi
kill -0 1 && ok pid1-alive || bad pid1-alive "gone"
exit 0
EOS
chmod +x "$tmp/boot.sh" "$tmp/guest.sh"
timeout 120 unshare --pid --mount --uts --fork --mount-proc \
	env container=ember-test "$tmp/boot.sh" >"$tmp/log" 2>&1
rc=$?
grep -E '^(PASS|FAIL|SKIP) ' "$tmp/log"
grep -q '^FAIL ' "$tmp/log" && FAILED=1
grep -q '^EMBER-RUN-EXIT=0$' "$tmp/log" && pass guest-completed || fail guest-completed "rc $rc; $(tail -5 "$tmp/log" | tr '\n' ' ')"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 60 "$tmp/log"; }
finish
