"""A mixed HTTP workload against a running server: concurrent clients, hot and cold slots.

The crash test and `make crash-check` fire a burst of writes (remember / revise /
retract) and kill the server under it; `make soak` runs every operation for a while.
Both keep the log of what the server acknowledged (``invariants.Acknowledged``), the
latency of each operation and every error by its type, for the invariants and the figures.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from twoclocks.domain.model import FactVersion
from twoclocks.eval.invariants import Acknowledged

WRITES: Mapping[str, float] = {"remember": 0.6, "revise": 0.2, "retract": 0.2}
"""The crash burst: writes only."""

EVERYTHING: Mapping[str, float] = {
    "remember": 0.35, "revise": 0.1, "retract": 0.07, "reopen": 0.03, "facts": 0.15,
    "recall": 0.12, "block": 0.08, "timeline": 0.1,
}  # fmt: skip
"""The soak: every operation a coding agent's session makes."""

WRITE_OPS = frozenset(WRITES)
PREDICATES = (
    "deploy_target", "database", "region", "ci_provider", "runtime", "package_manager",
    "test_runner", "linter", "default_branch", "owner",
)  # fmt: skip
_WORDS = (
    "fly", "render", "aurora", "postgres", "github", "gitlab", "node", "python", "bun",
    "uv", "pytest", "ruff", "main", "trunk", "alice", "bob", "oregon", "frankfurt",
    "mysql", "sqlite", "vercel", "heroku", "circle", "drone", "pnpm", "yarn",
)  # fmt: skip
CWD = "/work/soak-project"


@dataclass(frozen=True)
class Shape:
    """How many clients, which slots and which operations."""

    clients: int = 8
    hot_slots: int = 10
    cold_slots: int = 1000
    hot_share: float = 0.5
    """Share of operations that go to a hot slot."""
    mix: Mapping[str, float] = field(default_factory=lambda: dict(WRITES))
    seed: int = 20261201


@dataclass
class Tally:
    """What a run did: acknowledged writes, latencies and errors by type."""

    acknowledged: list[Acknowledged] = field(default_factory=list)
    latency_ms: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: Counter[str] = field(default_factory=Counter)
    """``op status ErrorType`` (or ``op transport ExceptionName``) -> count."""
    writes_sent: int = 0
    wall_s: float = 0.0

    @property
    def calls(self) -> int:
        """Calls answered, 2xx or not."""
        return sum(len(v) for v in self.latency_ms.values())

    def server_errors(self) -> dict[str, int]:
        """The 5xx answers by type; a 503 is typed, a 500 is a bug."""
        return {k: n for k, n in self.errors.items() if k.split()[1].startswith("5")}

    def summary(self) -> dict[str, Any]:
        """Throughput, p50/p95 per operation and errors by type."""
        per_op = {}
        for op, samples in sorted(self.latency_ms.items()):
            per_op[op] = {"n": len(samples), "p50_ms": pct(samples, 50), "p95_ms": pct(samples, 95)}
        return {
            "calls": self.calls,
            "wall_s": round(self.wall_s, 1),
            "calls_per_s": round(self.calls / self.wall_s, 1) if self.wall_s else 0.0,
            "acknowledged_writes": len(self.acknowledged),
            "per_op": per_op,
            "errors": dict(sorted(self.errors.items())),
        }


def pct(samples: list[float], p: int) -> float:
    """The p-th percentile (nearest rank), 0 for no samples."""
    if not samples:
        return 0.0
    if len(samples) == 1:
        return round(samples[0], 1)
    return round(statistics.quantiles(samples, n=100, method="inclusive")[p - 1], 1)


