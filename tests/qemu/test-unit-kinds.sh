#!/bin/sh
# Mount, device and slice units on the Debian kernel in one boot (issue 12, unit kinds):
# a distribution's tmp.mount pulled in by RequiresMountsFor=, a device present at boot,
# Slice= nesting on a real cgroup2, Delegate= to an unprivileged user (the delegatee
# builds its own tree; the same service without Delegate= is refused by the kernel), and
# [Slice] resource keys on the slices' own directories (a prefix drop-in's TasksMax=33%),
# written again at a daemon-reload that changes them, and a refused one logged once.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
img=$QEMU_WORK/unit-kinds.cpio
etc=$QEMU_WORK/unit-kinds-etc
mkdir -p "$etc"
printf 'root:x:0:0:root:/root:/bin/sh\nkinds:x:4242:4242:kinds:/:/bin/sh\n' >"$etc/passwd"
printf 'root:x:0:\nkinds:x:4242:\n' >"$etc/group"
qemu_image "$img" --dir "$TOP/tests/qemu/guest:/test" \
	--file "$etc/passwd:/etc/passwd" --file "$etc/group:/etc/group" \
	--file "$TOP/out/tests/helpers/fork-many:/test/fork-many" \
	--dir "$TOP/tests/qemu/services-kinds:/etc/ember/services"
qemu_test "$img" unit-kinds 180 unit-kinds.sh
# [Slice] resource keys are read, not ignored with a warning.
if grep -q 'unknown key in \[Slice\]' "$QEMU_WORK/unit-kinds.log"; then
	fail slice-keys-no-warning "$(grep 'unknown key in \[Slice\]' "$QEMU_WORK/unit-kinds.log" | head -n 2)"
else
	pass slice-keys-no-warning
fi
# A refused slice limit is logged once across refuse-once's three starts, naming the
# slice and the file (the guest made the refusal; each start got as far as its fork).
n=$(grep -c 'refuse-sub.slice: memory.max: no such file' "$QEMU_WORK/unit-kinds.log")
starts=$(grep -c 'refuse-once: fork' "$QEMU_WORK/unit-kinds.log")
if [ "$n" = 1 ] && [ "$starts" -ge 3 ]; then
	pass refused-slice-limit-logged-once
else
	fail refused-slice-limit-logged-once "$n lines, $starts starts: $(grep 'refuse-sub.slice:' "$QEMU_WORK/unit-kinds.log" | head -n 4)"
fi
finish
