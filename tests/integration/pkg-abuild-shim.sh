# A tiny stand-in for abuild, enough to run an APKBUILD's phases on a machine without
# abuild (Debian). Sourced by busybox ash (abuild is an ash script) or bash; the
# APKBUILD is sourced on top of it.
#   abuild_setup STARTDIR APKBUILD   set the directory variables as abuild does
#   abuild_phase NAME                run build, check or package in $builddir (set -e)
#   abuild_split                     run every subpackage's split function in order
# What abuild does and this does not: fetch and verify sources (the test does its own
# sha512 check), prepare() patches, dependency installation, fakeroot, stripping,
# tracing of shared-library dependencies, and writing .apk files.

msg() { echo ">>> ${subpkgname:-$pkgname}: $*"; }
warning() { echo ">>> WARNING: ${subpkgname:-$pkgname}: $*" >&2; }
error() { echo ">>> ERROR: ${subpkgname:-$pkgname}: $*" >&2; }
die() { error "$@"; exit 1; }

# amove PATH...: move paths (shell patterns, relative to $pkgdir) into $subpkgdir,
# keeping their place in the tree. A pattern that matches nothing is an error, as in
# abuild.
amove() {
	[ -n "${subpkgdir:-}" ] || die "amove outside a split function"
	local pattern f dir
	for pattern; do
		pattern=${pattern#/}
		# shellcheck disable=SC2046,SC2086 # the pattern is meant to be expanded
		set -- $(cd "$pkgdir" && echo $pattern)
		for f; do
			[ -e "$pkgdir/$f" ] || [ -L "$pkgdir/$f" ] || die "amove: $pattern: no such file in \$pkgdir"
			dir=${f%/*}
			[ "$dir" = "$f" ] && dir=.
			mkdir -p "$subpkgdir/$dir"
			mv "$pkgdir/$f" "$subpkgdir/$dir/"
			# Drop parents left empty, but never $pkgdir itself.
			while [ "$dir" != . ] && rmdir "$pkgdir/$dir" 2>/dev/null; do
				case $dir in */*) dir=${dir%/*} ;; *) dir=. ;; esac
			done
		done
	done
}

default_prepare() { :; }
prepare() { default_prepare; }

# -doc: documentation directories, man pages compressed as abuild does.
default_doc() {
	depends=""
	pkgdesc="$pkgdesc (documentation)"
	install_if="docs $pkgname=$pkgver-r$pkgrel"
	local d
	for d in doc man info html licenses; do
		[ -d "$pkgdir/usr/share/$d" ] && amove "usr/share/$d"
	done
	[ -d "$subpkgdir/usr/share/man" ] &&
		find "$subpkgdir/usr/share/man" -type f -name '*.[0-9]' -exec gzip -9n {} +
	return 0
}
doc() { default_doc; }

default_bashcomp() {
	depends=""
	pkgdesc="Bash completions for $pkgname"
	install_if="$pkgname=$pkgver-r$pkgrel bash-completion"
	amove usr/share/bash-completion/completions
}
bashcomp() { default_bashcomp; }

default_zshcomp() {
	depends=""
	pkgdesc="Zsh completions for $pkgname"
	install_if="$pkgname=$pkgver-r$pkgrel zsh"
	amove usr/share/zsh/site-functions
}
zshcomp() { default_zshcomp; }

abuild_setup() {
	startdir=$1
	srcdir=$startdir/src
	pkgbasedir=$startdir/pkg
	# shellcheck disable=SC1090
	. "$2"
	builddir=${builddir:-$srcdir/$pkgname-$pkgver}
	pkgdir=$pkgbasedir/$pkgname
	CARCH=$(uname -m) CBUILD=$(uname -m)-alpine-linux-musl CHOST=$CBUILD
	JOBS=$(nproc) MAKEFLAGS=-j$(nproc)
	export CARCH CBUILD CHOST JOBS MAKEFLAGS srcdir pkgdir startdir
	mkdir -p "$srcdir" "$pkgdir"
}

abuild_phase() {
	(set -e; cd "$builddir"; "$1")
}

# The function of a subpackage: NAME:FUNC, or abuild's defaults for the usual suffixes.
abuild_split_func() {
	case $1 in
	*:*) f=${1#*:}; echo "${f%%:*}" ;;
	*-doc) echo doc ;;
	*-bash-completion) echo bashcomp ;;
	*-zsh-completion) echo zshcomp ;;
	*) echo "${1##*-}" ;;
	esac
}

# Runs each split function in a subshell (as abuild does) and writes the metadata it
# set to $pkgbasedir/NAME.meta. Returns non-zero if any split function failed; each
# failure is reported as "split-failed NAME" on stdout.
abuild_split() {
	local sub rc=0
	for sub in $subpackages; do
		(
			set -e
			subpkgname=${sub%%:*}
			subpkgdir=$pkgbasedir/$subpkgname
			func=$(abuild_split_func "$sub")
			mkdir -p "$subpkgdir"
			cd "$builddir"
			"$func"
			printf 'depends=%s\ninstall_if=%s\npkgdesc=%s\n' "$depends" "${install_if:-}" \
				"$pkgdesc" >"$pkgbasedir/$subpkgname.meta"
		) || { echo "split-failed ${sub%%:*}"; rc=1; }
	done
	return $rc
}
