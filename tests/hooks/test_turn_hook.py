"""The turn hook and the turn queue across a restart (issue 13 point 1): the Stop hook sends
the turn and exits, spools it while the server is down, and the store's queue survives a
real restart of the app on the embedded store, each turn extracted once."""

from __future__ import annotations

import asyncio
import io
import json
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_llm import FakeLLM, fact, facts, serving
from live_server import serving as serving_app

from twoclocks import bootstrap
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.hooks import capture, turn
from twoclocks.service.requests import Caller, FactsRequest

pytestmark = [pytest.mark.anyio, pytest.mark.falkordb]

PERSON = "we moved payments to Fly.io last week"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def transcript(path: Path, *entries: tuple[str, Any], stop: str | None = "end_turn") -> str:
    """A Claude Code transcript: one JSON line per message."""
    lines = []
    for role, content in entries:
        message: dict[str, Any] = {"role": role, "content": content}
        if role == "assistant":
            message["stop_reason"] = stop
        lines.append(json.dumps({"type": role, "message": message}))
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_the_stop_hook_reads_the_persons_text_and_the_answer_from_the_transcript(
    tmp_path: Path,
) -> None:
    log = transcript(
        tmp_path / "t.jsonl",
        ("user", "an older prompt"),
        ("assistant", [{"type": "text", "text": "an older answer"}]),
        ("user", PERSON + " " + "x" * 5000),
        ("assistant", [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]),
        ("user", [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]),
        ("assistant", [{"type": "text", "text": "Noted: payments run on Fly.io."}]),
    )
    payload = {"session_id": "s1", "hook_event_name": "Stop", "transcript_path": log}
    sent = turn.enrich(payload, {})["twoclocks_turn"]
    assert sent["prompt"].startswith(PERSON) and len(sent["prompt"]) == turn.TEXT_MAX
    assert sent["answer"] == "Noted: payments run on Fly.io."
    assert sent["stop_reason"] == "end_turn"


def test_last_assistant_message_wins_and_a_dry_run_is_marked(tmp_path: Path) -> None:
    log = transcript(tmp_path / "t.jsonl", ("user", PERSON), ("assistant", "from the log"))
    payload = {"hook_event_name": "Stop", "transcript_path": log,
               "last_assistant_message": "y" * 3000}  # fmt: skip
    sent = turn.enrich(payload, {"TWOCLOCKS_DRY_RUN": "1"})
    assert sent["twoclocks_turn"]["answer"] == "y" * 2500
    assert sent["twoclocks_turn"]["dry_run"] is True
    assert "last_assistant_message" not in sent  # sent once, trimmed
    cursor = turn.enrich({"hook_event_name": "afterAgentResponse", "text": "Done."}, {})
    assert cursor["twoclocks_turn"] == {"prompt": "", "answer": "Done."}


def test_the_turn_hook_exits_0_silently_and_spools_when_the_server_is_down(
    tmp_path: Path,
) -> None:
    from test_capture_hook import closed_port_url

    env = {"TWOCLOCKS_DATA_DIR": str(tmp_path), "TWOCLOCKS_URL": closed_port_url(),
           "TWOCLOCKS_KEY": "tck_x", "PATH": ""}  # fmt: skip
    log = transcript(tmp_path / "t.jsonl", ("user", PERSON), ("assistant", "Noted."))
    stdin = json.dumps({"session_id": "s1", "hook_event_name": "Stop", "transcript_path": log})
    done = subprocess.run(
        [sys.executable, "-m", "twoclocks.hooks.turn", "claude-code"],
        input=stdin, capture_output=True, text=True, env=env, timeout=30,
    )  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert capture.spool_depth(tmp_path) == (1, 0)
    spooled = json.loads(capture.spool_path(tmp_path).read_text())
    assert spooled["event"]["twoclocks_turn"]["prompt"] == PERSON


