#!/bin/sh
# DynamicUser=, with the real ember-init as PID 1 of a PID+mount namespace (tmpfs over
# /run, /var/lib, /var/cache, /var/log; a copy of /etc/passwd bound over the real one):
# the id (range, stable across restarts, shared by a template's instances, moved off an
# id a static user takes, the static user of the name winning), $USER and friends, the
# directories in BASE/private behind relative symlinks (an older directory moved in and
# its files chowned), the implied sandbox (read-only system, own view of BASE/private,
# private /tmp, no_new_privs), RemoveIPC= at the last stop, and hostile trees: a planted
# symlink, a hard link and a symlink to root's files in the old tree, a BASE/private that
# is someone else's, a User= that is no user name.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"; rm -f /dev/shm/ember-dyn-ipc-test' EXIT
mkdir -p "$tmp/services"
cp "$TOP"/tests/integration/dynuser/*.service "$tmp/services/"
cp /etc/passwd "$tmp/passwd"
rm -f /dev/shm/ember-dyn-ipc-test

cat >"$tmp/boot.sh" <<EOS
#!/bin/sh
set -e
for d in /run /var/lib /var/cache /var/log; do mount -t tmpfs -o mode=0755 tmpfs \$d || exit 1; done
mount --bind "$tmp/passwd" /etc/passwd || exit 1
mkdir -m 0755 /var/lib/private /var/log/private && mkdir /var/lib/private/secret
mkdir -p /var/lib/dynmig/a/b/c && echo old-data >/var/lib/dynmig/old
i=0; while [ \$i -lt 300 ]; do : >/var/lib/dynmig/a/b/file-with-a-longish-name-\$i; i=\$((i+1)); done
chown -R 4321:4321 /var/lib/dynmig
mkdir -m 0700 /var/cache/victim /var/cache/victim3
ln -s /var/cache/victim /var/lib/dynevil
echo root-only >/var/lib/rootfile && chmod 0600 /var/lib/rootfile # a hard link needs one file system
mkdir -p /var/lib/private/dynhl && ln -s /var/cache/victim3 /var/lib/private/dynhl/sym
touch /var/lib/private/dynhl/own && chown -hR 4321:4321 /var/lib/private/dynhl
ln /var/lib/rootfile /var/lib/private/dynhl/linked && ln -s private/dynhl /var/lib/dynhl
mkdir -m 0700 /var/cache/private && chown 4321 /var/cache/private
exec "$BIN/ember-init" ember.services="$tmp/services" ember.run="$tmp/guest.sh" ember.shell=none
EOS
cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
. "$TOP/tests/integration/guest-lib.sh"
uid_of() { "\$E" log "\$1" | sed -n 's/^ids \\([0-9]*\\).*/\\1/p' | tail -n 1; }
in_passwd() { cut -d: -f3 /etc/passwd | grep -qx "\$1"; }

# ---- the id and the environment
has dyn-runs dynbasic dirs-writable
u=\$(uid_of dynbasic)
[ -n "\$u" ] && [ "\$u" -ge 61184 ] && [ "\$u" -le 65519 ] && ok dyn-uid-in-range || bad dyn-uid-in-range "uid '\$u'"
"\$E" log dynbasic | grep -q "^ids \$u \$u groups=\$u\\\$" && ok dyn-gid-is-uid || bad dyn-gid-is-uid "\$("\$E" log dynbasic | grep ^ids)"
in_passwd "\$u" && bad dyn-uid-not-static "\$u is in /etc/passwd" || ok dyn-uid-not-static
"\$E" status dynbasic | grep -q "Dynamic UID: \$u\\\$" && "\$E" --json status dynbasic | grep -q "\"dynamic_uid\":\$u" &&
	ok dyn-uid-in-status || bad dyn-uid-in-status "u=\$u: \$("\$E" status dynbasic | grep Dynamic) \$("\$E" --json status dynbasic | grep -o "dynamic_uid.\{0,10\}")"
