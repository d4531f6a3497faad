"""Find a live embedded FalkorDB server on a data dir, so a second process can be its client.

``EmbeddedFalkorDB`` holds an exclusive ``flock`` on ``falkordb.lock`` (pid inside) for as
long as its server runs; the server process inherits the lock, so even an orphaned server
keeps it. A lock that can be taken means nobody serves the dir; one that cannot means a
live server whose socket ``falkordb.sock`` a client may use (``twoclocks accounts create``
beside a running ``twoclocks serve``).
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

from twoclocks.graph.falkordb.server import LOCK_NAME, SOCKET_NAME


def live_socket(data_dir: str | os.PathLike[str], wait_s: float = 15.0) -> Path | None:
    """The socket of the server that holds ``data_dir`` now, or None when none does.

    A server that holds the lock but has no socket yet is starting: wait up to ``wait_s``.
    """
    root = Path(data_dir).absolute()
    lock, socket = root / LOCK_NAME, root / SOCKET_NAME
    try:
        fd = os.open(lock, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        held = True
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        held = False
    finally:
        os.close(fd)
    if not held:
        return None
    # The owner removes a stale socket before it spawns the server, so a socket beside a
    # held lock is that server's; without one yet, the server is still starting.
    deadline = time.monotonic() + wait_s
    while not socket.exists():
        if time.monotonic() > deadline:
            return None
        time.sleep(0.05)
    return socket


def holder_pid(data_dir: str | os.PathLike[str]) -> int | None:
    """The pid written in the lock file (for messages), or None."""
    try:
        text = (Path(data_dir) / LOCK_NAME).read_text().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
