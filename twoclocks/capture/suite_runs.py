"""Test runs: which runner, which part of the suite, in which folder, passed or failed.

A run reports to its runner's slot under the repo's subject (``pytest_result``); a run of
part of the suite to a slot of its own (``capture.selection``), and a run in a folder of
the worktree (`cd api && pytest`, `make -C web test`) under that folder's subject
(``shop/api``), so one package's result never closes another's.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable
from typing import NamedTuple

from twoclocks.capture.captured import (
    CapturedFact,
    RuleContext,
    captured_fact,
    clean,
    option_value,
    segments,
)
from twoclocks.capture.events import ToolEvent
from twoclocks.capture.selection import selected

MAX_FAILING_NAMES = 5
"""Failing tests named in one fact; the rest are counted."""

_PACKAGE_MANAGERS = ("npm", "pnpm", "yarn", "bun")
_TASK_RUNNERS = ("make", "just", "task")
# Their options that take the next word (`make -C api test`, `pnpm --dir web test`).
_TAKES_A_VALUE = ("-C", "-f", "--directory", "--file", "--dir", "--prefix", "--cwd", "--filter")


def _test_script(name: str) -> bool:
    """A package script or a make target that runs tests: ``test``, ``test:unit``, ``test-e2e``."""
    return name == "test" or name.startswith(("test:", "test-", "test_"))


def _script_of(words: list[str]) -> tuple[str, list[str]]:
    """The script a package manager or a task runner was asked for ("" for none) and the
    words after it: ``npm run test:unit`` -> test:unit, ``make -C api test`` -> test,
    ``yarn t`` -> test."""
    rest = words[1:]
    while rest and rest[0].startswith("-"):
        rest = rest[2:] if rest[0] in _TAKES_A_VALUE else rest[1:]
    if rest[:1] == ["run"] and os.path.basename(words[0]) in _PACKAGE_MANAGERS:
        rest = rest[1:]
    script = rest[0] if rest else ""
    return ("test" if script == "t" else script), rest[1:]


def _at(words: list[str], names: tuple[str, ...], within: int) -> int | None:
    """Where the runner's word is among the first ``within`` words (``uv run pytest``)."""
    for index, word in enumerate(words[:within]):
        if os.path.basename(word) in names:
            return index
    return None


def _after_subcommand(tool: str, subs: tuple[str, ...]) -> Callable[[list[str]], int | None]:
    return lambda w: 1 if os.path.basename(w[0]) == tool and w[1] in subs else None


# A build tool runs the tests when a goal or task that runs them is named anywhere on its
# line (`mvn -B clean verify`, `./gradlew :api:test`), unless they are skipped.
_SKIPS_TESTS = ("-DskipTests", "-Dmaven.test.skip=true", "-DskipTests=true")


def _with_goal(tools: tuple[str, ...], goal: str) -> Callable[[list[str]], int | None]:
    def starts_at(words: list[str]) -> int | None:
        if os.path.basename(words[0]) not in tools or any(w in _SKIPS_TESTS for w in words):
            return None
        named = any(w == goal or w.endswith(f":{goal}") for w in words[1:])
        return 0 if named else None

    return starts_at


