"""A twoclocks server in a child process: start it, wait for /healthz, kill it, start it again.

The crash checks kill the server with SIGKILL (no shutdown handler runs) and start a new
one on the same data dir, the way a machine that loses power and reboots would; or kill
the embedded FalkorDB under the live server (``kill_falkordb_mid_burst``).
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

import httpx

from twoclocks.domain.errors import StoreUnavailable
from twoclocks.eval.workload import Tally
from twoclocks.graph.falkordb.server import LOCK_NAME


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServedProcess:
    """``command`` (a server on ``port``, data in ``data_dir``) as a child we can kill."""

    def __init__(
        self,
        command: Sequence[str],
        data_dir: Path,
        port: int,
        env: dict[str, str] | None = None,
        ready_timeout_s: float = 180.0,
    ) -> None:
        self.command = list(command)
        self.data_dir = data_dir
        self.port = port
        self.env = env  # None: the child inherits ours
        self.ready_timeout_s = ready_timeout_s
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = data_dir / "served.log"

    @property
    def url(self) -> str:
        """The server's base URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def key(self) -> str:
        """The local account's key, written by the first start."""
        return (self.data_dir / "key").read_text().strip()

    def start(self) -> None:
        """Start the server and wait until /healthz answers 200."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        deadline = time.monotonic() + self.ready_timeout_s
        self._spawn()
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                # The killed server's engine may still be shutting down and holding the
                # data dir: what a supervisor (systemd, compose) does too is start again.
                time.sleep(0.5)
                self._spawn()
                continue
            if self.health()[0] == 200:
                return
            time.sleep(0.2)
        raise StoreUnavailable(f"server not ready in {self.ready_timeout_s:g}s: {self.tail()}")

    def _spawn(self) -> None:
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                self.command, stdout=log, stderr=subprocess.STDOUT, env=self.env
            )

    def health(self) -> tuple[int, dict[str, object]]:
        """(status, body) of /healthz; (0, {}) when nothing answers."""
        try:
            answer = httpx.get(self.url + "/healthz", timeout=5)
        except httpx.TransportError:
            return 0, {}
        return answer.status_code, answer.json()

    def falkordb_pid(self) -> int:
        """The pid of the embedded FalkorDB the server runs now (its lock file holds it)."""
        return int((self.data_dir / "falkordb" / LOCK_NAME).read_text())

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` and reap the process."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(60)
        self.proc = None

    def tail(self, lines: int = 30) -> str:
        """The last lines the server printed."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])


async def kill_falkordb_mid_burst(
    server: ServedProcess, burst: asyncio.Task[object], tally: Tally, after: int
) -> tuple[int, set[int], set[str]]:
    """Once ``after`` writes of ``burst`` are acknowledged, SIGKILL the server's FalkorDB and
    watch /healthz until the burst ends: (the killed pid, statuses seen, problems said)."""
    while len(tally.acknowledged) < after and not burst.done():
        await asyncio.sleep(0.01)
    killed = server.falkordb_pid()
    os.kill(killed, signal.SIGKILL)
    seen: set[int] = set()
    problems: set[str] = set()
    while not burst.done():
        status, body = await asyncio.to_thread(server.health)
        seen.add(status)
        if "problem" in body:
            problems.add(str(body["problem"]))
        await asyncio.sleep(0.05)
    await burst
    return killed, seen, problems
