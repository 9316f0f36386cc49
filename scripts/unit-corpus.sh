#!/bin/sh
# Fetch the unit-file corpus: real Debian 12 packages' system unit files, for
# `emberctl verify` and tests/integration/test-unit-corpus.sh (issue 12).
#
# Each package is fetched with `apt-get download` (apt-get update first when apt has no
# package lists), and only its system unit files are kept: *.service, *.socket, *.target,
# *.timer, *.path, drop-ins (*.d/*.conf) and .wants/.requires links, exactly as the package ships them,
# under $EMBER_UNIT_CORPUS/<package>/<path in the package>, e.g.
#   ~/.cache/ember/unit-corpus/dbus-daemon/lib/systemd/system/dbus.service
# Debian 12 ships units in lib/systemd/system and usr/lib/systemd/system; user units
# (usr/lib/systemd/user) are out of scope and skipped.
#
# Idempotent and cached: a package is fetched again only when apt's candidate version
# differs from the version recorded in <package>/.version. The corpus is never committed.
#
# EMBER_UNIT_SUITE=trixie: the same packages of Debian 13 (systemd 257's unit syntax, as
# postmarketOS's systemd ships it), into unit-corpus-trixie: apt reads that suite's lists,
# fetched into the corpus (again when a week old) from this machine's Debian mirror; the
# host's apt configuration and lists are not touched.
#
# usage: scripts/unit-corpus.sh [--list] [PACKAGE...]
#   no PACKAGE: the whole corpus. --list: print the corpus directory's packages and exit.
# Prints the corpus directory on the last line of stdout. Exit 0, or 1 when a package
# could not be fetched (the others are still fetched).
set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
SUITE=${EMBER_UNIT_SUITE:-bookworm}
case $SUITE in
bookworm) name=unit-corpus ;;
*[!a-z]* | "") echo "unit-corpus: EMBER_UNIT_SUITE=$SUITE: not a suite name" >&2; exit 1 ;;
*) name=unit-corpus-$SUITE ;;
esac
CORPUS=${EMBER_UNIT_CORPUS:-${XDG_CACHE_HOME:-$HOME/.cache}/ember/$name}

# The phone stack, Debian's base system, and appliance daemons that ship units.
PACKAGES="
dbus dbus-daemon dbus-system-bus-common udev openssh-server network-manager modemmanager
wpasupplicant iwd bluez ofono upower polkitd pipewire pipewire-pulse wireplumber
avahi-daemon chrony rsyslog cron util-linux systemd systemd-timesyncd systemd-resolved
systemd-container greetd lightdm gdm3 sddm accountsservice rtkit udisks2 colord
cups-daemon nftables openvpn tor nginx-common postgresql-common geoclue-2.0 packagekit
fwupd thermald irqbalance smartmontools lvm2 mdadm dnsmasq hostapd connman usbmuxd bolt
switcheroo-control power-profiles-daemon iio-sensor-proxy feedbackd phosh eg25-manager
apparmor auditd console-setup alsa-utils apt man-db logrotate e2fsprogs plymouth
zram-tools systemd-zram-generator rpcbind nfs-common haveged kmod lldpd ifupdown gpsd
"

if [ "${1:-}" = "--list" ]; then
	[ -d "$CORPUS" ] && ls "$CORPUS"
	exit 0
