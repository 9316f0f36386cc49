#!/bin/sh
# ember-sandbox attacked by the service's own user, who owns a directory the unit names
# (a StateDirectory=, say) and may plant a symlink there, swap a name for one while the
# sandbox is set up (tests/helpers/rename-swap), or write ".." into nothing (a path the
# unit gives is refused unless normalized, as systemd refuses it). Run as root in a
# private mount and PID namespace, on a tmpfs over /var/cache; the user is nobody.
# Each case says what the attacker tries; see docs/services.md "Paths a service's user
# can write".
. "$(dirname "$0")/../lib.sh"
S=$BIN/ember-sandbox

if [ -z "${SANDBOX_HOSTILE_INSIDE:-}" ]; then
	if [ "$(id -u)" != 0 ]; then
		skip sandbox-hostile "needs root (mount namespaces)"
		finish
	fi
	for t in unshare setpriv; do
		command -v $t >/dev/null || { skip sandbox-hostile "$t is not installed"; finish; }
	done
	[ -x "$S" ] && [ -x "$HELPERS/rename-swap" ] || { fail sandbox-hostile "run make first"; finish; }
	exec timeout 300 unshare --mount --pid --fork --mount-proc \
		env SANDBOX_HOSTILE_INSIDE=1 sh "$0"
fi

mount -t tmpfs -o mode=0755 tmpfs /var/cache || { fail sandbox-hostile "no tmpfs on /var/cache"; finish; }
H=/var/cache/h
mkdir -p $H/user $H/secret && chmod 0700 $H/secret
echo deny-list >$H/deny             # a root file some setuid program reads as root
echo root-data >$H/secret/file
chown nobody $H/user
as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
out=$H/out
rm_out() { rm -f $out; }

# ---- InaccessiblePaths=
# Hidden where the sandbox stages its empty objects (/tmp), or below it: before, the
# staging tmpfs's unmount took the hide away (/tmp showed the objects), and a path below
# /tmp was looked for on that tmpfs.
mount -t tmpfs -o mode=1777 tmpfs /tmp || fail sandbox-hostile "no tmpfs on /tmp"
mkdir -p /tmp/sb-hostile-sub && echo tmp-data >/tmp/sb-hostile-sub/f
"$S" --inaccessible=/tmp -- /bin/sh -c "ls -A /tmp; touch /tmp/new 2>/dev/null || echo refused" >$out 2>&1
rc=$?; [ $rc = 0 ] && [ "$(cat $out)" = refused ] && pass inaccessible-staging-dir-hidden ||
	fail inaccessible-staging-dir-hidden "exit $rc: $(tr '\n' ' ' <$out)"
"$S" --inaccessible=/tmp/sb-hostile-sub -- /bin/sh -c "ls -A /tmp/sb-hostile-sub; cat /tmp/sb-hostile-sub/f 2>/dev/null || echo hidden" >$out 2>&1
rc=$?; [ $rc = 0 ] && [ "$(cat $out)" = hidden ] && pass inaccessible-below-staging-dir-hidden ||
	fail inaccessible-below-staging-dir-hidden "exit $rc: $(tr '\n' ' ' <$out)"
umount /tmp
# A symlink the user planted (to a root file) in place of the path: the file was hidden,
# i.e. an empty file to every root reader in the sandbox (a setuid program's deny list,
# /etc/security/access.conf, hosts.deny, read empty). Refused, as ReadWritePaths= is.
as_user ln -s $H/deny $H/user/l
"$S" --inaccessible=$H/user/l -- /bin/cat $H/deny >$out 2>&1
rc=$?
[ $rc = 1 ] && grep -q 'user/l' $out && ! grep -q '^deny-list$' $out &&
	pass inaccessible-planted-symlink-refused ||
	fail inaccessible-planted-symlink-refused "exit $rc: $(tr '\n' ' ' <$out)"
"$S" --inaccessible=-$H/user/l -- /bin/true 2>/dev/null
rc=$?; [ $rc = 1 ] && pass inaccessible-optional-symlink-still-refused ||
	fail inaccessible-optional-symlink-still-refused "exit $rc"
# ... or on the way to it (a directory of the user's swapped for a link to a root one)
as_user ln -s $H/secret $H/user/m
"$S" --inaccessible=$H/user/m/file -- /bin/cat $H/secret/file >$out 2>&1
rc=$?
[ $rc = 1 ] && ! grep -q root-data $out && pass inaccessible-symlink-on-the-way-refused ||
	fail inaccessible-symlink-on-the-way-refused "exit $rc: $(tr '\n' ' ' <$out)"
