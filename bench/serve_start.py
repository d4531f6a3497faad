"""How long `twoclocks serve` takes from its start to its `ready` line.

The first hour starts here: a person runs `make run` and waits for `ready` before the CLI
or a hook can reach the server. This prints p50 and max over ``--runs`` starts of a server
on a fresh data dir of its own, in two ways: with the embedding model's ONNX export
removed before each start (what every start cost before the export was kept, and what a
first start still costs) and with it kept from the start before (every later start).

Run from the repository root, no server needed: ``.venv/bin/python bench/serve_start.py
[--runs 3]``. Each start uses a free port and a temporary HOME, removed afterwards.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engines import load_average, pct

TWOCLOCKS = str(Path(sys.executable).with_name("twoclocks"))
READY_TIMEOUT_S = 300


def free_port() -> int:
    """A port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_to_ready_s(home: Path) -> float:
    """Seconds from starting `twoclocks serve` to its `ready:` line; it is stopped after."""
    env = {**os.environ, "HOME": str(home)}
    env.pop("TWOCLOCKS_DATA_DIR", None)
    started = time.perf_counter()
    server = subprocess.Popen(
        [TWOCLOCKS, "serve", "--port", str(free_port())],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        for line in server.stdout:
            if "ready:" in line:
                return time.perf_counter() - started
            if time.perf_counter() - started > READY_TIMEOUT_S:
                break
        raise SystemExit(f"no ready line within {READY_TIMEOUT_S} s (exit {server.poll()})")
    finally:
        server.terminate()
        server.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="starts of each kind")
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory(prefix="serve-start-") as tmp:
        home = Path(tmp)
        models = home / ".local" / "share" / "twoclocks" / "models"
        exported, kept = [], []
        for _ in range(runs):
            shutil.rmtree(models, ignore_errors=True)
            exported.append(start_to_ready_s(home))
            kept.append(start_to_ready_s(home))  # the export the start before kept
    print(f"load average before the last start: {load_average()}")
    print(f"{'start':<44} {'p50 s':>7} {'max s':>7}")
    for name, samples in (("exporting the model (first start)", exported),
                          ("with the kept ONNX export (later starts)", kept)):  # fmt: skip
        print(f"{name:<44} {pct(samples, 50):>7.1f} {max(samples):>7.1f}")
    print(f"ratio of p50s: {pct(kept, 50) / pct(exported, 50):.2f}")


if __name__ == "__main__":
    main()
