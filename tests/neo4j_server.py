"""The test Neo4j that ci/neo4j/start launches, as seen from pytest (see conftest.py).

Each pytest process gets a server of its own (its own run dir under ci/neo4j/run/), so
concurrent test runs in one checkout never share, or stop, each other's database; the
server also stops by itself when the pytest process dies without stopping it.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CI_NEO4J = REPO / "ci" / "neo4j"
URI_ENV = "TWOCLOCKS_TEST_NEO4J_URI"
START_TIMEOUT_S = 400  # a first start builds the launcher and downloads Neo4j
STOP_TIMEOUT_S = 60


class Neo4jUnavailable(Exception):
    """The test Neo4j could not be had; the message says why (with the log tail)."""


@dataclass
class TestNeo4j:
    """A Bolt URI, and the run dir of the server this process started for it (if any)."""

    __test__ = False  # not a test class, despite the name

    uri: str
    run_dir: Path | None = None

    @classmethod
    def acquire(cls) -> TestNeo4j:
        """Use $TWOCLOCKS_TEST_NEO4J_URI if set, else start a server with ci/neo4j/start."""
        if uri := os.environ.get(URI_ENV):
            return cls(uri)
        return cls.start_own()

    @classmethod
    def start_own(cls, name: str = "") -> TestNeo4j:
        """Start a server of this process's own with ci/neo4j/start (a clean database);
        ``name`` tells a second one (say, a test's empty store) from the session's."""
        if shutil.which("java") is None:
            raise Neo4jUnavailable(
                f"java is not on PATH, so ci/neo4j/start cannot run; "
                f"install Java 17 or set {URI_ENV}"
            )
        _remove_orphaned_run_dirs()
        run_dir = CI_NEO4J / "run" / "-".join(filter(None, ("pytest", str(os.getpid()), name)))
        # Its own process group, so a timeout ends Maven too (the JVM is setsid'd apart).
        proc = subprocess.Popen(
            ["bash", str(CI_NEO4J / "start")],
            cwd=REPO,
            env=_env(run_dir),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        try:
            out, err = proc.communicate(timeout=START_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            _stop(run_dir, keep_logs=True)  # it may have got as far as launching the JVM
            raise Neo4jUnavailable(
                f"ci/neo4j/start took over {START_TIMEOUT_S} s\n{_tail(err)}"
            ) from None
        lines = out.strip().splitlines()
        if proc.returncode != 0 or not lines or not lines[-1].startswith("bolt://"):
            _stop(run_dir, keep_logs=True)  # start named its logs in err
            raise Neo4jUnavailable(f"ci/neo4j/start failed (exit {proc.returncode})\n{_tail(err)}")
        return cls(lines[-1], run_dir)

    def release(self) -> None:
        if self.run_dir is not None:
            _stop(self.run_dir)


def _env(run_dir: Path) -> dict[str, str]:
    return {**os.environ, "NEO4J_RUN_DIR": str(run_dir), "NEO4J_OWNER_PID": str(os.getpid())}


def _stop(run_dir: Path, keep_logs: bool = False) -> None:
    """ci/neo4j/stop for this run dir (it removes the data), then the run dir itself."""
    subprocess.run(
        ["bash", str(CI_NEO4J / "stop")],
        cwd=REPO,
        env=_env(run_dir),
        capture_output=True,
        timeout=STOP_TIMEOUT_S,
        check=False,
    )
    if not keep_logs:
        shutil.rmtree(run_dir, ignore_errors=True)


def _remove_orphaned_run_dirs() -> None:
    """Run dirs of pytest processes that died (their servers have stopped by themselves)."""
    for run_dir in (CI_NEO4J / "run").glob("pytest-*"):
        pid = run_dir.name.split("-")[1]  # pytest-<pid> or pytest-<pid>-<name>
        if pid.isdigit() and not _alive(int(pid)):
            _stop(run_dir)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _tail(text: str, lines: int = 40) -> str:
    return "\n".join(text.splitlines()[-lines:])
