"""A real byte pipe between a store's client and its server, which a test can cut.

Used to lose an engine mid-run without killing the session's shared server: the store
connects through the link, the test cuts it, and every pooled connection dies at once.
Threads, not the test's event loop: FalkorDB's client makes a blocking call while it
connects, which would deadlock a link served by the same loop.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable
from pathlib import Path

Connect = Callable[[], socket.socket]


class SeverableLink:
    """Forwards every connection it accepts to the real server until ``cut()``."""

    def __init__(self, connect: Connect) -> None:
        self._connect = connect
        self._listener: socket.socket | None = None
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()

    def listen_tcp(self) -> int:
        """Listen on a free local port; returns it."""
        listener = socket.create_server(("127.0.0.1", 0))
        self._serve(listener)
        port: int = listener.getsockname()[1]
        return port

    def listen_unix(self, path: Path) -> Path:
        """Listen on a unix socket at ``path``; returns it."""
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(str(path))
        listener.listen()
        self._serve(listener)
        return path

    def cut(self) -> None:
        """Stop accepting and close every open connection, both ways."""
        with self._lock:
            doomed = [s for s in (self._listener, *self._open) if s is not None]
            self._listener = None
            self._open.clear()
        _close(doomed)

    def drop(self) -> None:
        """Close every open connection but go on accepting new ones: what a client's pool
        meets after a server restart, or when something between closes idle connections."""
        with self._lock:
            doomed, self._open = self._open, []
        _close(doomed)

    def _serve(self, listener: socket.socket) -> None:
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            upstream = self._connect()
            with self._lock:
                self._open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=_copy, args=(a, b), daemon=True).start()


def _close(doomed: list[socket.socket]) -> None:
    for s in doomed:
        with contextlib.suppress(OSError):
            s.shutdown(socket.SHUT_RDWR)
        s.close()


def _copy(source: socket.socket, sink: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while data := source.recv(65536):
            sink.sendall(data)
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)
