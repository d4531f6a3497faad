"""The embedded FalkorDB's watchdog: notices a server that died or stopped answering, restarts it.

Without it a killed FalkorDB turns every later call into a 503 until someone restarts
`serve`, and a hung one (seen once: no PING, SIGTERM ignored) holds requests open. The
watchdog PINGs on a fresh connection every ``interval_s``; a server that has exited, or
missed ``misses`` PINGs in a row, is stopped (SIGTERM, SIGKILL after ``grace_s``) and
started again on the same data dir, replaying its fsynced AOF. Meanwhile ``problem``
says what is wrong, for /healthz.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from twoclocks.domain.errors import StoreUnavailable

if TYPE_CHECKING:
    import redis.asyncio

    from twoclocks.graph.falkordb.server import EmbeddedFalkorDB

log = logging.getLogger(__name__)


class Watchdog:
    """Keeps one EmbeddedFalkorDB answering; runs as a task on the loop that started it."""

    def __init__(
        self,
        server: EmbeddedFalkorDB,
        *,
        interval_s: float = 1.0,
        ping_timeout_s: float = 2.0,
        misses: int = 3,
        grace_s: float = 2.0,
    ) -> None:
        self._server = server
        self.interval_s = interval_s
        self.ping_timeout_s = ping_timeout_s
        self.misses = misses
        self.grace_s = grace_s
        self.problem: str | None = None
        """What is wrong with the engine now (None while it answers)."""
        self.restarts = 0
        """How many times this watchdog restarted the server."""
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._relaunched_at: float | None = None
        """When the restarted server was launched, while it has not answered yet."""
        self._probe: redis.asyncio.Redis | None = None

    def current_problem(self) -> str | None:
        """``problem``, or an exit the watchdog's next look has not seen yet (up to
        ``interval_s`` later): /healthz must not say ready over a dead engine."""
        if self.problem is None and not self._server.running:
            return f"FalkorDB exited (code {self._server.exit_code}); restarting it"
        if self.problem is not None and self._relaunched_at is not None:
            # A large store takes a minute or more to read back: say that it is under way.
            waited = time.monotonic() - self._relaunched_at
            return (
                f"{self.problem}: restarted {waited:.0f}s ago, reading its store back "
                "(a minute or more for a large store)"
            )
        return self.problem

    def start(self) -> None:
        """Begin watching (on the running loop's thread: restarts spawn from it)."""
        if self._task is None:
            self._stopping = False
            self._task = asyncio.get_running_loop().create_task(self._watch())

    async def stop(self) -> None:
        """Stop watching; the server is left as it is."""
        task, self._task = self._task, None
        if task is not None:
            # The flag as well as the cancel: a call inside the loop that drops the cancel
            # (asyncio.wait_for on Python 3.11 did, as its PING answered) would otherwise
            # keep the loop going and stop() waiting on it (seen at a benchmark's close).
            self._stopping = True
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self._close_probe()

    async def _watch(self) -> None:
        missed = 0
        while not self._stopping:
            await asyncio.sleep(self.interval_s)
            if self._stopping:
                return
            if not self._server.running:
                self.problem = f"FalkorDB exited (code {self._server.exit_code}); restarting it"
            elif await self._answers():
                missed = 0
                continue
            else:
                missed += 1
                if missed < self.misses:
                    continue
                self.problem = (
                    f"FalkorDB did not answer PING {missed} times in a row "
                    f"({self.ping_timeout_s:g}s each); restarting it"
                )
            log.warning("%s", self.problem)
            missed = 0
            await self._restart()

    async def _answers(self) -> bool:
        import redis
        import redis.asyncio
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        if self._probe is None:
            self._probe = redis.asyncio.Redis(
                unix_socket_path=str(self._server.socket_path),
                socket_timeout=self.ping_timeout_s,
                socket_connect_timeout=self.ping_timeout_s,
                retry=Retry(NoBackoff(), 0),  # one miss is one miss: the count is ours
            )
        try:
            # asyncio.timeout, not wait_for: on 3.11 wait_for drops a cancel that lands
            # as the PING answers.
            async with asyncio.timeout(self.ping_timeout_s):
                return bool(await self._probe.ping())
        except (redis.RedisError, OSError, TimeoutError):
            await self._close_probe()
            return False

    async def _restart(self) -> None:
        try:
            await asyncio.to_thread(self._server.stop, self.grace_s)
            self._server.launch()  # here, on the loop's thread: see launch()
            self._relaunched_at = time.monotonic()
            try:
                await asyncio.to_thread(self._server.wait_ready)
            finally:
                self._relaunched_at = None
        except StoreUnavailable as e:
            self.problem = f"FalkorDB could not be restarted: {e.message}"
            log.error("%s", self.problem)
            await asyncio.to_thread(self._server.stop, self.grace_s)
            return
        self.restarts += 1
        self.problem = None
        log.warning("FalkorDB restarted (pid %s); restart %d", self._server.pid, self.restarts)

    async def _close_probe(self) -> None:
        probe, self._probe = self._probe, None
        if probe is not None:
            with contextlib.suppress(Exception):
                await probe.aclose()
