#!/bin/sh
# ember-init running services with systemd's lifecycle semantics, as PID 1 of a PID+mount
# namespace (issue 12, U2): Type=forking with PIDFile= (and a hostile one), exec, idle,
# notify-reload, bare program names, RemainAfterExit=, ExecStartPost=/ExecStopPost= order,
# ExecReload=, KillMode= (process, mixed, control-group), SendSIGKILL=, RestartKillSignal=,
# ExitType=cgroup, Restart=on-abort, SuccessExitStatus=, OnFailure=/OnSuccess=, the
# prefixes + ! !!, and files that must be refused while the boot goes on.
. "$(dirname "$0")/../lib.sh"
H=$HELPERS
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M"
unit() { cat >"$S/$1.service"; }

unit fork <<EOF
[Service]
Type=forking
PIDFile=$M/fork.pid
ExecStart=$H/forking-daemon -p $M/fork.pid -l $M/fork.log
ExecReload=/bin/kill -HUP \$MAINPID
EOF
# A real daemon in its default forking mode: busybox crond (what Alpine and
# postmarketOS images run), started by its bare name, with a PID file relative to /run.
mkdir -p "$M/crontabs"
unit crond <<EOF
[Service]
Type=forking
PIDFile=crond.pid
ExecStart=busybox crond -c $M/crontabs -L $M/crond.log
EOF
# A PID file created before it is written, by a child that outlives the started process
# (busybox crond under load): waited for, as a missing one, not refused as empty. The
# daemon finds the path in $PIDFILE, as under systemd.
cat >"$M/latepid.sh" <<'EOF'
sh -c ': >"$PIDFILE"; sleep 0.5; echo $$ >"$PIDFILE"; exec sleep 1000' &
sleep 0.2
EOF
unit latepid <<EOF
[Service]
Type=forking
PIDFile=$M/late.pid
ExecStart=/bin/sh $M/latepid.sh
EOF
# PIDFile= with another type: the started process stays the main one, and the file is
# removed when the service ends (as systemd), through a link only root can have made
# (like Debian's /var/run -> /run), never through one the service's user planted.
chmod 755 "$tmp" "$M"
mkdir -p "$M/real" "$M/precious" "$M/evil"
ln -s real "$M/rootlink"
echo 1 >"$M/precious/victim.pid"
chown 65534:65534 "$M/evil"
# PIDFile= with ExecStartPost= and another type: as systemd, the file names the main
# process once ExecStartPost= is done (the started process leaves a child that writes it)
cat >"$M/postpid.sh" <<'EOF'
sh -c 'echo $$ >"$PIDFILE"; exec sleep 1000' &
exec sleep 1000
EOF
unit postpid <<EOF
[Service]
PIDFile=$M/post.pid
ExecStart=/bin/sh $M/postpid.sh
ExecStartPost=/bin/true
EOF
unit simplepid <<EOF
[Service]
PIDFile=$M/rootlink/simple.pid
ExecStart=/bin/sh -c 'echo \$\$\$\$ >$M/real/simple.pid; exec sleep 1000'
EOF
unit evilpid <<EOF
[Service]
User=65534
PIDFile=$M/evil/d/victim.pid
ExecStart=/bin/sh -c 'ln -s $M/precious $M/evil/d && touch $M/evil/planted; exec sleep 1000'
EOF
unit forklate <<EOF
[Service]
Type=forking
PIDFile=$M/forklate.pid
ExecStart=$H/forking-daemon -p $M/forklate.pid -d 400
EOF
unit foreign <<EOF
[Unit]
ConditionPathExists=$M/foreign.env
[Service]
Type=forking
PIDFile=$M/foreign.pid
EnvironmentFile=$M/foreign.env
ExecStart=$H/forking-daemon -p $M/foreign.pid -w \$FOREIGN -o 65534
EOF
# The same through ExecStartPost= of another type (the file is read once those lines
# are done): a user's file naming someone else's process is refused there too.
mkdir -p "$M/postevil" && chown 65534:65534 "$M/postevil"
unit foreignpost <<EOF
[Unit]
ConditionPathExists=$M/foreign.env
[Service]
User=65534
PIDFile=$M/postevil/p.pid
EnvironmentFile=$M/foreign.env
ExecStart=/bin/sh -c 'echo \$\$FOREIGN >$M/postevil/p.pid; exec sleep 1000'
ExecStartPost=/bin/sleep 0.3
EOF
# An /etc/default file with shell in it, as Debian's i2pd has: the commands are passed
# over with a warning, the assignments around them kept, the service starts.
printf 'A=one\n# c\nulimit -n 4096\nif [ -x /x ]; then B=no; fi\nB=two\n' >"$M/shell.env"
unit shellenv <<EOF
[Service]
Type=oneshot
EnvironmentFile=$M/shell.env
ExecStart=/bin/sh -c 'echo "\$A \$B" >$M/shellenv.out'
EOF
unit forkfail <<EOF
[Service]
Type=forking
PIDFile=$M/forkfail.pid
ExecStart=$H/forking-daemon -x 3
EOF
# Type=forking and RemainAfterExit=yes, whose processes are all gone by the time the
# started one's exit is seen (Debian's rpc-statd-notify: sm-notify forks, notifies,
# ends): active, "exited", as under systemd; the second leaves a child that ends soon.
unit forkremain <<EOF
[Service]
Type=forking
RemainAfterExit=yes
ExecStart=/bin/sh -c 'exit 0'
EOF
unit forkremainchild <<EOF
[Service]
Type=forking
RemainAfterExit=yes
ExecStart=/bin/sh -c '(sleep 0.3) & exit 0'
EOF
unit execmissing <<EOF
[Service]
Type=exec
ExecStart=/nonexistent/ember-no-such-program
EOF
unit barename <<EOF
[Service]
Type=exec
ExecStart=sh -c 'echo bare-ok; exec sleep 1000'
EOF
unit baremissing <<EOF
[Service]
ExecStart=ember-no-such-program --flag
EOF
unit remain <<EOF
[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/bin/sh -c 'echo start >>$M/remain.log'
ExecStop=/bin/sh -c 'echo stop >>$M/remain.log'
EOF
unit order <<EOF
[Service]
Type=notify
ExecStartPre=/bin/sh -c 'echo pre >>$M/order.log'
ExecStart=/bin/sh -c 'echo main >>$M/order.log; $H/notify-send READY=1; exec sleep 1000'
ExecStartPost=/bin/sh -c 'echo post >>$M/order.log'
ExecStop=/bin/sh -c 'echo stop >>$M/order.log'
ExecStopPost=/bin/sh -c 'echo "stoppost \$SERVICE_RESULT" >>$M/order.log'
EOF
unit failpost <<EOF
[Service]
ExecStart=/bin/sh -c 'exit 7'
ExecStopPost=/bin/sh -c 'echo "\$SERVICE_RESULT \$EXIT_CODE \$EXIT_STATUS" >>$M/failpost.log'
EOF
unit nreload <<EOF
[Service]
Type=notify-reload
ExecStart=$H/notify-reload-daemon $M/nreload.log
EOF
# systemd's user@.service reloads systemd --user with RTMIN+25: 59 in systemd's numbering
# (musl's SIGRTMIN+25 would be 60, which ends the daemon)
unit nreloadrt <<EOF
[Service]
Type=notify-reload
ReloadSignal=RTMIN+25
ExecStart=$H/notify-reload-daemon $M/nreloadrt.log 59
EOF
# RuntimeMaxSec= (Debian 13's systemd-coredump@): stopped, failed with result timeout;
# a oneshot is not limited, as in systemd
unit runtimemax <<EOF
[Service]
RuntimeMaxSec=1
ExecStart=/bin/sh -c 'echo \$\$ >$M/runtimemax.pid; exec sleep 100'
EOF
unit runtimemaxoneshot <<EOF
[Service]
Type=oneshot
RemainAfterExit=yes
RuntimeMaxSec=1
ExecStart=/bin/sleep 2
EOF
# RestartMode=direct (Debian 13's snapd): a start that fails and restarts fails no unit
# waiting for it; under normal it does (its start job ends "dependency")
for m in direct normal; do
unit flaky$m <<EOF
[Service]
Type=oneshot
RemainAfterExit=yes
Restart=on-failure
RestartSec=0.3
RestartMode=$m
ExecStart=/bin/sh -c 'if [ -e $M/flaky$m.once ]; then exit 0; fi; touch $M/flaky$m.once; exit 1'
EOF
unit needs$m <<EOF
[Unit]
Requires=flaky$m.service
After=flaky$m.service
[Service]
ExecStart=/bin/sleep 1000
EOF
done
unit kmproc <<EOF
[Service]
KillMode=process
ExecStart=/bin/sh -c 'sleep 4711 & exec sleep 1000'
EOF
unit kmcg <<EOF
[Service]
ExecStart=/bin/sh -c 'sleep 4712 & exec sleep 1000'
EOF
unit abort <<EOF
[Unit]
StartLimitBurst=50
[Service]
Restart=on-abort
RestartSec=100ms
ExecStart=/bin/sh -c 'echo run >>$M/abort.log; [ -e $M/aborted ] && exit 1; touch $M/aborted; kill -SEGV \$\$\$\$'
EOF
unit okstatus <<EOF
[Service]
Type=oneshot
SuccessExitStatus=42 SIGUSR1
ExecStart=/bin/sh -c 'exit 42'
EOF
unit badstatus <<EOF
[Service]
Type=oneshot
SuccessExitStatus=41
ExecStart=/bin/sh -c 'exit 42'
EOF
unit rescuer <<EOF
[Service]
Type=oneshot
ExecStart=/bin/sh -c 'echo rescue >>$M/rescuer.log'
EOF
unit failing <<EOF
[Unit]
After=rescuer
OnFailure=rescuer.service
[Service]
ExecStart=/bin/sh -c 'sleep 0.2; exit 1'
EOF
unit cheer <<EOF
[Service]
Type=oneshot
ExecStart=/bin/sh -c 'echo cheer >>$M/cheer.log'
EOF
unit succeeding <<EOF
[Unit]
After=cheer
OnSuccess=cheer
[Service]
Type=oneshot
ExecStart=/bin/sh -c 'sleep 0.2'
EOF
unit slowpoke <<EOF
[Service]
Type=notify
ExecStart=/bin/sh -c 'sleep 1; echo slow >>$M/idle.log; $H/notify-send READY=1; exec sleep 1000'
EOF
unit idler <<EOF
[Service]
Type=idle
ExecStart=/bin/sh -c 'echo idle >>$M/idle.log; exec sleep 1000'
EOF
# Prefixes "+" and "!": these lines run as root although User=nobody; "!!" changes
# nothing on a kernel with ambient capabilities.
unit prefixes <<EOF
[Service]
Type=oneshot
RemainAfterExit=yes
User=nobody
NoNewPrivileges=yes
ExecStartPre=+/bin/sh -c 'echo "plus \$(id -u) \$(grep NoNewPrivs /proc/self/status | tr -d "\t ")" >>$M/prefixes.log'
ExecStartPre=!/bin/sh -c 'echo "bang \$(id -u) \$(grep NoNewPrivs /proc/self/status | tr -d "\t ")" >>$M/prefixes.log'
ExecStartPre=!!/bin/sh -c 'echo "bangbang \$(id -u)" >>$M/prefixes.log'
ExecStart=/bin/sh -c 'echo "plain \$(id -u)" >>$M/prefixes.log'
EOF
chmod 755 "$tmp" "$M"; touch "$M/prefixes.log"; chmod 666 "$M/prefixes.log" # User=nobody appends too
# KillMode=mixed: SIGTERM to the main process, then at once SIGKILL to the rest (a child
# that ignores SIGTERM does not hold the stop for TimeoutStopSec=).
printf 'trap "" TERM\nexec sleep 4715\n' >"$M/ignore-term.sh"
unit mixed <<EOF
[Service]
KillMode=mixed
TimeoutStopSec=60s
ExecStart=/bin/sh -c '/bin/sh $M/ignore-term.sh & trap "exit 0" TERM; while :; do sleep 0.1; done'
EOF
# ExitType=cgroup: running while a process is left after the main one exited.
unit exitcg <<EOF
[Unit]
ConditionPathExists=$M/exitcg.go
[Service]
ExitType=cgroup
ExecStart=/bin/sh -c 'sleep 2 & exit 0'
EOF
# SendSIGKILL=no: a stop that times out leaves the process.
unit nokill <<EOF
[Service]
TimeoutStopSec=1s
SendSIGKILL=no
ExecStart=/bin/sh -c 'trap "" TERM; exec sleep 4714'
EOF
# RestartKillSignal=: a restart stops with it, a stop with KillSignal=.
unit rks <<EOF
[Service]
RestartKillSignal=SIGUSR1
ExecStart=/bin/sh -c 'trap "echo usr1 >>$M/rks.log; exit 0" USR1; trap "echo term >>$M/rks.log; exit 0" TERM; echo run >>$M/rks.log; while :; do sleep 0.1; done'
EOF
# A service that never gets ready holds Type=idle back for 5 s at most.
unit hang <<EOF
[Service]
Type=notify
TimeoutStartSec=7s
ExecStart=/bin/sleep 1000
ExecStopPost=/bin/sh -c 'echo hang-failed >>$M/idle2.log'
EOF
unit idler2 <<EOF
[Service]
Type=idle
ExecStart=/bin/sh -c 'echo idle2 >>$M/idle2.log; exec sleep 1000'
EOF
unit badtype <<EOF
[Service]
Type=bogus
ExecStart=/bin/true
EOF
unit twostarts <<EOF
[Service]
Type=exec
ExecStart=/bin/true
ExecStart=/bin/false
EOF

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
state() { "\$E" --json status "\$1" | sed -n 's/.*"state":"\\([^"]*\\)".*/\\1/p'; }
field() { "\$E" --json status "\$1" | sed -n "s/.*\"\$2\":\\([0-9-]*\\).*/\\1/p"; }
wait_state() { # NAME STATE...: wait up to 15 s for one of the states
	i=0
	while [ \$i -lt 300 ]; do
		s=\$(state "\$1"); for want in \$2; do [ "\$s" = "\$want" ] && return 0; done
		sleep 0.05; i=\$((i+1))
	done
	return 1
}
wait_file() { # FILE PATTERN: wait up to 10 s for a line
	i=0; while ! grep -q "\$2" "\$1" 2>/dev/null && [ \$i -lt 200 ]; do sleep 0.05; i=\$((i+1)); done
	grep -q "\$2" "\$1" 2>/dev/null
}
expect() { wait_state "\$2" "\$3" && ok "\$1" || bad "\$1" "\$2 is \$(state \$2), expected \$3"; }
says() { "\$E" status "\$2" | grep -q "\$3" && ok "\$1" || bad "\$1" "\$("\$E" status "\$2" | tr '\n' ' ')"; }

# Type=forking with a PID file: main PID from the file, ExecReload= with \$MAINPID, stop.
expect forking-ready fork ready
pid=\$(cat $M/fork.pid)
[ "\$(field fork main_pid)" = "\$pid" ] && ok forking-main-pid-from-pidfile || bad forking-main-pid-from-pidfile "main_pid \$(field fork main_pid), file \$pid"
"\$E" reload fork && wait_file $M/fork.log hup && ok exec-reload-mainpid || bad exec-reload-mainpid "\$(cat $M/fork.log)"
"\$E" stop fork; expect forking-stopped fork stopped
kill -0 "\$pid" 2>/dev/null && bad forking-daemon-gone "\$pid alive" || ok forking-daemon-gone
grep -qx stopped $M/fork.log && ok forking-daemon-got-sigterm || bad forking-daemon-got-sigterm "\$(cat $M/fork.log)"
expect real-daemon-crond-ready crond ready
cpid=\$(cat /run/crond.pid 2>/dev/null)
[ -n "\$cpid" ] && [ "\$(field crond main_pid)" = "\$cpid" ] && [ "\$(cat /proc/\$cpid/comm)" = busybox ] &&
	ok real-daemon-crond-main-pid || bad real-daemon-crond-main-pid "main_pid \$(field crond main_pid), file \$cpid"
"\$E" stop crond; expect real-daemon-crond-stopped crond stopped
kill -0 "\$cpid" 2>/dev/null && bad real-daemon-crond-gone "\$cpid alive" || ok real-daemon-crond-gone
expect pidfile-written-late latepid ready
[ "\$(field latepid main_pid)" = "\$(cat $M/late.pid)" ] && ok pidfile-written-late-main-pid ||
	bad pidfile-written-late-main-pid "main_pid \$(field latepid main_pid), file \$(cat $M/late.pid)"
expect pidfile-simple-running simplepid ready
wait_file $M/real/simple.pid . || bad pidfile-simple-written "no $M/real/simple.pid"
[ "\$(field simplepid main_pid)" = "\$(cat $M/real/simple.pid)" ] && ok pidfile-simple-main-is-started ||
	bad pidfile-simple-main-is-started "main_pid \$(field simplepid main_pid), file \$(cat $M/real/simple.pid)"
# emberctl names the type as the unit file does (it showed "simple" for forking)
[ "\$("\$E" show -p Type --value fork)" = forking ] && [ "\$("\$E" show -p Type --value postpid)" = simple ] &&
	ok type-shown-as-written || bad type-shown-as-written "fork: \$("\$E" show -p Type --value fork)"
expect pidfile-after-post-running postpid ready
[ -s $M/post.pid ] && [ "\$(field postpid main_pid)" = "\$(cat $M/post.pid)" ] && ok pidfile-after-post-names-main ||
	bad pidfile-after-post-names-main "main_pid \$(field postpid main_pid), file \$(cat $M/post.pid 2>&1)"
"\$E" stop simplepid; expect pidfile-simple-stopped simplepid stopped
[ ! -e $M/real/simple.pid ] && ok pidfile-removed-at-stop || bad pidfile-removed-at-stop "still there"
expect pidfile-evil-running evilpid ready
wait_file $M/evil/planted .
[ -L $M/evil/d ] && ok pidfile-evil-link-planted || bad pidfile-evil-link-planted "no link"
"\$E" stop evilpid; expect pidfile-evil-stopped evilpid stopped
[ -e $M/precious/victim.pid ] && ok pidfile-planted-link-not-followed ||
	bad pidfile-planted-link-not-followed "PID 1 removed $M/precious/victim.pid through the user's link"
expect forking-pidfile-waited-for forklate ready
expect forking-parent-failure forkfail failed
says forking-parent-failure-says-why forkfail 'exited with status 3'
expect forking-remain-no-process-left forkremain ready
expect forking-remain-child-ends forkremainchild ready
sleep 2.5
[ "\$(state forkremain) \$(state forkremainchild)" = "ready ready" ] && ok forking-remain-stays-active ||
	bad forking-remain-stays-active "forkremain is \$(state forkremain), forkremainchild \$(state forkremainchild)"
# A PID file written by an unprivileged user naming someone else's process is refused.
sleep 1000 & victim=\$!
echo "FOREIGN=\$victim" >$M/foreign.env
"\$E" start foreign
expect foreign-pidfile-refused foreign failed
says foreign-pidfile-says-why foreign "is not root's and PID \$victim is not a process of this service"
kill -0 \$victim 2>/dev/null && ok foreign-process-untouched || bad foreign-process-untouched "victim gone"
"\$E" start foreignpost
expect foreign-pidfile-after-post-refused foreignpost failed
says foreign-pidfile-after-post-says-why foreignpost "is not root's and PID \$victim is not a process of this service"
kill -0 \$victim 2>/dev/null && ok foreign-process-untouched-after-post || bad foreign-process-untouched-after-post "victim gone"
kill \$victim

# Type=exec: a missing program fails the start at once, with the path.
expect exec-missing-fails execmissing failed
says exec-missing-says-why execmissing 'ember-no-such-program'
expect bare-name-runs barename ready
"\$E" log barename | grep -q bare-ok && ok bare-name-resolved || bad bare-name-resolved "\$("\$E" log barename)"
expect bare-name-missing-fails baremissing failed
says bare-name-missing-names-path baremissing 'not found in /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'

# RemainAfterExit=: active after the exit; stop runs ExecStop=.
expect remain-active remain ready
"\$E" stop remain; expect remain-stopped remain stopped
[ "\$(cat $M/remain.log | tr '\n' ' ')" = "start stop " ] && ok remain-stop-runs-execstop || bad remain-stop-runs-execstop "\$(cat $M/remain.log)"

# ExecStartPre= main ExecStartPost= ... ExecStop= ExecStopPost=, in that order.
expect order-ready order ready
wait_file $M/order.log post
"\$E" stop order; expect order-stopped order stopped
got=\$(cat $M/order.log | tr '\n' ' ')
[ "\$got" = "pre main post stop stoppost success " ] && ok lifecycle-order || bad lifecycle-order "\$got"
expect stoppost-after-failure failpost failed
wait_file $M/failpost.log exit && [ "\$(cat $M/failpost.log)" = "exit-code exited 7" ] && ok stoppost-after-failure-env || bad stoppost-after-failure-env "\$(cat $M/failpost.log)"

# Type=notify-reload: SIGHUP, RELOADING=1 ... READY=1.
expect notify-reload-ready nreload ready
"\$E" reload nreload && wait_file $M/nreload.log 'reload 1' && ok notify-reload-signal || bad notify-reload-signal "\$(cat $M/nreload.log 2>&1)"
wait_file $tmp/log 'nreload: reloaded' && ok notify-reload-finished || bad notify-reload-finished "no 'reloaded' in the log"
"\$E" reload nreload && wait_file $M/nreload.log 'reload 2' && ok notify-reload-twice || bad notify-reload-twice "\$(cat $M/nreload.log)"
[ "\$(state nreload)" = ready ] && ok notify-reload-stays-ready || bad notify-reload-stays-ready "\$(state nreload)"
expect restart-mode-direct-restarted flakydirect ready
expect restart-mode-direct-requirer-starts needsdirect ready
expect restart-mode-normal-restarted flakynormal ready
"\$E" --json status needsnormal | grep -q '"result":"dependency"' && ok restart-mode-normal-requirer-fails ||
	bad restart-mode-normal-requirer-fails "\$("\$E" --json status needsnormal)"
expect runtime-max-stops runtimemax failed
"\$E" --json status runtimemax | grep -q '"result":"timeout"' && ok runtime-max-result-timeout ||
	bad runtime-max-result-timeout "\$("\$E" --json status runtimemax)"
pid=\$(cat $M/runtimemax.pid 2>/dev/null); i=0
while [ -n "\$pid" ] && kill -0 "\$pid" 2>/dev/null && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
[ -n "\$pid" ] && ! kill -0 "\$pid" 2>/dev/null && ok runtime-max-process-gone || bad runtime-max-process-gone "pid '\$pid' runs"
says runtime-max-says-why runtimemax RuntimeMaxSec
expect runtime-max-oneshot-unlimited runtimemaxoneshot ready
sleep 1.5
expect runtime-max-oneshot-stays-up runtimemaxoneshot ready
expect notify-reload-rtmin-ready nreloadrt ready
"\$E" reload nreloadrt && wait_file $M/nreloadrt.log 'reload 1' && ok notify-reload-rtmin-plus-25-is-59 ||
	bad notify-reload-rtmin-plus-25-is-59 "\$(cat $M/nreloadrt.log 2>&1) / \$(state nreloadrt)"
"\$E" reload remain >/dev/null 2>&1 && bad reload-inactive-refused "reload worked" || ok reload-inactive-refused
"\$E" reload barename 2>&1 | grep -q 'no ExecReload=' && ok reload-unsupported-says-why || bad reload-unsupported-says-why "\$("\$E" reload barename 2>&1)"

# KillMode=process leaves the child; control-group (default) does not.
expect killmode-up kmproc ready; expect killmode-up-2 kmcg ready
sleep 0.2
"\$E" stop kmproc; "\$E" stop kmcg
expect killmode-process-stopped kmproc stopped; expect killmode-cgroup-stopped kmcg stopped
pgrep -f 'sleep 4711' >/dev/null && ok killmode-process-leaves-child || bad killmode-process-leaves-child "child gone"
pgrep -f 'sleep 4712' >/dev/null && bad killmode-cgroup-kills-child "child alive" || ok killmode-cgroup-kills-child
pkill -f 'sleep 4711'

# Restart=on-abort: after SIGSEGV yes, after exit 1 no.
expect on-abort-final abort failed
sleep 0.5
[ "\$(wc -l <$M/abort.log)" = 2 ] && ok on-abort-restarts-only-after-signal || bad on-abort-restarts-only-after-signal "\$(wc -l <$M/abort.log) runs"

# SuccessExitStatus=.
expect success-exit-status okstatus stopped
expect success-exit-status-other-code badstatus failed

# OnFailure=, OnSuccess=: the listed unit runs again (it ran once at boot, ordered first).
expect on-failure-failed failing failed
wait_file $M/rescuer.log rescue; i=0; while [ "\$(wc -l <$M/rescuer.log)" -lt 2 ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
[ "\$(wc -l <$M/rescuer.log)" = 2 ] && ok on-failure-starts-unit || bad on-failure-starts-unit "\$(wc -l <$M/rescuer.log) runs"
expect on-success-done succeeding stopped
i=0; while [ "\$(wc -l <$M/cheer.log)" -lt 2 ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
[ "\$(wc -l <$M/cheer.log)" = 2 ] && ok on-success-starts-unit || bad on-success-starts-unit "\$(wc -l <$M/cheer.log) runs"

# Type=idle starts after the others.
expect idle-runs idler ready
[ "\$(cat $M/idle.log | tr '\n' ' ')" = "slow idle " ] && ok idle-after-busy-services || bad idle-after-busy-services "\$(cat $M/idle.log)"

expect idle-capped-at-5s hang failed
[ "\$(cat $M/idle2.log | tr '\n' ' ')" = "idle2 hang-failed " ] && ok idle-started-within-5s || bad idle-started-within-5s "\$(cat $M/idle2.log)"

# Exec prefixes at run time.
expect prefixes-done prefixes ready
got=\$(cat $M/prefixes.log | tr '\n' ' ')
[ "\$got" = "plus 0 NoNewPrivs:0 bang 0 NoNewPrivs:1 bangbang 65534 plain 65534 " ] && ok exec-prefixes-privileges || bad exec-prefixes-privileges "\$got"

# KillMode=mixed, ExitType=cgroup.
expect mixed-up mixed ready
sleep 0.3
"\$E" stop mixed; expect killmode-mixed-stops-at-once mixed stopped
pgrep -f 'sleep 4715' >/dev/null && bad killmode-mixed-kills-rest "child alive" || ok killmode-mixed-kills-rest
touch $M/exitcg.go; "\$E" start exitcg; sleep 0.5
[ "\$(state exitcg)" = ready ] && ok exittype-cgroup-stays-while-child-runs || bad exittype-cgroup-stays-while-child-runs "\$(state exitcg)"
expect exittype-cgroup-ends-with-last-process exitcg stopped

# SendSIGKILL=no, RestartKillSignal=.
expect nokill-up nokill ready
"\$E" stop nokill; expect nokill-stopped nokill stopped
pgrep -f 'sleep 4714' >/dev/null && ok sendsigkill-no-leaves-process || bad sendsigkill-no-leaves-process "killed"
pkill -9 -f 'sleep 4714'
expect rks-up rks ready; wait_file $M/rks.log run
"\$E" restart rks; wait_file $M/rks.log usr1 && ok restart-kill-signal || bad restart-kill-signal "\$(cat $M/rks.log)"
expect rks-back rks ready
"\$E" stop rks; wait_file $M/rks.log term && ok stop-uses-kill-signal || bad stop-uses-kill-signal "\$(cat $M/rks.log)"

# Bad files: refused with a reason, the rest ran.
expect unknown-type-invalid badtype invalid
says unknown-type-says-why badtype 'Type=bogus'
expect two-execstart-invalid twostarts invalid
says two-execstart-says-why twostarts 'only Type=oneshot may have more than one'
kill -0 1 && ok pid1-alive || bad pid1-alive "gone"
exit 0
EOS
chmod +x "$tmp/guest.sh"
# A private /run: crond writes /run/crond.pid, which must not land on the host.
timeout 150 unshare --pid --mount --uts --fork --mount-proc sh -c \
	'mount -t tmpfs -o mode=0755 ember-run /run && exec "$0" "$@"' \
	env container=ember-test "$BIN/ember-init" ember.services="$S" \
	ember.run="$tmp/guest.sh" ember.shell=none >"$tmp/log" 2>&1
rc=$?
grep -E '^(PASS|FAIL|SKIP) ' "$tmp/log"
grep -q '^FAIL ' "$tmp/log" && FAILED=1
grep -q '^EMBER-RUN-EXIT=0$' "$tmp/log" && pass guest-completed || fail guest-completed "rc $rc; $(tail -5 "$tmp/log" | tr '\n' ' ')"
[ "$(cat "$M/shellenv.out" 2>/dev/null)" = "one two" ] && pass envfile-shell-lines-passed-over ||
	fail envfile-shell-lines-passed-over "got '$(cat "$M/shellenv.out" 2>/dev/null)'"
grep -q "shellenv: EnvironmentFile=$M/shell.env: line 3: no NAME=value, ignored" "$tmp/log" &&
	pass envfile-shell-lines-warned || fail envfile-shell-lines-warned "no warning naming line 3"
grep -q 'badtype.service:2: Type=bogus' "$tmp/log" && pass bad-type-names-file-and-line || fail bad-type-names-file-and-line "no file:line"
grep -q 'baremissing: ExecStart=: program "ember-no-such-program" not found in /usr/local/sbin:.*; starting it will fail' "$tmp/log" &&
	pass bare-name-missing-reported-at-load || fail bare-name-missing-reported-at-load "no load-time warning"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 250 "$tmp/log"; }
finish
