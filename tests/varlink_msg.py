# The client side of ember's Varlink tests (test-userdb.sh, test-managed-oom.sh): a
# connection, and messages that end in a NUL byte. A test copies this file next to its
# own script, which imports it.
import socket


def connect(path, wait=10):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.settimeout(wait)
    return s


def message(s):
    """The next message, or what came instead: closed, partial, timeout."""
    b = b""
    try:
        while not b.endswith(b"\0"):
            d = s.recv(4096)
            if not d:
                return "closed" if not b else "partial"
            b += d
    except socket.timeout:
        return "timeout"
    except OSError:
        return "closed"
    return b[:-1].decode()
