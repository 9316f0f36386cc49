#!/bin/sh
# scripts/link-lib.sh, asked for a static musl program (LIB_STATIC=1 or SYSROOT), refuses
# one that is not: a glibc compiler, a dlopen call, and a global name ember's library
# shares with a linked library each fail the link and leave no program behind. A clean
# link of the same objects passes, so each refusal is for its own reason. Last: no global
# of ember's library is defined by any library of the musl sysroot (scripts/sysroot.sh).
. "$(dirname "$0")/../lib.sh"
MUSL_CC=$(command -v musl-gcc 2>/dev/null || echo cc)
own=$TOP/out/libember-musl.a
[ -f "$own" ] || { fail setup "$own missing (make all)"; finish; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A library that defines one of libember's exported names, as tpm2-tss's TCTIs once
# defined write_all.
name=$(nm -g --defined-only "$own" | awk 'NF == 3 && $2 == "T" { print $3; exit }')
printf 'int %s(void) { return 0; }\nint clash_other(void) { return 1; }\n' "$name" >"$work/clash.c"
$MUSL_CC -c -o "$work/clash.o" "$work/clash.c" && ar rcs "$work/libclash.a" "$work/clash.o"
printf 'int main(void) { return 0; }\n' >"$work/main.c"
printf '#include <dlfcn.h>\nint main(void) { return dlopen("x.so", RTLD_NOW) != 0; }\n' >"$work/dl.c"
$MUSL_CC -c -o "$work/main.o" "$work/main.c"
$MUSL_CC -c -o "$work/dl.o" "$work/dl.c"

# link NAME CC EXTRA-LIBS OBJECT: link-lib.sh's exit status; its messages in $work/NAME.log
link() {
	CC=$2 LIB_STATIC=1 "$TOP"/scripts/link-lib.sh "$work/$1" "" "$3" "$4" "$own" >"$work/$1.log" 2>&1
}

if link clean "$MUSL_CC" "" "$work/main.o" && grep -q 'static, musl' "$work/clean.log"; then
	pass clean-link-passes
else
	fail clean-link-passes "$(cat "$work/clean.log")"
fi

refused() { # refused NAME PATTERN: the link failed, said why, and left nothing behind
	if [ -e "$work/$1" ]; then
		fail "$1-refused" "link-lib.sh left $work/$1 behind: $(cat "$work/$1.log")"
	elif ! grep -q "$2" "$work/$1.log"; then
		fail "$1-refused" "no '$2' in: $(cat "$work/$1.log")"
	else
		pass "$1-refused"
	fi
}
link clash "$MUSL_CC" "-L$work -lclash" "$work/main.o" && fail clash-refused "linked" || refused clash "both define: $name"
link dlopen "$MUSL_CC" "" "$work/dl.o" && fail dlopen-refused "linked" || refused dlopen "calls dlopen"
if [ "$MUSL_CC" != cc ]; then
	link glibc gcc "" "$work/main.o" && fail glibc-refused "linked" || refused glibc "against glibc"
else
	skip glibc-refused "the system cc is the musl one (Alpine)"
fi

# Every library the sysroot holds, whether a program links it today or not.
if sysroot=$("$TOP"/scripts/sysroot.sh --dir 2>/dev/null) && [ -f "$sysroot/.complete" ]; then
	libc=$(printf 'int main(void){return 0;}\n' | $MUSL_CC -static -x c -o /dev/null - -Wl,-t 2>/dev/null | grep '/libc\.a$' | head -n 1)
	# shellcheck disable=SC2046
	check sysroot-names-disjoint "$TOP"/scripts/symbol-check.sh ember "$own" $(ls "$sysroot"/usr/lib/*.a) $libc
else
	skip sysroot-names-disjoint "no musl sysroot built (make static)"
fi
finish
