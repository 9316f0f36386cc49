#!/bin/sh
# KeyringMode= against the real ember-init as PID 1 of a PID+mount namespace: as under
# systemd, each service gets a session keyring of its own (private, the default for
# services), so what one service keeps there no other sees; KeyringMode=inherit shares
# PID 1's, as before. Measured on the Debian disk: under systemd every system service
# had a keyring of its own, under ember they all shared root's.
. "$(dirname "$0")/../lib.sh"
for p in ember-init emberctl; do
	[ -x "$BIN/$p" ] || { fail build "missing $BIN/$p (run make)"; finish; }
done
[ -x "$HELPERS/keyring-id" ] || { fail build "missing $HELPERS/keyring-id (run make unit-tests)"; finish; }
[ "$(id -u)" = 0 ] || { skip init-keyring "needs root (namespaces)"; finish; }
"$HELPERS/keyring-id" >/dev/null 2>&1 || { skip init-keyring "no kernel keyrings here (keyctl refused)"; finish; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
S=$tmp/services M=$tmp/mark
mkdir -p "$S" "$M"
chmod 1777 "$M"
for u in one two inh1 inh2 user; do
	{
		printf '[Service]\nType=oneshot\nRemainAfterExit=yes\n'
		case $u in inh*) printf 'KeyringMode=inherit\n' ;; user) printf 'User=nobody\n' ;; esac
		printf 'ExecStart=/bin/sh -c "%s/keyring-id >%s/%s"\n' "$HELPERS" "$M" $u
	} >"$S/$u.service"
done

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
k() { cat $M/\$1 2>&1; }
[ -n "\$(k one)" ] && [ -n "\$(k two)" ] && [ "\$(k one)" != "\$(k two)" ] && ok private-by-default ||
	bad private-by-default "one \$(k one), two \$(k two)"
[ "\$(k inh1)" = "\$(k inh2)" ] && [ "\$(k inh1)" != "\$(k one)" ] && ok inherit-shares || bad inherit-shares "\$(k inh1) \$(k inh2) \$(k one)"
case "\$(k user)" in ''|*[!0-9]*) bad user-has-its-own "\$(k user)" ;;
*) [ "\$(k user)" != "\$(k one)" ] && [ "\$(k user)" != "\$(k inh1)" ] && ok user-has-its-own || bad user-has-its-own "\$(k user)" ;; esac
exit 0
EOS
run_guest "$S" "$tmp/guest.sh" "$tmp/log"
finish
