"""CaptureService on every real store (issue 12 points 2-5): once per event, the capture
switch, no secrets, and the places session state and repo facts land in."""

from __future__ import annotations

import itertools
import json
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from storekit import FakeClock

from twoclocks.capture.episode_text import episode_text
from twoclocks.domain.account_settings import AccountSettings
from twoclocks.domain.model import FactClass, Place
from twoclocks.domain.places import Workspace
from twoclocks.graph.port import Store
from twoclocks.service.accounts import Accounts
from twoclocks.service.capture import CaptureService, EventRequest
from twoclocks.service.memory import MemoryService
from twoclocks.service.recall import RecallService
from twoclocks.service.requests import Caller, FactsRequest
from twoclocks.workspaces import HeadCommit

pytestmark = pytest.mark.anyio

FIXTURES = Path(__file__).parents[1] / "capture" / "fixtures"
NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
REPO, PROJECT = "repo:github.com/acme/web", "project:/src/acme-web"
PLACES = {
    "/src/acme-web": Workspace(repo=REPO, project=PROJECT, worktree="worktree:/src/acme-web"),
    "/src/acme-web-2": Workspace(repo=REPO, project=PROJECT, worktree="worktree:/src/acme-web-2"),
}
TOKEN = "ghp_Zq8rT4mW9xK2vB7nL5pD3sF6hJ1cY0aE4uR8"


def fixture(client: str, name: str, **changes: Any) -> EventRequest:
    file = {"claude-code": "claude_code", "codex": "codex", "cursor": "cursor"}[client]
    event = json.loads((FIXTURES / f"{file}.json").read_text())["events"][name]
    return EventRequest(client=client, event={**event, **changes})  # type: ignore[arg-type]


class Rig:
    """A memory and a capture service over one store, with an account that has settings."""

    def __init__(self, store: Store, account: str) -> None:
        self.clock = FakeClock(NOW)
        ids = (uuid.uuid4().hex for _ in itertools.count())
        resolve = self.resolve
        self.accounts = Accounts(store, lambda: self.clock.now)
        self.memory = MemoryService(
            store,
            lambda: self.clock.now,
            lambda: next(ids),
            resolve_workspace=resolve,
            settings_of=self.accounts.settings,  # as bootstrap wires it: the places moved
        )
        self.capture = CaptureService(
            self.memory, store, lambda: self.clock.now, resolve, self.accounts.settings
        )
        self.store = store
        self.caller = Caller(account=account)

    @staticmethod
    def resolve(cwd: str | None) -> Workspace:
        return PLACES.get(cwd or "", Workspace())

    def recall_over(self, heads: dict[str, str | None]) -> RecallService:
        """Recall whose reads check these worktree HEADs (cwd -> branch; None: detached)."""
        self.capture.branch_of = lambda cwd: heads.get(cwd or "")
        return RecallService(
            self.store,
            lambda: self.clock.now,
            None,
            self.resolve,
            UTC,
            observe_checkout=self.capture.observe_checkout,
        )

    async def facts(self, cwd: str = "/src/acme-web", **query: Any) -> list[tuple[str, str]]:
        rows = await self.memory.facts(self.caller, FactsRequest(cwd=cwd, **query))
        return sorted((f.predicate, f.object) for f in rows)


@pytest.fixture
async def rig(store: Store) -> Rig:
    account = f"cap_{uuid.uuid4().hex[:12]}"
    made = Rig(store, account)
    await made.accounts.create(account)
    return made


async def test_a_replayed_event_is_stored_once(rig: Rig) -> None:
    commit = fixture("claude-code", "git_commit")
    first = await rig.capture.ingest(rig.caller, commit)
    again = await rig.capture.ingest(rig.caller, commit)
    assert (first.status, first.facts) == ("stored", 3)
    assert (again.status, again.event_id) == ("duplicate", first.event_id)
    history = await rig.facts(include_history=True)
    assert history.count(("committed", "3f9a2c1 on feat/login: Add login form validation")) == 1


async def test_captured_facts_are_observed_and_point_to_the_event(rig: Rig) -> None:
    done = await rig.capture.ingest(rig.caller, fixture("claude-code", "gh_pr_create"))
    rows = await rig.memory.facts(rig.caller, FactsRequest(cwd="/src/acme-web"))
    assert [(f.predicate, f.tier) for f in rows] == [("opened_pull_request", "observed")]
    found = await rig.store.search_episodes(rig.caller.account, "acme", 50)
    assert done.event_id in {e.episode_id for e in found}
    evidence = await rig.store.search_episodes(rig.caller.account, "captured", 50)
    assert any(done.event_id in e.content for e in evidence)  # the fact's evidence names it
    # The event is kept in its session's project: another project's search does not find it.
    (event,) = [e for e in found if e.episode_id == done.event_id]
    assert event.workspace == rig.resolve("/src/acme-web").key_for(Place.PROJECT)
    elsewhere = await rig.memory.search_episodes(rig.caller, "acme", 50, "/elsewhere")
    assert done.event_id not in {e.episode_id for e in elsewhere}