# Each runner: the name the value gives it, the slot it reports to, and where its own words
# start (None: not it). `cargo nextest run` runs the suite `cargo test` runs: one slot, so
# a nextest pass closes a cargo test failure, but the value names what ran.
_RUNNERS: tuple[tuple[str, str, Callable[[list[str]], int | None]], ...] = (
    ("pytest", "pytest", lambda w: _at(w, ("pytest", "py.test"), 4)),
    ("go test", "go_test", _after_subcommand("go", ("test",))),
    ("cargo test", "cargo_test", _after_subcommand("cargo", ("test",))),
    ("cargo nextest", "cargo_test", _after_subcommand("cargo", ("nextest",))),
    ("vitest", "vitest", lambda w: _at(w, ("vitest",), 3)),
    ("jest", "jest", lambda w: _at(w, ("jest",), 3)),
    ("tox", "tox", lambda w: 0 if os.path.basename(w[0]) == "tox" else None),
    # `mvn verify` runs the suite `mvn test` runs, and more: one slot, as for nextest.
    ("mvn test", "maven_test", _with_goal(("mvn", "mvnw"), "test")),
    ("mvn verify", "maven_test", _with_goal(("mvn", "mvnw"), "verify")),
    ("gradle test", "gradle_test", _with_goal(("gradle", "gradlew"), "test")),
    ("gradle check", "gradle_test", _with_goal(("gradle", "gradlew"), "check")),
)  # fmt: skip
# Tools that run a named script: each test script reports to a slot of its own
# (`npm test` -> npm_test_result, `pnpm test:unit` -> npm_test_unit_result), so an e2e run
# passing does not close the unit run's failure; the value names what ran.
_SCRIPT_RUNNERS = (("npm", _PACKAGE_MANAGERS), ("make", _TASK_RUNNERS))
_FAILING = (
    re.compile(r"^(?:FAILED|ERROR) (\S+)", re.M),  # pytest -ra / default summary
    re.compile(r"^\s*--- FAIL: (\S+)", re.M),  # go test
    re.compile(r"^test (\S+) \.\.\. FAILED\s*$", re.M),  # cargo test
    re.compile(r"^\s*FAIL \[\s*[\d.]+s\] (.+?)\s*$", re.M),  # cargo nextest
    re.compile(r"^\s*● (.+?)\s*$", re.M),  # jest
    re.compile(r"^\s*FAIL\s+(\S+\s+>\s+.+?)\s*$", re.M),  # vitest
    # Maven Surefire: "[ERROR] demo.CalcTest.adds -- Time elapsed: 0.03 s <<< FAILURE!"
    # (2.x: "adds(demo.CalcTest)  Time elapsed"); the class's own line starts "Tests run:".
    re.compile(r"^\[ERROR\] (\S+)\s+(?:--\s+)?Time elapsed:.*<<< (?:FAILURE|ERROR)!", re.M),
    re.compile(r"^(\S.*? > .+?) FAILED\s*$", re.M),  # Gradle: "CalcTest > adds() FAILED"
)
# A summary line that says the run failed. Zero is not a failure ("0 failed" is cargo's
# passing summary), and pytest's closing line counts errors (collection, fixtures) apart.
_FAILED_SUMMARY = re.compile(
    r"\b[1-9]\d* failed\b|^FAIL\b|test result: FAILED|^--- FAIL|^FAILED "
    r"|^=+ .*\b[1-9]\d* errors?\b.* =+$"
    # Maven ("Tests run: 3, Failures: 2, Errors: 0"; a build that failed before a test ran,
    # as a compile error, says only BUILD FAILURE) and Gradle.
    r"|\bTests run: \d+, (?:Failures: [1-9]|Failures: 0, Errors: [1-9])"
    r"|^\[INFO\] BUILD FAILURE\s*$|^BUILD FAILED\b",
    re.M,
)
# Maven colours its output even into a pipe; the lines above are matched without it.
_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

# A run that gave no result: nothing may be said of the suite, and the last result stands.
# It never started (the runner not found or not runnable, no such script or target)...
_NEVER_STARTED_CODES = frozenset({126, 127})
_NEVER_STARTED = re.compile(
    r"command not found|: No such file or directory|is not recognized as an internal"
    r"|Missing script|ERR_PNPM_NO_SCRIPT|No rule to make target",
)
# ... or it ran no test (a filter that matched none: pytest's exit 5, jest and vitest's
# "exiting with code 1") ...
_RAN_NO_TEST = re.compile(
    r"\bno tests ran\b|^collected 0 items|No tests found|No test files found"
    r"|No tests were executed|No tests matching pattern|No tests to run",  # Maven, Gradle
    re.M,
)
# ... or it was stopped: by the person, a signal (128 + N; Python reports -N), timeout(1),
# or the client's own time limit ("Command timed out after 2m 0s", Claude Code's Bash).
_STOPPED_CODES = frozenset({124})
_STOPPED = re.compile(r"Command timed out|Interrupted by user", re.I)


def gave_no_result(event: ToolEvent) -> bool:
    """True for a test run that never reached a result: stopped, never started, or no test
    ran. "failed" there would close a real result with a false one (`pytest` not on the
    PATH, a Ctrl-C, `pytest -k` matching nothing), so such a run writes nothing.

    >>> run = ToolEvent(client="claude-code", event_id="e", hook="PostToolUseFailure",
    ...                 kind="shell", command="pytest", output="bash: pytest: command not found",
    ...                 exit_code=127, failed=True)
    >>> gave_no_result(run)
    True
    """
    code = event.exit_code or 0
    stopped = (
        event.interrupted
        or code in _STOPPED_CODES
        or code >= 128
        or code < 0
        or bool(_STOPPED.search(event.error or ""))
    )
    never_started = code != 0 and (
        code in _NEVER_STARTED_CODES or bool(_NEVER_STARTED.search(event.output))
    )
    return stopped or never_started or bool(_RAN_NO_TEST.search(_ESCAPES.sub("", event.output)))


class SuiteRun(NamedTuple):
    """A test command: the run as the value names it, its slot, and where it ran."""

    name: str
    slot: str
    words: list[str]
    before: list[list[str]]
    """The simple commands before it on the same line (``cd api``)."""


