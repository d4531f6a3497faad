"""How long a CLI command and `twoclocks mcp` take to start, against a running server.

A person waits on every CLI command, and `claude -p` sends its first request while its
MCP servers still connect (it offers the model WaitForMcpServers instead), so start-up
time is time someone waits. This prints p50/p95 over ``--runs`` of: `twoclocks --help`
(the import alone), `twoclocks facts` (import, one GET, print) and `twoclocks mcp` from
its start to the answer of MCP ``initialize``.

Run from the repository root with the server up (`make run`):
``.venv/bin/python bench/cli_start.py [--runs 10]``. Nothing is written to the store.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engines import load_average, pct

TWOCLOCKS = str(Path(sys.executable).with_name("twoclocks"))
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"},
    },
}


def command_ms(args: list[str], cwd: str) -> float:
    """Wall time of one command to its exit; a failing command stops the bench."""
    started = time.perf_counter()
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    elapsed = (time.perf_counter() - started) * 1000
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)} failed ({done.returncode}): {done.stderr.strip()[:300]}")
    return elapsed


def mcp_initialize_ms(cwd: str) -> float:
    """From starting `twoclocks mcp` to its answer of MCP initialize."""
    started = time.perf_counter()
    server = subprocess.Popen(
        [TWOCLOCKS, "mcp"],
        cwd=cwd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
        server.stdin.flush()
        answer = server.stdout.readline()
        elapsed = (time.perf_counter() - started) * 1000
    finally:
        server.kill()
        server.wait()
    if b'"result"' not in answer:
        sys.exit(f"twoclocks mcp did not initialize: {answer[:300]!r}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    options = parser.parse_args()
    cwd = tempfile.mkdtemp(prefix="twoclocks-cli-start-")
    cases = {
        "twoclocks --help": lambda: command_ms([TWOCLOCKS, "--help"], cwd),
        "twoclocks facts": lambda: command_ms([TWOCLOCKS, "facts"], cwd),
        "twoclocks mcp, to initialize": lambda: mcp_initialize_ms(cwd),
    }
    print(f"{options.runs} runs each, load average {load_average()}")
    print(f"{'command':32} {'p50 ms':>8} {'p95 ms':>8}")
    for name, run in cases.items():
        run()  # a first run fills the file cache
        samples = [run() for _ in range(options.runs)]
        print(f"{name:32} {pct(samples, 50):8.0f} {pct(samples, 95):8.0f}")


if __name__ == "__main__":
    main()