async def test_capture_off_stores_nothing_and_on_again_resumes(rig: Rig) -> None:
    await rig.accounts.update_settings(rig.caller.account, AccountSettings(capture=False))
    off = await rig.capture.ingest(rig.caller, fixture("claude-code", "git_commit"))
    assert off.status == "capture_off"
    assert await rig.facts(include_history=True) == []
    assert await rig.store.search_episodes(rig.caller.account, "login", 50) == []
    await rig.accounts.update_settings(rig.caller.account, AccountSettings(capture=True))
    on = await rig.capture.ingest(rig.caller, fixture("claude-code", "git_commit"))
    assert on.status == "stored"


async def test_secret_shaped_input_stores_nothing_secret(rig: Rig) -> None:
    for client, name in (
        ("claude-code", "git_push_with_token"),
        ("claude-code", "write_env"),
        ("cursor", "edit_env"),
    ):
        assert (await rig.capture.ingest(rig.caller, fixture(client, name))).status == "stored"
    kept = await rig.store.search_episodes(rig.caller.account, "acme", 200)
    kept += await rig.store.search_episodes(rig.caller.account, "env", 200)
    assert kept
    stored = " ".join(e.content for e in kept) + " ".join(
        f"{p} {o}" for p, o in await rig.facts(include_history=True)
    )
    for secret in (TOKEN, "selin:", "Sup3rS3cretPassw0rd", "sk_live_"):
        assert secret not in stored, secret
    assert ("edited_file", ".env") in await rig.facts()


async def test_session_state_stays_in_its_worktree_and_repo_facts_reach_every_worktree(
    rig: Rig,
) -> None:
    await rig.capture.ingest(rig.caller, fixture("claude-code", "git_push"))
    await rig.capture.ingest(rig.caller, fixture("claude-code", "git_remote_show"))
    here = await rig.facts("/src/acme-web")
    other = await rig.facts("/src/acme-web-2")
    assert ("last_push", "feat/login to origin (github.com:acme/web.git)") in here
    assert not any(p == "last_push" for p, _ in other)
    for repo_fact in (("git_remote_origin", "github.com:acme/web.git"), ("default_branch", "main")):
        assert repo_fact in here and repo_fact in other


async def test_a_new_branch_closes_the_old_one(rig: Rig) -> None:
    await rig.capture.ingest(rig.caller, fixture("claude-code", "git_checkout_new_branch"))
    rig.clock.tick(minutes=5)
    await rig.capture.ingest(rig.caller, fixture("codex", "git_switch", cwd="/src/acme-web"))
    assert [o for p, o in await rig.facts() if p == "current_branch"] == ["feat/token"]


async def test_a_run_of_part_of_the_suite_never_closes_the_whole_runs_result(rig: Rig) -> None:
    whole = {"command": "uv run pytest -q"}
    await rig.capture.ingest(rig.caller, fixture("claude-code", "pytest_failed", tool_input=whole))
    rig.clock.tick(minutes=5)
    await rig.capture.ingest(rig.caller, fixture("claude-code", "pytest_passed"))  # one file
    now = dict(await rig.facts())
    assert now["pytest_result"].startswith("pytest failed: 2 failing:")
    assert now["pytest_selection_result"] == "pytest tests/test_login.py passed"
    rig.clock.tick(minutes=5)
    await rig.capture.ingest(
        rig.caller,
        fixture("claude-code", "pytest_passed", tool_input=whole, tool_use_id="toolu_whole"),
    )
    assert dict(await rig.facts())["pytest_result"] == "pytest passed"


