#!/bin/sh
# Path units under the real ember-init as PID 1 of a PID+mount namespace, enabled into
# paths.target as a package enables them:
#  - PathExists=: nothing runs before the file is there; it runs once it is, and again
#    when the file comes back after the service removed it
#  - PathExistsGlob=: a matching file starts the unit
#  - DirectoryNotEmpty= with MakeDirectory=yes, DirectoryMode=0700: the directory is made
#    with that mode; a file dropped in starts the unit
#  - PathChanged= on a file whose directory does not exist yet: the directory, then the
#    file written, start the unit; a write still open does not, its close does
#  - PathModified=: a write starts the unit while the writer still has the file open
#  - the unit a path unit starts does not start at boot by itself; status shows
#    "waiting", "running" and what it triggers
#  - a stopped path unit starts nothing; daemon-reexec keeps the watches working; a
#    drop-in that changes the path, then reload: the new path counts
#  - bad input: a path unit without paths and one with a relative path are refused, one
#    whose unit does not exist fails with a reason; the boot goes on
#  - hostile: PathExists= on a file the service never removes would start it for ever:
#    the path unit fails (trigger limit) and PID 1 does not spin
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d /tmp/emberpath.XXXXXX); trap 'rm -rf "$tmp"' EXIT
ETC=$tmp/etc/systemd/system LIB=$tmp/lib/systemd/system
M=$tmp/mark W=$tmp/w
mkdir -p "$ETC/paths.target.wants" "$LIB" "$M" "$W/spool" "$W/done"
E=$BIN/emberctl

unit() { printf '%b' "$2" >"$LIB/$1"; }
job() { # a oneshot that runs $2 and appends the time to its mark
	unit "$1.service" "[Service]\nType=oneshot\nExecStart=/bin/sh -c '$2; date +%%s.%%N >>$M/$1'\n"
}
job exists "rm -f $W/flag";              unit exists.path "[Path]\nPathExists=$W/flag\n"
job glob "mv $W/spool/*.job $W/done/";   unit glob.path "[Path]\nPathExistsGlob=$W/spool/*.job\n"
job queue "rm -f $W/queue/*"
unit queue.path "[Path]\nDirectoryNotEmpty=$W/queue\nMakeDirectory=yes\nDirectoryMode=0700\n"
job changed true;  unit changed.path "[Path]\nPathChanged=$W/conf/app.conf\n"
job modified true; unit modified.path "[Path]\nPathModified=$W/conf/app.conf\n"
unit long.service "[Service]\nExecStart=/bin/sh -c 'date +%%s >>$M/long; exec sleep 1000'\n"
unit long.path "[Path]\nPathExists=$W/longflag\n"
unit moved.service "[Service]\nType=oneshot\nExecStart=/bin/sh -c 'date +%%s >>$M/moved; rm -f $W/new-flag $W/old-flag'\n"
unit moved.path "[Path]\nPathExists=$W/old-flag\n"
unit orphan.path "[Path]\nPathExists=$W/orphan\n"
unit empty.path "[Path]\nUnit=exists.service\n"
unit relative.path "[Path]\nPathExists=relative/flag\n"
# Hostile: the file stays, the service ends at once: it would be started for ever.
: >"$W/always"
job spin true
unit spin.path "[Path]\nPathExists=$W/always\nTriggerLimitBurst=10\nTriggerLimitIntervalSec=5s\n"
for p in exists glob queue changed modified long moved orphan empty relative spin; do
	printf '[Install]\nWantedBy=paths.target\n' >>"$LIB/$p.path"
	ln -s "$LIB/$p.path" "$ETC/paths.target.wants/$p.path"
