#!/bin/sh
# Run by privnet.service: which interfaces its network namespace has, and whether lo is up.
echo "ifaces=$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | tr '\n' ',')"
python3 -c '
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
socket.create_connection(s.getsockname(), 2)
print("lo-up")' 2>&1 | tail -n 1
exec sleep 1000
