#!/bin/sh
# Restart delays and the start limit as systemd has them, against the real ember-init as
# PID 1 of a PID+mount namespace (found in a run-time round: chasquid, Restart=always and
# no other key, was given up by systemd after its fifth start within 10 s, while ember's
# doubling delay stretched its starts past the interval and it restarted for ever):
#  - without RestartSteps=, every restart waits RestartSec= (ember's delay used to double);
#  - with RestartSteps=, the delay grows to RestartMaxDelaySec= in that many steps;
#  - StartLimitBurst= counts starts: the default gives a crash loop up at its fifth start,
#    and the socket units that start it fail with it (clients refused, not queued).
. "$(dirname "$0")/../lib.sh"
need_guest init-restart-delay
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M"
# each run writes its start time (ms since boot, from /proc/uptime) and fails
run() { printf '/bin/sh -c "cut -d\\" \\" -f1 /proc/uptime >>%s/%s; exit 1"' "$M" "$1"; }
printf '[Unit]\nStartLimitBurst=0\n[Service]\nRestart=always\nRestartSec=300ms\nExecStart=%s\n' "$(run flat)" >"$S/flat.service"
printf '[Unit]\nStartLimitBurst=0\n[Service]\nRestart=always\nRestartSec=200ms\nRestartSteps=2\nRestartMaxDelaySec=800ms\nExecStart=%s\n' "$(run steps)" >"$S/steps.service"
printf '[Service]\nRestart=always\nExecStart=%s\n' "$(run limited)" >"$S/limited.service"
# as chasquid: a service that requires its socket units and fails at once
printf '[Socket]\nListenStream=%s/crash.sock\n' "$tmp" >"$S/crashy.socket"
printf '[Unit]\nRequires=crashy.socket\nAfter=crashy.socket\n[Service]\nRestart=always\nExecStart=%s\n' "$(run crashy)" >"$S/crashy.service"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
emberctl --no-block start crashy # started as chasquid is, enabled: not by traffic
sleep 4
# the gaps between starts, in ms, rounded to 100 ms
gaps() { awk 'NR > 1 { printf "%d ", int((\$1 - last) * 10 + 0.5) * 100 } { last = \$1 }' $M/\$1; }
g=\$(gaps flat)
echo "\$g" | awk '{ for (i = 1; i <= 6; i++) if (\$i != 300 && \$i != 400) exit 1; exit NF >= 6 ? 0 : 1 }' &&
	ok delay-stays-without-steps || bad delay-stays-without-steps "gaps \$g"
g=\$(gaps steps)
echo "\$g" | awk '{ ok = (\$1 == 200 || \$1 == 300) && (\$2 == 400 || \$2 == 500) && (\$3 == 800 || \$3 == 900) && (\$4 == 800 || \$4 == 900); exit ok ? 0 : 1 }' &&
	ok delay-grows-in-steps || bad delay-grows-in-steps "gaps \$g"
n=\$(wc -l <$M/limited)
st=\$(emberctl list | awk '\$1 == "limited" { print \$2 }')
[ "\$n" = 5 ] && [ "\$st" = permanent-failure ] && emberctl status limited | grep -q 'gave up: 5 starts within 10000 ms' &&
	ok start-limit-five-starts || bad start-limit-five-starts "\$n starts, \$st: \$(emberctl status limited | grep -i error)"
# its start limit takes the socket down with it: a client is refused, not left waiting
n=\$(wc -l <$M/crashy)
st=\$(emberctl list | awk '\$1 == "crashy.socket" { print \$2 }')
[ "\$n" = 5 ] && [ "\$st" = failed ] && emberctl status crashy.socket | grep -q 'start limit' &&
	ok start-limit-fails-its-socket || bad start-limit-fails-its-socket "\$n starts, socket \$st"
python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])" $tmp/crash.sock 2>/dev/null &&
	bad start-limit-socket-refuses "connected" || ok start-limit-socket-refuses
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log"
finish
