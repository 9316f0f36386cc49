#!/bin/sh
# A restart is passed on as systemd passes it on, against the real ember-init as PID 1
# of a PID+mount namespace: `emberctl restart a` restarts the units that Requires=,
# BindsTo= or PartOf= a (new main processes, all up again), not one that only Wants= it;
# and a unit that crashes and comes back by Restart= keeps what is bound to it (systemd:
# "activating (auto-restart)", not inactive), until it gives up at its start limit.
# (Before, a restart stopped BindsTo=/PartOf= units for good: `restart openvpn` took all
# openvpn@ tunnels down; one crashed jabberd2 daemon all the others, bound together.)
. "$(dirname "$0")/../lib.sh"
need_guest init-restart-propagation
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M"
printf '[Service]\nExecStart=/bin/sleep 60\n' >"$S/a.service"
printf '[Unit]\nRequires=a.service\nAfter=a.service\n[Service]\nExecStart=/bin/sleep 61\n' >"$S/b.service"
printf '[Unit]\nBindsTo=a.service\nAfter=a.service\n[Service]\nExecStart=/bin/sleep 62\n' >"$S/c.service"
printf '[Unit]\nPartOf=a.service\nAfter=a.service\n[Service]\nExecStart=/bin/sleep 63\n' >"$S/d.service"
printf '[Unit]\nWants=a.service\nAfter=a.service\n[Service]\nExecStart=/bin/sleep 64\n' >"$S/e.service"
printf '[Unit]\nRequires=b.service\nAfter=b.service\n[Service]\nExecStart=/bin/sleep 65\n' >"$S/f.service"
# crashes every time it is asked to (a file), restarts; three starts within a minute at most
cat >"$S/crashy.service" <<EOU
[Unit]
StartLimitBurst=3
StartLimitIntervalSec=60
[Service]
Restart=on-failure
RestartSec=300ms
ExecStart=/bin/sh -c "if [ -e $M/crash ]; then exit 3; fi; exec sleep 60"
EOU
printf '[Unit]\nBindsTo=crashy.service\nAfter=crashy.service\n[Service]\nExecStart=/bin/sleep 66\n' >"$S/bound.service"
# a unit that takes a second to stop: what is bound to it or part of it has stopped and
# waits for it before it has stopped itself
printf '[Service]\nExecStart=/bin/sleep 60\nExecStop=/bin/sleep 1\n' >"$S/slow.service"
printf '[Unit]\nBindsTo=slow.service\nAfter=slow.service\n[Service]\nExecStart=/bin/sleep 67\n' >"$S/slowbound.service"
printf '[Unit]\nPartOf=slow.service\nAfter=slow.service\n[Service]\nExecStart=/bin/sleep 68\n' >"$S/slowpart.service"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
pid() { emberctl --json status \$1 | grep -o '"main_pid":[0-9]*' | cut -d: -f2; }
emberctl start c d e f bound
for u in a b c d e f; do eval p_\$u=\$(pid \$u); done
emberctl restart a
for u in a b c d f; do
	new=\$(pid \$u) old=\$(eval echo \\\$p_\$u)
	[ -n "\$new" ] && [ "\$new" != 0 ] && [ "\$new" != "\$old" ] && [ "\$(emberctl is-active \$u)" = active ] &&
		ok restart-reaches-\$u || bad restart-reaches-\$u "pid \$old -> \$new, \$(emberctl is-active \$u)"
done
[ "\$(pid e)" = "\$p_e" ] && ok restart-leaves-wants || bad restart-leaves-wants "pid \$p_e -> \$(pid e)"

emberctl start slowbound slowpart
p_sb=\$(pid slowbound) p_sp=\$(pid slowpart)
emberctl restart slow
i=0; while [ "\$(emberctl is-active slowbound slowpart | tr '\n' ' ')" != "active active " ] && [ \$i -lt 30 ]; do
	sleep 0.1; i=\$((i + 1)); done
[ "\$(emberctl is-active slowbound slowpart | tr '\n' ' ')" = "active active " ] &&
	[ "\$(pid slowbound)" != "\$p_sb" ] && [ "\$(pid slowpart)" != "\$p_sp" ] &&
	ok restart-reaches-bound-stopped-first ||
	bad restart-reaches-bound-stopped-first "\$(emberctl is-active slowbound slowpart | tr '\n' ' ')"

# one crash and its restart: bound stays as it was
p_bound=\$(pid bound) p_crashy=\$(pid crashy)
touch $M/crash; kill -KILL \$p_crashy; sleep 0.15; rm $M/crash
i=0; while [ "\$(pid crashy)" = "\$p_crashy" ] || [ "\$(pid crashy)" = 0 ]; do
	[ \$i -ge 50 ] && break; sleep 0.1; i=\$((i + 1)); done
[ "\$(pid bound)" = "\$p_bound" ] && [ "\$(emberctl is-active bound)" = active ] &&
	ok auto-restart-keeps-bound || bad auto-restart-keeps-bound "pid \$p_bound -> \$(pid bound), \$(emberctl is-active bound)"

# crashes until its start limit: then bound goes down
touch $M/crash; kill -KILL \$(pid crashy)
i=0; while [ "\$(emberctl is-active bound)" = active ] && [ \$i -lt 50 ]; do sleep 0.1; i=\$((i + 1)); done
[ "\$(emberctl is-active bound)" = inactive ] && [ "\$(emberctl is-active crashy)" = failed ] &&
	ok given-up-stops-bound || bad given-up-stops-bound "bound \$(emberctl is-active bound), crashy \$(emberctl is-active crashy)"
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log"
finish
