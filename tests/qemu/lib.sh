# Helpers for QEMU boot tests (source after tests/lib.sh).
#
#   qemu_image IMG [mkinitramfs options...]
#       Build an initramfs (see scripts/mkinitramfs.sh: --modules, --file SRC:DST,
#       --dir SRC:DST, --init ember|busybox).
#   qemu_run IMG LOG TIMEOUT "KERNEL ARGS" [QEMU ARGS...]
#       Boot it. Sets QEMU_RC (QEMU's exit status, 124 on timeout) and GUEST_STATUS
#       (the ember.run command's exit status from the console line EMBER-RUN-EXIT=N,
#       or empty). The console goes to LOG, which tests/run keeps on failure.
#   qemu_test IMG NAME TIMEOUT GUEST_SCRIPT [KERNEL ARGS] [QEMU ARGS...]
#       Put GUEST_SCRIPT into IMG's directory set, boot with ember.run=, relay the guest's
#       "EMBER-TEST PASS|FAIL|SKIP ..." lines as this test's results, and add cases for a
#       clean run: the guest status is 0, QEMU exited by itself and no kernel panic.
#   relay_guest_results LOG
#   console_lines LOG, guest_status LOG
#       The console's lines with kernel messages taken out of the guest's lines; the
#       EMBER-RUN-EXIT=N status.
#
# Guest scripts report with: echo "EMBER-TEST PASS name" / "EMBER-TEST FAIL name: why".
QEMU_DIR=$TOP/tests/qemu
QEMU_WORK=${QEMU_WORK:-$TOP/out/qemu}
mkdir -p "$QEMU_WORK"

qemu_image() {
	img=$1; shift
	"$TOP"/scripts/mkinitramfs.sh "$img" "$@"
}

qemu_run() {
	img=$1 log=$2 tmo=$3 append=$4; shift 4
	timeout -k 5 "$tmo" "$TOP"/scripts/qemu-boot.sh "$img" "$append" -- "$@" </dev/null >"$log" 2>&1
	QEMU_RC=$?
	GUEST_STATUS=$(guest_status "$log")
}

# The console's lines with the guest's own put back together: a kernel message (ember-init
# logs through /dev/kmsg too) printed while the guest had written part of a line lands in
# the middle of it, "EMBER-TEST FA[   12.345678] msg" then "IL name: why", and the result
# was lost. The message goes on its own line; the part before it is joined to the line
# after it (unless that one is a result line of its own).
console_lines() {
	awk '
	{
		gsub(/\r/, "")
		if (match($0, /\[ *[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]\] /)) {
			if (RSTART > 1)
				carry = carry substr($0, 1, RSTART - 1)
			print substr($0, RSTART)
			next
		}
		line = $0
		if (carry != "") {
			if (line ~ /^EMBER-(TEST|RUN-EXIT)/)
				print carry
			else
				line = carry line
			carry = ""
		}
		print line
	}
	END { if (carry != "") print carry }' "$1"
}

# The ember.run command's exit status from its EMBER-RUN-EXIT=N line, or empty.
guest_status() {
	console_lines "$1" | sed -n 's/^EMBER-RUN-EXIT=\([0-9]*\)$/\1/p' | tail -n 1
}

relay_guest_results() {
	console_lines "$1" | sed -n 's/^.*EMBER-TEST \(PASS\|FAIL\|SKIP\) /\1 /p' | while read -r line; do
		echo "$line"
		case $line in FAIL*) echo guest-failed >>"$1.failed" ;; esac
	done
	[ ! -e "$1.failed" ] || { rm -f "$1.failed"; FAILED=1; }
}

# The guest ran to completion and powered off by itself, reporting status 0.
check_clean_run() {
	name=$1 log=$2
	if [ "$QEMU_RC" = 124 ]; then
		fail "$name-completes" "QEMU timed out; console log: $log"
	elif grep -q 'Kernel panic' "$log"; then
		fail "$name-no-panic" "kernel panic; console log: $log"
	elif [ "$GUEST_STATUS" != 0 ]; then
		fail "$name-guest-status" "guest test exited '${GUEST_STATUS:-none}'; console log: $log"
	elif [ "$QEMU_RC" != 1 ]; then
		# isa-debug-exit reports status s as QEMU exit code 2*s+1: status 0 -> 1.
		fail "$name-debug-exit" "QEMU exit code $QEMU_RC, expected 1; console log: $log"
	else
		pass "$name-powers-off-cleanly"
	fi
}

qemu_test() {
	img=$1 name=$2 tmo=$3 script=$4 append=${5:-}
	shift 4; [ $# -gt 0 ] && shift
	log=$QEMU_WORK/$name.log
	qemu_run "$img" "$log" "$tmo" "ember.run=/test/$(basename "$script") $append" "$@"
	relay_guest_results "$log"
	check_clean_run "$name" "$log"
	if [ "$FAILED" != 0 ]; then
		mkdir -p "$TOP/out/test-logs"
		cp "$log" "$TOP/out/test-logs/qemu-console-$name.log"
		echo "console log kept: out/test-logs/qemu-console-$name.log"
	fi
}