async def test_the_whole_suites_result_ends_the_last_result_of_a_part_of_it(rig: Rig) -> None:
    # The agent ran one failing file, fixed it, then ran the whole suite, which passed.
    # "pytest tests/test_login.py failed" left current beside "pytest passed" read as a
    # failure still open; the whole run is the newer word on every test in it.
    part = {"command": "uv run pytest -q tests/test_login.py"}
    await rig.capture.ingest(rig.caller, fixture("claude-code", "pytest_failed", tool_input=part))
    assert dict(await rig.facts())["pytest_selection_result"].startswith(
        "pytest tests/test_login.py failed"
    )
    rig.clock.tick(minutes=5)
    whole = {"command": "uv run pytest -q"}
    await rig.capture.ingest(
        rig.caller,
        fixture("claude-code", "pytest_passed", tool_input=whole, tool_use_id="toolu_whole"),
    )
    now = dict(await rig.facts())
    assert now["pytest_result"] == "pytest passed"
    assert "pytest_selection_result" not in now
    # Another folder's part is not this folder's suite: it stays.
    rig.clock.tick(minutes=5)
    api_part = {"command": "cd api && uv run pytest -q tests/test_a.py"}
    await rig.capture.ingest(
        rig.caller,
        fixture("claude-code", "pytest_failed", tool_input=api_part, tool_use_id="toolu_api"),
    )
    rig.clock.tick(minutes=5)
    await rig.capture.ingest(
        rig.caller,
        fixture("claude-code", "pytest_passed", tool_input=whole, tool_use_id="toolu_whole2"),
    )
    rows = await rig.memory.facts(rig.caller, FactsRequest(cwd="/src/acme-web"))
    assert [(f.subject, f.predicate) for f in rows if "selection" in f.predicate] == [
        ("web/api", "pytest_selection_result")
    ]


async def test_a_run_in_a_folder_of_the_worktree_never_closes_another_folders_result(
    rig: Rig,
) -> None:
    api = {"command": "cd api && uv run pytest -q"}
    await rig.capture.ingest(rig.caller, fixture("claude-code", "pytest_failed", tool_input=api))
    rig.clock.tick(minutes=5)
    worker = {"command": "cd /src/acme-web/worker && uv run pytest -q"}
    await rig.capture.ingest(rig.caller, fixture("claude-code", "pytest_passed", tool_input=worker))
    rows = await rig.memory.facts(rig.caller, FactsRequest(cwd="/src/acme-web"))
    results = {(f.subject, f.object.split(":")[0]) for f in rows if f.predicate == "pytest_result"}
    assert results == {("web/api", "pytest failed"), ("web/worker", "pytest passed")}


async def test_the_same_command_failing_twice_is_a_repeated_tool_error(rig: Rig) -> None:
    await rig.capture.ingest(rig.caller, fixture("claude-code", "npm_build_failed"))
    assert await rig.facts() == []
    await rig.capture.ingest(rig.caller, fixture("claude-code", "npm_build_failed_again"))
    assert [p for p, _ in await rig.facts()] == ["repeated_tool_error"]


async def test_an_event_with_nothing_to_keep_is_ignored(rig: Rig) -> None:
    done = await rig.capture.ingest(rig.caller, fixture("claude-code", "read_file"))
    assert done.status == "ignored"


def test_the_kept_event_drops_edit_content_and_url_credentials() -> None:
    from twoclocks.capture.events import normalize

    env = fixture("claude-code", "write_env").event
    text = episode_text(env, normalize(env, "claude-code"))
    assert "Sup3rS3cret" not in text and "edit content not kept" in text
    push = fixture("claude-code", "git_push_with_token").event
    text = episode_text(push, normalize(push, "claude-code"))
    assert TOKEN not in text and "https://github.com/acme/web.git" in text


async def test_a_fact_the_secret_check_refuses_is_skipped_counted_and_never_stored(
    rig: Rig,
) -> None:
    command = f"GITHUB_TOKEN={TOKEN} npm run build"
    for name in ("npm_build_failed", "npm_build_failed_again"):
        event = fixture("claude-code", name).event
        request = EventRequest(
            client="claude-code", event={**event, "tool_input": {"command": command}}
        )
        assert (await rig.capture.ingest(rig.caller, request)).status == "stored"
    assert await rig.facts(include_history=True) == []
    stats = await rig.capture.stats(rig.caller)
    assert stats.refused_facts == {"SecretRefused": 1}
    kept = await rig.store.search_episodes(rig.caller.account, "acme", 50)
    assert kept and all(TOKEN not in e.content for e in kept)


async def test_stats_show_each_clients_events_by_status_and_the_switch(rig: Rig) -> None:
    await rig.capture.ingest(rig.caller, fixture("claude-code", "git_commit"))
    await rig.capture.ingest(rig.caller, fixture("claude-code", "git_commit"))
    await rig.capture.ingest(rig.caller, fixture("cursor", "edit"))
    stats = await rig.capture.stats(rig.caller)
    assert stats.capture is True
    assert {c.client: c.events for c in stats.clients} == {
        "claude-code": {"stored": 1, "duplicate": 1},
        "cursor": {"stored": 1},
    }
    assert all(c.last_event_at == NOW for c in stats.clients)


