#!/bin/sh
# User=root against the real ember-init as PID 1 of a PID+mount namespace: as under
# systemd, which does not ask /etc/group for group 0, a service running as root gets no
# supplementary groups but its SupplementaryGroups=; any other user gets its groups from
# /etc/group with its own group among them. (Seen on the Debian disk: root's user@0 had
# "Groups: 0" under ember, none under systemd.)
. "$(dirname "$0")/../lib.sh"
need_guest init-root-groups
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M"
chmod 1777 "$M"
unit() { # NAME KEYS
	printf '[Service]\nType=oneshot\nRemainAfterExit=yes\n%b\nExecStart=/bin/sh -c "grep ^Groups: /proc/self/status >%s/%s"\n' \
		"$2" "$M" "$1" >"$S/$1.service"
}
unit root 'User=root'
unit rootplus 'User=root\nSupplementaryGroups=daemon'
unit nobody 'User=nobody'
nogroup=$(getent group nogroup | cut -d: -f3)
daemon=$(getent group daemon | cut -d: -f3)

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
groups() { awk '{ \$1 = ""; print }' $M/\$1 2>&1 | tr -s ' \t' ' ' | sed 's/^ //; s/ \$//'; }
sleep 1
[ -e $M/root ] && [ -z "\$(groups root)" ] && ok root-no-groups || bad root-no-groups "\$(groups root)"
[ "\$(groups rootplus)" = "$daemon" ] && ok root-supplementary-only || bad root-supplementary-only "\$(groups rootplus)"
[ "\$(groups nobody)" = "$nogroup" ] && ok user-own-group || bad user-own-group "\$(groups nobody)"
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log"
finish