fi
[ $# -gt 0 ] && PACKAGES="$*"

# Another suite: apt's configuration and lists for it, in the corpus.
apt_for_suite() {
	a=$CORPUS/.apt
	mkdir -p "$a/lists/partial" "$a/cache/archives/partial"
	mirror=$("$TOP"/scripts/apt-mirror.sh) ||
		{ echo "unit-corpus: no Debian mirror in apt's configuration" >&2; return 1; }
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $SUITE main" \
		>"$a/sources.list"
	printf '%s\n' "Dir::Etc::sourcelist \"$a/sources.list\";" 'Dir::Etc::sourceparts "-";' \
		"Dir::State::Lists \"$a/lists\";" "Dir::Cache \"$a/cache\";" \
		"Dir::State::status \"$a/status\";" >"$a/apt.conf"
	touch "$a/status"
	APT_CONFIG=$a/apt.conf
	export APT_CONFIG
	[ -n "$(find "$a/lists" -name '*_Packages' -mtime -7 2>/dev/null | head -n 1)" ] ||
		apt-get update -qq >/dev/null 2>&1 ||
		{ echo "unit-corpus: apt-get update for $SUITE failed" >&2; return 1; }
}

# The kinds kept: a change re-extracts every package (from the .debs kept below).
KINDS=kinds-3 # service socket target timer path
mkdir -p "$CORPUS/.debs"
status=0
if [ "$SUITE" != bookworm ]; then
	apt_for_suite || exit 1
fi

# apt's candidate versions of every package, asked once (apt-cache is slow to start):
# lines "package version".
CANDIDATES=$(mktemp)
trap 'rm -f "$CANDIDATES"' EXIT
ask_candidates() {
	# shellcheck disable=SC2086
	apt-cache policy $PACKAGES 2>/dev/null |
		awk '/^[^ ]+:$/ { pkg = substr($1, 1, length($1) - 1) } $1 == "Candidate:" { print pkg, $2 }' >"$CANDIDATES"
}
candidate() {
	awk -v p="$1" '$1 == p { print $2 }' "$CANDIDATES"
}

# Copy the unit files of an extracted package tree $1 into $2, keeping their paths.
keep_units() {
	(cd "$1" && find lib/systemd/system usr/lib/systemd/system \
		\( -type f -o -type l \) 2>/dev/null) |
	while IFS= read -r f; do
		case "$f" in
		*.service | *.socket | *.target | *.timer | *.path | *.d/*.conf) ;;
		*) continue ;;
		esac
		mkdir -p "$2/$(dirname "$f")"
		cp -P "$1/$f" "$2/$f"
	done
}

fetch() {
	pkg=$1
	version=$(candidate "$pkg")
	if [ -z "$version" ] || [ "$version" = "(none)" ]; then
		if [ ! -e "$CORPUS/.updated" ] && [ "$(id -u)" -eq 0 ]; then
			apt-get update -qq >/dev/null && touch "$CORPUS/.updated"
			ask_candidates
			version=$(candidate "$pkg")
		fi
	fi
	if [ -z "$version" ] || [ "$version" = "(none)" ]; then
		echo "unit-corpus: $pkg: no such package in apt's lists" >&2
		return 1
	fi
	if [ -f "$CORPUS/$pkg/.version" ] && [ "$(cat "$CORPUS/$pkg/.version")" = "$version $KINDS" ]; then
		return 0
	fi
	deb=$(find "$CORPUS/.debs" -name "${pkg}_*.deb" 2>/dev/null | head -n 1)
	if [ -z "$deb" ] || ! dpkg-deb -f "$deb" Version | grep -qxF "$version"; then
		rm -f "$CORPUS/.debs/${pkg}"_*.deb
		(cd "$CORPUS/.debs" && apt-get download -q "$pkg=$version" >/dev/null 2>&1) || {
			echo "unit-corpus: $pkg: apt-get download failed" >&2
			return 1
		}
		deb=$(find "$CORPUS/.debs" -name "${pkg}_*.deb" | head -n 1)
	fi
	tmp=$(mktemp -d)
	dpkg-deb -x "$deb" "$tmp"
	rm -rf "$CORPUS/$pkg.new"
	mkdir -p "$CORPUS/$pkg.new"
	keep_units "$tmp" "$CORPUS/$pkg.new"
	rm -rf "$tmp"
	echo "$version $KINDS" >"$CORPUS/$pkg.new/.version"
	rm -rf "$CORPUS/$pkg"
	mv "$CORPUS/$pkg.new" "$CORPUS/$pkg"
}

ask_candidates
for pkg in $PACKAGES; do
	fetch "$pkg" || status=1
done
echo "$CORPUS"
exit $status
