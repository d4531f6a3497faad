"""What the client checks share: the run's record, commands, the server's API, what was stored."""

from __future__ import annotations

import json
import shlex
import socket
import subprocess
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("@anthropic-ai/claude-code", "@openai/codex", "@modelcontextprotocol/inspector")
FACT = ("ci", "ci_provider", "GitHub Actions")


class Run:
    """The checks so far, printed as they pass or fail."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, bool, str]] = []

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        self.rows.append((name, ok, detail))
        print(f"{'PASS' if ok else 'FAIL'}  {name}" + (f"  ({detail})" if detail else ""))
        return ok

    def markdown(self, versions: dict[str, str]) -> str:
        lines = ["| client | version |", "|---|---|"]
        lines += [f"| {k} | {v} |" for k, v in versions.items()]
        lines += ["", "| check | result | detail |", "|---|---|---|"]
        for name, ok, detail in self.rows:
            lines.append(f"| {name} | {'pass' if ok else 'FAIL'} | {detail.replace('|', '/')} |")
        return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Setup:
    """What a client's checks are given: the run, the binaries, its HOME, the server."""

    run: Run
    bin_dir: Path
    twoclocks: str
    env: dict[str, str]
    project: Path
    url: str
    data_dir: Path


def sh(
    args: list[str], env: dict[str, str], cwd: Path, timeout: float = 120, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """Run a client command; a timeout is an answer too (rc 124, output so far)."""
    try:
        return subprocess.run(
            args, env=env, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else exc.stdout or ""
        err = exc.stderr.decode() if isinstance(exc.stderr, bytes) else exc.stderr or ""
        return subprocess.CompletedProcess(args, 124, out, err)


def install_clients(prefix: Path, reinstall: bool) -> Path:
    bin_dir = prefix / "node_modules" / ".bin"
    if reinstall or not all((bin_dir / b).exists() for b in ("claude", "codex", "mcp-inspector")):
        prefix.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund", *PACKAGES],
            check=True,
        )
    return bin_dir


def versions(bin_dir: Path, env: dict[str, str], cwd: Path) -> dict[str, str]:
    inspector = json.loads(
        (bin_dir.parent / "@modelcontextprotocol" / "inspector" / "package.json").read_text()
    )["version"]
    return {
        "Claude Code": sh([str(bin_dir / "claude"), "--version"], env, cwd).stdout.strip(),
        "Codex CLI": sh([str(bin_dir / "codex"), "--version"], env, cwd).stdout.strip(),
        "MCP Inspector": inspector,
        "node": sh(["node", "--version"], env, cwd).stdout.strip(),
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_ready(url: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return True
        except OSError:
            pass
        time.sleep(1)
    return False


def api_get(url: str, data_dir: Path, path: str) -> Any:
    """One GET of the API with the person's key (from the server's data dir), as JSON."""
    key = (data_dir / "key").read_text().strip()
    request = urllib.request.Request(url + path, headers={"Authorization": f"Bearer {key}"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def capture_stats(url: str, data_dir: Path) -> dict[str, dict[str, int]]:
    """Events per client and status the server counted (GET /v1/events/stats)."""
    stats = api_get(url, data_dir, "/v1/events/stats")
    return {c["client"]: c["events"] for c in stats.get("clients", [])}


def settled(url: str, data_dir: Path, client: str, seconds: float = 10) -> dict[str, int]:
    """The client's event counts once something arrived (async hooks finish after the client)."""
    deadline = time.monotonic() + seconds
    while True:
        counts = capture_stats(url, data_dir).get(client, {})
        if counts or time.monotonic() > deadline:
            return counts
        time.sleep(0.5)


def hook_lines(text: str, events: tuple[str, ...]) -> list[str]:
    """Debug-log lines that mention one of our hook events running."""
    return [
        ln.strip()
        for ln in text.splitlines()
        if any(e in ln for e in events) and ("hook" in ln.lower() or "Hook" in ln)
    ]


def failing_remember(twoclocks: str, written: tuple[str, str, str]) -> str:
    """A shell command that writes ``written`` asserted, as a person would, then fails: the
    tool event is a failure, which capture keeps as an episode (a plain success that names
    no rule is counted and dropped)."""
    return shlex.join([twoclocks, "remember", *written, "--tier", "asserted"]) + "; exit 3"


def stored_as(
    twoclocks: str, env: dict[str, str], project: Path, subject: str
) -> list[tuple[str, str | None]]:
    """(tier, writer) of each current fact of ``subject``, read with the person's CLI."""
    listed = sh([twoclocks, "facts", "--all-workspaces", "--json"], env, project).stdout
    facts = json.loads(listed)["facts"] if listed.strip().startswith("{") else []
    return [(f["tier"], f.get("writer")) for f in facts if f["subject"] == subject]


def block_in(requests: list[dict[str, Any]]) -> tuple[bool, str]:
    """Whether the first request a client sent its model carries the first-turn block with
    the fact the CLI stored: what the agent knows before the person's first word."""
    first = json.dumps(requests[0], ensure_ascii=False) if requests else ""
    ok = "[[CM-MEM]]" in first and FACT[2] in first
    return ok, (f"block and {FACT[2]!r} in the first request" if ok else "no block")


def first_fact(answer: str) -> str:
    """A recall answer's top fact line, as the model read it, or what came back instead."""
    lines = answer.splitlines()
    if len(lines) > 1 and lines[0].startswith("rows: "):
        return f"top: {lines[1].removeprefix('- ')}"
    return answer[:120] or "no tool result"


def episodes_holding(
    url: str, data_dir: Path, cwd: Path, query: str, *texts: str, source: str | None = None
) -> int:
    """How many episodes GET /v1/episodes finds for ``query``, asked from ``cwd`` (the
    session's directory: episodes are kept in its project), that hold every one of ``texts``
    (and come from ``source``, when given)."""
    asked = {"query": query, "k": 50, "cwd": str(cwd)}
    path = "/v1/episodes?" + urllib.parse.urlencode(asked)
    found = api_get(url, data_dir, path)["episodes"]
    return sum(
        1 for e in found if all(t in e["content"] for t in texts) and source in (None, e["source"])
    )


def delivered_before_exit(url: str, data_dir: Path, project: Path, prompt: str) -> tuple[bool, str]:
    """Whether the failed Bash call and the finished turn were stored by the time
    `claude -p` exited: no drain, no wait, nothing left in the spool.

    A headless run exits right after its answer and kills plain ``async`` hooks;
    ``asyncRewake`` makes it wait for them (twoclocks/clients/files.py).
    """
    from fake_messages_api import TOOL_USE_ID

    spool = data_dir / "spool.jsonl"
    spooled = spool.exists() and TOOL_USE_ID in spool.read_text()
    failed = episodes_holding(
        url, data_dir, project, "the agent's Bash tool", TOOL_USE_ID, "PostToolUseFailure"
    )
    turns = episodes_holding(url, data_dir, project, prompt, prompt, source="turn:claude-code")
    detail = f"{failed} PostToolUseFailure episode(s) with {TOOL_USE_ID}, {turns} turn(s)" + (
        "; the tool event was spooled" if spooled else ""
    )
    return failed == 1 and turns == 1 and not spooled, detail
