#!/bin/sh
# Supplementary groups against the real ember-init as PID 1 of a PID+mount namespace,
# as systemd's initgroups(user, gid) gives them with the gid the service runs as:
# - User=root: none but SupplementaryGroups= (systemd does not look group 0 up; root's
#   user@0 had "Groups: 0" under ember, none under systemd);
# - any other user: its groups in /etc/group with its own group among them; with
#   Group= that group instead of the passwd one (prometheus-frr-exporter, User=frr
#   Group=frrvty with PrivateUsers=: setgid failed under ember, run-time round 8, as
#   the passwd group is not mapped in the service's user namespace);
# - a dynamic user: its own group.
. "$(dirname "$0")/../lib.sh"
need_guest init-root-groups
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M"
chmod 1777 "$M"
unit() { # NAME KEYS
	printf '[Service]\nType=oneshot\nRemainAfterExit=yes\n%b\nExecStart=/bin/sh -c "grep -e ^Gid: -e ^Groups: /proc/self/status >%s/%s"\n' \
		"$2" "$M" "$1" >"$S/$1.service"
}
unit root 'User=root'
unit rootplus 'User=root\nSupplementaryGroups=daemon'
unit nobody 'User=nobody'
unit othergroup 'User=nobody\nGroup=daemon'
unit userns 'User=nobody\nGroup=daemon\nPrivateUsers=yes'
# a dynamic user writes nowhere outside (PrivateTmp=, ProtectSystem=strict): its log
printf '[Service]\nType=oneshot\nRemainAfterExit=yes\nDynamicUser=yes\nExecStart=/bin/sh -c "grep -e ^Gid: -e ^Groups: /proc/self/status"\n' >"$S/dynamic.service"
nogroup=$(getent group nogroup | cut -d: -f3)
daemon=$(getent group daemon | cut -d: -f3)

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
groups() { awk '\$1 == "Groups:" { \$1 = ""; print }' $M/\$1 2>&1 | tr -s ' \t' ' ' | sed 's/^ //; s/ \$//'; }
gid() { awk '\$1 == "Gid:" { print \$2 }' $M/\$1; }
sleep 1
[ -e $M/root ] && [ -z "\$(groups root)" ] && ok root-no-groups || bad root-no-groups "\$(groups root)"
[ "\$(groups rootplus)" = "$daemon" ] && ok root-supplementary-only || bad root-supplementary-only "\$(groups rootplus)"
[ "\$(groups nobody)" = "$nogroup" ] && ok user-own-group || bad user-own-group "\$(groups nobody)"
[ "\$(groups othergroup)" = "$daemon" ] && [ "\$(gid othergroup)" = "$daemon" ] && ok group-key-replaces-passwd-group ||
	bad group-key-replaces-passwd-group "gid \$(gid othergroup), groups \$(groups othergroup)"
emberctl log dynamic -n 5 | grep -o -e 'Gid:.*' -e 'Groups:.*' >$M/dynamic
[ "\$(groups userns)" = "$daemon" ] && [ "\$(gid userns)" = "$daemon" ] && ok group-key-in-user-namespace ||
	bad group-key-in-user-namespace "gid \$(gid userns), groups \$(groups userns), \$(emberctl status userns | grep -i error)"
[ -n "\$(gid dynamic)" ] && [ "\$(groups dynamic)" = "\$(gid dynamic)" ] && ok dynamic-user-own-group ||
	bad dynamic-user-own-group "gid \$(gid dynamic), groups \$(groups dynamic)"
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log"
finish
