#!/bin/sh
# Benchmark: one boot-phase measurement as a whole process, against the same swtpm:
#   boot-measure phase WORD        (GetCapability + PCR_Event + log append under lock)
#   tpm2_pcrextend 16:sha256=...   (tpm2-tools: tctildr + ESYS, one bank, no log)
#   bare round trip                (a minimal tss2-sys process: connect, one PCR_Event, exit)
# and the bare TPM round trip inside one process. Prints medians and ratios.
#   bench/boot-measure.sh [RUNS]     (default 300)
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BM=$TOP/out/bin/boot-measure
RUNS=${1:-300}
[ -x "$BM" ] || { echo "bench: build it first: make out/bin/boot-measure" >&2; exit 1; }

WORK=$(mktemp -d /tmp/boot-measure-bench.XXXXXX)
# The log on tmpfs, as /run is on a real system.
LOGDIR=$(mktemp -d /dev/shm/boot-measure-bench.XXXXXX)
LOG=$LOGDIR/m.log
SWTPM_PID=
cleanup() {
	[ -z "$SWTPM_PID" ] || kill "$SWTPM_PID" 2>/dev/null || true
	rm -rf "$WORK" "$LOGDIR"
}
trap cleanup EXIT INT TERM

# The bare round trip: what any measurement needs at least, with the same libraries.
cat >"$WORK/bare.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tss2/tss2_sys.h>
#include <tss2/tss2_tcti_swtpm.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	size_t tsize = 0, ssize = Tss2_Sys_GetContextSize(0);
	TSS2_ABI_VERSION abi = TSS2_ABI_VERSION_CURRENT;
	TSS2L_SYS_AUTH_COMMAND auths = { .count = 1 };
	TPM2B_EVENT ev = { .size = 5, .buffer = "bench" };
	TPML_DIGEST_VALUES out;
	int loops = argc > 2 ? atoi(argv[2]) : 1;
	double *t = calloc(loops, sizeof *t);
	Tss2_Tcti_Swtpm_Init(NULL, &tsize, NULL);
	TSS2_TCTI_CONTEXT *tcti = calloc(1, tsize);
	TSS2_SYS_CONTEXT *sys = calloc(1, ssize);
	if (Tss2_Tcti_Swtpm_Init(tcti, &tsize, argv[1]) || Tss2_Sys_Initialize(sys, ssize, tcti, &abi))
		return 1;
	auths.auths[0].sessionHandle = TPM2_RS_PW;
	for (int i = 0; i < loops; i++) {
		double t0 = now();
		if (Tss2_Sys_PCR_Event(sys, 16, &auths, &ev, &out, NULL))
			return 1;
		t[i] = now() - t0;
	}
	if (loops > 1) {
		qsort(t, loops, sizeof *t, cmp);
		printf("%.1f\n", t[loops / 2] * 1e6);
	}
	return 0;
}
C
cc -O2 -o "$WORK/bare" "$WORK/bare.c" $(pkg-config --cflags --libs tss2-sys tss2-tcti-swtpm)

# Two consecutive free ports: swtpm's data and control channels.
port=$(python3 -c '
import random, socket
while True:
    p = random.randrange(20000, 60000, 2)
    try:
        for q in (p, p + 1):
            socket.socket().bind(("127.0.0.1", q))
        print(p)
        break
    except OSError:
        pass')
mkdir -p "$WORK/tpm"
swtpm socket --tpm2 --server type=tcp,port=$port --ctrl type=tcp,port=$((port + 1)) \
	--tpmstate dir="$WORK/tpm" --flags not-need-init,startup-clear --pid file="$WORK/tpm/pid" -d
SWTPM_PID=$(cat "$WORK/tpm/pid")
CONF="host=127.0.0.1,port=$port"
TCTI="swtpm:$CONF"
"$BM" --tcti "$TCTI" --log "$LOG" status | sed 's/^/  /'

python3 - "$RUNS" "$BM" "$TCTI" "$LOG" "$WORK/bare" "$CONF" <<'PY'
import os, statistics, sys, time
runs, bm, tcti, log, bare, conf = int(sys.argv[1]), *sys.argv[2:]
zero = "0" * 64
cmds = {
    "boot-measure phase": [bm, "--tcti", tcti, "--log", log, "phase", "bench"],
    "tpm2_pcrextend": ["/usr/bin/tpm2_pcrextend", "-T", tcti, "16:sha256=" + zero],
    "bare round trip (process)": [bare, conf],
}
devnull = os.open(os.devnull, os.O_WRONLY)
times = {k: [] for k in cmds}
for _ in range(runs):
    for name, argv in cmds.items():   # interleaved, so drift hits all alike
        t0 = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, os.environ,
                             file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
        _, status = os.waitpid(pid, 0)
        times[name].append(time.perf_counter() - t0)
        if status != 0:
            sys.exit(f"bench: {name} failed (status {status})")
med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
in_proc = float(os.popen(f"{bare} {conf} 1000").read()) / 1e3
base = med["bare round trip (process)"]
print(f"  {runs} runs each, medians (ms):")
for name, m in med.items():
    print(f"  {name:28s} {m:7.3f}   {m / base:5.2f}x bare process")
print(f"  {'bare round trip (in-process)':28s} {in_proc:7.3f}")
print(f"  boot-measure / tpm2_pcrextend: {med['boot-measure phase'] / med['tpm2_pcrextend']:.2f}x")
print(f"  goal: boot-measure within 1.5x of the bare round-trip process: "
      f"{'met' if med['boot-measure phase'] <= 1.5 * base else 'NOT met'}")
PY
