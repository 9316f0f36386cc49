#!/bin/sh
# $INVOCATION_ID, as systemd sets it, against the real ember-init as PID 1 of a PID+mount
# namespace: 32 hex digits of a random version 4 UUID, the same for every command of one
# run (ExecStartPre=, ExecStart=, ExecReload=), a new one for each start and for each
# unit, Environment= cannot be mistaken for it. After `emberctl daemon-reexec` a command
# of the running unit still gets an ID (with cgroups the same one, read back from the
# cgroup's trusted.invocation_id). Where /run/systemd exists it is also linked as
# /run/systemd/units/invocation:NAME, where journald reads it (the QEMU distro test
# checks _SYSTEMD_INVOCATION_ID in the journal). $SYSTEMD_EXEC_PID is, as under systemd,
# the pid of the process that runs each command, unless Environment= sets it.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || { skip init-invocation "python3 missing (scripts/deps.sh installs it)"; finish; }
for p in ember-init emberctl; do
	[ -x "$BIN/$p" ] || { fail build "missing $BIN/$p (run make)"; finish; }
done
[ "$(id -u)" = 0 ] || { skip init-invocation "needs root (namespaces)"; finish; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M"

cat >"$S/inv@.service" <<EOF
[Service]
ExecStartPre=/bin/sh -c 'echo \$INVOCATION_ID >>$M/pre-%i'
ExecStart=/bin/sh -c 'echo \$INVOCATION_ID >>$M/main-%i; exec sleep 4321'
ExecReload=/bin/sh -c 'echo \$INVOCATION_ID >>$M/reload-%i'
EOF

# "$$" is a "$" that the unit file does not expand, so the shell sees $$ and the variable
cat >"$S/execpid.service" <<EOF
[Service]
ExecStartPre=/bin/sh -c 'echo "\$\$\$\$ \$\$SYSTEMD_EXEC_PID" >$M/xp-pre'
ExecStart=/bin/sh -c 'echo "\$\$\$\$ \$\$SYSTEMD_EXEC_PID" >$M/xp-main; exec sleep 4321'
EOF
cat >"$S/execpid-set.service" <<EOF
[Service]
Type=oneshot
Environment=SYSTEMD_EXEC_PID=mine
ExecStart=/bin/sh -c 'echo "\$\$SYSTEMD_EXEC_PID" >$M/xp-set'
EOF

# inetd style: each connection an instance of its own, unloaded when it ends
cat >"$S/invsock.socket" <<EOF
[Socket]
ListenStream=$tmp/inv.sock
Accept=yes
EOF
cat >"$S/invsock@.service" <<EOF
[Service]
StandardInput=socket
ExecStart=/bin/sh -c 'echo \$INVOCATION_ID'
EOF

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
"\$E" start inv@a inv@b >/dev/null 2>&1
"\$E" reload inv@a >/dev/null 2>&1
a=\$(tail -n 1 $M/main-a); b=\$(tail -n 1 $M/main-b)
printf '%s' "\$a" | grep -Eqx '[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}' && ok id-is-a-v4-uuid || bad id-is-a-v4-uuid "'\$a'"
[ -n "\$a" ] && [ "\$(cat $M/pre-a)" = "\$a" ] && [ "\$(cat $M/reload-a)" = "\$a" ] && ok same-id-for-every-command-of-a-run ||
	bad same-id-for-every-command-of-a-run "pre \$(cat $M/pre-a) main \$a reload \$(cat $M/reload-a)"
[ -n "\$b" ] && [ "\$a" != "\$b" ] && ok each-unit-its-own || bad each-unit-its-own "\$a \$b"
"\$E" restart inv@a >/dev/null 2>&1
a2=\$(tail -n 1 $M/main-a)
[ -n "\$a2" ] && [ "\$a2" != "\$a" ] && [ "\$(tail -n 1 $M/pre-a)" = "\$a2" ] && ok new-id-per-start ||
	bad new-id-per-start "\$a then \$a2"
# journald's view (where /run/systemd exists): /run/systemd/units/invocation:NAME
mkdir -p /run/systemd
"\$E" restart inv@b >/dev/null 2>&1
b2=\$(tail -n 1 $M/main-b)
[ -n "\$b2" ] && [ "\$(readlink /run/systemd/units/invocation:inv@b.service)" = "\$b2" ] && ok journald-link || bad journald-link "\$b2: \$(ls -l /run/systemd/units 2>&1)"
ls -a /run/systemd/units | grep -q '^\.#' && bad no-temporary-link-left "\$(ls -a /run/systemd/units)" || ok no-temporary-link-left
# an Accept=yes instance's link goes with the instance: connections leave none behind
c1=\$(python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print(s.makefile().read().strip())' $tmp/inv.sock 2>&1)
i=0; while [ \$i -lt 100 ] && "\$E" list | grep -q '^invsock@'; do sleep 0.05; i=\$((i+1)); done
printf '%s' "\$c1" | grep -Eqx '[0-9a-f]{32}' && ok instance-has-an-id || bad instance-has-an-id "'\$c1'"
ls /run/systemd/units | grep -q invsock && bad instance-link-removed "\$(ls /run/systemd/units)" || ok instance-link-removed
"\$E" daemon-reexec >/dev/null 2>&1
sleep 1
"\$E" reload inv@a >/dev/null 2>&1
r=\$(tail -n 1 $M/reload-a)
printf '%s' "\$r" | grep -Eqx '[0-9a-f]{32}' && ok id-after-reexec || bad id-after-reexec "'\$r'"
if [ -f /sys/fs/cgroup/ember.slice/inv@a.service/cgroup.procs ]; then
	[ "\$r" = "\$a2" ] && ok same-id-after-reexec || bad same-id-after-reexec "\$a2 then \$r"
else
	echo "SKIP same-id-after-reexec: no cgroup here to keep it (the host's cgroup2 is hybrid)"
fi
"\$E" start execpid execpid-set >/dev/null 2>&1
for f in pre main; do
	set -- \$(cat $M/xp-\$f 2>/dev/null)
	[ -n "\${1:-}" ] && [ "\$1" = "\${2:-}" ] && ok exec-pid-\$f || bad exec-pid-\$f "pid '\${1:-}' SYSTEMD_EXEC_PID '\${2:-}'"
done
[ "\$(cat $M/xp-set 2>/dev/null)" = mine ] && ok exec-pid-environment-wins || bad exec-pid-environment-wins "'\$(cat $M/xp-set 2>/dev/null)'"
kill -0 1 && ok pid1-alive || bad pid1-alive "gone"
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log"
finish
