#!/bin/sh
# A service of tests/qemu/test-unit-kinds.sh (uid 4242): with Delegate=, it makes a leaf,
# moves itself there and enables the memory controller for its own tree; without, the
# kernel refuses the first step.
cg=/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/self/cgroup)
if ! mkdir "$cg/leaf" 2>/dev/null; then
	echo "$1-refused"
elif echo $$ >"$cg/leaf/cgroup.procs" && echo +memory >"$cg/cgroup.subtree_control"; then
	echo "$1-managed-own-tree"
else
	echo "$1-failed-in-own-tree"
fi
exec sleep 1000
