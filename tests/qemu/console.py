#!/usr/bin/env python3
"""Drive a QEMU serial console: run a command, wait for patterns, type lines.

  console.py --log FILE --timeout SECONDS [--expect REGEX | --send TEXT]... -- CMD...

Steps run in order; --send types TEXT plus a newline once the previous --expect matched.
Exits with the command's exit status, 124 on timeout (the command is killed), or 125 if
the command ended before an --expect matched. The whole console goes to --log.
"""
import os
import re
import subprocess
import sys
import time


def parse(argv):
    opts = {"log": None, "timeout": 120.0, "steps": []}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            return opts, argv[i + 1:]
        if a in ("--log", "--timeout", "--expect", "--send"):
            v = argv[i + 1]
            if a == "--log":
                opts["log"] = v
            elif a == "--timeout":
                opts["timeout"] = float(v)
            else:
                opts["steps"].append((a[2:], v))
            i += 2
            continue
        sys.exit(f"console.py: unknown argument {a}")
    sys.exit("console.py: missing -- CMD")


def main():
    opts, cmd = parse(sys.argv[1:])
    log = open(opts["log"], "wb") if opts["log"] else open(os.devnull, "wb")
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, bufsize=0)
    os.set_blocking(proc.stdout.fileno(), False)
    deadline = time.monotonic() + opts["timeout"]
    seen = b""
    steps = list(opts["steps"])
    while True:
        while steps and steps[0][0] == "send":
            proc.stdin.write(steps.pop(0)[1].encode() + b"\n")
            proc.stdin.flush()
        try:
            chunk = proc.stdout.read(65536)
        except BlockingIOError:
            chunk = None
        if chunk:
            log.write(chunk)
            log.flush()
            seen += chunk
            if steps and re.search(steps[0][1].encode(), seen):
                steps.pop(0)
                seen = b""
            continue
        if chunk == b"" or proc.poll() is not None:
            rest = proc.stdout.read() or b""
            log.write(rest)
            rc = proc.wait()
            return 125 if steps else rc
        if time.monotonic() > deadline:
            proc.kill()
            proc.wait()
            log.write(b"\n[console.py: timed out]\n")
            return 124
        time.sleep(0.02)


if __name__ == "__main__":
    sys.exit(main())