@pytest.fixture
def data_dir() -> Iterator[Path]:
    # The embedded engine's unix socket lives in the data dir: keep the path short.
    path = Path(tempfile.mkdtemp(prefix="turns", dir="/tmp"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


async def start(data_dir: Path, llm: FakeLLM) -> bootstrap.Runtime:
    settings = bootstrap.load_settings(data_dir=data_dir, extractor_url=llm.url)
    return await bootstrap.start_runtime(settings, embedder=HashingEmbedder())


async def test_a_restart_loses_no_queued_turn_and_a_turn_is_extracted_once(
    data_dir: Path,
) -> None:
    answer = facts(fact("payments", "deploy_target", "Fly.io"))
    async with serving(FakeLLM([answer], delays=[3.0])) as stuck:
        first = await start(data_dir, stuck)
        account = f"t_{uuid.uuid4().hex[:10]}"
        key = await first.accounts.create(account)
        env = {"TWOCLOCKS_DATA_DIR": str(data_dir), "TWOCLOCKS_KEY": key}
        stdin = json.dumps({"session_id": "s1", "hook_event_name": "Stop", "cwd": "/src/pay",
                            "prompt": PERSON, "last_assistant_message": "Noted."})  # fmt: skip
        async with serving_app(first) as url:
            sent = await asyncio.to_thread(
                turn.send_turn,
                "claude-code",
                io.StringIO(stdin),
                {**env, "TWOCLOCKS_URL": url},
                5.0,  # the first request of a fresh app; the hook's own budget is in bench/
            )
            assert sent == "sent"
            for _ in range(200):  # the worker has taken the turn to the model...
                if stuck.requests:
                    break
                await asyncio.sleep(0.05)
            assert stuck.requests
        await first.close()  # ...and the server stops before the model answers
    async with serving(FakeLLM([answer])) as llm:
        second = await start(data_dir, llm)
        try:
            caller = Caller(account=account)
            for _ in range(200):
                if (await second.turns.stats(caller)).queue == {"extracted": 1}:
                    break
                await asyncio.sleep(0.05)
            assert (await second.turns.stats(caller)).queue == {"extracted": 1}
            rows = await second.service.facts(caller, FactsRequest(cwd="/src/pay"))
            assert [(f.object, f.tier.value if f.tier else None) for f in rows] == [
                ("Fly.io", "asserted")
            ]
        finally:
            await second.close()
        third = await start(data_dir, llm)
        await asyncio.sleep(0.3)
        await third.close()
        assert len(llm.requests) == 1  # extracted once, not again after the next restart


async def test_the_gateway_scenarios_through_the_real_hooks_and_a_scripted_model(
    data_dir: Path, tmp_path: Path
) -> None:
    """(a) the morning context said in Codex is in the next Claude Code session's block;
    (b) a commit rule said once is under "Rules you set" next session, in the person's words."""
    from twoclocks.hooks import claude_code

    morning = "today I'm on ticket PAY-1432, branch pay-1432-refunds, task: fix refund rounding"
    rule = "our commits start with the Jira key, like PAY-1432: summary"
    cwd = str(tmp_path)
    context = [
        fact("me", "current_ticket", "PAY-1432", **{"class": "task", "category": "ticket"}),
        fact("me", "current_branch", "pay-1432-refunds", **{"class": "task", "category": "git"}),
        fact("me", "current_task", "fix refund rounding", **{"class": "task"}),
    ]
    commits = fact("commits", "message_format", "start with the Jira key", **{"class": "rule"})
    async with serving(FakeLLM([facts(*context), facts(commits)])) as llm:
        runtime = await start(data_dir, llm)
        try:
            key = await runtime.accounts.create(f"e_{uuid.uuid4().hex[:10]}")
            async with serving_app(runtime) as url:
                env = {"TWOCLOCKS_DATA_DIR": str(data_dir), "TWOCLOCKS_KEY": key,
                       "TWOCLOCKS_URL": url}  # fmt: skip
                for n, (person, client) in enumerate([(morning, "codex"), (rule, "codex")]):
                    log = transcript(
                        tmp_path / f"t{n}.jsonl", ("user", person), ("assistant", "OK.")
                    )
                    stdin = json.dumps({"session_id": f"s{n}", "hook_event_name": "Stop",
                                        "cwd": cwd, "transcript_path": log})  # fmt: skip
                    sent = await asyncio.to_thread(
                        turn.send_turn, client, io.StringIO(stdin), env, 5.0
                    )
                    assert sent == "sent"
                caller = Caller(account=(await runtime.accounts.authenticate(key)).account)
                for _ in range(200):
                    if (await runtime.turns.stats(caller)).queue == {"extracted": 2}:
                        break
                    await asyncio.sleep(0.05)
                out = io.StringIO()
                start_input = json.dumps({"source": "startup", "cwd": cwd, "session_id": "s9"})
                await asyncio.to_thread(
                    claude_code.session_start, io.StringIO(start_input), out, env, 5.0
                )
        finally:
            await runtime.close()
    block = out.getvalue()
    assert "PAY-1432" in block and "pay-1432-refunds" in block and "fix refund rounding" in block
    rules = block.split("Rules you set:", 1)[1]
    assert "- start with the Jira key" in rules.split("\n\n", 1)[0]
