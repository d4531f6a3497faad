"""Capture end to end through the REAL hook commands (issue 12 point 6).

The commands `twoclocks install` writes run as subprocesses, with the recorded payloads
of tests/capture/fixtures on stdin, against the real app on a loopback port, in two real
git worktrees of one repo. Day 1: a Claude Code session in worktree A switches to a new
branch, commits, pushes, opens a PR and leaves a failing test. Day 2: a Codex session in
the same folder gets a session-start block naming the branch, the PR and the failing
test, and nothing of worktree B. Then a new branch closes the old one.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from live_server import serving

from twoclocks import bootstrap
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.hooks import capture

pytestmark = [pytest.mark.anyio, pytest.mark.falkordb]

FIXTURES = Path(__file__).parents[1] / "capture" / "fixtures"
PYTHON = sys.executable


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def recorded(client: str, name: str, **changes: Any) -> dict[str, Any]:
    file = {"claude-code": "claude_code", "codex": "codex"}[client]
    event: dict[str, Any] = json.loads((FIXTURES / f"{file}.json").read_text())["events"][name]
    return {**event, **changes}


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, timeout=30)


def worktrees(root: Path) -> tuple[Path, Path]:
    """One repo (origin on GitHub) and a second worktree of it, as a person would have."""
    a, b = root / "acme-web", root / "acme-web-2"
    a.mkdir()
    git("init", "-q", "-b", "main", cwd=a)
    git("remote", "add", "origin", "git@github.com:acme/web.git", cwd=a)
    (a / "README.md").write_text("web\n")
    git("add", "README.md", cwd=a)
    git("-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "init", cwd=a)
    git("worktree", "add", "-q", "-b", "feat/token", str(b), cwd=a)
    return a, b


@pytest.fixture
async def runtime(falkordb_server: Any, tmp_path: Path) -> AsyncIterator[bootstrap.Runtime]:
    from twoclocks.graph.falkordb.store import FalkorDBStore

    settings = bootstrap.load_settings(data_dir=tmp_path / "data")
    started = await bootstrap.start_runtime(
        settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder()
    )
    started.details["key"] = await started.accounts.create(f"e2e_{uuid.uuid4().hex[:12]}")
    try:
        yield started
    finally:
        await started.close()


class Hooks:
    """The hook commands as installed, run as the client runs them: stdin in, exit 0."""

    def __init__(self, url: str, runtime: bootstrap.Runtime) -> None:
        self.env = {
            "TWOCLOCKS_URL": url,
            "TWOCLOCKS_KEY": runtime.details["key"],
            "TWOCLOCKS_DATA_DIR": str(runtime.settings.data_dir),
            "PATH": "/usr/bin:/bin",
        }
        self.runtime = runtime

    async def run(self, module: str, *args: str, payload: dict[str, Any]) -> str:
        done = await asyncio.to_thread(
            subprocess.run,
            [PYTHON, "-m", module, *args],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            env=self.env,
            timeout=60,
        )
        assert (done.returncode, done.stderr) == (0, "")
        return done.stdout

    async def capture(self, client: str, payload: dict[str, Any]) -> None:
        assert await self.run("twoclocks.hooks.capture", client, payload=payload) == ""

    async def stop(self, payload: dict[str, Any]) -> None:
        """The Stop hook: what the spool holds (a hook that timed out) goes to the server."""
        assert await self.run("twoclocks.hooks.capture", "stop", payload=payload) == ""

    async def settled(self) -> None:
        """Every event sent or drained, and its facts written (they follow the 202)."""
        data_dir = self.runtime.settings.data_dir
        pending = self.runtime.capture.pending
        assert pending is not None
        for _ in range(400):
            if capture.spool_depth(data_dir)[0] == 0 and not pending.pending():
                return
            if capture.spool_depth(data_dir)[0]:
                await self.stop({"hook_event_name": "Stop"})
            await asyncio.sleep(0.05)
        raise AssertionError("capture did not settle")

    async def session_start_block(self, payload: dict[str, Any]) -> str:
        # The session-start hook gives up silently past 600 ms; a busy test box may need
        # another try, as a person's next session would.
        for _ in range(5):
            out = await self.run("twoclocks.hooks.claude_code", "session-start", payload=payload)
            if out:
                context: str = json.loads(out)["hookSpecificOutput"]["additionalContext"]
                return context
        raise AssertionError("the session-start hook printed nothing five times")


async def test_day_two_codex_block_names_branch_pr_and_failing_test_through_the_real_hooks(
    runtime: bootstrap.Runtime, tmp_path: Path
) -> None:
    a, b = worktrees(tmp_path)
    async with serving(runtime) as url:
        hooks = Hooks(url, runtime)
        # Day 1: Claude Code in worktree A (the person's prompt is captured too).
        session = "1a2b3c4d-0000-4000-8000-00000000e2e1"
        await hooks.capture(
            "claude-code",
            {
                "session_id": session,
                "transcript_path": "/tmp/t.jsonl",
                "cwd": str(a),
                "hook_event_name": "UserPromptSubmit",
                "prompt": "add validation to the login form and open a PR",
            },
        )
        git("checkout", "-q", "-b", "feat/login", cwd=a)  # what the recorded command did
        for name in ("git_checkout_new_branch", "git_commit", "git_push", "gh_pr_create"):
            await hooks.capture("claude-code", recorded("claude-code", name, cwd=str(a)))
        await hooks.capture("claude-code", recorded("claude-code", "pytest_failed", cwd=str(a)))
        await hooks.stop({"session_id": session, "cwd": str(a), "hook_event_name": "Stop"})
        # Meanwhile worktree B (a Codex session) is on another branch.
        await hooks.capture(
            "codex",
            recorded("codex", "git_switch", cwd=str(b), turn_id="t-b", tool_use_id="call_b"),
        )
        await hooks.settled()

        # Day 2: a Codex session in folder A starts.
        start = {
            "session_id": "0199ffff-0000-7000-8000-00000000e2e2",
            "turn_id": None,
            "transcript_path": None,
            "cwd": str(a),
            "hook_event_name": "SessionStart",
            "model": "gpt-5-codex",
            "source": "startup",
        }
        block = await hooks.session_start_block(start)
        assert "current branch: feat/login (since" in block
        assert "#42 Login form validation" in block
        assert "test_rejects_empty_email" in block
        assert "feat/token" not in block  # worktree B's branch stays in B

        # A tool event that changes the branch in A closes feat/login. (Git keeps one
        # branch out in one worktree; the HEAD is pointed as the recorded switch left it.)
        git("symbolic-ref", "HEAD", "refs/heads/feat/token", cwd=a)
        await hooks.capture(
            "codex",
            recorded("codex", "git_switch", cwd=str(a), turn_id="t-a", tool_use_id="call_a"),
        )
        await hooks.settled()
        block = await hooks.session_start_block({**start, "source": "resume"})
        # feat/login appears only as what changed, never as current.
        assert "current branch: feat/login (since" not in block
        assert (
            "current branch: feat/token (since" in block
            or "current branch: feat/login -> feat/token (changed" in block
        )
