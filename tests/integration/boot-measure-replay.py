#!/usr/bin/env python3
"""Independent check of boot-measure's log against a TPM, for the integration tests.

    boot-measure-replay.py LOG TCTI [FILE...]

Replays LOG (RFC 7464 JSON-SEQ, one CEL-JSON record per measurement) with Python's
hashlib for every active bank, reads the PCRs with tpm2-tools, and compares. Also
re-hashes each record's content.string, and the FILEs measured by "file" records.
Prints one line and exits 0 when everything agrees, 1 otherwise."""
import hashlib
import json
import os
import re
import subprocess
import sys

NAMES = {"sha1": 20, "sha256": 32, "sha384": 48, "sha512": 64}


def tpm2(tcti, *args):
    env = dict(os.environ, TPM2TOOLS_TCTI=tcti)
    return subprocess.run(args, env=env, check=True, capture_output=True, text=True).stdout


def active_banks(tcti):
    banks = []
    for line in tpm2(tcti, "tpm2_getcap", "pcrs").splitlines():
        m = re.match(r"\s*-\s*(\w+)\s*:\s*\[(.*)\]", line)
        if m and m.group(2).strip():
            banks.append(m.group(1))
    return banks


def pcr_values(tcti):
    values, bank = {}, None
    for line in tpm2(tcti, "tpm2_pcrread").splitlines():
        m = re.match(r"\s*(\w+):\s*$", line)
        if m:
            bank = m.group(1)
            continue
        m = re.match(r"\s*(\d+)\s*:\s*0x([0-9A-Fa-f]+)", line)
        if m and bank:
            values[(bank, int(m.group(1)))] = bytes.fromhex(m.group(2))
    return values


def records(path):
    data = open(path, "rb").read()
    if data and not data.endswith(b"\n"):
        raise SystemExit("log does not end in a newline")
    out = []
    for chunk in data.split(b"\x1e")[1:]:
        out.append(json.loads(chunk.decode("utf-8")))
    return out


def main():
    log, tcti, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    banks = active_banks(tcti)
    recs = records(log)
    expected = {}
    for n, rec in enumerate(recs, 1):
        digests = {d["hashAlg"]: bytes.fromhex(d["digest"]) for d in rec["digests"]}
        content = rec["content"]
        if content["eventType"] == "file":
            data = open(content["path"], "rb").read() if content["path"] in files else None
        else:
            data = content["string"].encode("utf-8")
        for bank in banks:
            if bank not in digests:
                print(f"record {n}: no {bank} digest")
                return 1
            if data is not None and hashlib.new(bank, data).digest() != digests[bank]:
                print(f"record {n}: {bank} digest is not the hash of its content")
                return 1
            key = (bank, rec["pcr"])
            old = expected.get(key, bytes(NAMES[bank]))
            expected[key] = hashlib.new(bank, old + digests[bank]).digest()
    actual = pcr_values(tcti)
    for (bank, pcr), value in sorted(expected.items()):
        if actual.get((bank, pcr)) != value:
            print(f"PCR {pcr} bank {bank}: recomputed {value.hex()}, TPM has "
                  f"{actual.get((bank, pcr), b'').hex()}")
            return 1
    pcrs = sorted({p for _, p in expected})
    print(f"ok: {len(recs)} records, banks {' '.join(banks)}, PCRs {pcrs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