# as systemd (measured on the Debian disk): no \$HOME for a home of "/", no \$SHELL for
# a placeholder such as nologin
has dyn-identity-env dynbasic "^env USER=dynbasic LOGNAME=dynbasic HOME= SHELL= ST=/var/lib/dynbasic\\\$"
# ---- directories
[ "\$(readlink /var/lib/dynbasic) \$(readlink /var/log/dynbasic)" = "private/dynbasic private/dynbasic" ] && ok dyn-dirs-are-links || bad dyn-dirs-are-links "\$(ls -l /var/lib /var/log | tr '\n' ' ')"
[ "\$(stat -c '%u %a' /var/lib/private)" = "0 700" ] && ok dyn-private-root-0700 || bad dyn-private-root-0700 "\$(stat -c '%u %a' /var/lib/private)"
[ "\$(stat -c '%a' /var/log/private)" = 700 ] && ok dyn-private-root-mode-fixed || bad dyn-private-root-mode-fixed "\$(stat -c '%a' /var/log/private)"
[ "\$(stat -c '%u' /var/lib/private/dynbasic/file)" = "\$u" ] && [ "\$(stat -c '%u' /run/dynbasic)" = "\$u" ] && ok dyn-files-by-the-id || bad dyn-files-by-the-id "\$(ls -ln /var/lib/private/dynbasic /run | tr '\n' ' ')"
# ---- the implied sandbox
has dyn-system-read-only dynbasic outside-read-only
has dyn-private-root-read-only-inside dynbasic private-root-read-only
has dyn-sees-only-own-private-dir dynbasic "^private-entries=dynbasic,\\\$"
"\$E" log dynbasic | grep -q saw-secret && bad dyn-secret-hidden "saw /var/lib/private/secret" || ok dyn-secret-hidden
has dyn-private-tmp dynbasic tmp-writable
[ ! -e /tmp/dyn-tmp ] && ok dyn-tmp-stays-private || bad dyn-tmp-stays-private "in the real /tmp"
has dyn-no-new-privs dynbasic "^nnp=1\\\$"
# ---- the id is stable; RemoveIPC= at the stop
has dyn-shm-written dynbasic shm-written
"\$E" stop dynbasic; wait_state dynbasic stopped
i=0; while [ -e /dev/shm/ember-dyn-ipc-test ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
[ ! -e /dev/shm/ember-dyn-ipc-test ] && ok dyn-remove-ipc-at-stop || bad dyn-remove-ipc-at-stop "\$(ls -ln /dev/shm/ember-dyn-ipc-test)"
"\$E" start dynbasic; wait_log dynbasic shm-written
[ "\$(uid_of dynbasic)" = "\$u" ] && ok dyn-uid-stable || bad dyn-uid-stable "\$(uid_of dynbasic) after \$u"
# ---- a static user takes the id: the next start moves off it, and the files follow
"\$E" stop dynbasic; wait_state dynbasic stopped
echo "squatter:x:\$u:\$u::/:/usr/sbin/nologin" >>/etc/passwd
"\$E" start dynbasic; wait_log dynbasic shm-written; sleep 0.2
v=\$("\$E" log dynbasic | sed -n 's/^ids \\([0-9]*\\).*/\\1/p' | tail -n 1)
[ -n "\$v" ] && [ "\$v" != "\$u" ] && [ "\$v" -ge 61184 ] && [ "\$v" -le 65519 ] && ! in_passwd "\$v" && ok dyn-moves-off-static-id || bad dyn-moves-off-static-id "\$u then '\$v'"
[ "\$(stat -c '%u %g' /var/lib/private/dynbasic/file)" = "\$v \$v" ] && ok dyn-old-files-chowned || bad dyn-old-files-chowned "\$(ls -ln /var/lib/private/dynbasic | tr '\n' ' ')"
# ---- sharing and the static user
"\$E" start dynshare@a; "\$E" start dynshare@b
wait_log dynshare@a "^ids"; wait_log dynshare@b "^ids"
a=\$(uid_of dynshare@a); b=\$(uid_of dynshare@b)
[ -n "\$a" ] && [ "\$a" = "\$b" ] && [ "\$a" != "\$v" ] && ok dyn-template-instances-share || bad dyn-template-instances-share "a=\$a b=\$b"
has dyn-template-user-name dynshare@a "user=dynshare\\\$"
has dyn-static-user-wins dynstatic "^ids 65534 user=nobody\\\$"
# ---- an older directory
has dyn-migrated-data-readable dynmig read-old
m=\$(stat -c %u /var/lib/private/dynmig)
[ "\$m" -ge 61184 ] && [ -z "\$(find /var/lib/private/dynmig ! -uid "\$m")" ] &&
	[ "\$(ls /var/lib/private/dynmig/a/b | wc -l)" = 301 ] && ok dyn-migrated-tree-all-chowned ||
	bad dyn-migrated-tree-all-chowned "\$(find /var/lib/private/dynmig ! -uid "\$m" | head -3 | tr '\n' ' ')"
[ "\$(readlink /var/lib/dynmig)" = private/dynmig ] && [ "\$(cat /var/lib/private/dynmig/old)" = old-data ] && ok dyn-migrated || bad dyn-migrated "\$(ls -l /var/lib /var/lib/private | tr '\n' ' ')"
has dyn-nested-writable dynnest nested-writable
[ "\$(readlink /var/lib/dynnest/inner)" = ../private/dynnest/inner ] && ok dyn-nested-relative-link || bad dyn-nested-relative-link "\$(readlink /var/lib/dynnest/inner)"
# ---- hostile
wait_state dynevil failed permanent-failure && ok dyn-planted-link-fails || bad dyn-planted-link-fails "dynevil is \$(state dynevil)"
"\$E" log dynevil | grep -q evil-ran && bad dyn-planted-link-runs-nothing "it ran" || ok dyn-planted-link-runs-nothing
[ "\$(stat -c '%u %a' /var/cache/victim)" = "0 700" ] && [ -z "\$(ls -A /var/cache/victim)" ] && ok dyn-planted-link-target-untouched || bad dyn-planted-link-target-untouched "\$(ls -la /var/cache/victim | tr '\n' ' ')"
has dyn-hl-runs dynhl "^owner="
h=\$(stat -c %u /var/lib/private/dynhl)
[ "\$h" -ge 61184 ] && [ "\$(stat -c %u /var/lib/private/dynhl/own)" = "\$h" ] && ok dyn-old-tree-chowned || bad dyn-old-tree-chowned "\$(ls -lnR /var/lib/private/dynhl | tr '\n' ' ')"
[ "\$(stat -c '%u %g %h' /var/lib/rootfile)" = "0 0 2" ] && ok dyn-hard-link-left-alone || bad dyn-hard-link-left-alone "\$(ls -ln /var/lib/rootfile)"
[ "\$(stat -c '%u' /var/cache/victim3)" = 0 ] && [ "\$(stat -c '%u' /var/lib/private/dynhl/sym)" = "\$h" ] && ok dyn-symlink-not-followed || bad dyn-symlink-not-followed "\$(ls -lnd /var/cache/victim3 /var/lib/private/dynhl/sym | tr '\n' ' ')"
wait_state dynbadroot failed permanent-failure && ok dyn-foreign-private-root-fails || bad dyn-foreign-private-root-fails "dynbadroot is \$(state dynbadroot)"
"\$E" log dynbadroot | grep -q badroot-ran && bad dyn-foreign-private-root-runs-nothing "it ran" || ok dyn-foreign-private-root-runs-nothing
[ "\$(stat -c '%u' /var/cache/private)" = 4321 ] && [ ! -e /var/cache/private/dynbadroot ] && ok dyn-foreign-private-root-untouched || bad dyn-foreign-private-root-untouched "\$(ls -lan /var/cache/private | tr '\n' ' ')"
wait_state dynbadname failed permanent-failure && ok dyn-bad-user-name-fails || bad dyn-bad-user-name-fails "dynbadname is \$(state dynbadname)"
"\$E" status dynbadname | grep -q "not a valid user name" && ok dyn-bad-user-name-says-why || bad dyn-bad-user-name-says-why "\$("\$E" status dynbadname | tr '\n' ' ')"
kill -0 1 && ok pid1-alive || bad pid1-alive "gone"
echo GUEST-CHECKS-DONE
exit 0
EOS
chmod +x "$tmp/boot.sh" "$tmp/guest.sh"
timeout 120 unshare --pid --mount --uts --fork --mount-proc \
	env container=ember-test "$tmp/boot.sh" >"$tmp/log" 2>&1
guest_results "$tmp/log" $?
grep -q 'dynevil: directory /var/lib/dynevil: File exists' "$tmp/log" &&
	pass dyn-planted-link-says-where || fail dyn-planted-link-says-where "$(grep 'dynevil' "$tmp/log" | tr '\n' ' ')"
[ ! -e /dev/shm/ember-dyn-ipc-test ] && [ ! -e /var/lib/dynbasic ] && ! grep -q squatter /etc/passwd &&
	pass host-untouched || fail host-untouched "left files on the host"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 60 "$tmp/log"; }
finish