done

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$E" M="$M" W="$W"
. "$TOP/tests/integration/guest-lib.sh"
expect() { wait_state "\$2" "\$3" && ok "\$1" || bad "\$1" "\$2 is '\$(state \$2)', expected \$3"; }
lines() { [ -f "\$1" ] && wc -l <"\$1" || echo 0; }
cpu_ticks() { awk '{ print \$14 + \$15 }' /proc/1/stat; }
# wait_lines FILE N: up to 5 s for FILE to have at least N lines
wait_lines() { i=0; while [ "\$(lines \$1)" -lt \$2 ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done; }

expect path-active exists.path ready
expect spin-limited spin.path failed
"\$E" status spin.path | grep -q "trigger limit hit" && ok spin-says-why || bad spin-says-why "\$("\$E" status spin.path | tail -3)"
n=\$(lines \$M/spin)
[ "\$n" -ge 10 ] && [ "\$n" -le 11 ] && ok spin-bounded || bad spin-bounded "spin ran \$n times"
expect orphan-fails orphan.path failed
"\$E" status orphan.path | grep -q "orphan: not found, nothing to start" && ok orphan-says-why || bad orphan-says-why "\$("\$E" status orphan.path | tail -3)"
for p in empty relative; do
	st=\$(state \$p.path)
	[ "\$st" = invalid ] && ok "refused-\$p" || bad "refused-\$p" "\$p.path is '\$st'"
done

# ---- PathExists=
sleep 0.5
[ "\$(lines \$M/exists)" = 0 ] && ok exists-waits || bad exists-waits "ran \$(lines \$M/exists) times"
[ "\$(state exists)" = inactive ] && ok triggered-unit-not-at-boot || bad triggered-unit-not-at-boot "exists is \$(state exists)"
"\$E" status exists.path | grep -q "Triggers: exists" && ok status-shows-triggers || bad status-shows-triggers "\$("\$E" status exists.path)"
"\$E" --json status exists.path | grep -q '"type":"path".*"sub_state":"waiting"\|"sub_state":"waiting".*"type":"path"' && ok status-waiting || bad status-waiting "\$("\$E" --json status exists.path)"
: >\$W/flag; wait_lines \$M/exists 1
[ "\$(lines \$M/exists)" = 1 ] && [ ! -e \$W/flag ] && ok exists-starts || bad exists-starts "\$(lines \$M/exists) runs, flag \$(ls \$W)"
sleep 0.5; : >\$W/flag; wait_lines \$M/exists 2; sleep 0.3
[ "\$(lines \$M/exists)" = 2 ] && ok exists-again || bad exists-again "\$(lines \$M/exists) runs"

# ---- PathExistsGlob=
: >\$W/spool/a.txt; sleep 0.5
[ "\$(lines \$M/glob)" = 0 ] && ok glob-no-match-waits || bad glob-no-match-waits "ran"
: >\$W/spool/b.job; wait_lines \$M/glob 1
[ "\$(lines \$M/glob)" = 1 ] && [ -e \$W/done/b.job ] && ok glob-starts || bad glob-starts "\$(lines \$M/glob) runs; \$(ls \$W/spool \$W/done)"

# ---- DirectoryNotEmpty=, MakeDirectory=
[ "\$(stat -c %a \$W/queue 2>&1)" = 700 ] && ok make-directory-mode || bad make-directory-mode "\$(stat -c %a \$W/queue 2>&1)"
[ "\$(lines \$M/queue)" = 0 ] && ok dir-empty-waits || bad dir-empty-waits "ran"
echo x >\$W/queue/item; wait_lines \$M/queue 1
[ "\$(lines \$M/queue)" = 1 ] && [ -z "\$(ls \$W/queue)" ] && ok dir-not-empty-starts || bad dir-not-empty-starts "\$(lines \$M/queue) runs"

# ---- PathChanged=, PathModified= (the directory is not there at first)
mkdir \$W/conf; sleep 0.3
[ "\$(lines \$M/changed)" = 0 ] && ok changed-dir-alone-nothing || bad changed-dir-alone-nothing "ran"
echo one >\$W/conf/app.conf; wait_lines \$M/changed 1
[ "\$(lines \$M/changed)" -ge 1 ] && ok changed-new-file-starts || bad changed-new-file-starts "\$(lines \$M/changed) runs"
sleep 0.5; c=\$(lines \$M/changed) m=\$(lines \$M/modified)
( echo two; sleep 1.5; echo three ) >>\$W/conf/app.conf &
writer=\$!
wait_lines \$M/modified \$((m+1)); sleep 0.3
[ "\$(lines \$M/modified)" -gt \$m ] && ok modified-while-open || bad modified-while-open "\$m -> \$(lines \$M/modified)"
[ "\$(lines \$M/changed)" = \$c ] && ok changed-not-while-open || bad changed-not-while-open "\$c -> \$(lines \$M/changed)"
wait \$writer; wait_lines \$M/changed \$((c+1))
[ "\$(lines \$M/changed)" -gt \$c ] && ok changed-on-close || bad changed-on-close "\$c -> \$(lines \$M/changed)"

# ---- a long-running unit: started once, "running" while it runs
: >\$W/longflag; expect long-started long ready; sleep 0.5
[ "\$(lines \$M/long)" = 1 ] && ok long-started-once || bad long-started-once "\$(lines \$M/long) starts"
"\$E" --json status long.path | grep -q '"sub_state":"running"' && ok status-running || bad status-running "\$("\$E" --json status long.path)"

# ---- list-paths: every watched path of the active path units (spin and orphan failed)
lp=\$("\$E" list-paths)
echo "\$lp" | grep -Eq "^\$W/spool/\\*\\.job +PathExistsGlob +glob\\.path +glob\$" && ok list-paths-row || bad list-paths-row "\$lp"
echo "\$lp" | grep -q "^7 paths listed\\.\$" && ok list-paths-active || bad list-paths-active "\$lp"
"\$E" --json list-paths | grep -q '"name":"changed.path"[^}]*"paths":"PathChanged=[^"]*app.conf"' && ok list-paths-json || bad list-paths-json "\$("\$E" --json list-paths)"

# ---- stop: nothing more
"\$E" stop exists.path; expect path-stopped exists.path stopped
: >\$W/flag; sleep 0.7
[ "\$(lines \$M/exists)" = 2 ] && ok stopped-starts-nothing || bad stopped-starts-nothing "\$(lines \$M/exists) runs"
rm -f \$W/flag; "\$E" start exists.path; expect path-restarted exists.path ready

# ---- daemon-reexec: the watches go on
t0=\$(cpu_ticks)
"\$E" daemon-reexec && sleep 2
expect reexec-path-active exists.path ready
: >\$W/flag; wait_lines \$M/exists 3
[ "\$(lines \$M/exists)" = 3 ] && ok reexec-exists-starts || bad reexec-exists-starts "\$(lines \$M/exists) runs"
n=\$(lines \$M/changed); echo four >\$W/conf/app.conf; wait_lines \$M/changed \$((n+1))
[ "\$(lines \$M/changed)" -gt \$n ] && ok reexec-changed-starts || bad reexec-changed-starts "\$n -> \$(lines \$M/changed)"

# ---- reload: a drop-in moves the path
mkdir -p $ETC/moved.path.d
printf '[Path]\nPathExists=\nPathExists=$W/new-flag\n' >$ETC/moved.path.d/50-new.conf
"\$E" reload >/dev/null; sleep 0.3
: >\$W/old-flag; sleep 0.7
[ "\$(lines \$M/moved)" = 0 ] && ok reload-old-path-dropped || bad reload-old-path-dropped "ran on the old path"
rm -f \$W/old-flag; : >\$W/new-flag; wait_lines \$M/moved 1
[ "\$(lines \$M/moved)" = 1 ] && ok reload-new-path || bad reload-new-path "\$(lines \$M/moved) runs"

# PID 1 watching, not polling: a few seconds of all this cost it little CPU.
used=\$(( \$(cpu_ticks) - t0 ))
[ \$used -lt 150 ] && ok pid1-does-not-spin || bad pid1-does-not-spin "\$used ticks of CPU"
kill -0 1 && ok pid1-alive || bad pid1-alive gone
echo GUEST-CHECKS-DONE
exit 0
EOS
chmod +x "$tmp/guest.sh"
timeout 120 unshare --pid --mount --uts --fork --mount-proc \
	env container=ember-test "$BIN/ember-init" ember.services="$ETC:$LIB" \
	ember.run="$tmp/guest.sh" ember.shell=none >"$tmp/log" 2>&1
rc=$?
guest_results "$tmp/log" "$rc"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 60 "$tmp/log"; }
finish
