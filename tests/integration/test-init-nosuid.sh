#!/bin/sh
# Two things systemd's sandbox implies, against the real ember-init as PID 1 of a
# PID+mount namespace (found in a run-time round, 2026-12-07):
#  - NoNewPrivileges= in a mount namespace makes every mount nosuid, so a program's file
#    capabilities are not applied on exec and cannot clear the ambient set: Debian's
#    v2ray (DynamicUser=, AmbientCapabilities=CAP_NET_ADMIN CAP_NET_BIND_SERVICE, a
#    program with the file capability cap_net_bind_service) kept only the latter;
#  - PrivateDevices= filters the @raw-io system calls (radsecproxy: a seccomp filter and,
#    for its user, no-new-privileges under systemd, neither under ember).
. "$(dirname "$0")/../lib.sh"
need_guest init-nosuid
command -v setcap >/dev/null || { skip init-nosuid "setcap missing (scripts/deps.sh installs libcap2-bin)"; finish; }
S=$tmp/services O=$tmp/out
mkdir -p "$S" "$O"
cp /bin/cat "$tmp/fcat"
setcap cap_net_bind_service=ep "$tmp/fcat" || { skip init-nosuid "no file capabilities on $tmp"; finish; }
unit() { # NAME EXTRA-KEYS: runs fcat on its status, then shows its root mount
	printf '[Service]\nType=oneshot\nRemainAfterExit=yes\nUser=nobody\n%s\nStandardOutput=append:%s/%s\nExecStart=%s/fcat /proc/self/status\nExecStart=/bin/grep -E " / / " /proc/self/mountinfo\n' \
		"$2" "$O" "$1" "$tmp" >"$S/$1.service"
}
caps='CapabilityBoundingSet=CAP_NET_ADMIN CAP_NET_BIND_SERVICE
AmbientCapabilities=CAP_NET_ADMIN CAP_NET_BIND_SERVICE
ProtectSystem=strict'
unit fcap "$caps
NoNewPrivileges=yes"
unit fcap-no-nnp "$caps"
unit privdev "PrivateDevices=yes"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
field() { sed -n "s/^\$2:[[:space:]]*//p" $O/\$1 | head -n 1; }
i=0; while [ ! -s $O/privdev ] && [ \$i -lt 50 ]; do sleep 0.1; i=\$((i+1)); done
sleep 0.3
[ "\$(field fcap CapEff)" = 0000000000001400 ] && [ "\$(field fcap CapAmb)" = 0000000000001400 ] &&
	ok nnp-ambient-kept-over-file-caps || bad nnp-ambient-kept-over-file-caps "\$(grep ^Cap $O/fcap | tr '\n' ' ')"
grep " / / " $O/fcap | grep -q nosuid && ok nnp-mounts-nosuid || bad nnp-mounts-nosuid "\$(grep ' / / ' $O/fcap)"
# without NoNewPrivileges= the file's capabilities apply, under systemd too
[ "\$(field fcap-no-nnp CapEff)" = 0000000000000400 ] && ! grep " / / " $O/fcap-no-nnp | grep -q nosuid &&
	ok no-nnp-file-caps-apply || bad no-nnp-file-caps-apply "\$(grep ^Cap $O/fcap-no-nnp | tr '\n' ' ')"
[ "\$(field privdev Seccomp)" = 2 ] && [ "\$(field privdev NoNewPrivs)" = 1 ] &&
	ok private-devices-raw-io-filter || bad private-devices-raw-io-filter "Seccomp \$(field privdev Seccomp), NoNewPrivs \$(field privdev NoNewPrivs)"
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 30 "$tmp/log"; }
finish