# root's links are followed (Debian's /var/run -> /run), and what is hidden stays so
ln -s $H/deny $H/rootlink
"$S" --inaccessible=$H/rootlink -- /bin/sh -c "cat $H/deny; { echo x >$H/deny; } 2>/dev/null || echo refused" >$out 2>&1
rc=$?
[ $rc = 0 ] && [ "$(cat $out)" != deny-list ] && grep -q refused $out && [ "$(cat $H/deny)" = deny-list ] &&
	pass inaccessible-root-symlink-followed || fail inaccessible-root-symlink-followed "exit $rc: $(tr '\n' ' ' <$out)"
"$S" --inaccessible=$H/secret -- /bin/sh -c "ls -A $H/secret; touch $H/secret/new 2>/dev/null || echo refused" >$out 2>&1
rc=$?
[ $rc = 0 ] && [ "$(cat $out)" = refused ] && [ ! -e $H/secret/new ] && pass inaccessible-dir-empty-read-only ||
	fail inaccessible-dir-empty-read-only "exit $rc: $(tr '\n' ' ' <$out)"
# A FIFO or a device of the user's at the path: covered like a file, never opened.
as_user mkfifo $H/user/fifo
timeout 10 "$S" --inaccessible=$H/user/fifo -- /bin/sh -c "[ -p $H/user/fifo ] || echo covered" >$out 2>&1
rc=$?
[ $rc = 0 ] && grep -q covered $out && pass inaccessible-fifo-covered || fail inaccessible-fifo-covered "exit $rc: $(tr '\n' ' ' <$out)"

# ---- paths with "." or ".." (systemd: "path is not normalized", the setting is refused)
for arg in --inaccessible=$H/user/../deny --read-only=$H/user/.. --read-write=/var/../etc \
	--no-exec=$H/./user --exec=$H/user/.. --inaccessible=-$H/user/../deny; do
	"$S" "$arg" -- /bin/sh -c 'echo ran' >$out 2>&1
	rc=$?
	[ $rc = 100 ] && ! grep -q ran $out && pass "sandbox-refuses$arg" || fail "sandbox-refuses$arg" "exit $rc: $(tr '\n' ' ' <$out)"
done

# ---- BindPaths=: the source planted as a symlink to a root directory: it was bound,
# writable under ProtectSystem=strict, so the service wrote into it.
as_user ln -s $H/secret $H/user/src
"$S" --protect-system=strict --bind=$H/user/src:$H/bdst -- /bin/sh -c "touch $H/bdst/planted" >$out 2>&1
rc=$?
[ $rc = 1 ] && grep -q 'user/src' $out && [ ! -e $H/secret/planted ] && pass bind-source-planted-symlink-refused ||
	fail bind-source-planted-symlink-refused "exit $rc: $(tr '\n' ' ' <$out) $(ls $H/secret | tr '\n' ' ')"
"$S" --bind-ro=$H/user/m/file:$H/bfile -- /bin/cat $H/bfile >$out 2>&1
rc=$?
[ $rc = 1 ] && ! grep -q root-data $out && pass bind-source-symlink-on-the-way-refused ||
	fail bind-source-symlink-on-the-way-refused "exit $rc: $(tr '\n' ' ' <$out)"
"$S" --bind-ro=$H/rootlink:$H/bfile2 -- /bin/cat $H/bfile2 >$out 2>&1
rc=$?; [ $rc = 0 ] && grep -q deny-list $out && pass bind-source-root-symlink-followed ||
	fail bind-source-root-symlink-followed "exit $rc: $(tr '\n' ' ' <$out)"

# ---- the user swaps a directory of its own with a link to a root file or directory
# while the sandbox is set up (rename-swap): the name is looked up once, walked.
mkdir $H/user/d && chown nobody $H/user/d
as_user ln -s $H/deny $H/user/ld
as_user "$HELPERS/rename-swap" $H/user/d $H/user/ld 60 &
swapper=$!
i=0 hidden=0
while [ $i -lt 150 ]; do
	i=$((i+1))
	"$S" --inaccessible=$H/user/d -- /bin/cat $H/deny >$out 2>/dev/null &&
		[ "$(cat $out)" != deny-list ] && hidden=$((hidden+1))
done
kill $swapper && pass inaccessible-race-swapper-ran || fail inaccessible-race-swapper-ran "rename-swap was not running"
wait $swapper 2>/dev/null
[ $hidden = 0 ] && pass inaccessible-swapped-name-not-followed ||
	fail inaccessible-swapped-name-not-followed "the root file hidden in $hidden of 150 runs"

mkdir $H/user/s && chown nobody $H/user/s
as_user ln -s $H/secret $H/user/ls
as_user "$HELPERS/rename-swap" $H/user/s $H/user/ls 60 &
swapper=$!
i=0
while [ $i -lt 150 ]; do
	i=$((i+1))
	"$S" --protect-system=strict --bind=$H/user/s:$H/bdst2 -- /bin/sh -c "touch $H/bdst2/w$i" 2>/dev/null
