"""A local port for a server a test starts."""

import socket


def free_port() -> int:
    """A port nothing on 127.0.0.1 listens on now (the OS's pick, so parallel runs do not collide)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