class _Client:
    """One of the concurrent clients: picks an operation, sends it, records the answer."""

    def __init__(self, http: httpx.AsyncClient, shape: Shape, tally: Tally, pool: _Facts, n: int):
        self.http, self.shape, self.tally, self.pool = http, shape, tally, pool
        self.rng = random.Random(shape.seed + n)
        self.ops, self.weights = zip(*shape.mix.items(), strict=True)

    def slot(self) -> tuple[str, str]:
        if self.rng.random() < self.shape.hot_share:
            i = self.rng.randrange(self.shape.hot_slots)
            return ("hot-service", PREDICATES[i % len(PREDICATES)] + ("" if i < 10 else str(i)))
        i = self.rng.randrange(self.shape.cold_slots)
        return (f"service-{i // len(PREDICATES)}", PREDICATES[i % len(PREDICATES)])

    def value(self) -> str:
        return f"{self.rng.choice(_WORDS)}-{self.rng.choice(_WORDS)}-{self.rng.randrange(10**6)}"

    def pick(self) -> str:
        op: str = self.rng.choices(self.ops, self.weights)[0]
        if op in ("revise", "retract") and not self.pool.open:
            return "remember"
        if op == "reopen" and not self.pool.retracted:
            return "remember"
        return op

    def request(self, op: str) -> tuple[str, str, dict[str, Any] | None, dict[str, Any] | None]:
        """(method, path, json body, query params) for ``op``."""
        subject, predicate = self.slot()
        if op == "remember":
            fact = {"subject": subject, "predicate": predicate, "object": self.value(), "cwd": CWD}
            return "POST", "/v1/facts", fact, None
        if op == "revise":
            reason = self.rng.choice(("ended", "corrected"))
            revision = {"reason": reason, "replacement": {"object": self.value()}}
            return "POST", f"/v1/facts/{self.pool.take_open(self.rng)}/revise", revision, None
        if op == "retract":
            return "POST", f"/v1/facts/{self.pool.take_open(self.rng)}/retract", None, None
        if op == "reopen":
            return "POST", f"/v1/facts/{self.pool.take_retracted(self.rng)}/reopen", None, None
        if op == "facts":
            return "GET", "/v1/facts", None, {"subject": subject, "cwd": CWD}
        if op == "recall":
            return "POST", "/v1/recall", {"query": f"{subject} {predicate}", "cwd": CWD}, None
        if op == "block":
            return "POST", "/v1/block", {"cwd": CWD, "query": f"what is the {predicate}"}, None
        if op == "timeline":
            return "GET", "/v1/timeline", None, {"subject": subject}
        raise ValueError(f"unknown operation {op!r}")

    async def one(self) -> bool:
        """Send one operation; False when the server is gone (a transport error)."""
        op = self.pick()
        method, path, body, params = self.request(op)
        if op in WRITE_OPS:
            self.tally.writes_sent += 1
        started = time.perf_counter()
        try:
            answer = await self.http.request(method, path, json=body, params=params)
        except httpx.TransportError as e:
            self.tally.errors[f"{op} transport {type(e).__name__}"] += 1
            return False
        self.tally.latency_ms[op].append((time.perf_counter() - started) * 1000)
        if answer.is_success:
            self.record(op, path, answer.json() if op in WRITE_OPS or op == "reopen" else {})
        else:
            kind = _error_type(answer)
            self.tally.errors[f"{op} {answer.status_code} {kind}"] += 1
        return True

    def record(self, op: str, path: str, reply: dict[str, Any]) -> None:
        if op == "remember":
            ack = Acknowledged("remember", reply["fact_id"], version_id=reply["version_id"])
            self.pool.open.append(reply["fact_id"])
        elif op == "revise":
            ack = Acknowledged("revise", reply["fact_id"], successor_id=reply.get("successor_id"))
            if reply.get("successor_id"):
                self.pool.open.append(reply["successor_id"])
        elif op == "retract":
            ack = Acknowledged("retract", reply["fact_id"])
            self.pool.retracted.append(reply["fact_id"])
        elif op == "reopen":
            self.pool.open.append(reply["fact_id"])
            return
        else:
            return
        self.tally.acknowledged.append(ack)


class _Facts:
    """Fact ids the clients share: open ones to revise or retract, retracted ones to reopen."""

    def __init__(self) -> None:
        self.open: list[str] = []
        self.retracted: list[str] = []

    def take_open(self, rng: random.Random) -> str:
        # Taken out, so two clients rarely act on one fact; when they do, one gets a 409.
        return self.open.pop(rng.randrange(len(self.open)))

    def take_retracted(self, rng: random.Random) -> str:
        return self.retracted.pop(rng.randrange(len(self.retracted)))


def _error_type(answer: httpx.Response) -> str:
    try:
        return str(answer.json().get("error", "untyped"))
    except ValueError:
        return "not-json"


async def run(
    base_url: str,
    key: str,
    shape: Shape,
    *,
    writes: int | None = None,
    duration_s: float | None = None,
    stop: asyncio.Event | None = None,
    timeout_s: float = 30.0,
    tally: Tally | None = None,
) -> Tally:
    """Run ``shape`` until ``writes`` writes were sent, ``duration_s`` passed, or ``stop``.

    Pass ``tally`` to watch it fill while the run goes on (the crash check kills then).
    """
    tally = tally if tally is not None else Tally()
    pool = _Facts()
    stop = stop or asyncio.Event()
    deadline = time.monotonic() + duration_s if duration_s is not None else None
    headers = {"Authorization": f"Bearer {key}"}
    limits = httpx.Limits(max_connections=shape.clients, max_keepalive_connections=shape.clients)

    async def client(n: int, http: httpx.AsyncClient) -> None:
        worker = _Client(http, shape, tally, pool, n)
        while not stop.is_set():
            if writes is not None and tally.writes_sent >= writes:
                return
            if deadline is not None and time.monotonic() >= deadline:
                return
            if not await worker.one():
                return  # the server is gone: the caller decides what that means

    started = time.perf_counter()
    async with httpx.AsyncClient(
        base_url=base_url, headers=headers, timeout=timeout_s, limits=limits
    ) as http:
        await asyncio.gather(*(client(n, http) for n in range(shape.clients)))
    tally.wall_s = time.perf_counter() - started
    return tally


async def export_versions(base_url: str, key: str, timeout_s: float = 120.0) -> list[FactVersion]:
    """Every version of the key's account, from ``GET /v1/export``."""
    headers = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(base_url=base_url, headers=headers, timeout=timeout_s) as http:
        answer = await http.get("/v1/export")
        answer.raise_for_status()
    versions = []
    for line in answer.text.splitlines():
        row = json.loads(line)
        if row.pop("record") == "version":
            versions.append(FactVersion.model_validate(row))
    return versions