done
kill $swapper && pass bind-race-swapper-ran || fail bind-race-swapper-ran "rename-swap was not running"
wait $swapper 2>/dev/null
n=$(ls $H/secret | grep -c '^w')
[ "$n" = 0 ] && pass bind-source-swapped-name-not-followed ||
	fail bind-source-swapped-name-not-followed "written into the root directory in $n of 150 runs"

# ---- kernels before open_tree(2)/move_mount(2) (5.2) and mount_setattr(2) (5.12)
O0="$HELPERS/no-syscall 428 429 442 --"
O1="$HELPERS/no-syscall 442 --"
for o in O0 O1; do
	eval "run=\$$o"
	$run "$S" --inaccessible=$H/user/l -- /bin/cat $H/deny >$out 2>&1
	rc=$?
	[ $rc = 1 ] && ! grep -q '^deny-list$' $out && pass "old-kernel-$o-inaccessible-planted-refused" ||
		fail "old-kernel-$o-inaccessible-planted-refused" "exit $rc: $(tr '\n' ' ' <$out)"
	$run "$S" --inaccessible=$H/secret --inaccessible=$H/deny -- \
		/bin/sh -c "ls -A $H/secret; cat $H/deny; { echo x >$H/deny; } 2>/dev/null || echo refused" >$out 2>&1
	rc=$?
	[ $rc = 0 ] && [ "$(cat $out)" = refused ] && pass "old-kernel-$o-inaccessible-hides" ||
		fail "old-kernel-$o-inaccessible-hides" "exit $rc: $(tr '\n' ' ' <$out)"
done
as_user "$HELPERS/rename-swap" $H/user/d $H/user/ld 60 &
swapper=$!
i=0 hidden=0
while [ $i -lt 100 ]; do
	i=$((i+1))
	$O0 "$S" --inaccessible=$H/user/d -- /bin/cat $H/deny >$out 2>/dev/null &&
		[ "$(cat $out)" != deny-list ] && hidden=$((hidden+1))
done
kill $swapper
wait $swapper 2>/dev/null
[ $hidden = 0 ] && pass old-kernel-inaccessible-swapped-name-not-followed ||
	fail old-kernel-inaccessible-swapped-name-not-followed "the root file hidden in $hidden of 100 runs"

# the host is untouched
[ "$(cat $H/deny)" = deny-list ] && [ "$(cat $H/secret/file)" = root-data ] && pass host-files-untouched ||
	fail host-files-untouched "$(cat $H/deny $H/secret/file | tr '\n' ' ')"

# ---- PID 1: StandardInput=file:, StandardOutput=file:/append:/truncate: are opened by
# ember-init itself, as root, before the fork, often in the service's LogsDirectory=,
# which its user owns. There the user plants: a link to a root file (it got the
# service's output: append: onto /etc/passwd), a link on the way, a hard link to a root
# file (where fs.protected_hardlinks is off; made by root here), a FIFO (the open hung
# PID 1: the whole system), a link for standard input (a root file read by the service).
T=$H/init
mkdir -p $T/services
mkdir -m 0755 $H/logs && chown nobody $H/logs
echo 'root:x:0:0::/root:/bin/sh' >$H/passwd
echo 'root:secret-hash:1::::::' >$H/shadow
ln $H/shadow $H/logs/hard.log           # root's hard link in the user's directory
as_user ln -s $H/passwd $H/logs/out.log
as_user ln -s $H $H/logs/sub
as_user ln -s $H/shadow $H/logs/in
as_user mkfifo $H/logs/fifo
echo old >$H/real.log && ln -s $H/real.log $H/rootlink.log
unit() { # NAME KEY=VALUE...: a oneshot echoing NAME-ran
	n=$1; shift
	{ echo '[Service]'; echo Type=oneshot; for kv in "$@"; do echo "$kv"; done
	  echo "ExecStart=/bin/echo $n-ran"; } >$T/services/$n.service
}
unit outlink StandardOutput=append:$H/logs/out.log
unit outsub StandardOutput=append:$H/logs/sub/made.log
unit outhard StandardOutput=truncate:$H/logs/hard.log
mkdir -p $T/fifo-services
unit outfifo StandardOutput=file:$H/logs/fifo && mv $T/services/outfifo.service $T/fifo-services/
unit outgood StandardOutput=append:$H/logs/good.log
unit outroot StandardOutput=append:$H/rootlink.log
# PIDFile=: PID 1 opened whatever the user put there, a device too (a link to
# /dev/watchdog arms it, and the close without the magic character reboots the machine).
# A FIFO with a writer waiting shows an open: the writer gets through.
as_user mkfifo $H/logs/pidfifo
{ echo '[Service]'; echo Type=forking; echo "PIDFile=$H/logs/pidfifo"
  echo 'ExecStart=/bin/true'; } >$T/services/pidfifo.service
