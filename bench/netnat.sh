#!/bin/sh
# Benchmark: netnat against nft(8) doing the same work, inside a private network namespace.
#   1. apply 1 masquerade + N forwards (N = 1, 100, 1000) to an empty ruleset:
#      `netnat apply FILE` vs `nft -f FILE` holding the same table, sets, rules, elements;
#   2. one entry added / deleted while the table holds 1 masquerade + 1000 forwards:
#      `netnat forward add|del` vs `nft add|delete element`.
# Each run is one whole process (fork, exec, wait), timed on CLOCK_MONOTONIC by a small C
# runner; the two tools alternate run by run; the ruleset is reset, untimed, before each.
#   bench/netnat.sh [RUNS]      (default 200)
set -eu
. "$(dirname "$0")/lib.sh"
RUNS=${1:-200}
NETNAT=$TOP/out/bin/netnat
[ -x "$NETNAT" ] || { echo "bench: build it first: make out/bin/netnat" >&2; exit 1; }
command -v nft >/dev/null || { echo "bench: nft missing" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "bench: needs root (network namespaces)" >&2; exit 1; }

W=$(mktemp -d /tmp/netnat-bench.XXXXXX)
NS=netnat-bench-$$
cleanup() { ip netns del "$NS" 2>/dev/null || true; rm -rf "$W"; }
trap cleanup EXIT INT TERM
ip netns add "$NS"

# runner RUNS RESET_A CMD_A RESET_B CMD_B: alternately runs (untimed) the shell command
# RESET_x, then CMD_x (split at blanks, exec'd directly) timed; prints "A us" / "B us".
cat >"$W/runner.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static int run(char **argv)
{
	int status;
	pid_t pid = fork();
	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static char **split(char *s)
{
	static char *argv[64];
	int n = 0;
	for (char *t = strtok(s, " "); t && n < 63; t = strtok(NULL, " "))
		argv[n++] = t;
	argv[n] = NULL;
	return argv;
}

int main(int argc, char **argv)
{
	int runs = atoi(argv[1]);
	for (int i = 0; i < runs; i++) {
		for (int side = 0; side < 2; side++) {
			char *reset[] = { "/bin/sh", "-c", argv[2 + 2 * side], NULL };
			char cmd[4096];
			long long t0;
			snprintf(cmd, sizeof cmd, "%s", argv[3 + 2 * side]);
			if (run(reset) != 0) {
				fprintf(stderr, "reset failed: %s\n", argv[2 + 2 * side]);
				return 1;
			}
			t0 = now_us();
			if (run(split(cmd)) != 0) {
				fprintf(stderr, "command failed: %s\n", argv[3 + 2 * side]);
				return 1;
			}
			printf("%c %lld\n", side ? 'B' : 'A', now_us() - t0);
		}
	}
	return 0;
}
C
cc -O2 -o "$W/runner" "$W/runner.c"

# The same state in both languages: netnat's file, and nft's text for what netnat builds.
make_files() { # N
	n=$1
	{
		echo "masquerade 10.0.0.0/24"
		i=1
		while [ $i -le "$n" ]; do echo "forward tcp $((10000 + i)) 10.0.$((i / 250)).$((i % 250 + 1)):80"; i=$((i + 1)); done
	} >"$W/n$n.conf"
	{
		cat <<NFT
table ip ember_nat {
	set masq_saddr { type ipv4_addr; flags interval; elements = { 10.0.0.0/24 } }
	map fwd_port {
		type inet_proto . inet_service : ipv4_addr . inet_service
		elements = {
NFT
		i=1
		while [ $i -le "$n" ]; do
			echo "			tcp . $((10000 + i)) : 10.0.$((i / 250)).$((i % 250 + 1)) . 80,"
			i=$((i + 1))
		done
		cat <<'NFT'
		}
	}
	map fwd_addr_port { type ipv4_addr . inet_proto . inet_service : ipv4_addr . inet_service; }
	chain prerouting {
		type nat hook prerouting priority dstnat + 1; policy accept;
		dnat ip to ip daddr . meta l4proto . th dport map @fwd_addr_port
		fib daddr type local dnat ip to meta l4proto . th dport map @fwd_port
	}
	chain output {
		type nat hook output priority -99; policy accept;
		ip daddr != 127.0.0.0/8 oif "lo" dnat ip to ip daddr . meta l4proto . th dport map @fwd_addr_port
		ip daddr != 127.0.0.0/8 oif "lo" dnat ip to meta l4proto . th dport map @fwd_port
	}
	chain postrouting {
		type nat hook postrouting priority srcnat + 1; policy accept;
		ip saddr @masq_saddr masquerade
	}
}
NFT
	} >"$W/n$n.nft"
}

inns() { ip netns exec "$NS" "$@"; }
bench_pair() { # LABEL RESET_A CMD_A RESET_B CMD_B
	label=$1; shift
	inns "$W/runner" "$RUNS" "$@" >"$W/times"
	a=$(sed -n 's/^A //p' "$W/times" | median)
	b=$(sed -n 's/^B //p' "$W/times" | median)
	printf '  %-34s %9s %9s   %sx\n' "$label" "$a" "$b" "$(ratio "$b" "$a")"
}

printf '\nnetnat vs nft 1.0.6, median microseconds per process over %s runs (network namespace)\n' "$RUNS"
printf '  %-34s %9s %9s   %s\n' "" "netnat" "nft" "nft/netnat"
for n in 1 100 1000; do
	make_files $n
	# The two must produce the same ruleset, or the comparison means nothing.
	inns nft flush ruleset; inns "$NETNAT" apply "$W/n$n.conf"; inns nft list ruleset >"$W/a.txt"
	inns nft flush ruleset; inns nft -f "$W/n$n.nft"; inns nft list ruleset >"$W/b.txt"
	cmp -s "$W/a.txt" "$W/b.txt" || { echo "bench: rulesets differ for N=$n" >&2; diff "$W/a.txt" "$W/b.txt" | head >&2; exit 1; }
	bench_pair "apply 1 masquerade + $n forwards" \
		"nft flush ruleset" "$NETNAT apply $W/n$n.conf" \
		"nft flush ruleset" "nft -f $W/n$n.nft"
done

inns nft flush ruleset
inns "$NETNAT" apply "$W/n1000.conf"
# Before each timed add the entry is absent, before each timed delete present; the
# untimed resets use nft for both tools alike.
row() { # LABEL ADD_NETNAT DEL_NETNAT ADD_NFT DEL_NFT
	bench_pair "add $1 (1001 entries)" "$5 2>/dev/null; true" "$2" "$5 2>/dev/null; true" "$4"
	bench_pair "delete $1 (1001 entries)" "$4" "$3" "$4" "$5"
	inns sh -c "$5 2>/dev/null; true"
}
row "1 forward" "$NETNAT forward add tcp 60000 10.9.9.9:80" "$NETNAT forward del tcp 60000 10.9.9.9:80" \
	"nft add element ip ember_nat fwd_port { tcp . 60000 : 10.9.9.9 . 80 }" \
	"nft delete element ip ember_nat fwd_port { tcp . 60000 : 10.9.9.9 . 80 }"
row "1 masquerade" "$NETNAT masquerade add 10.200.0.0/16" "$NETNAT masquerade del 10.200.0.0/16" \
	"nft add element ip ember_nat masq_saddr { 10.200.0.0/16 }" \
	"nft delete element ip ember_nat masq_saddr { 10.200.0.0/16 }"
echo "  (deletions: both tools wait ~10-15 ms for an RCU grace period when their netlink socket"
echo "   closes; the kernel flushes nf_tables' release work then. See docs/netnat.md.)"
