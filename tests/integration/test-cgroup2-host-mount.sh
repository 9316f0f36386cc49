#!/bin/sh
# ember's cgroup2 mount code on the host kernel, which (unlike the 6.1 guest) supports
# memory_hugetlb_accounting. cgroup2 options are superblock-wide: mounting cgroup2 with
# ember's options in the initial cgroup namespace changes them for the whole host, even
# from a private mount namespace. The test records the host's options, mounts in a
# private mount namespace, checks, then remounts with the recorded options and checks
# that the host ends exactly as it started.
. "$(dirname "$0")/../lib.sh"
HELPER=$HELPERS/cg2-mount

host_cg2_line() { awk '$0 ~ / - cgroup2 / {print; exit}' /proc/self/mountinfo; }
super_opts() { sed 's/.* - cgroup2 [^ ]* //' ; }

before=$(host_cg2_line)
if [ -z "$before" ]; then
	skip cgroup2-host-mount "the host has no cgroup2 mount whose options could be restored"
	finish
fi
orig=$(printf '%s\n' "$before" | super_opts)
# Remount options: the recorded superblock options without rw/ro.
restore=$(printf '%s' "$orig" | tr ',' '\n' | grep -v -x -e rw -e ro | paste -sd, -)

out=$(unshare --mount --propagation private sh -c '
	d=$(mktemp -d)
	"$1" "$d"; rc=$?
	awk -v d="$d" '"'"'$5 == d && / - cgroup2 / {sub(/.* - cgroup2 [^ ]* /, ""); print "kernel-options=" $0}'"'"' /proc/self/mountinfo
	mount -t cgroup2 -o "remount,$2" cgroup2 "$d"
	umount "$d"; rmdir "$d"
	exit $rc' sh "$HELPER" "$restore" 2>&1)
rc=$?
after=$(host_cg2_line | super_opts)

[ $rc = 0 ] && pass mounts-cgroup2 || fail mounts-cgroup2 "$out"
features=$(cat /sys/kernel/cgroup/features 2>/dev/null)
for opt in nsdelegate memory_recursiveprot memory_hugetlb_accounting; do
	case " $(echo $features) " in
	*" $opt "*)
		case "$out" in *options=*"$opt"*) pass "applies-$opt" ;; *) fail "applies-$opt" "$out" ;; esac
		# What the kernel shows for the new mount, not only what ember reports.
		kernel=$(printf '%s\n' "$out" | sed -n 's/^kernel-options=//p')
		case ",$kernel," in *",$opt,"*) pass "kernel-has-$opt" ;; *) fail "kernel-has-$opt" "$out" ;; esac ;;
	*)
		case "$out" in *probed-missing=*"$opt"*) pass "reports-missing-$opt" ;; *) fail "reports-missing-$opt" "$out" ;; esac ;;
	esac
done
[ "$after" = "$orig" ] && pass host-options-unchanged || fail host-options-unchanged "before '$orig', after '$after'"
finish