async def test_day_two_block_names_the_branch_the_pr_and_the_failing_test_of_this_worktree_only(
    rig: Rig,
) -> None:
    from twoclocks.service.recall_requests import BlockRequest

    recall = RecallService(rig.store, lambda: rig.clock.now, None, rig.resolve, UTC)
    # Day 1, Claude Code in the first worktree: branch, commit, push, PR, a failing test.
    for name in ("git_checkout_new_branch", "git_commit", "git_push", "gh_pr_create"):
        await rig.capture.ingest(rig.caller, fixture("claude-code", name))
        rig.clock.tick(minutes=10)
    await rig.capture.ingest(rig.caller, fixture("claude-code", "pytest_failed"))
    # Meanwhile the second worktree is on another branch.
    await rig.capture.ingest(
        rig.caller, fixture("codex", "git_switch", cwd="/src/acme-web-2", turn_id="t-2")
    )
    # Day 2, a Codex session in the same folder asks for its block.
    rig.clock.tick(hours=20)
    text = (await recall.block(rig.caller, BlockRequest(cwd="/src/acme-web"))).text
    assert "web · current branch: feat/login (since" in text
    assert "#42 Login form validation" in text
    assert "test_rejects_empty_email" in text
    assert "feat/token" not in text  # the other worktree's branch
    # A tool event that changes the branch closes the old one: never shown as current.
    await rig.capture.ingest(
        rig.caller, fixture("codex", "git_switch", cwd="/src/acme-web", turn_id="t-3")
    )
    rig.clock.tick(minutes=1)
    text = (await recall.block(rig.caller, BlockRequest(cwd="/src/acme-web"))).text
    assert "web · current branch: feat/token (since" in text
    assert "current branch: feat/login (since" not in text


async def test_a_branch_switched_outside_the_agent_is_the_current_one_in_the_next_block(
    rig: Rig,
) -> None:
    from twoclocks.service.recall_requests import BlockRequest

    heads: dict[str, str | None] = {"/src/acme-web": "feat/login", "/src/acme-web-2": "feat/token"}
    recall = rig.recall_over(heads)
    # Session 1: the agent makes a branch; a rule records it.
    await rig.capture.ingest(rig.caller, fixture("claude-code", "git_checkout_new_branch"))
    rig.clock.tick(hours=2)
    # Before session 2 the person checks out a hotfix branch in their own terminal.
    heads["/src/acme-web"] = "hotfix/tax"
    text = (await recall.block(rig.caller, BlockRequest(cwd="/src/acme-web"))).text
    # Read off the HEAD: it held before it was read, so its start is not stated.
    assert "web · current branch: hotfix/tax (known since" in text
    assert "current branch: feat/login (since" not in text
    # Told as a change, the old value kept; read off HEAD, it changed then or before.
    assert "feat/login -> hotfix/tax (changed by " in text
    rows = await rig.memory.facts(
        rig.caller, FactsRequest(cwd="/src/acme-web", include_history=True)
    )
    branch = [f for f in rows if f.predicate == "current_branch"]
    assert {(f.object, f.tier) for f in branch} == {
        ("feat/login", "observed"),
        ("hotfix/tax", "observed"),
    }
    # Read again with the same HEAD: nothing more is written.
    await recall.block(rig.caller, BlockRequest(cwd="/src/acme-web"))
    again = await rig.memory.facts(
        rig.caller, FactsRequest(cwd="/src/acme-web", include_history=True)
    )
    assert {f.version_id for f in again} == {f.version_id for f in rows}
    # Where no branch was ever captured, a HEAD alone writes nothing (the other worktree),
    # and a detached HEAD (None) changes nothing.
    await recall.block(rig.caller, BlockRequest(cwd="/src/acme-web-2"))
    assert not [p for p, _ in await rig.facts("/src/acme-web-2") if p == "current_branch"]
    heads["/src/acme-web"] = None
    await recall.block(rig.caller, BlockRequest(cwd="/src/acme-web"))
    assert ("current_branch", "hotfix/tax") in await rig.facts()