def runner_of(event: ToolEvent) -> SuiteRun | None:
    """The test run in a shell line, if any: "pnpm test", "pytest tests/test_api.py" and the
    slot it reports to (a run of part of the suite reports to ``<slot>_selection_result``)."""
    lines = segments(event.command or "")
    for index, words in enumerate(lines):
        for name, slot, starts_at in _RUNNERS:
            if (at := starts_at([*words, ""])) is not None:
                named = _named(name, slot, selected(name, words[at + 1 :]))
                return SuiteRun(*named, words, lines[:index])
        tool = os.path.basename(words[0])
        for family, tools in _SCRIPT_RUNNERS:
            if tool not in tools:
                continue
            script, rest = _script_of(words)
            if _test_script(script):
                slug = "_".join(re.findall(r"[a-z0-9]+", script.lower()))
                named = _named(f"{tool} {script}", f"{family}_{slug}", selected(family, rest))
                return SuiteRun(*named, words, lines[:index])
    return None


SELECTION_SLOT = "_selection_result"
"""The end of the slot a run of part of the suite reports to (``pytest_selection_result``)."""


def _named(runner: str, slot: str, selection: list[str]) -> tuple[str, str]:
    """The run's name and slot: a selection is named in the value and reports apart."""
    if not selection:
        return runner, f"{slot}_result"
    return clean(f"{runner} {shlex.join(selection)}", 160), f"{slot}{SELECTION_SLOT}"


def ran_tests(event: ToolEvent, ctx: RuleContext) -> list[CapturedFact]:
    """A test run: passed or failed, by runner, with the failing tests' names."""
    found = runner_of(event)
    if found is None or event.kind != "shell":
        return []
    runner, slot = found.name, found.slot
    folder = ran_in(found, ctx)
    subject = f"{ctx.repo}/{folder}" if folder else ctx.repo
    # The output's summary counts even when the exit status is 0: agents pipe test runs
    # through `tail` or `head`, and a pipeline exits with its last command's status, so
    # `pnpm test | tail -20` over two failing tests exits 0 (Claude Code then fires
    # PostToolUse, the success event). "passed" there would be a false fact.
    output = _ESCAPES.sub("", event.output)
    failing = _failing(output)
    counted = bool(_FAILED_SUMMARY.search(output))
    # Failures the output names or counts stand even when the run was cut short after them.
    if not failing and not counted and gave_no_result(event):
        return []
    failed = bool(event.exit_code) or counted
    value = f"{runner} failed{failing}" if failed else f"{runner} passed"
    # The whole suite ran: what a part of it did before is old news ("pytest tests/b.py
    # failed" beside a later "pytest passed" reads as a failure still open).
    part = () if slot.endswith(SELECTION_SLOT) else (slot.removesuffix("_result") + SELECTION_SLOT,)
    return [
        captured_fact("ran_tests", ctx, slot, value, subject=subject, category="test", ends=part)
    ]


def _failing(output: str) -> str:
    """The failing tests a run's output names, as the value's tail ("" for none named)."""
    names: list[str] = []
    for pattern in _FAILING:
        for name in pattern.findall(output):
            name = clean(name, 120)
            if name and name not in names and not name.startswith("Test suite failed"):
                names.append(name)
    shown = ", ".join(names[:MAX_FAILING_NAMES])
    more = f" and {len(names) - MAX_FAILING_NAMES} more" if len(names) > MAX_FAILING_NAMES else ""
    return f": {len(names)} failing: {shown}{more}" if names else ""


# Options that run a tool in another folder: `make -C api test`, `pnpm --dir web test`.
_FOLDER_OPTIONS = {
    "make": ("-C", "--directory"),
    "npm": ("--prefix",),
    "pnpm": ("--dir", "-C"),
    "yarn": ("--cwd",),
    "bun": ("--cwd",),
}


def ran_in(run: SuiteRun, ctx: RuleContext) -> str:
    """The folder of the worktree a test run ran in, relative to its top ("" for the top, or
    where it is not known): the session's directory, a ``cd`` before the run on the same
    line, and a tool's own folder option.

    >>> run = SuiteRun("pytest", "pytest_result", ["pytest"], [["cd", "api"]])
    >>> ran_in(run, RuleContext(repo="shop", top="/src/shop", cwd="/src/shop"))
    'api'
    """
    if ctx.top is None or ctx.cwd is None:
        return ""
    here = ctx.cwd
    for words in run.before:
        if os.path.basename(words[0]) in ("cd", "pushd"):
            if len(words) < 2 or words[1] == "-" or words[1].startswith("~"):
                return ""  # home, or the last folder: somewhere only the shell knows
            here = os.path.join(here, words[1])
    for option in _FOLDER_OPTIONS.get(os.path.basename(run.words[0]), ()):
        if (folder := option_value(run.words, option)) is not None:
            here = os.path.join(here, folder)
    relative = os.path.relpath(os.path.normpath(here), ctx.top)
    if relative == "." or relative.startswith(".."):
        return ""
    return relative.replace(os.sep, "/")
