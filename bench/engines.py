"""What every benchmark shares: a Neo4j from ci/neo4j, percentiles, timing and RSS.

Run from the repository root as ``.venv/bin/python bench/<name>.py``; the scripts import
this module as a sibling.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import TracebackType
from typing import Any

REPO = Path(__file__).resolve().parent.parent


class Neo4jServer:
    """A Neo4j from ci/neo4j/start in a run dir of its own, stopped on exit.

    Given a URI instead, it uses that server and leaves it alone. ``java_opts`` go to
    ``NEO4J_EXTRA_JAVA_OPTS`` (the recall bench raises the heap for 100k vectors).
    """

    def __init__(self, uri: str | None = None, java_opts: str | None = None) -> None:
        self.uri = uri
        self._given = uri is not None
        self._java_opts = java_opts
        self._run_dir = Path(tempfile.mkdtemp(prefix="tc-bench-neo4j-"))

    @property
    def pid(self) -> int | None:
        """The server's process id when this run started it."""
        pid_file = self._run_dir / "neo4j.pid"
        return int(pid_file.read_text()) if pid_file.exists() else None

    def __enter__(self) -> str:
        if self.uri is not None:
            return self.uri
        env = {**os.environ, "NEO4J_RUN_DIR": str(self._run_dir)}
        if self._java_opts:
            env["NEO4J_EXTRA_JAVA_OPTS"] = os.environ.get("NEO4J_EXTRA_JAVA_OPTS", self._java_opts)
        proc = subprocess.run(
            ["bash", str(REPO / "ci/neo4j/start")],
            capture_output=True, text=True, timeout=600, check=False, env=env,
        )  # fmt: skip
        lines = proc.stdout.strip().splitlines()
        if proc.returncode != 0 or not lines or not lines[-1].startswith("bolt://"):
            sys.exit(f"ci/neo4j/start failed:\n{proc.stderr[-2000:]}")
        self.uri = lines[-1]
        return self.uri

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if not self._given:
            subprocess.run(
                ["bash", str(REPO / "ci/neo4j/stop")],
                capture_output=True, check=False,
                env={**os.environ, "NEO4J_RUN_DIR": str(self._run_dir)},
            )  # fmt: skip
        shutil.rmtree(self._run_dir, ignore_errors=True)


def pct(samples: list[float], p: float) -> float:
    """The p-th percentile (nearest rank); NaN for no samples."""
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


async def timed(samples: list[float], call: Callable[[], Awaitable[Any]]) -> Any:
    """Await ``call()``, append its wall time in ms to ``samples``, return its result."""
    start = time.perf_counter()
    out = await call()
    samples.append((time.perf_counter() - start) * 1000)
    return out


def rss_mb(pid: int | str = "self") -> float:
    """Resident memory of a process in MB (NaN when it cannot be read)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, as the kernel reports them."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])
