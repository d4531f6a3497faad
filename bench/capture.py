"""Capture speed (issue 12): the hook's wall time, and how fast the server stores events.

* hook: ``python -m twoclocks.hooks.capture cursor`` as a process, p50/p95 wall time
  against a warm server and with nothing listening (the event is spooled);
* burst: events/s CaptureService stores from a burst of recorded events (the
  fixtures of tests/capture, made unique), with the configured embedding model.

Run from the repository root: ``.venv/bin/python bench/capture.py [--events 2000]``.
It uses the embedded FalkorDB in a temp data dir.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from engines import REPO, load_average, pct

sys.path.insert(0, str(REPO / "tests"))

from live_server import serving

from twoclocks import bootstrap
from twoclocks.service.capture import EventRequest
from twoclocks.service.requests import Caller

FIXTURES = REPO / "tests" / "capture" / "fixtures"
CLIENTS = {"claude_code.json": "claude-code", "codex.json": "codex", "cursor.json": "cursor"}


def recorded() -> list[tuple[str, dict[str, Any]]]:
    """Every recorded payload, with its client."""
    out = []
    for file, client in CLIENTS.items():
        for event in json.loads((FIXTURES / file).read_text())["events"].values():
            out.append((client, event))
    return out


def unique(client: str, event: dict[str, Any], i: int, cwd: str) -> dict[str, Any]:
    """The payload as another call of the same tool: new ids, its own cwd."""
    changed = {**event, "cwd": cwd}
    for key in ("tool_use_id", "generation_id", "turn_id"):
        if key in changed:
            changed[key] = f"{changed[key]}-{i}"
    if "file_path" in changed:
        changed["file_path"] = f"{cwd}/src/file_{i}.ts"
    if client == "cursor":
        changed["workspace_roots"] = [cwd]
    return changed


async def hook_times(env: dict[str, str], runs: int) -> list[float]:
    event = json.dumps(unique("cursor", recorded()[-1][1], 0, "/tmp"))
    samples = []
    for i in range(runs):
        started = time.perf_counter()
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "twoclocks.hooks.capture", "cursor",
            stdin=asyncio.subprocess.PIPE, env={**env, "PATH": ""},
        )  # fmt: skip
        await proc.communicate(event.replace("gen-push", f"gen-push-{i}").encode())
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def closed_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--hook-runs", type=int, default=40)
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="tc-bench-capture-"))
    settings = bootstrap.load_settings(data_dir=data, store="embedded")
    runtime = await bootstrap.start_runtime(settings)
    key = await runtime.accounts.create("bench")
    env = {"TWOCLOCKS_DATA_DIR": str(data / "hookdata"), "TWOCLOCKS_KEY": key}
    try:
        async with serving(runtime) as url:
            await hook_times({**env, "TWOCLOCKS_URL": url}, 3)  # warm the page cache
            warm = await hook_times({**env, "TWOCLOCKS_URL": url}, args.hook_runs)
        down = await hook_times({**env, "TWOCLOCKS_URL": closed_url()}, args.hook_runs)
        caller = Caller(account="bench")
        payloads = recorded()
        burst = [
            EventRequest(client=c, event=unique(c, e, i, f"/tmp/bench-{i % 4}"))  # type: ignore[arg-type]
            for i in range(args.events)
            for c, e in [payloads[i % len(payloads)]]
        ]
        started = time.perf_counter()
        stored = facts = 0
        for request in burst:
            result = await runtime.capture.ingest(caller, request)
            stored += result.status == "stored"
            facts += result.facts
        seconds = time.perf_counter() - started
    finally:
        await runtime.close()
    print(f"load average: {load_average()}  model: {runtime.details.get('model')}")
    for name, samples in (("warm server", warm), ("server down", down)):
        print(f"hook {name}: p50 {pct(samples, 50):.0f} ms, p95 {pct(samples, 95):.0f} ms")
    print(
        f"burst: {args.events} events ({stored} stored, {facts} facts) in {seconds:.1f} s"
        f" = {args.events / seconds:.0f} events/s"
    )


if __name__ == "__main__":
    asyncio.run(main())
