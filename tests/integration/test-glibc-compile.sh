#!/bin/sh
# Principle 2: every program's C compiles warning-free against glibc as well as musl. The
# build compiles the libc-only programs with musl-gcc alone, so a header that musl happens
# to pull in and glibc does not (pid_t through <sys/resource.h>, once) would go unseen: here
# each of their sources goes through the system compiler, compile only, with the build's
# own warning flags. A library-backed program whose pkg-config modules are missing is
# skipped by name.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
CC=${GLIBC_CC:-cc}
warn=$(make -s --no-print-directory print-warn-flags) || { fail setup "make print-warn-flags"; finish; }
case $($CC -dumpmachine) in
*musl*) skip glibc "$CC targets musl: no glibc compiler here"; finish ;;
esac

# modules DIR: the pkg-config modules the program in DIR links (its build.mk), if any
modules() {
	sed -n 's/.*call lib_prog,[^,]*,[^,]*,\([^,]*\),.*/\1/p' "$1/build.mk" 2>/dev/null
}

# lib/ and cgroup/ are built into every program; the others are a program each.
for dir in lib cgroup $(ls -d */build.mk | sed 's|/build.mk||'); do
	case $dir in tests | fuzz | bench) continue ;; esac
	mods=$(modules "$dir")
	extra=
	if [ -n "$mods" ]; then
		if ! extra=$(pkg-config --cflags $mods 2>/dev/null); then
			skip "$dir" "pkg-config modules missing: $mods (make deps)"
			continue
		fi
	fi
	bad=
	for src in "$dir"/*.c; do
		[ -f "$src" ] || continue
		# shellcheck disable=SC2086 # word lists
		if ! $CC $warn -D_GNU_SOURCE -DEMBER_VERSION='"test"' -I. -Ilib -Icgroup $extra \
			-Os -fsyntax-only "$src" >"$work/cc.log" 2>&1; then
			bad="$bad $src: $(head -n 3 "$work/cc.log" | tr '\n' ' ')"
		fi
	done
	[ -z "$bad" ] && pass "$dir" || fail "$dir" "$bad"
done
finish
