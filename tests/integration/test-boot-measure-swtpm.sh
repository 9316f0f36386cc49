#!/usr/bin/env bash
# boot-measure against swtpm over its socket TCTI: every command; PCRs equal an
# independent recomputation of the log (Python hashlib, tpm2-tools); verify catches
# tampered, deleted and unlogged measurements; concurrent writers serialise; TPM 1.2
# is refused; no TPM means exit 2 and "nothing measured".
. "$(dirname "$0")/../lib.sh"
BM=$BIN/boot-measure
REPLAY=$TOP/tests/integration/boot-measure-replay.py

[ -x "$BM" ] || { skip boot-measure "not built (make out/bin/boot-measure)"; finish; }
for tool in swtpm tpm2_pcrread tpm2_pcrextend tpm2_getcap python3; do
	command -v $tool >/dev/null || { fail boot-measure "$tool missing (scripts/deps.sh installs it)"; finish; }
done

WORK=$(mktemp -d /tmp/boot-measure-test.XXXXXX)
SWTPM_PIDS=()
cleanup() {
	for pid in "${SWTPM_PIDS[@]}"; do kill "$pid" 2>/dev/null; done
	for pid in "${SWTPM_PIDS[@]}"; do while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done; done
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# Two consecutive free TCP ports (data, control); prints the first.
free_ports() {
	python3 - <<'PY'
import random, socket
while True:
    p = random.randrange(20000, 60000, 2)
    try:
        socks = []
        for q in (p, p + 1):
            s = socket.socket(); s.bind(("127.0.0.1", q)); socks.append(s)
        print(p)
        break
    except OSError:
        pass
    finally:
        for s in socks: s.close()
PY
}

# accepting PORT: true once something accepts TCP connections on PORT (waits up to ~5 s).
accepting() {
	for _ in $(seq 100); do
		python3 -c "import socket; socket.create_connection(('127.0.0.1', $1)).close()" \
			2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# start_swtpm NAME [swtpm flags...]: a fresh swtpm on free ports (another test may take
# the ports between the check and the bind: then try new ones); sets TCTI_<NAME>.
start_swtpm() {
	local name=$1 port dir pid attempt
	shift
	dir=$WORK/tpm-$name
	for attempt in 1 2 3 4 5; do
		port=$(free_ports)
		rm -rf "$dir"
		mkdir -p "$dir"
		swtpm socket "$@" --server type=tcp,port=$port --ctrl type=tcp,port=$((port + 1)) \
			--tpmstate dir="$dir" --pid file="$dir/pid" --log file="$dir/log" -d || continue
		pid=$(cat "$dir/pid")
		SWTPM_PIDS+=("$pid")
		if accepting "$port"; then
			printf -v "TCTI_$name" 'swtpm:host=127.0.0.1,port=%s' "$port"
			return 0
		fi
		kill "$pid" 2>/dev/null
	done
	return 1
}

start_swtpm main --tpm2 --flags not-need-init,startup-clear || { fail swtpm "cannot start"; finish; }
T=$TCTI_main
LOG=$WORK/run/log/ember/tpm2-measure.log
export EMBER_MEASURE_LOG=$LOG
bm() { "$BM" --tcti "$T" "$@"; }

# ---- every command ---------------------------------------------------------------------
out=$(bm status)
banks=$(TPM2TOOLS_TCTI=$T tpm2_getcap pcrs | sed -n 's/^ *- *\([a-z0-9_]*\): *\[ *[0-9].*/\1/p' | tr '\n' ' ')
if [[ $out == *"tpm: 2.0"* && $out == *"banks: ${banks% }"* ]]; then pass status_names_version_and_banks
else fail status_names_version_and_banks "got '$out', tpm2_getcap banks '$banks'"; fi

head -c 3000 /dev/urandom >"$WORK/big.bin"     # > 1024 bytes: a TPM event sequence
printf 'small file\n' >"$WORK/small.bin"        # one PCR_Event
echo 0123456789abcdef0123456789abcdef >"$WORK/machine-id"
check phase_enter_initrd bm phase enter-initrd
check phase_sysinit bm phase sysinit
check extend_string bm extend --pcr 12 --string 'hello "world" é'
check extend_small_file bm extend --pcr 12 --file "$WORK/small.bin"
check extend_large_file bm extend --pcr 13 --file "$WORK/big.bin"
check machine_id bm machine-id --file "$WORK/machine-id"
check phase_ready bm phase ready

n=$(grep -c $'^\x1e' "$LOG")
[ "$n" -eq 7 ] && pass log_has_one_record_per_measurement || fail log_has_one_record_per_measurement "$n records"
mode=$(stat -c %a "$LOG")
[ "$mode" = 600 ] && pass log_is_0600_and_not_marked || fail log_is_0600_and_not_marked "mode $mode"

out=$(bm log)
if [[ $(echo "$out" | wc -l) -eq 8 && $out == *"machine-id:0123456789abcdef0123456789abcdef"* && $out == *"big.bin (3000 bytes)"* ]]; then
	pass log_prints_table; else fail log_prints_table "$out"; fi
if bm log --json | python3 -c '
import json, sys
recs = json.load(sys.stdin)
assert [r["recnum"] for r in recs] == list(range(1, 8)), recs
assert recs[1]["pcr"] == 11 and recs[1]["content"]["string"] == "sysinit"
assert recs[5]["content"]["string"] == "machine-id:0123456789abcdef0123456789abcdef"
assert recs[5]["pcr"] == 15 and recs[5]["content_type"] == "ember"'; then
	pass log_json_is_cel_with_recnum; else fail log_json_is_cel_with_recnum "see above"; fi

check pcrs_equal_independent_recomputation python3 "$REPLAY" "$LOG" "$T" "$WORK/big.bin" "$WORK/small.bin"

out=$(bm verify); rc=$?
[[ $rc -eq 0 && $out == match:* ]] && pass verify_matches || fail verify_matches "rc $rc: $out"

# ---- verify catches what it must ------------------------------------------------------
# expect_exit NAME CODE PATTERN CMD...: exit code CODE and output matching PATTERN.
expect_exit() {
	local name=$1 code=$2 pattern=$3 out rc
	shift 3
	out=$("$@" 2>&1); rc=$?
	if [[ $rc -eq $code && $out == $pattern ]]; then pass "$name"
	else fail "$name" "rc $rc (want $code): $(echo "$out" | head -n 3 | tr '\n' ' ')"; fi
}

cp "$LOG" "$WORK/tampered.log"
python3 - "$WORK/tampered.log" <<'PY'
import sys
p = sys.argv[1]; recs = open(p, "rb").read().split(b"\x1e")
recs[2] = recs[2].replace(b'"sysinit"', b'"sysinix"')   # the second record's content
open(p, "wb").write(b"\x1e".join(recs))
PY
expect_exit verify_detects_tampered_content 1 "*record 2 (PCR 11): content does not match its sha1 digest*" \
	bm --log "$WORK/tampered.log" verify

cp "$LOG" "$WORK/tampered-digest.log"
python3 - "$WORK/tampered-digest.log" <<'PY'
import json, sys
p = sys.argv[1]; recs = open(p, "rb").read().split(b"\x1e")
r = json.loads(recs[4]); d = r["digests"][1]                 # record 4 (small file), sha256
d["digest"] = ("0" if d["digest"][0] != "0" else "1") + d["digest"][1:]
recs[4] = json.dumps(r, separators=(",", ":")).encode() + b"\n"
open(p, "wb").write(b"\x1e".join(recs))
PY
expect_exit verify_detects_tampered_digest 1 "*mismatch: PCR 12 bank sha256:*" \
	bm --log "$WORK/tampered-digest.log" verify

python3 - "$LOG" "$WORK/deleted.log" <<'PY'
import sys
recs = open(sys.argv[1], "rb").read().split(b"\x1e")
del recs[1]                                                  # enter-initrd
open(sys.argv[2], "wb").write(b"\x1e".join(recs))
PY
expect_exit verify_detects_deleted_record 1 "*mismatch: PCR 11 bank sha1:*" \
	bm --log "$WORK/deleted.log" verify

head -c -1 "$LOG" >"$WORK/truncated.log"
expect_exit verify_refuses_truncated_log 5 "*record 7: truncated*" bm --log "$WORK/truncated.log" verify
expect_exit log_refuses_truncated_log 5 "*record 7: truncated*" bm --log "$WORK/truncated.log" log --json

cp "$LOG" "$WORK/incomplete.log"; chmod 1600 "$WORK/incomplete.log"
expect_exit verify_reports_interrupted_measurement 5 "*marked incomplete*" bm --log "$WORK/incomplete.log" verify

TPM2TOOLS_TCTI=$T tpm2_pcrextend "11:sha256=$(printf '%064d' 0)" >/dev/null 2>&1
expect_exit verify_detects_out_of_band_extend 1 "*mismatch: PCR 11 bank sha256:*" bm verify

# ---- bad input changes nothing ---------------------------------------------------------
before=$(md5sum <"$LOG")
expect_exit rejects_bad_phase_word 100 "*not a phase word*" bm phase 'two words'
expect_exit rejects_pcr_out_of_range 100 "*--pcr 24*" bm extend --pcr 24 --string x
expect_exit rejects_long_string 100 "*longer than 1024*" bm extend --pcr 12 --string "$(head -c 1025 /dev/zero | tr '\0' a)"
expect_exit rejects_string_and_file 100 "*one of --string*" bm extend --pcr 12 --string a --file "$WORK/small.bin"
expect_exit rejects_unknown_command 100 "*unknown command*" bm frobnicate
expect_exit rejects_bad_machine_id 100 "*not a machine ID*" bm machine-id --file "$WORK/small.bin"
expect_exit rejects_directory_as_file 100 "*not a regular file*" bm extend --pcr 12 --file "$WORK"
expect_exit rejects_non_utf8_string 100 "*not valid UTF-8*" bm extend --pcr 12 --string $'\xff'
[ "$(md5sum <"$LOG")" = "$before" ] && pass bad_input_leaves_log_alone || fail bad_input_leaves_log_alone "log changed"

# ---- an interrupted writer's mark survives -------------------------------------------
cp "$LOG" "$WORK/marked.log"; chmod 1600 "$WORK/marked.log"
out=$(bm --log "$WORK/marked.log" phase after-crash 2>&1); rc=$?
mode=$(stat -c %a "$WORK/marked.log")
if [[ $rc -eq 0 && $out == *"stays marked incomplete"* && $mode == 1600 ]]; then
	pass later_writer_keeps_incomplete_mark; else fail later_writer_keeps_incomplete_mark "rc $rc mode $mode: $out"; fi
check empty_string_measures bm extend --pcr 16 --string ''

# ---- concurrent writers ------------------------------------------------------------------
start_swtpm conc --tpm2 --flags not-need-init,startup-clear || fail swtpm "cannot start"
CLOG=$WORK/conc/m.log
pids=()
for i in $(seq 12); do
	"$BM" --tcti "$TCTI_conc" --log "$CLOG" phase "phase-$i" &
	pids+=($!)
done
bad=0
for pid in "${pids[@]}"; do wait "$pid" || bad=$((bad + 1)); done
[ $bad -eq 0 ] && pass concurrent_phases_all_succeed || fail concurrent_phases_all_succeed "$bad failed"
n=$(grep -c $'^\x1e' "$CLOG")
words=$(EMBER_MEASURE_LOG=$CLOG "$BM" log --json | python3 -c 'import json,sys; print(len({r["content"]["string"] for r in json.load(sys.stdin)}))')
[[ $n -eq 12 && $words -eq 12 ]] && pass concurrent_log_has_every_record_once || fail concurrent_log_has_every_record_once "$n records, $words words"
check concurrent_log_replays python3 "$REPLAY" "$CLOG" "$TCTI_conc"
check concurrent_log_verifies "$BM" --tcti "$TCTI_conc" --log "$CLOG" verify

# ---- a TPM nobody started yet -----------------------------------------------------------
start_swtpm cold --tpm2 --flags not-need-init || fail swtpm "cannot start"
check sends_startup_when_needed "$BM" --tcti "$TCTI_cold" --log "$WORK/cold.log" phase sysinit
check cold_tpm_verifies "$BM" --tcti "$TCTI_cold" --log "$WORK/cold.log" verify

# ---- TPM 1.2 and no TPM ------------------------------------------------------------------
start_swtpm v12 --flags not-need-init,startup-clear || fail swtpm "cannot start"
expect_exit refuses_tpm_1_2 3 "*TPM 1.2*TPM 2.0 only: nothing measured" \
	"$BM" --tcti "$TCTI_v12" --log "$WORK/v12.log" phase sysinit
[ ! -s "$WORK/v12.log" ] && pass tpm_1_2_logs_nothing || fail tpm_1_2_logs_nothing "log written"
expect_exit status_names_tpm_1_2 3 "*tpm: 1.2 (not supported)*" "$BM" --tcti "$TCTI_v12" status

out=$("$BM" --tcti device:/nonexistent/tpmrm0 --log "$WORK/none/m.log" phase sysinit 2>&1); rc=$?
if [[ $rc -eq 2 && $(echo "$out" | wc -l) -eq 1 && $out == *"nothing measured"* && ! -e $WORK/none ]]; then
	pass no_device_exits_2_nothing_measured; else fail no_device_exits_2_nothing_measured "rc $rc: $out"; fi
port=$(free_ports)
expect_exit no_swtpm_exits_2 2 "*nothing measured" "$BM" --tcti "swtpm:host=127.0.0.1,port=$port" \
	--log "$WORK/none2.log" phase sysinit
expect_exit status_without_tpm_exits_2 2 "*tpm: absent*" "$BM" --tcti device:/nonexistent/tpmrm0 status

finish
