#!/bin/sh
# The system locale in services' environment, against the real ember-init as PID 1 of a
# PID+mount namespace (with a directory of the test's own over /etc/default there): as
# under Debian's systemd, the locale keys of /etc/default/locale (where there is no
# /etc/locale.conf) are every service's LANG and LC_*; Environment= wins; a changed file
# applies from the next daemon-reload; no locale at all is LANG=C.UTF-8.
. "$(dirname "$0")/../lib.sh"
for p in ember-init emberctl; do
	[ -x "$BIN/$p" ] || { fail build "missing $BIN/$p (run make)"; finish; }
done
[ "$(id -u)" = 0 ] || { skip init-locale "needs root (namespaces)"; finish; }
[ -d /etc/default ] || { skip init-locale "no /etc/default to mount over"; finish; }
[ ! -e /etc/locale.conf ] || { skip init-locale "this host has /etc/locale.conf, which wins"; finish; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
S=$tmp/services M=$tmp/mark D=$tmp/default
mkdir -p "$S" "$M" "$D"
printf '# as update-locale writes it\nLANG="de_DE.UTF-8"\nLC_TIME=en_GB.UTF-8\nPATH=/tmp/evil\n' >"$D/locale"
printf '[Service]\nType=oneshot\nRemainAfterExit=yes\nExecStart=/bin/sh -c "env | grep -E \x27^(LANG|LC_|PATH)\x27 | sort >%s/plain"\n' "$M" >"$S/plain.service"
printf '[Service]\nType=oneshot\nRemainAfterExit=yes\nEnvironment=LANG=fr_FR.UTF-8\nExecStart=/bin/sh -c "env | grep ^LANG= >%s/own"\n' "$M" >"$S/own.service"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
PATH=$BIN:\$PATH
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
got() { tr '\n' ' ' <$M/\$1 2>&1; }
[ "\$(got plain)" = "LANG=de_DE.UTF-8 LC_TIME=en_GB.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin " ] &&
	ok locale-from-default-locale || bad locale-from-default-locale "\$(got plain)"
[ "\$(got own)" = "LANG=fr_FR.UTF-8 " ] && ok environment-wins || bad environment-wins "\$(got own)"
printf 'LANG=sv_SE.UTF-8\n' >$D/locale
emberctl restart plain; [ "\$(got plain)" = "LANG=de_DE.UTF-8 LC_TIME=en_GB.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin " ] &&
	ok unchanged-until-reload || bad unchanged-until-reload "\$(got plain)"
emberctl daemon-reload >/dev/null; emberctl restart plain
case "\$(got plain)" in "LANG=sv_SE.UTF-8 PATH="*) ok reload-reads-it-again ;; *) bad reload-reads-it-again "\$(got plain)" ;; esac
: >$D/locale
emberctl daemon-reload >/dev/null; emberctl restart plain
case "\$(got plain)" in "LANG=C.UTF-8 PATH="*) ok none-is-c-utf8 ;; *) bad none-is-c-utf8 "\$(got plain)" ;; esac
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log" "mount --bind $D /etc/default"
finish