as_user sh -c "exec 3>$H/logs/pidfifo; touch $H/logs/pidfifo-opened" &
pidwriter=$!
{ echo '[Service]'; echo Type=oneshot; echo "StandardInput=file:$H/logs/in"
  echo StandardOutput=journal; echo 'ExecStart=/bin/cat'; } >$T/services/inlink.service
cat >$T/boot.sh <<EOS
#!/bin/sh
mount -t tmpfs -o mode=0755 tmpfs /run || exit 1
exec "$BIN/ember-init" ember.services=\$1 ember.run=\$2 ember.shell=none
EOS
cat >$T/guest.sh <<EOS
#!/bin/sh
E="$BIN/emberctl"
. "$TOP/tests/integration/guest-lib.sh"
for n in outlink outsub outhard inlink pidfifo; do
	wait_state \$n failed permanent-failure && ok "pid1-output-\$n-refused" || bad "pid1-output-\$n-refused" "\$n is \$(state \$n)"
done
wait_state outgood stopped && [ "\$(cat $H/logs/good.log)" = outgood-ran ] && ok pid1-output-plain-file ||
	bad pid1-output-plain-file "\$(state outgood) \$(cat $H/logs/good.log 2>&1)"
wait_state outroot stopped && [ "\$(cat $H/real.log | tr '\n' ' ')" = "old outroot-ran " ] && ok pid1-output-root-symlink-followed ||
	bad pid1-output-root-symlink-followed "\$(state outroot) \$(cat $H/real.log 2>&1)"
"\$E" log inlink | grep -q secret-hash && bad pid1-input-link-not-read "the service read the root file" || ok pid1-input-link-not-read
"\$E" status outlink | grep -q 'out.log' && ok pid1-output-failure-says-where || bad pid1-output-failure-says-where "\$("\$E" status outlink | tr '\n' ' ')"
exit 0
EOS
cat >$T/fifo-guest.sh <<EOS
#!/bin/sh
E="$BIN/emberctl"
. "$TOP/tests/integration/guest-lib.sh"
wait_state outfifo failed permanent-failure && ok pid1-output-outfifo-refused || bad pid1-output-outfifo-refused "\$(state outfifo)"
exit 0
EOS
chmod +x $T/boot.sh $T/guest.sh $T/fifo-guest.sh
# PID 1 of its own PID namespace: killed with the namespace when it hangs (--kill-child)
boot() { timeout -s KILL 30 unshare --pid --mount --fork --mount-proc --kill-child \
	env container=ember-test $T/boot.sh "$@"; }
boot $T/fifo-services $T/fifo-guest.sh >$T/fifo-log 2>&1
grep -E '^(PASS|FAIL|SKIP) ' $T/fifo-log
grep -q '^EMBER-RUN-EXIT=0$' $T/fifo-log && pass pid1-fifo-not-hung ||
	fail pid1-fifo-not-hung "PID 1 hung (or failed): $(tail -3 $T/fifo-log | tr '\n' ' ')"
boot $T/services $T/guest.sh >$T/log 2>&1
rc=$?
grep -E '^(PASS|FAIL|SKIP) ' $T/log
grep -q '^FAIL ' $T/log && FAILED=1
grep -q '^EMBER-RUN-EXIT=0$' $T/log && pass pid1-guest-completed ||
	fail pid1-guest-completed "rc $rc (PID 1 hung?); $(tail -5 $T/log | tr '\n' ' ')"
[ "$(cat $H/passwd)" = 'root:x:0:0::/root:/bin/sh' ] && pass pid1-link-target-untouched ||
	fail pid1-link-target-untouched "$(cat $H/passwd | tr '\n' ' ')"
[ "$(cat $H/shadow)" = 'root:secret-hash:1::::::' ] && pass pid1-hard-link-not-truncated ||
	fail pid1-hard-link-not-truncated "$(cat $H/shadow | tr '\n' ' ')"
kill $pidwriter 2>/dev/null
[ ! -e $H/logs/pidfifo-opened ] && pass pid1-pidfile-fifo-not-opened || fail pid1-pidfile-fifo-not-opened "PID 1 opened it"
[ ! -e $H/made.log ] && pass pid1-link-on-the-way-not-followed || fail pid1-link-on-the-way-not-followed "$H/made.log made"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 40 $T/log; }
finish
