#!/bin/sh
# The open-files limit services get, against the real ember-init as PID 1 of a PID+mount
# namespace: systemd's default (since v240), soft 1024, since select() cannot take an fd
# past 1023, and hard 524288, up to which a service may raise its own soft limit;
# LimitNOFILE= replaces both (one value, or soft:hard). PID 1 keeps more for itself. No
# service gets a hard limit above PID 1's own (a sandbox that may not raise it). PID 1
# raises its locked-memory limit as systemd's does; services get the one it was started
# with (the guest starts with 1 MiB soft, 4 MiB hard), also after a re-execution.
. "$(dirname "$0")/../lib.sh"
for p in ember-init emberctl; do
	[ -x "$BIN/$p" ] || { fail build "missing $BIN/$p (run make)"; finish; }
done
[ "$(id -u)" = 0 ] || { skip init-nofile "needs root (namespaces)"; finish; }
[ "$(cat /proc/sys/fs/nr_open)" -ge 524288 ] || { skip init-nofile "fs.nr_open below 524288"; finish; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M"
chmod 1777 "$M" # the services run as nobody
limits() { # NAME [LimitNOFILE=]: a oneshot that notes its soft and hard limit
	{
		printf '[Service]\nType=oneshot\nUser=nobody\n'
		[ -z "${2:-}" ] || printf 'LimitNOFILE=%s\n' "$2"
		printf 'ExecStart=/bin/sh -c "exec awk \x27/^Max open files/ { print $4, $5 }\x27 /proc/self/limits >%s/%s"\n' "$M" "$1"
	} >"$S/$1.service"
}
limits plain
limits one 8192
limits pair 2048:65536
memlock() { # NAME [LimitMEMLOCK=]: a oneshot that notes its locked-memory limit
	{
		printf '[Service]\nType=oneshot\nUser=nobody\n'
		[ -z "${2:-}" ] || printf 'LimitMEMLOCK=%s\n' "$2"
		printf 'ExecStart=/bin/sh -c "exec awk \x27/^Max locked memory/ { print $4, $5 }\x27 /proc/self/limits >%s/%s"\n' "$M" "$1"
	} >"$S/$1.service"
}
memlock memlock-plain
memlock memlock-own 2M

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
for u in plain one pair memlock-plain memlock-own; do
	i=0; while [ ! -s $M/\$u ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
done
# PID 1's own: at least 4096, and a hard limit of 524288 where it may raise its own (a
# sandbox without CAP_SYS_RESOURCE may not: then no service gets more than PID 1 has)
set -- \$(awk '/^Max open files/ { print \$4, \$5 }' /proc/1/limits)
if [ \$(( 0x\$(awk '/^CapEff/ { print \$2 }' /proc/1/status) >> 24 & 1 )) = 1 ]; then # CAP_SYS_RESOURCE
	[ "\$1" -ge 4096 ] && [ "\$2" -ge 524288 ] && ok pid1-keeps-more || bad pid1-keeps-more "\$*"
	hard=524288
else
	[ "\$1" -ge 4096 ] && ok pid1-keeps-more || bad pid1-keeps-more "\$*"
	hard=\$2; [ "\$hard" -lt 524288 ] || hard=524288
fi
held() { [ "\$1" -lt "\$hard" ] && echo "\$1" || echo "\$hard"; }
[ "\$(cat $M/plain 2>&1)" = "1024 \$hard" ] && ok nofile-default-as-systemd || bad nofile-default-as-systemd "\$(cat $M/plain 2>&1), not 1024 \$hard"
[ "\$(cat $M/one 2>&1)" = "\$(held 8192) \$(held 8192)" ] && ok nofile-one-value || bad nofile-one-value "\$(cat $M/one 2>&1)"
[ "\$(cat $M/pair 2>&1)" = "2048 \$(held 65536)" ] && ok nofile-soft-hard || bad nofile-soft-hard "\$(cat $M/pair 2>&1)"
# PID 1 raised its locked-memory limit (to an eighth of the RAM, at least 64 MiB; without
# CAP_SYS_RESOURCE its soft limit to its hard one); services get the one it was started
# with (1 MiB soft, 4 MiB hard here), as systemd's
set -- \$(awk '/^Max locked memory/ { print \$4, \$5 }' /proc/1/limits)
[ "\$1" -ge 4194304 ] && [ "\$1" = "\$2" ] && ok pid1-raises-memlock || bad pid1-raises-memlock "\$*"
[ "\$(cat $M/memlock-plain 2>&1)" = "1048576 4194304" ] && ok memlock-default-as-started || bad memlock-default-as-started "\$(cat $M/memlock-plain 2>&1)"
[ "\$(cat $M/memlock-own 2>&1)" = "2097152 2097152" ] && ok memlock-unit-value || bad memlock-unit-value "\$(cat $M/memlock-own 2>&1)"
# a re-executed PID 1 gives services the limits the first one was started with, not the
# raised ones it was handed
emberctl daemon-reexec >/dev/null 2>&1
i=0; until emberctl list >/dev/null 2>&1 || [ \$i -ge 100 ]; do sleep 0.05; i=\$((i+1)); done
rm -f $M/memlock-plain; emberctl restart memlock-plain
[ "\$(cat $M/memlock-plain 2>&1)" = "1048576 4194304" ] && ok memlock-default-after-reexec || bad memlock-default-after-reexec "\$(cat $M/memlock-plain 2>&1)"
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log" 'ulimit -S -l 1024 && ulimit -H -l 4096'

finish
