#!/usr/bin/env python3
# socket-exec test: what a socket unit's command sees. "peek TAG PATH" appends one line
# to @TMP@/events: TAG, then absent (no file at PATH), listening (a connect succeeds) or
# refused, then the uid and $GREETING it runs with.
import os, socket, sys
tag, path = sys.argv[1], sys.argv[2]
if not os.path.exists(path):
    state = "absent"
else:
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(path)
        state = "listening"
    except OSError:
        state = "refused"
line = "%s %s uid=%d greeting=%s" % (tag, state, os.getuid(), os.environ.get("GREETING", "-"))
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "events"), "a") as f:
    f.write(line + "\n")
print(line)
