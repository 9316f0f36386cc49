#!/bin/sh
# A first `make` on a fresh machine, before `make deps` installed musl-gcc, compiles with
# cc (glibc) and stops at the link; the next `make` must build those objects again with
# musl-gcc, not link the glibc ones into a musl program (undefined __cmsg_nxthdr, once).
# One small program in a scratch OUT, built with each compiler in turn.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
command -v musl-gcc >/dev/null || { skip compiler-change "no musl-gcc (make deps)"; finish; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
prog=$out/bin/ember-busname-wait

make -s OUT="$out" MUSL_CC=cc "$prog" >"$out/glibc.log" 2>&1
if grep -q 'compiles against glibc' "$out/glibc.log" && [ ! -e "$prog" ]; then
	pass glibc-link-refused
else
	fail glibc-link-refused "$(tail -n 5 "$out/glibc.log")"
fi
if make -s OUT="$out" "$prog" >"$out/musl.log" 2>&1 && grep -q 'static, musl' "$out/musl.log"; then
	pass musl-build-after-glibc
else
	fail musl-build-after-glibc "$(grep -v '^  CC' "$out/musl.log" | tail -n 5)"
fi
# and nothing is built a third time
make -s OUT="$out" "$prog" >"$out/again.log" 2>&1
if grep -q '  CC' "$out/again.log"; then
	fail no-rebuild-same-compiler "$(grep -c '  CC' "$out/again.log") files compiled again"
else
	pass no-rebuild-same-compiler
fi
finish
