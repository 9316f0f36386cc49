"""Print the journal's entries whose MESSAGE contains argv[1], one per line, as
FIELD=value pairs the test greps (journalctl -o json)."""
import json, subprocess, sys

out = subprocess.run(["journalctl", "--no-pager", "-o", "json"], capture_output=True,
                     text=True).stdout
for line in out.splitlines():
    e = json.loads(line)
    msg = e.get("MESSAGE")
    if isinstance(msg, str) and sys.argv[1] in msg:
        keys = ("MESSAGE", "SYSLOG_IDENTIFIER", "PRIORITY", "SYSLOG_FACILITY", "_PID",
                "_TRANSPORT", "_STREAM_ID", "UNIT", "INVOCATION_ID")
        print(" ".join("%s=%s" % (k, e.get(k, "")) for k in keys))
