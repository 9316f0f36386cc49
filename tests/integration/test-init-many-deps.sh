#!/bin/sh
# More dependencies than a list keeps one by one (32), under ember-init as PID 1 of a
# PID+mount namespace: a target with 40 .requires/ and 40 .wants/ links, another with a
# Requires= line of 40 names. systemd has no such limit: every unit starts with its
# target, and a stop of any required one stops the target (Requires=), of a wanted one
# does not (Wants=). And emberctl enable/disable with 40 WantedBy= and Also= names.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ETC=$tmp/etc/systemd/system LIB=$tmp/lib/systemd/system
mkdir -p "$ETC/multi-user.target.wants" "$ETC/dirs.target.requires" "$ETC/dirs.target.wants" "$LIB"
E=$BIN/emberctl
N=40

line=
for i in $(seq -w 1 $N); do
	for u in r w l; do
		printf '[Service]\nExecStart=/bin/sleep 1000\n' >"$LIB/$u$i.service"
	done
	ln -s "$LIB/r$i.service" "$ETC/dirs.target.requires/"
	ln -s "$LIB/w$i.service" "$ETC/dirs.target.wants/"
	line="$line l$i.service"
done
printf '[Unit]\nDescription=links\n' >"$LIB/dirs.target"
printf '[Unit]\nDescription=a long line\nRequires=%s\n' "$line" >"$LIB/line.target"
ln -s "$LIB/dirs.target" "$LIB/line.target" "$ETC/multi-user.target.wants/"

# emberctl enable/disable follow every WantedBy= and Also= name, not only the first 32.
en=$tmp/enable; mkdir -p "$en/lib/systemd/system"
wb= also=
for i in $(seq 1 $N); do
	printf '[Service]\nExecStart=/bin/true\n[Install]\nWantedBy=multi-user.target\n' \
		>"$en/lib/systemd/system/a$i.service"
	wb="$wb t$i.target" also="$also a$i.service"
done
printf '[Service]\nExecStart=/bin/true\n[Install]\nWantedBy=%s\nAlso=%s\n' "$wb" "$also" \
	>"$en/lib/systemd/system/m.service"
"$E" --root="$en" -q enable m
n=$(ls -d "$en"/etc/systemd/system/t*.target.wants 2>/dev/null | wc -l)
[ "$n" = $N ] && pass enable-every-wantedby || fail enable-every-wantedby "$n of $N links"
n=$(ls "$en/etc/systemd/system/multi-user.target.wants" 2>/dev/null | wc -l)
[ "$n" = $N ] && pass enable-every-also || fail enable-every-also "$n of $N units"
"$E" --root="$en" -q disable m
n=$(find "$en/etc" -type l | wc -l)
[ "$n" = 0 ] && pass disable-every-also || fail disable-every-also "$n links left"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$E" N=$N
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
state() { "\$E" --json status "\$1" 2>/dev/null | sed -n 's/.*"state":"\\([^"]*\\)".*/\\1/p'; }
wait_state() {
	t=0
	while [ \$t -lt 200 ]; do
		s=\$(state "\$1"); for want in \$2; do [ "\$s" = "\$want" ] && return 0; done
		sleep 0.05; t=\$((t+1))
	done
	return 1
}
# every unit of a prefix in state (one case for all of them)
all_in() {
	for i in \$(seq -w 1 \$N); do
		wait_state "\$2\$i" "\$3" || { bad "\$1" "\$2\$i is '\$(state \$2\$i)', expected \$3"; return; }
	done
	ok "\$1"
}
wait_state dirs.target ready && ok links-target-up || bad links-target-up "dirs.target is '\$(state dirs.target)'"
wait_state line.target ready && ok line-target-up || bad line-target-up "line.target is '\$(state line.target)'"
all_in all-requires-links-started r ready
all_in all-wants-links-started w ready
all_in all-requires-names-started l ready
# Stopping any required unit stops the target: each of the 40 in turn, then the
# target starts again (and pulls the unit in again, once it is down: a start does not
# wait for a stop that is still under way).
stop_each() {
	for i in \$(seq -w 1 \$N); do
		"\$E" stop "\$2\$i" && wait_state "\$3" "stopped stopping" ||
			{ bad "\$1" "stop of \$2\$i left \$3 '\$(state \$3)'"; return; }
		wait_state "\$3" stopped && wait_state "\$2\$i" stopped && "\$E" start "\$3" &&
			wait_state "\$3" ready &&
			wait_state "\$2\$i" ready ||
			{ bad "\$1" "\$3 did not start again with \$2\$i"; return; }
	done
	ok "\$1"
}
stop_each stop-of-any-requires-link-stops-target r dirs.target
stop_each stop-of-any-requires-name-stops-target l line.target
"\$E" stop w$N && wait_state w$N stopped && sleep 0.2 && [ "\$(state dirs.target)" = ready ] &&
	ok stop-of-wanted-leaves-target || bad stop-of-wanted-leaves-target "dirs.target is '\$(state dirs.target)'"
kill -0 1 && ok pid1-alive || bad pid1-alive gone
echo GUEST-CHECKS-DONE
exit 0
EOS
chmod +x "$tmp/guest.sh"
timeout 300 unshare --pid --mount --uts --fork --mount-proc \
	env container=ember-test "$BIN/ember-init" ember.services="$ETC:$LIB" \
	ember.run="$tmp/guest.sh" ember.shell=none >"$tmp/log" 2>&1
guest_results "$tmp/log" $?
grep -q 'too many names' "$tmp/log" && fail no-link-ignored "$(grep 'too many names' "$tmp/log" | head -n 2)" ||
	pass no-link-ignored
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 60 "$tmp/log"; cp "$tmp/log" /tmp/h34-many.log; }
finish
