#!/bin/sh
# A start asked for while a unit it requires and comes after is still stopping: the
# required unit stops, starts again, and only then the unit itself starts, as systemd's
# start job waits behind the queued one. (On the Debian disk, a login that came while
# logind stopped a user's user-runtime-dir@ got a user@ started at once: the stop then
# removed /run/user/UID under it, and the user manager failed.)
. "$(dirname "$0")/../lib.sh"
need_guest init-start-while-stopping
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M"
cat >"$S/dir.service" <<EOU
[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/bin/sh -c "mkdir $M/dir; echo dir-start >>$M/log"
ExecStop=/bin/sh -c "echo dir-stop-begin >>$M/log; sleep 1; rmdir $M/dir; echo dir-stop-end >>$M/log"
EOU
cat >"$S/user.service" <<EOU
[Unit]
Requires=dir.service
After=dir.service
[Service]
ExecStart=/bin/sh -c "echo user-start >>$M/log; test -d $M/dir || exit 1; exec sleep 60"
EOU

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
emberctl start user
emberctl stop dir
emberctl start dir
: >$M/log
emberctl --no-block stop dir
i=0; while ! grep -q dir-stop-begin $M/log && [ \$i -lt 50 ]; do sleep 0.1; i=\$((i + 1)); done
emberctl start user
i=0; while ! grep -q user-start $M/log && [ \$i -lt 50 ]; do sleep 0.1; i=\$((i + 1)); done
sleep 0.3
order=\$(tr '\n' ' ' <$M/log)
[ "\$order" = "dir-stop-begin dir-stop-end dir-start user-start " ] && ok start-waits-for-required-restart ||
	bad start-waits-for-required-restart "\$order"
emberctl is-active user dir >$M/active 2>&1
[ "\$(tr '\n' ' ' <$M/active)" = "active active " ] && ok both-up-after ||
	bad both-up-after "\$(tr '\n' ' ' <$M/active)"
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log"
finish
