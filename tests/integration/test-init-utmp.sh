#!/bin/sh
# UtmpIdentifier=, UtmpMode= and $TERM of services on a terminal, against the real
# ember-init as PID 1 of a PID+mount namespace (its own /run; /var/log a tmpfs of the
# namespace, so the host's wtmp is never written). Debian's phosh.service asks for a
# USER_PROCESS record on tty7 (so `who` shows the phone's user) and the gettys for
# INIT_PROCESS records that end as DEAD_PROCESS (so `last` sees a logout); the records
# are read back with util-linux's utmpdump and coreutils' who (glibc). $TERM is
# systemd's: "linux" on a virtual terminal, "vt220" on a serial line, none without a
# terminal, Environment= wins. Hostile: /run/utmp a FIFO, or locked by another process,
# starts and stops the service all the same and leaves PID 1 up.
. "$(dirname "$0")/../lib.sh"
for p in ember-init emberctl ember-caps; do
	[ -x "$BIN/$p" ] || { fail build "missing $BIN/$p (run make)"; finish; }
done
for tool in utmpdump who unshare flock; do
	command -v $tool >/dev/null || { skip init-utmp "$tool missing (util-linux, coreutils)"; finish; }
done
[ "$(id -u)" = 0 ] || { skip init-utmp "needs root (namespaces, User=)"; finish; }
id nobody >/dev/null 2>&1 || { skip init-utmp "no user nobody"; finish; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M" && chmod 1777 "$M"

# What systemd-tmpfiles makes at boot on a distribution: an empty utmp.
cat >"$S/mkutmp.service" <<EOF
[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/bin/sh -c ': >/run/utmp; chmod 0664 /run/utmp; : >/var/log/wtmp'
EOF
# phosh.service's keys, with a sleep for the shell
cat >"$S/shell@.service" <<EOF
[Service]
User=nobody
TTYPath=/dev/tty7
UtmpIdentifier=tty7
UtmpMode=user
ExecStart=/bin/sh -c 'echo "TERM=\$TERM" >$M/term-shell-%i; exec sleep 4321'
EOF
# a getty's: the record's id and line from the instance
cat >"$S/tty@.service" <<EOF
[Service]
TTYPath=/dev/%I
UtmpIdentifier=%I
ExecStart=/bin/sh -c 'echo "TERM=\$TERM" >$M/term-tty-%i; exec sleep 4322'
EOF
cat >"$S/plain@.service" <<EOF
[Service]
ExecStart=/bin/sh -c 'echo "TERM=\$\${TERM-unset}" >$M/term-plain-%i; exec sleep 4323'
EOF
cat >"$S/ownterm@.service" <<EOF
[Service]
TTYPath=/dev/tty9
Environment=TERM=xterm-256color
ExecStart=/bin/sh -c 'echo "TERM=\$TERM" >$M/term-own-%i; exec sleep 4324'
EOF

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
pid_of() { "\$E" --json status "\$1" | sed -n 's/.*"main_pid":\([0-9]*\).*/\1/p'; }
# utmpdump's lines, blanks squeezed, the address and time cut off
dump() { utmpdump "\$1" 2>/dev/null | sed 's/  */ /g; s/ \[0\.0\.0\.0 \].*//'; }
wait_file() { i=0; while [ \$i -lt 100 ] && [ ! -s "\$1" ]; do sleep 0.05; i=\$((i+1)); done; }
i=0; while [ \$i -lt 100 ] && [ ! -f /run/utmp ]; do sleep 0.05; i=\$((i+1)); done

"\$E" start shell@a >/dev/null 2>&1
p=\$(pid_of shell@a)
out=\$(dump /run/utmp)
[ "\$out" = "[7] [\$(printf %05d "\$p")] [tty7] [nobody ] [tty7 ] [ ]" ] && ok user-record-on-tty7 ||
	bad user-record-on-tty7 "pid \$p: \$out"
who /run/utmp | grep -q '^nobody *tty7 ' && ok who-shows-the-user || bad who-shows-the-user "\$(who /run/utmp)"
wait_file $M/term-shell-a
[ "\$(cat $M/term-shell-a)" = TERM=linux ] && ok term-linux-on-a-vt || bad term-linux-on-a-vt "\$(cat $M/term-shell-a)"
"\$E" stop shell@a >/dev/null 2>&1
out=\$(dump /run/utmp)
[ "\$out" = "[8] [\$(printf %05d "\$p")] [tty7] [ ] [tty7 ] [ ]" ] && ok dead-record-at-stop ||
	bad dead-record-at-stop "\$out"
[ "\$(dump /var/log/wtmp | cut -c1-3 | tr '\n' ' ')" = "[5] [6] [7] [8] " ] && ok wtmp-login-and-logout ||
	bad wtmp-login-and-logout "\$(dump /var/log/wtmp)"

"\$E" start tty@ttyS3 tty@tty3 >/dev/null 2>&1
out=\$(dump /run/utmp | grep tyS3)
[ "\$out" = "[5] [\$(printf %05d "\$(pid_of tty@ttyS3)")] [tyS3] [ ] [ttyS3 ] [ ]" ] && ok init-record-id-is-the-end ||
	bad init-record-id-is-the-end "\$(dump /run/utmp)"
[ "\$(dump /run/utmp | wc -l)" = 3 ] && ok one-slot-per-id || bad one-slot-per-id "\$(dump /run/utmp)"
wait_file $M/term-tty-ttyS3; wait_file $M/term-tty-tty3
[ "\$(cat $M/term-tty-ttyS3)" = TERM=vt220 ] && ok term-vt220-on-a-serial-line || bad term-vt220-on-a-serial-line "\$(cat $M/term-tty-ttyS3)"
[ "\$(cat $M/term-tty-tty3)" = TERM=linux ] && ok term-linux-on-tty3 || bad term-linux-on-tty3 "\$(cat $M/term-tty-tty3)"
"\$E" start plain@1 ownterm@1 >/dev/null 2>&1
wait_file $M/term-plain-1; wait_file $M/term-own-1
[ "\$(cat $M/term-plain-1)" = TERM=unset ] && ok no-term-without-a-terminal || bad no-term-without-a-terminal "\$(cat $M/term-plain-1)"
[ "\$(cat $M/term-own-1)" = TERM=xterm-256color ] && ok environment-term-wins || bad environment-term-wins "\$(cat $M/term-own-1)"
# a main process that dies by a signal: DEAD_PROCESS too
p=\$(pid_of tty@ttyS3); kill -KILL "\$p"; sleep 0.5
dump /run/utmp | grep -q "^\[8\] \[\$(printf %05d "\$p")\] \[tyS3\]" && ok dead-record-after-a-kill ||
	bad dead-record-after-a-kill "\$(dump /run/utmp)"

# Hostile: utmp held locked by another process: the start waits at most ~0.5 s in the
# child and runs the service; the stop never waits in PID 1.
flock -x /run/utmp sleep 30 &
holder=\$!
sleep 0.3
"\$E" start shell@b >/dev/null 2>&1
[ "\$("\$E" is-active shell@b)" = active ] && ok starts-while-utmp-locked || bad starts-while-utmp-locked "\$("\$E" is-active shell@b)"
"\$E" stop shell@b >/dev/null 2>&1
[ "\$("\$E" is-active shell@b)" = inactive ] && ok stops-while-utmp-locked || bad stops-while-utmp-locked "\$("\$E" is-active shell@b)"
kill \$holder
# utmp a FIFO: nothing opens it for long, nothing blocks
rm -f /run/utmp; mkfifo /run/utmp
"\$E" start shell@c >/dev/null 2>&1
[ "\$("\$E" is-active shell@c)" = active ] && ok starts-with-utmp-a-fifo || bad starts-with-utmp-a-fifo "\$("\$E" is-active shell@c)"
"\$E" stop shell@c >/dev/null 2>&1
[ "\$("\$E" is-active shell@c)" = inactive ] && ok stops-with-utmp-a-fifo || bad stops-with-utmp-a-fifo "\$("\$E" is-active shell@c)"
kill -0 1 && ok pid1-alive || bad pid1-alive "gone"
exit 0
EOS
# /var/log is the namespace's own: the host's wtmp is never written.
run_guest "$S" "$tmp/guest.sh" "$tmp/log" 'mount -t tmpfs tmpfs /var/log'
finish
