"""The listening socket of `twoclocks serve`, bound before anything else starts.

uvicorn binds its address only after the app's start-up: a second `twoclocks serve` on a
taken port loaded the model, started its store, wrote the client file every CLI, hook
and MCP client reads (pointing them at its own key, which the server on that port does
not know) and said "ready", then failed to bind. Bound first, a taken port stops it
before any of that, and uvicorn serves the socket it is handed.
"""

from __future__ import annotations

import socket

from twoclocks.domain.errors import PortInUse


def bind_listen_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` for uvicorn to listen on; PortInUse when taken."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise PortInUse(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    # As uvicorn does: a restart can take the port while the old connections wind down.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise PortInUse(
            f"{host}:{port} is in use ({exc.strerror}): a twoclocks server may already run "
            f"there (`twoclocks doctor` says), else start this one with another --port "
            "(or TWOCLOCKS_PORT)"
        ) from None
    sock.set_inheritable(True)
    return sock
