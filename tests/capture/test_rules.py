"""Capture rules (issue 12 point 3) on recorded payloads of each client's documented shape."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from twoclocks.capture.events import (
    ToolEvent,
    detect_client,
    event_id_of,
    happened_at,
    normalize,
)
from twoclocks.capture.rules import (
    RULES,
    RuleContext,
    branch_switched,
    default_branch,
    facts_from,
    files_edited,
    git_commit,
    git_push,
    pull_request_opened,
    ran_tests,
    repeated_tool_error,
    segments,
    strip_credentials,
    subagent_finished,
)
from twoclocks.domain.errors import InvalidInput
from twoclocks.domain.model import Kind
from twoclocks.domain.places import Place, resolve_place

FIXTURES = Path(__file__).parent / "fixtures"
CTX = RuleContext(repo="acme-web")
CLIENT_FILES = {"claude-code": "claude_code.json", "codex": "codex.json", "cursor": "cursor.json"}


def raw(client: str, name: str) -> dict[str, Any]:
    events: dict[str, dict[str, Any]] = json.loads((FIXTURES / CLIENT_FILES[client]).read_text())[
        "events"
    ]
    return events[name]


def event(client: str, name: str) -> ToolEvent:
    return normalize(raw(client, name), client)


def said(facts: list[Any]) -> list[tuple[str, str]]:
    return [(f.predicate, f.object) for f in facts]


def test_every_fixture_file_cites_the_clients_docs() -> None:
    for name in CLIENT_FILES.values():
        source = json.loads((FIXTURES / name).read_text())["_source"]
        assert "https://" in source


# -- one test per rule ---------------------------------------------------------------------


def test_git_commit_records_the_commit_and_the_branchs_last_commit() -> None:
    got = git_commit(event("claude-code", "git_commit"), CTX)
    assert said(got) == [
        ("committed", "3f9a2c1 on feat/login: Add login form validation"),
        ("last_commit", "3f9a2c1 on feat/login: Add login form validation"),
        ("current_branch", "feat/login"),
    ]
    assert got[0].kind is Kind.EVENT and got[1].kind is Kind.FACT
    assert said(git_commit(event("codex", "git_commit"), CTX))[1] == (
        "last_commit",
        "9c0ffee on main: Fix token expiry",
    )


def test_an_amended_commit_says_it_replaces_the_commit_before() -> None:
    first = event("claude-code", "git_commit")
    amend = first.model_copy(
        update={
            "command": "git commit --amend --no-edit",
            "output": first.output.replace("3f9a2c1", "7be40d2"),
        }
    )
    line = "7be40d2 on feat/login: Add login form validation (amends the commit before)"
    assert said(git_commit(amend, CTX))[:2] == [("committed", line), ("last_commit", line)]


def test_git_commit_captures_nothing_from_a_dry_run() -> None:
    assert git_commit(event("claude-code", "git_commit_dry_run"), CTX) == []
    assert facts_from(event("claude-code", "git_commit_dry_run"), CTX) == []


def test_git_push_records_branch_and_remote_and_the_remote_url_for_the_repo() -> None:
    got = git_push(event("claude-code", "git_push"), CTX)
    assert said(got) == [
        ("last_push", "feat/login to origin (github.com:acme/web.git)"),
        ("git_remote_origin", "github.com:acme/web.git"),
    ]
    assert resolve_place(got[0].fact_class, got[0].category) is Place.WORKTREE
    assert resolve_place(got[1].fact_class, got[1].category) is Place.REPO
    assert said(git_push(event("cursor", "git_push"), CTX))[0] == (
        "last_push",
        "feat/signup to origin (github.com:acme/web.git)",
    )


def test_git_push_to_a_url_with_a_token_keeps_no_credential() -> None:
    got = facts_from(event("claude-code", "git_push_with_token"), CTX)
    assert said(got) == [("last_push", "feat/login to https://github.com/acme/web.git")]
    assert all("ghp_" not in f.object and "selin" not in f.object for f in got)
    assert strip_credentials("https://x-token:abc@host/r.git") == "https://host/r.git"
    assert strip_credentials("https://ghp_abc@host/r.git") == "https://host/r.git"


def test_branch_switched_sets_the_worktrees_current_branch() -> None:
    assert said(branch_switched(event("claude-code", "git_checkout_new_branch"), CTX)) == [
        ("current_branch", "feat/login")
    ]
    assert said(branch_switched(event("codex", "git_switch"), CTX)) == [
        ("current_branch", "feat/token")
    ]
    got = branch_switched(event("codex", "git_switch"), CTX)[0]
    assert resolve_place(got.fact_class, got.category) is Place.WORKTREE


def test_default_branch_is_a_repo_fact() -> None:
    got = default_branch(event("claude-code", "git_remote_show"), CTX)
    assert said(got) == [("default_branch", "main")]
    assert resolve_place(got[0].fact_class, got[0].category) is Place.REPO


@pytest.mark.parametrize(
    ("command", "output", "name"),
    [
        ("git symbolic-ref refs/remotes/origin/HEAD", "refs/remotes/origin/main\n", "main"),
        ("git symbolic-ref --short refs/remotes/origin/HEAD", "origin/trunk\n", "trunk"),
        ("git rev-parse --abbrev-ref origin/HEAD", "origin/develop\n", "develop"),
        ("gh repo view --json defaultBranchRef",
         '{"defaultBranchRef":{"name":"main"}}\n', "main"),
        # Not the default branch: the branch being tracked, or any branch printed alone.
        ("git rev-parse --abbrev-ref HEAD", "origin/feature-x\n", None),
        ("git branch -r", "  origin/main\n  origin/feature-x\n", None),
    ],
)  # fmt: skip
def test_the_default_branch_is_read_from_what_agents_ask_before_a_pull_request(
    command: str, output: str, name: str | None
) -> None:
    got = default_branch(_piped(command, output), CTX)
    assert said(got) == ([("default_branch", name)] if name else [])


def test_pull_request_opened_from_gh_output_or_the_mcp_tool() -> None:
    assert said(pull_request_opened(event("claude-code", "gh_pr_create"), CTX)) == [
        ("opened_pull_request", "#42 Login form validation — https://github.com/acme/web/pull/42")
    ]
    assert said(pull_request_opened(event("claude-code", "mcp_create_pull_request"), CTX)) == [
        ("opened_pull_request", "#43 Signup form validation — https://github.com/acme/web/pull/43")
    ]


@pytest.mark.parametrize(
    ("client", "name", "slot", "value"),
    [
        (
            "claude-code",
            "pytest_failed",
            "pytest_selection_result",  # the recorded run names one file: part of the suite
            "pytest tests/test_login.py failed: 2 failing: "
            "tests/test_login.py::test_rejects_empty_email, "
            "tests/test_login.py::test_rejects_short_password",
        ),
        (
            "claude-code",
            "pytest_passed",
            "pytest_selection_result",
            "pytest tests/test_login.py passed",
        ),
        (
            "codex",
            "go_test_failed",
            "go_test_result",
            "go test failed: 2 failing: TestLoginRejectsEmptyEmail, TestTokenExpiry",
        ),
        (
            "codex",
            "cargo_test_failed",
            "cargo_test_result",
            "cargo test failed: 1 failing: auth::tests::rejects_empty",
        ),
        (
            "cursor",
            "jest_failed",
            "npm_test_result",
            "npm test failed: 1 failing: login › rejects an empty email",
        ),
        (
            "cursor",
            "vitest_failed",
            "vitest_result",
            "vitest failed: 1 failing: src/signup.test.ts > signup > requires a password",
        ),
        ("cursor", "vitest_passed", "vitest_result", "vitest passed"),
    ],
)
def test_ran_tests_names_the_runner_the_outcome_and_the_failing_tests(
    client: str, name: str, slot: str, value: str
) -> None:
    got = ran_tests(event(client, name), CTX)
    assert said(got) == [(slot, value)]
    assert resolve_place(got[0].fact_class, got[0].category) is Place.WORKTREE


def test_files_edited_is_a_many_valued_event_relative_to_the_worktree() -> None:
    got = files_edited(event("claude-code", "edit"), CTX)
    assert said(got) == [("edited_file", "src/login.ts")]
    assert got[0].kind is Kind.EVENT
    assert said(files_edited(event("codex", "apply_patch"), CTX)) == [
        ("edited_file", "auth/token.go"),
        ("edited_file", "auth/token_test.go"),
    ]
    # As Codex 0.171 sends it (recorded): the patch under tool_input.command.
    assert said(files_edited(event("codex", "apply_patch_0171"), CTX)) == [
        ("edited_file", "docs/notes.md"),
        ("edited_file", "auth/token.go"),
    ]
    assert said(files_edited(event("cursor", "edit"), CTX)) == [("edited_file", "src/signup.ts")]


def test_a_dotenv_edit_records_the_file_name_only() -> None:
    for client, name in (("claude-code", "write_env"), ("cursor", "edit_env")):
        got = facts_from(event(client, name), CTX)
        assert said(got) == [("edited_file", ".env")]


def test_subagent_finished_says_what_it_was_asked() -> None:
    assert said(subagent_finished(event("claude-code", "task_finished"), CTX)) == [
        ("subagent_finished", "Find every caller of validate()")
    ]


def test_repeated_tool_error_fires_on_the_second_failure_of_the_same_command() -> None:
    first = event("claude-code", "npm_build_failed")
    assert repeated_tool_error(first, CTX) == []
    again = RuleContext(repo="acme-web", failures_before=1)
    assert said(repeated_tool_error(event("claude-code", "npm_build_failed_again"), again)) == [
        (
            "repeated_tool_error",
            "`npm run build` failed 2 times: src/login.ts(12,7): error TS2322: "
            "Type 'string' is not assignable to type 'number'.",
        )
    ]
    # A failing test run is a test result, never a "tool error".
    assert repeated_tool_error(event("claude-code", "pytest_failed"), again) == []


def test_a_tool_that_only_reads_yields_no_facts() -> None:
    assert facts_from(event("claude-code", "read_file"), CTX) == []


def test_every_rule_writes_at_most_a_few_short_one_line_facts() -> None:
    for client, file in CLIENT_FILES.items():
        for name in json.loads((FIXTURES / file).read_text())["events"]:
            got = facts_from(event(client, name), RuleContext(repo="acme-web", failures_before=1))
            assert len(got) <= 3, name
            assert all(len(f.object) <= 500 and "\n" not in f.object for f in got), name
    assert len(RULES) == 9


# -- normalizing events ----------------------------------------------------------------------


def test_the_client_is_told_by_the_ids_only_it_sends() -> None:
    assert detect_client(raw("cursor", "edit")) == "cursor"
    assert detect_client(raw("codex", "git_switch")) == "codex"
    assert detect_client(raw("claude-code", "edit")) == "claude-code"


def test_a_replayed_event_has_the_same_id_and_another_call_another() -> None:
    first = raw("claude-code", "npm_build_failed")
    assert event_id_of("claude-code", dict(first)) == event_id_of("claude-code", first)
    other = raw("claude-code", "npm_build_failed_again")
    assert event_id_of("claude-code", first) != event_id_of("claude-code", other)
    # Cursor has no tool-call id: two commands of one generation still differ.
    push, edit = raw("cursor", "git_push"), raw("cursor", "jest_failed")
    same_generation = {**edit, "generation_id": push["generation_id"]}
    assert event_id_of("cursor", push) != event_id_of("cursor", same_generation)


def test_the_hooks_stamp_dates_the_event_and_leaves_its_id_alone() -> None:
    # Fired twice by the client, an event is stamped twice: it is still one event.
    for client, name in (("cursor", "jest_failed"), ("claude-code", "npm_build_failed")):
        bare = raw(client, name)
        bare.pop("tool_use_id", None)  # identified by its whole content
        stamps = ("2026-03-02T09:00:00+00:00", "2026-03-02T09:00:01+00:00")
        ids = {event_id_of(client, {**bare, "twoclocks_seen_at": t}) for t in stamps}
        assert ids == {event_id_of(client, bare)}, client
        seen = normalize({**bare, "twoclocks_seen_at": stamps[0]}, client).seen_at
        assert seen == datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    # A stamp that is no time with an offset is no stamp.
    for stamp in ("yesterday", "2026-03-02T09:00:00", 5):
        assert normalize({**bare, "twoclocks_seen_at": stamp}, "claude-code").seen_at is None
    stamped = normalize({**bare, "twoclocks_seen_at": stamps[1]}, "claude-code")
    later = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a client clock ahead of the server's
    assert happened_at(stamped, later) == later
    assert happened_at(stamped.model_copy(update={"seen_at": None}), later) == later


def test_exit_status_is_read_from_each_clients_shape() -> None:
    assert event("claude-code", "pytest_failed").exit_code == 1
    assert event("claude-code", "pytest_passed").exit_code == 0
    assert event("codex", "go_test_failed").exit_code == 1
    assert event("codex", "cargo_test_failed").exit_code == 101
    assert event("codex", "git_commit").exit_code == 0
    assert event("cursor", "jest_failed").exit_code is None  # Cursor sends none: output decides


def test_segments_split_compound_commands_and_shell_scripts() -> None:
    assert segments("cd web && FOO=1 git commit -m 'a b'; bash -lc 'cargo test'") == [
        ["cd", "web"],
        ["git", "commit", "-m", "a b"],
        ["cargo", "test"],
    ]


def test_an_event_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(InvalidInput, match="JSON object"):
        normalize(["not", "an", "event"])
    with pytest.raises(InvalidInput, match="unknown"):
        normalize({}, "vscode")


def _piped(command: str, stdout: str) -> ToolEvent:
    """A Claude Code PostToolUse for a command that exited 0, as a pipeline through tail does."""
    base = raw("claude-code", "pytest_passed")
    response = {**base["tool_response"], "stdout": stdout}
    return normalize({**base, "tool_input": {"command": command}, "tool_response": response},
                     "claude-code")  # fmt: skip


def test_a_failing_run_piped_through_tail_is_recorded_failed_not_passed() -> None:
    # `pnpm test 2>&1 | tail -20` exits with tail's status, 0, so Claude Code fires its
    # success event; the output says a test failed. Recorded "passed", the next
    # session's block would tell the agent the suite is green.
    jest = (
        "FAIL src/orders.test.ts\n  ● orders › creates an order\n\n"
        "Tests:       1 failed, 40 passed, 41 total\n"
    )
    got = ran_tests(_piped("pnpm test 2>&1 | tail -20", jest), CTX)
    assert said(got) == [
        ("npm_test_result", "pnpm test failed: 1 failing: orders › creates an order")
    ]
    collection = "==================== 1 error in 0.21s ====================\n"
    assert said(ran_tests(_piped("pytest -q | tail -3", collection), CTX)) == [
        ("pytest_result", "pytest failed")
    ]


def _failed(command: str, error: str, *, interrupt: bool = False) -> ToolEvent:
    """A Claude Code PostToolUseFailure for ``command`` whose error text is ``error``."""
    base = raw("claude-code", "pytest_failed")
    return normalize({**base, "tool_input": {"command": command}, "error": error,
                      "is_interrupt": interrupt}, "claude-code")  # fmt: skip


@pytest.mark.parametrize(
    ("command", "error", "interrupt"),
    [
        # Never started: the runner is not on the PATH, no such script or target.
        ("pytest -q", "Exit code 127\nbash: line 1: pytest: command not found", False),
        (".venv/bin/pytest", "Exit code 126\nbash: .venv/bin/pytest: Permission denied", False),
        ("npm test", 'Exit code 1\nnpm error Missing script: "test"', False),
        ("make test", "Exit code 2\nmake: *** No rule to make target 'test'.  Stop.", False),
        # Ran no test: a filter that matched none.
        ("pytest -k nothing_matches", "Exit code 5\n5 deselected in 0.02s\nno tests ran", False),
        ("npx jest orders", "Exit code 1\nNo tests found, exiting with code 1", False),
        # Stopped: the person, a time limit, a signal.
        ("pytest -q", "Interrupted by user", True),
        ("pytest -q", "Command timed out after 2m 0s\n....", False),
        ("timeout 60 pytest -q", "Exit code 124\n........", False),
        ("pytest -q", "Exit code 144\n........", False),
    ],
)  # fmt: skip
def test_a_test_run_that_gave_no_result_writes_nothing(
    command: str, error: str, interrupt: bool
) -> None:
    # "pytest failed" from `pytest: command not found` would close a real "pytest passed"
    # with a false failure, and the next session would chase tests that never failed.
    assert ran_tests(_failed(command, error, interrupt=interrupt), CTX) == []


def test_a_run_stopped_after_a_failure_still_says_what_failed() -> None:
    # Stopped, but a test had already failed: that much is known and true.
    stopped = "Command timed out after 2m 0s\n..F\nFAILED tests/test_cart.py::test_total"
    assert said(ran_tests(_failed("pytest -q", stopped), CTX)) == [
        ("pytest_result", "pytest failed: 1 failing: tests/test_cart.py::test_total")
    ]
    # A suite that fails to collect did fail: its summary counts the error.
    broken = "Exit code 2\n==================== 1 error in 0.21s ===================="
    assert said(ran_tests(_failed("pytest -q", broken), CTX)) == [
        ("pytest_result", "pytest failed")
    ]


def test_a_nextest_run_is_the_cargo_suite_named_as_it_ran_with_its_failing_tests() -> None:
    # `cargo nextest run` was told as "cargo test failed", naming no test: nextest prints
    # neither cargo's "test x ... FAILED" nor its summary.
    out = (
        "    Starting 3 tests across 1 binary\n"
        "        PASS [   0.002s] ledger tests::totals\n"
        "        FAIL [   0.003s] ledger tests::rounding\n"
        "     Summary [   0.005s] 3 tests run: 2 passed, 1 failed, 0 skipped\n"
        "        FAIL [   0.003s] ledger tests::rounding\n"
        "error: test run failed\n"
    )
    assert said(ran_tests(_failed("cargo nextest run", out), CTX)) == [
        ("cargo_test_result", "cargo nextest failed: 1 failing: ledger tests::rounding")
    ]
    assert said(ran_tests(_piped("cargo nextest run -E 'test(totals)'", "1 passed"), CTX)) == [
        ("cargo_test_selection_result", "cargo nextest -E 'test(totals)' passed")
    ]


# Maven 3.8.7 with Surefire 3.2.5, as `mvn test` printed it into a pipe here (2026-12-07):
# coloured although no terminal read it.
_MAVEN_FAILED = (
    "[\x1b[1;31mERROR\x1b[m] \x1b[1;31mTests \x1b[0;1mrun: \x1b[0;1m3\x1b[m, \x1b[1;31mFailures: "
    "\x1b[0;1;31m2\x1b[m, Errors: 0, Skipped: 0, Time elapsed: 0.074 s\x1b[1;31m <<< FAILURE!\x1b[m"
    " -- in demo.\x1b[1mCalcTest\x1b[m\n"
    "[\x1b[1;31mERROR\x1b[m] demo.CalcTest.adds -- Time elapsed: 0.037 s <<< FAILURE!\n"
    "org.opentest4j.AssertionFailedError: expected: <3> but was: <4>\n"
    "[\x1b[1;31mERROR\x1b[m] demo.CalcTest.addsNegatives -- Time elapsed: 0.004 s <<< FAILURE!\n"
    "[\x1b[1;31mERROR\x1b[m] Failures: \n"
    "[\x1b[1;31mERROR\x1b[m]   CalcTest.adds:5 expected: <3> but was: <4>\n"
    "[\x1b[1;31mERROR\x1b[m] \x1b[1;31mTests run: 3, Failures: 2, Errors: 0, Skipped: 0\x1b[m\n"
    "[\x1b[1;34mINFO\x1b[m] \x1b[1;31mBUILD FAILURE\x1b[m\n"
)


def test_a_maven_run_names_its_failing_tests_and_its_summary_counts_when_piped() -> None:
    # `mvn test` wrote nothing: no rule knew Maven (nor Gradle).
    assert said(ran_tests(_failed("mvn test", _MAVEN_FAILED), CTX)) == [
        ("maven_test_result",
         "mvn test failed: 2 failing: demo.CalcTest.adds, demo.CalcTest.addsNegatives")
    ]  # fmt: skip
    # `| tail` exits 0: the coloured summary still counts the failures.
    assert said(ran_tests(_piped("mvn -B clean verify | tail -40", _MAVEN_FAILED), CTX)) == [
        ("maven_test_result",
         "mvn verify failed: 2 failing: demo.CalcTest.adds, demo.CalcTest.addsNegatives")
    ]  # fmt: skip
    passed = "[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS\n"
    assert said(ran_tests(_piped("./mvnw test", passed), CTX)) == [
        ("maven_test_result", "mvn test passed")
    ]
    # A compile error fails the build before any test: the suite did not pass.
    broken = "[ERROR] COMPILATION ERROR : \n[INFO] BUILD FAILURE\n"
    assert said(ran_tests(_piped("mvn -q test 2>&1 | tail", broken), CTX)) == [
        ("maven_test_result", "mvn test failed")
    ]
    # A filter that matched no test gave no result; skipped tests ran none.
    none = '[ERROR] Failed to execute goal ...: No tests matching pattern "Nope" were executed!'
    assert ran_tests(_failed("mvn test -Dtest=Nope", none), CTX) == []
    assert ran_tests(_piped("mvn install -DskipTests", passed), CTX) == []


def test_a_gradle_run_names_its_failing_tests() -> None:
    out = (
        "> Task :app:test FAILED\n\nCalcTest > adds() FAILED\n"
        "    org.opentest4j.AssertionFailedError at CalcTest.java:5\n\n"
        "3 tests completed, 1 failed\n\nFAILURE: Build failed with an exception.\n"
    )
    assert said(ran_tests(_failed("./gradlew test", out), CTX)) == [
        ("gradle_test_result", "gradle test failed: 1 failing: CalcTest > adds()")
    ]
    assert said(ran_tests(_piped("./gradlew test | tail", out), CTX)) == [
        ("gradle_test_result", "gradle test failed: 1 failing: CalcTest > adds()")
    ]


def test_a_passing_summary_that_counts_zero_failures_stays_passed() -> None:
    cargo = "test result: ok. 12 passed; 0 failed; 0 ignored; finished in 0.02s\n"
    assert said(ran_tests(_piped("cargo test 2>&1 | tail -2", cargo), CTX)) == [
        ("cargo_test_result", "cargo test passed")
    ]
    assert said(ran_tests(_piped("yarn test", "Tests:       3 passed, 3 total\n"), CTX)) == [
        ("npm_test_result", "yarn test passed")
    ]


@pytest.mark.parametrize(
    ("command", "slot", "value"),
    [
        # The whole suite, whatever the flags, redirections and usual roots say.
        ("uv run pytest -q -p no:cacheprovider -n 4 --tb=short 2>&1", "pytest_result", "pytest"),
        ("pytest tests/ > out.txt", "pytest_result", "pytest"),
        ("go test -count=1 ./...", "go_test_result", "go test"),
        ("cargo nextest run", "cargo_test_result", "cargo nextest"),  # the suite, named so
        ("pnpm vitest run", "vitest_result", "vitest"),
        ("npm run test -- --coverage", "npm_test_result", "npm test"),
        ("make test V=1", "make_test_result", "make test"),  # make's words are make's own
        # Part of it: a file, a test, a name filter, the last failures, a package.
        ("python -m pytest tests/test_cart.py::test_total", "pytest_selection_result",
         "pytest tests/test_cart.py::test_total"),
        ("pytest -q -k 'cart and not slow'", "pytest_selection_result",
         "pytest -k 'cart and not slow'"),
        ("pytest --lf", "pytest_selection_result", "pytest --lf"),
        ("go test -run TestCart ./cart", "go_test_selection_result",
         "go test -run TestCart ./cart"),
        ("cargo test -p api totals -- --nocapture", "cargo_test_selection_result",
         "cargo test -p api totals"),
        ("npx jest src/orders.test.ts", "jest_selection_result", "jest src/orders.test.ts"),
        ("npm test -- orders", "npm_test_selection_result", "npm test orders"),
        ("tox -e py311", "tox_selection_result", "tox -e py311"),
        ("mvn -B -T 4 clean test", "maven_test_result", "mvn test"),
        ("./mvnw test -Dtest=CalcTest#adds", "maven_test_selection_result",
         "mvn test '-Dtest=CalcTest#adds'"),
        ("mvn -pl api verify", "maven_test_selection_result", "mvn verify -pl api"),
        ("./gradlew clean test --console=plain", "gradle_test_result", "gradle test"),
        ("gradle test --tests demo.CalcTest", "gradle_test_selection_result",
         "gradle test --tests demo.CalcTest"),
        ("./gradlew :app:test", "gradle_test_selection_result", "gradle test :app:test"),
    ],
)  # fmt: skip
def test_a_run_of_part_of_the_suite_reports_to_its_own_slot_and_names_what_ran(
    command: str, slot: str, value: str
) -> None:
    # `pytest tests/test_api.py` passing says nothing of the tests it did not run: in the
    # suite's slot it would close the whole run's failure and the block would say green.
    (fact,) = ran_tests(_piped(command, "5 passed in 0.2s\n"), CTX)
    assert (fact.predicate, fact.object) == (slot, f"{value} passed")
    # The whole suite's run ends what a part of it said last; a part ends nothing.
    whole = not slot.endswith("_selection_result")
    assert fact.ends == ((slot.replace("_result", "_selection_result"),) if whole else ())


@pytest.mark.parametrize(
    ("cwd", "command", "subject"),
    [
        ("/src/web", "cd api && uv run pytest -q", "web/api"),
        ("/src/web", "cd /src/web/api && pytest", "web/api"),  # agents write whole paths
        ("/src/web/packages/ui", "pnpm test", "web/packages/ui"),  # the shell stayed there
        ("/src/web", "make -C api test", "web/api"),
        ("/src/web", "pnpm --dir packages/ui test", "web/packages/ui"),
        ("/src/web/api", "cd .. && pytest", "web"),
        ("/src/web", "cd /tmp/scratch && pytest", "web"),  # outside the worktree: its repo
        ("/src/web", "cd - && pytest", "web"),  # only the shell knows where that is
        ("/src/web/api", "cd && pytest", "web"),  # home
    ],
)
def test_a_run_in_a_folder_of_the_worktree_reports_under_that_folder(
    cwd: str, command: str, subject: str
) -> None:
    # A monorepo's api failing and its ui passing are two results: under one subject the
    # ui run would close the api's failure and the block would say the tests pass.
    here = RuleContext(repo="web", top="/src/web", cwd=cwd)
    (fact,) = ran_tests(_piped(command, "5 passed in 0.2s\n"), here)
    assert fact.subject == subject
    # Where the worktree is not known (a remote server), the repo, as before.
    (fact,) = ran_tests(_piped(command, "5 passed in 0.2s\n"), CTX)
    assert fact.subject == CTX.repo


def test_make_test_and_named_test_scripts_are_test_runs_each_with_its_own_slot() -> None:
    # This repository's own `make test`, and a package's unit and e2e scripts: the e2e run
    # passing must not close the unit run's failure, so each script reports to its slot.
    pytest_summary = "FAILED tests/test_x.py::test_y - assert 1 == 2\n1 failed, 9 passed in 0.4s\n"
    assert said(ran_tests(_piped("make -C api test", pytest_summary), CTX)) == [
        ("make_test_result", "make test failed: 1 failing: tests/test_x.py::test_y")
    ]
    unit = ran_tests(_piped("npm run test:unit", "Tests:       2 failed, 8 total\n"), CTX)
    e2e = ran_tests(_piped("pnpm test:e2e", "Tests:       4 passed, 4 total\n"), CTX)
    assert said(unit) == [("npm_test_unit_result", "npm test:unit failed")]
    assert said(e2e) == [("npm_test_e2e_result", "pnpm test:e2e passed")]
    # Not test runs: a build, an install.
    for command in ("make build", "npm run build", "npm install"):
        assert ran_tests(_piped(command, "1 failed\n"), CTX) == []
