#!/bin/sh
# ember-init keeps each loaded unit packed: its fixed part and the text it uses, one after
# another (init/supervisor.c, "the store of loaded services"). Against the real
# ember-init as PID 1 of a PID+mount namespace, every way the table changes must leave
# every other unit's record whole: units of many sizes loaded at boot, Accept=yes
# instances leaving from the middle of the table, a unit loaded on request, a reload that
# changes, removes and adds units. Each unit is checked through emberctl (Description=,
# After= with names past those stored one by one) and through a restart, whose command
# reads its Environment= from the record. And a loaded unit costs PID 1 less than a page
# of its own (RssAnon per unit, over 120 units added by a reload).
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || { skip init-unit-store "python3 missing (scripts/deps.sh installs it)"; finish; }
for p in ember-init emberctl; do
	[ -x "$BIN/$p" ] || { fail build "missing $BIN/$p (run make)"; finish; }
done
[ "$(id -u)" = 0 ] || { skip init-unit-store "needs root (namespaces)"; finish; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M"

# s01..s12: records of different sizes (PAD from 0 to 2,200 bytes), six names in After=
unit() { # NAME DESCRIPTION PADLEN
	pad=$(head -c "$3" /dev/zero | tr '\0' "$(printf '%s' "$1" | tail -c 1)")
	cat >"$S/$1.service" <<EOF
[Unit]
Description=$2
After=a-$1 b-$1 c-$1 d-$1 e-$1 f-$1
[Service]
Environment=PAD=$pad
ExecStart=/bin/sh -c 'printf "%%s" "\$\$PAD" >$M/$1; exec sleep 4321'
EOF
}
for i in 01 02 03 04 05 06 07 08 09 10 11 12; do
	unit "s$i" "desc-s$i" $(( (${i#0} * 613) % 2200 ))
done

cat >"$S/acc.socket" <<EOF
[Socket]
ListenStream=$tmp/acc.sock
Accept=yes
EOF
cat >"$S/acc@.service" <<EOF
[Unit]
Description=instance of acc
[Service]
StandardInput=socket
ExecStart=/bin/sh -c 'read d; sleep "\$\$d"'
EOF

# written into the services directory after boot: loaded on request
mkdir "$tmp/later"
unit late desc-late 1500
mv "$S/late.service" "$tmp/later/"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
pad_of() { n=\${1#s}; n=\$(( (\${n#0} * 613) % 2200 )); head -c "\$n" /dev/zero | tr '\0' "\$(printf '%s' "\$1" | tail -c 1)"; }
# every sNN whole: its description, its After= names, its PAD (written by its command)
check_units() { # STEP [UNIT DESCRIPTION]...
	step=\$1; shift
	why=""
	for i in 01 02 03 04 05 06 08 09 10 11 12; do
		u=s\$i d=desc-s\$i
		[ "\$u" = "\${1:-}" ] && d=\$2
		show=\$("\$E" show \$u 2>&1)
		printf '%s\n' "\$show" | grep -qx "Description=\$d" || why="\$why \$u:description"
		printf '%s\n' "\$show" | grep -qx "After=a-\$u.service b-\$u.service c-\$u.service d-\$u.service e-\$u.service f-\$u.service" ||
			why="\$why \$u:after(\$(printf '%s\n' "\$show" | grep '^After='))"
		rm -f $M/\$u
		"\$E" restart \$u >/dev/null 2>&1
		# ready once exec'd: its printf may come a moment later on a busy machine
		k=0; while [ ! -s $M/\$u ] && [ \$k -lt 40 ]; do sleep 0.05; k=\$((k+1)); done
		[ "\$(cat $M/\$u 2>/dev/null)" = "\$(pad_of \$u)" ] || why="\$why \$u:environment"
	done
	[ -z "\$why" ] && ok "units-whole-\$step" || bad "units-whole-\$step" "\$why"
}
conn() { python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(sys.argv[2].encode()+b"\n"); s.close()' $tmp/acc.sock "\$1"; }

check_units boot
# three instances join the table's end; the one in the middle leaves first
conn 3; conn 1; conn 2
i=0; while [ \$i -lt 40 ] && [ "\$("\$E" list | grep -c '^acc@')" != 3 ]; do sleep 0.1; i=\$((i+1)); done
[ "\$("\$E" list | grep -c '^acc@')" = 3 ] && ok three-instances || bad three-instances "\$("\$E" list | grep '^acc@')"
i=0; while [ \$i -lt 100 ] && "\$E" list | grep -q '^acc@'; do sleep 0.1; i=\$((i+1)); done
"\$E" list | grep -q '^acc@' && bad instances-gone "\$("\$E" list | grep '^acc@')" || ok instances-gone
check_units after-instances

# loaded on request: a file written after boot
cp $tmp/later/late.service $S/
"\$E" start late >/dev/null 2>&1
"\$E" show late | grep -qx Description=desc-late && [ "\$(cat $M/late 2>/dev/null)" = "\$(head -c 1500 /dev/zero | tr '\0' e)" ] && ok loaded-on-request ||
	bad loaded-on-request "\$("\$E" show late 2>&1 | grep Description=) \$(wc -c <$M/late 2>&1)"
check_units after-load-on-request

# a reload: s05 changed, s07 removed while it runs, s13 added
sed -i 's/^Description=desc-s05\$/Description=desc-s05-changed/' $S/s05.service
rm $S/s07.service
printf '[Unit]\nDescription=desc-s13\n[Service]\nExecStart=/bin/sleep 4321\n' >$S/s13.service
"\$E" daemon-reload >/dev/null 2>&1
"\$E" start s13 >/dev/null 2>&1
"\$E" show s13 | grep -qx Description=desc-s13 && ok reload-added || bad reload-added "\$("\$E" show s13 2>&1 | head -3)"
i=0; while [ \$i -lt 50 ] && "\$E" is-active s07 >/dev/null 2>&1; do sleep 0.1; i=\$((i+1)); done
"\$E" is-active s07 >/dev/null 2>&1 && bad reload-removed-stops "s07 still active" || ok reload-removed-stops
"\$E" show late | grep -qx Description=desc-late && ok reload-keeps-started-by-name || bad reload-keeps-started-by-name "\$("\$E" show late 2>&1 | head -3)"
check_units after-reload s05 desc-s05-changed

# memory: 120 more units (never started: their condition fails), loaded by a reload
a=\$(awk '/^RssAnon:/{print \$2}' /proc/1/status)
n=0; while [ \$n -lt 120 ]; do n=\$((n+1))
	printf '[Unit]\nDescription=many-%s\nConditionPathExists=/nonexistent\n[Service]\nExecStart=/bin/true\n' \$n >$S/m\$n.service
done
"\$E" daemon-reload >/dev/null 2>&1
b=\$(awk '/^RssAnon:/{print \$2}' /proc/1/status)
[ "\$("\$E" list | grep -c '^m[0-9]')" = 120 ] && ok many-loaded || bad many-loaded "\$("\$E" list | grep -c '^m[0-9]')"
per=\$(( (b - a) * 1024 / 120 ))
[ "\$per" -lt 4096 ] && ok less-than-a-page-per-unit ||
	bad less-than-a-page-per-unit "RssAnon \$a kB, then \$b kB with 120 units more: \$per bytes a unit"
"\$E" show m77 | grep -qx Description=many-77 && ok many-whole || bad many-whole "\$("\$E" show m77 2>&1 | head -3)"
check_units with-many s05 desc-s05-changed
rm -f $S/m*.service
"\$E" daemon-reload >/dev/null 2>&1
c=\$(awk '/^RssAnon:/{print \$2}' /proc/1/status)
[ \$((c - a)) -lt 64 ] && ok memory-back-after-unload || bad memory-back-after-unload "RssAnon \$a kB, \$b kB with 120 units more, \$c kB without them again"
check_units after-unload s05 desc-s05-changed
kill -0 1 && ok pid1-alive || bad pid1-alive "gone"
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log"
finish
