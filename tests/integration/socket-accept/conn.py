# One connection's instance: reports what it got, then echoes one line back.
import os, socket, sys
s = socket.socket(fileno=3)
info = "instance=%s fds=%s names=%s remote=%s:%s stdin-is-fd3=%s keepalive=%d nodelay=%d" % (
    sys.argv[1], os.environ.get("LISTEN_FDS"), os.environ.get("LISTEN_FDNAMES"),
    os.environ.get("REMOTE_ADDR"), os.environ.get("REMOTE_PORT"),
    os.path.samestat(os.fstat(0), os.fstat(3)),
    s.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE),
    s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) if s.family != socket.AF_UNIX else -1)
sys.stdout.write(info + "\n")
sys.stdout.flush()
line = sys.stdin.readline()
sys.stdout.write("echo " + line)
sys.stdout.flush()