async def test_a_commit_made_outside_the_agent_is_the_last_commit_the_block_tells(
    rig: Rig,
) -> None:
    from twoclocks.service.recall_requests import BlockRequest

    # The agent committed 3f9a2c1; the person then committed in their own terminal.
    recall = rig.recall_over({"/src/acme-web": "feat/login"})
    await rig.capture.ingest(rig.caller, fixture("claude-code", "git_commit"))
    agents = "3f9a2c1 on feat/login: Add login form validation"
    assert ("last_commit", agents) in await rig.facts()
    at_agents = HeadCommit(sha="3f9a2c1" + "0" * 33, branch="feat/login", subject=None)
    rig.capture.commit_of = lambda cwd: at_agents if cwd == "/src/acme-web" else None
    assert await rig.capture.observe_checkout(rig.caller, "/src/acme-web") is False
    rig.clock.tick(minutes=30)
    theirs = HeadCommit(sha="77aa01b" + "1" * 33, branch="feat/login", subject="Fix typo")
    rig.capture.commit_of = lambda cwd: theirs if cwd == "/src/acme-web" else None
    text = (await recall.block(rig.caller, BlockRequest(cwd="/src/acme-web"))).text
    assert "web · last commit: 77aa01b on feat/login: Fix typo (known since" in text
    assert ("last_commit", agents) not in await rig.facts()
    # Read again at the same HEAD: nothing more is written.
    before = await rig.memory.facts(rig.caller, FactsRequest(cwd="/src/acme-web"))
    assert await rig.capture.observe_checkout(rig.caller, "/src/acme-web") is False
    # A worktree where no commit was captured gets none from its HEAD alone.
    rig.capture.commit_of = lambda cwd: theirs
    await recall.block(rig.caller, BlockRequest(cwd="/src/acme-web-2"))
    assert not [p for p, _ in await rig.facts("/src/acme-web-2") if p == "last_commit"]
    after = await rig.memory.facts(rig.caller, FactsRequest(cwd="/src/acme-web"))
    assert {f.version_id for f in after} == {f.version_id for f in before}


async def test_with_capture_off_the_head_writes_nothing(rig: Rig) -> None:
    await rig.capture.ingest(rig.caller, fixture("claude-code", "git_checkout_new_branch"))
    await rig.accounts.update_settings(rig.caller.account, AccountSettings(capture=False))
    rig.capture.branch_of = lambda cwd: "hotfix/tax"
    assert await rig.capture.observe_checkout(rig.caller, "/src/acme-web") is False
    assert ("current_branch", "feat/login") in await rig.facts()


async def test_recall_that_tells_the_branch_tells_the_one_checked_out(rig: Rig) -> None:
    from twoclocks.service.recall_requests import RecallRequest

    heads: dict[str, str | None] = {"/src/acme-web": "feat/login"}
    recall = rig.recall_over(heads)
    await rig.capture.ingest(rig.caller, fixture("claude-code", "git_checkout_new_branch"))
    rig.clock.tick(minutes=30)
    heads["/src/acme-web"] = "hotfix/tax"  # switched in the person's terminal, mid-session
    asked = RecallRequest(query="which branch is checked out?", cwd="/src/acme-web")
    answer = await recall.recall(rig.caller, asked)
    told = [(f.object, f.invalid_at) for f in answer.facts if f.predicate == "current_branch"]
    assert told == [("hotfix/tax", None)]


async def test_recall_of_what_changed_that_tells_the_branch_tells_the_one_checked_out(
    rig: Rig,
) -> None:
    from twoclocks.service.recall_requests import RecallRequest

    heads: dict[str, str | None] = {"/src/acme-web": "feat/login"}
    recall = rig.recall_over(heads)
    await rig.capture.ingest(rig.caller, fixture("claude-code", "git_checkout_new_branch"))
    rig.clock.tick(minutes=30)
    heads["/src/acme-web"] = "hotfix/tax"  # switched in the person's terminal
    asked = RecallRequest(query="anything new?", cwd="/src/acme-web")
    answer = await recall.recall(rig.caller, asked)
    told = [(f.object, f.invalid_at) for f in answer.changed if f.predicate == "current_branch"]
    assert told[-1] == ("hotfix/tax", None)
    assert ("feat/login", None) not in told


async def test_the_head_corrects_the_branch_where_the_account_moved_its_tasks(rig: Rig) -> None:
    # Tasks moved to the project: the git rules write the branch there, and so does the HEAD.
    moved = AccountSettings(places={FactClass.TASK: Place.PROJECT})
    await rig.accounts.update_settings(rig.caller.account, moved)
    await rig.capture.ingest(rig.caller, fixture("claude-code", "git_checkout_new_branch"))
    rig.capture.branch_of = lambda cwd: "hotfix/tax"
    assert await rig.capture.observe_checkout(rig.caller, "/src/acme-web") is True
    rows = await rig.memory.facts(rig.caller, FactsRequest(cwd="/src/acme-web"))
    assert [(f.object, f.place) for f in rows if f.predicate == "current_branch"] == [
        ("hotfix/tax", Place.PROJECT)
    ]
