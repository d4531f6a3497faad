"""What the hooks read from a client's transcript (twoclocks/hooks/transcripts.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from twoclocks.capture.events import normalize
from twoclocks.capture.rules import RuleContext, failure_key, repeated_tool_error
from twoclocks.hooks.capture import enrich_event
from twoclocks.hooks.transcripts import codex_exit_code, tail_lines

FIXTURES = Path(__file__).parent.parent / "capture" / "fixtures"


def _codex_failure(rollout: Path | None) -> dict[str, object]:
    events = json.loads((FIXTURES / "codex.json").read_text())["events"]
    return {**events["shell_failed_0171"], "transcript_path": str(rollout) if rollout else None}


def test_codex_exit_code_is_read_from_its_rollout_by_call_id(tmp_path: Path) -> None:
    rollout = tmp_path / "rollout.jsonl"
    shutil.copy(FIXTURES / "codex_rollout_0171.jsonl", rollout)
    assert codex_exit_code(str(rollout), "call_lint_1") == 2
    assert codex_exit_code(str(rollout), "call_other") is None
    assert codex_exit_code(str(tmp_path / "gone.jsonl"), "call_lint_1") is None
    assert codex_exit_code(None, "call_lint_1") is None
    # A later call that reuses nothing: the right item is found among others.
    with rollout.open("a") as more:
        more.write("not json, call_lint_1\n")
        more.write(json.dumps({"type": "event_msg", "payload": {"type": "item_completed",
                   "item": {"id": "call_next", "exit_code": 0}}}) + "\n")  # fmt: skip
    assert codex_exit_code(str(rollout), "call_lint_1") == 2
    assert codex_exit_code(str(rollout), "call_next") == 0


def test_tail_lines_reads_only_the_end(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text("".join(f"line {i}\n" for i in range(1000)))
    assert tail_lines(str(path), max_bytes=20)[-1] == "line 999"
    assert len(tail_lines(str(path), max_bytes=20)) <= 3
    assert tail_lines(None) == [] and tail_lines(str(tmp_path / "none")) == []


def test_a_number_for_a_transcript_path_opens_nothing(tmp_path: Path) -> None:
    # The hook input is untrusted; open() would read a number as a file descriptor.
    secret = tmp_path / "other.jsonl"
    shutil.copy(FIXTURES / "codex_rollout_0171.jsonl", secret)
    with secret.open() as handle:
        fd = handle.fileno()
        assert tail_lines(fd) == []  # type: ignore[arg-type]
        assert codex_exit_code(fd, "call_lint_1") is None  # type: ignore[arg-type]
        event = {**_codex_failure(None), "transcript_path": fd}
        assert "twoclocks_exit_code" not in enrich_event("codex", event)


def test_a_codex_shell_failure_counts_as_one_with_the_status_from_its_rollout(
    tmp_path: Path,
) -> None:
    rollout = tmp_path / "rollout.jsonl"
    shutil.copy(FIXTURES / "codex_rollout_0171.jsonl", rollout)
    # As Codex 0.171 sends it: the output alone, so the command passes for a success.
    bare = normalize(_codex_failure(rollout), "codex")
    assert bare.exit_code is None and failure_key(bare) is None
    # The hook adds the status it read on this machine; the server then sees a failure.
    sent = enrich_event("codex", _codex_failure(rollout))
    assert sent["twoclocks_exit_code"] == 2
    event = normalize(sent, "codex")
    assert event.exit_code == 2 and failure_key(event) == "cmd:make lint"
    [fact] = repeated_tool_error(event, RuleContext(repo="acme-web", failures_before=1))
    assert fact.object.startswith("`make lint` failed 2 times")
    # Other clients' events, and an event whose rollout is gone, are sent as they came,
    # stamped with when the hook saw them.
    other = enrich_event("claude-code", _codex_failure(rollout))
    assert other.pop("twoclocks_seen_at") and other == _codex_failure(rollout)
    assert "twoclocks_exit_code" not in enrich_event("codex", _codex_failure(None))
