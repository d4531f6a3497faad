"""Shared by bench/crash.py and bench/soak.py: a real `twoclocks serve` on each store.

FalkorDB is the embedded one in a fresh data dir; Neo4j comes from ci/neo4j/start in a run
dir of its own (or --neo4j-uri). Each run gets a fresh data dir, hence a fresh account.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from engines import Neo4jServer

from twoclocks.eval.served import ServedProcess, free_port


def add_engine_arguments(parser: argparse.ArgumentParser) -> None:
    """--engines, --neo4j-uri and --fast (hashing embedder instead of MiniLM)."""
    parser.add_argument("--engines", default="falkordb,neo4j")
    parser.add_argument("--neo4j-uri", default=None, help="use this Neo4j, not a fresh one")
    parser.add_argument(
        "--fast",
        action="store_true",
        help="serve with the hashing embedder (tests/crash_server.py) instead of MiniLM",
    )


@contextlib.contextmanager
def served(engine: str, args: argparse.Namespace) -> Iterator[ServedProcess]:
    """A `twoclocks serve` (not started yet) on ``engine``, cleaned up afterwards."""
    data_dir = Path(tempfile.mkdtemp(prefix=f"tc-{engine}-"))
    with contextlib.ExitStack() as stack:
        store = "embedded"
        if engine == "neo4j":
            store = stack.enter_context(Neo4jServer(args.neo4j_uri))
        port = free_port()
        if args.fast:
            repo = Path(__file__).resolve().parent.parent
            command = [sys.executable, str(repo / "tests/crash_server.py"),
                       str(data_dir), str(port), store, f"bench-{port}"]  # fmt: skip
        else:
            twoclocks = str(Path(sys.executable).with_name("twoclocks"))
            command = [twoclocks, "serve", "--data-dir", str(data_dir), "--port", str(port),
                       "--store", store]  # fmt: skip
        # `serve` announces itself in the user's client file: keep this run out of it.
        env = {**os.environ, "XDG_CONFIG_HOME": str(data_dir / "config")}
        server = ServedProcess(command, data_dir, port, env=env, ready_timeout_s=600)
        try:
            yield server
        finally:
            server.kill(signal.SIGTERM)
            shutil.rmtree(data_dir, ignore_errors=True)
