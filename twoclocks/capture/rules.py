"""Deterministic capture rules: a tool event in, a few short observed facts out (no model).

Each rule is a named pure function ``(event, context) -> facts``; docs/capture.md has
the table of all of them. Session state (branch, last commit, files edited, test
results) goes to the worktree place (class ``task`` with a local category); facts
about the repository itself (its remotes, its default branch) to the repo place
(category ``remote``). Nothing is captured from a dry run or a command that failed,
and credentials are stripped from URLs before they become facts.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from twoclocks.capture.events import ToolEvent
from twoclocks.capture.selection import selected
from twoclocks.domain.model import MAX_TEXT, Cardinality, FactClass, Kind

MAX_FAILING_NAMES = 5
"""Failing tests named in one fact; the rest are counted."""

CURRENT_BRANCH = "current_branch"
"""The worktree's branch: written by the git rules, and corrected from the worktree's HEAD
when a read finds it names another (``CaptureService.observe_checkout``)."""


class CapturedFact(BaseModel):
    """A fact a rule read off a tool event, before it is written (observed tier)."""

    model_config = ConfigDict(frozen=True)

    rule: str
    subject: str
    predicate: str
    object: str
    kind: Kind = Kind.FACT
    cardinality: Cardinality | None = None
    fact_class: FactClass = FactClass.TASK
    category: str


class RuleContext(BaseModel):
    """What a rule knows beyond the event: the repo's name and this session's earlier failures."""

    model_config = ConfigDict(frozen=True)

    repo: str
    failures_before: int = 0


Rule = Callable[[ToolEvent, RuleContext], list[CapturedFact]]

_CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|[\x00-\x08\x0b-\x1f\x7f]")
_URL_CREDENTIALS = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@]+@")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "fish"})
_SCRIPT = frozenset({"-c", "-lc", "-ic", "-lic", "-ilc"})


def clean(text: str, limit: int = 200) -> str:
    """One line, no terminal escapes or control characters, at most ``limit`` characters."""
    line = " ".join(_CONTROL.sub(" ", text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def strip_credentials(text: str) -> str:
    """Remove ``user:password@`` (or a bare token) from every URL in ``text``.

    >>> strip_credentials("git push https://me:ghp_abc@github.com/acme/web.git main")
    'git push https://github.com/acme/web.git main'
    """
    return _URL_CREDENTIALS.sub(r"\1", text)


def segments(command: str) -> list[list[str]]:
    """The simple commands of a shell line, as words, leading ``VAR=value`` dropped."""
    out: list[list[str]] = []
    for part in re.split(r"&&|\|\||;|\n|\|", command):
        try:
            words = shlex.split(part, comments=False)
        except ValueError:
            words = part.split()
        while words and _ASSIGNMENT.match(words[0]):
            words = words[1:]
        if len(words) >= 3 and os.path.basename(words[0]) in _SHELLS and words[1] in _SCRIPT:
            out += segments(words[2])  # bash -lc "cargo test": the script is the command
        elif words:
            out.append(words)
    return out


def _git(words: list[str]) -> tuple[str, list[str]] | None:
    """(subcommand, its args) for a git command, skipping git's own options like ``-C dir``."""
    if not words or os.path.basename(words[0]) != "git":
        return None
    rest = words[1:]
    while rest and rest[0].startswith("-"):
        takes_value = rest[0] in ("-C", "-c", "--git-dir", "--work-tree")
        rest = rest[2:] if takes_value else rest[1:]
    return (rest[0], rest[1:]) if rest else None


def _git_calls(event: ToolEvent, sub: str) -> list[list[str]]:
    calls = [_git(words) for words in segments(event.command or "")]
    return [args for call in calls if call and call[0] == sub for args in [call[1]]]


def _dry_run(args: Sequence[str]) -> bool:
    return any(a in ("-n", "--dry-run") for a in args)


def _succeeded(event: ToolEvent) -> bool:
    return event.kind == "shell" and not event.failed and event.exit_code in (0, None)


def _fact(rule: str, ctx: RuleContext, predicate: str, obj: str, **kw: Any) -> CapturedFact:
    return CapturedFact(
        rule=rule, subject=ctx.repo, predicate=predicate, object=clean(obj, MAX_TEXT), **kw
    )


# -- git -----------------------------------------------------------------------------------

_COMMIT = re.compile(
    r"^\[(?P<branch>.+?)(?: \(root-commit\))? (?P<hash>[0-9a-f]{7,40})\] (?P<subject>.+)$", re.M
)


def git_commit(event: ToolEvent, ctx: RuleContext) -> list[CapturedFact]:
    """`git commit` that succeeded: the commit as an event, and the branch's last commit."""
    calls = _git_calls(event, "commit")
    if not calls or any(_dry_run(a) for a in calls) or not _succeeded(event):
        return []
    match = _COMMIT.search(event.output)
    if match is None:
        return []
    branch, sha, subject = match["branch"], match["hash"], clean(match["subject"], 160)
    facts = [
        _fact("git_commit", ctx, "committed", f"{sha} on {branch}: {subject}",
              kind=Kind.EVENT, category="git"),
        _fact("git_commit", ctx, "last_commit", f"{sha} on {branch}: {subject}", category="git"),
    ]  # fmt: skip
    if branch != "detached HEAD":
        facts.append(_fact("git_commit", ctx, CURRENT_BRANCH, branch, category="branch"))
    return facts


_PUSH_TO = re.compile(r"^To (\S+)\s*$", re.M)
_PUSH_REF = re.compile(
    r"^\s*[+*=! -]?\s*(?:\[new branch\]|\S+\.\.\.?\S+|\[up to date\])?\s+(\S+) -> (\S+)", re.M
)


def git_push(event: ToolEvent, ctx: RuleContext) -> list[CapturedFact]:
    """`git push` that succeeded: where this worktree last pushed, and the remote's URL."""
    calls = _git_calls(event, "push")
    if not calls or any(_dry_run(a) for a in calls) or not _succeeded(event):
        return []
    if "[rejected]" in event.output or "[remote rejected]" in event.output:
        return []
    positional = [a for a in calls[-1] if not a.startswith("-")]
    remote = strip_credentials(positional[0]) if positional else "origin"
    refs = _PUSH_REF.findall(event.output)
    branch = (
        refs[-1][1] if refs else (positional[1].split(":")[-1] if len(positional) > 1 else None)
    )
    to = _PUSH_TO.search(event.output)
    url = strip_credentials(to.group(1)) if to else None
    if branch is None and url is None:
        return []
    where = remote if url is None or remote == url else f"{remote} ({url})"
    facts = [
        _fact("git_push", ctx, "last_push", f"{branch or 'the current branch'} to {where}",
              category="git"),
    ]  # fmt: skip
    if url is not None and "://" not in remote and "@" not in remote:
        facts.append(
            _fact("git_push", ctx, f"git_remote_{clean(remote, 40)}", url,
                  fact_class=FactClass.PROJECT, category="remote")
        )  # fmt: skip
    return facts


_SWITCHED = re.compile(r"Switched to (?:a new )?branch '([^']+)'")
_RESET_BRANCH = re.compile(r"Switched to and reset branch '([^']+)'")


def branch_switched(event: ToolEvent, ctx: RuleContext) -> list[CapturedFact]:
    """`git switch` / `git checkout` to a branch (new or not): the worktree's current branch."""
    if event.kind != "shell" or event.failed:
        return []
    if not (_git_calls(event, "checkout") or _git_calls(event, "switch")):
        return []
    found = _SWITCHED.findall(event.output) + _RESET_BRANCH.findall(event.output)
    if not found:
        return []
    return [_fact("branch_switched", ctx, CURRENT_BRANCH, found[-1], category="branch")]


_HEAD_BRANCH = re.compile(r"^\s*HEAD branch: (\S+)\s*$", re.M)
_ORIGIN_HEAD = re.compile(
    r"refs/remotes/origin/HEAD\s*(?:->)?\s*refs/remotes/origin/(\S+)|origin/HEAD -> origin/(\S+)"
)


def default_branch(event: ToolEvent, ctx: RuleContext) -> list[CapturedFact]:
    """The repo's default branch, when a command printed it (`git remote show origin`, ...)."""
    if not _succeeded(event):
        return []
    match = _HEAD_BRANCH.search(event.output)
    name = match.group(1) if match else None
    if name is None:
        origin = _ORIGIN_HEAD.search(event.output)
        name = (origin.group(1) or origin.group(2)) if origin else None
    if not name or name == "(unknown)":
        return []
    return [
        _fact("default_branch", ctx, "default_branch", name,
              fact_class=FactClass.PROJECT, category="remote")
    ]  # fmt: skip


# -- pull requests -----------------------------------------------------------------------

_PR_URL = re.compile(r"https://[^\s\"']+/pull/(\d+)")


def _option(args: Sequence[str], *names: str) -> str | None:
    for i, arg in enumerate(args):
        for name in names:
            if arg == name and i + 1 < len(args):
                return args[i + 1]
            if name.startswith("--") and arg.startswith(name + "="):
                return arg.split("=", 1)[1]
    return None


def pull_request_opened(event: ToolEvent, ctx: RuleContext) -> list[CapturedFact]:
    """`gh pr create` (or a create-pull-request MCP tool): the PR's number, title and URL."""
    title: str | None = None
    url: str | None = None
    if event.kind == "shell" and _succeeded(event):
        calls = [w for w in segments(event.command or "") if w[:3] == ["gh", "pr", "create"]]
        if not calls or _dry_run(calls[-1]):
            return []
        title = _option(calls[-1], "--title", "-t")
        match = _PR_URL.search(event.output)
        url = match.group(0) if match else None
    elif (
        event.kind == "mcp"
        and "pull_request" in (event.tool_name or "")
        and "create" in (event.tool_name or "")
    ):
        if event.failed:
            return []
        result = event.result if isinstance(event.result, dict) else {}
        url = result.get("html_url") or result.get("url")
        title = result.get("title")
        if not isinstance(url, str) or "/pull/" not in url:
            match = _PR_URL.search(event.output)
            url = match.group(0) if match else None
    if not url:
        return []
    url = strip_credentials(url)
    number = _PR_URL.search(url)
    label = f"#{number.group(1)}" if number else "pull request"
    text = (
        f"{label} {clean(title, 160)} — {url}"
        if isinstance(title, str) and title
        else f"{label} — {url}"
    )
    return [
        _fact("pull_request_opened", ctx, "opened_pull_request", text,
              kind=Kind.EVENT, category="git")
    ]  # fmt: skip


# -- tests -------------------------------------------------------------------------------

_PACKAGE_MANAGERS = ("npm", "pnpm", "yarn", "bun")
_TASK_RUNNERS = ("make", "just", "task")


def _test_script(name: str) -> bool:
    """A package script or a make target that runs tests: ``test``, ``test:unit``, ``test-e2e``."""
    return name == "test" or name.startswith(("test:", "test-", "test_"))


def _script_of(words: list[str]) -> tuple[str, list[str]]:
    """The script a package manager or a task runner was asked for ("" for none) and the
    words after it: ``npm run test:unit`` -> test:unit, ``make -C api test`` -> test,
    ``yarn t`` -> test."""
    rest = words[1:]
    while rest and rest[0].startswith("-"):
        rest = rest[2:] if rest[0] in ("-C", "-f", "--directory", "--file") else rest[1:]
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


# Each runner: the name the value gives it, and where its own words start (None: not it).
_RUNNERS: tuple[tuple[str, Callable[[list[str]], int | None]], ...] = (
    ("pytest", lambda w: _at(w, ("pytest", "py.test"), 4)),
    ("go test", _after_subcommand("go", ("test",))),
    ("cargo test", _after_subcommand("cargo", ("test", "nextest"))),
    ("vitest", lambda w: _at(w, ("vitest",), 3)),
    ("jest", lambda w: _at(w, ("jest",), 3)),
    ("tox", lambda w: 0 if os.path.basename(w[0]) == "tox" else None),
)  # fmt: skip
# Tools that run a named script: each test script reports to a slot of its own
# (`npm test` -> npm_test_result, `pnpm test:unit` -> npm_test_unit_result), so an e2e run
# passing does not close the unit run's failure; the value names what ran.
_SCRIPT_RUNNERS = (("npm", _PACKAGE_MANAGERS), ("make", _TASK_RUNNERS))
_FAILING = (
    re.compile(r"^(?:FAILED|ERROR) (\S+)", re.M),  # pytest -ra / default summary
    re.compile(r"^\s*--- FAIL: (\S+)", re.M),  # go test
    re.compile(r"^test (\S+) \.\.\. FAILED\s*$", re.M),  # cargo test
    re.compile(r"^\s*● (.+?)\s*$", re.M),  # jest
    re.compile(r"^\s*FAIL\s+(\S+\s+>\s+.+?)\s*$", re.M),  # vitest
)
# A summary line that says the run failed. Zero is not a failure ("0 failed" is cargo's
# passing summary), and pytest's closing line counts errors (collection, fixtures) apart.
_FAILED_SUMMARY = re.compile(
    r"\b[1-9]\d* failed\b|^FAIL\b|test result: FAILED|^--- FAIL|^FAILED "
    r"|^=+ .*\b[1-9]\d* errors?\b.* =+$",
    re.M,
)


def _runner(event: ToolEvent) -> tuple[str, str] | None:
    """The run as the value names it ("pnpm test", "pytest tests/test_api.py") and the slot
    it reports to: a run of part of the suite reports to ``<slot>_selection_result``."""
    for words in segments(event.command or ""):
        for name, starts_at in _RUNNERS:
            if (at := starts_at([*words, ""])) is not None:
                return _named(name, name.replace(" ", "_"), selected(name, words[at + 1 :]))
        tool = os.path.basename(words[0])
        for family, tools in _SCRIPT_RUNNERS:
            if tool not in tools:
                continue
            script, rest = _script_of(words)
            if _test_script(script):
                slug = "_".join(re.findall(r"[a-z0-9]+", script.lower()))
                return _named(f"{tool} {script}", f"{family}_{slug}", selected(family, rest))
    return None


def _named(runner: str, slot: str, selection: list[str]) -> tuple[str, str]:
    if not selection:
        return runner, f"{slot}_result"
    return clean(f"{runner} {shlex.join(selection)}", 160), f"{slot}_selection_result"


def ran_tests(event: ToolEvent, ctx: RuleContext) -> list[CapturedFact]:
    """A test run: passed or failed, by runner, with the failing tests' names."""
    found = _runner(event)
    if found is None or event.kind != "shell":
        return []
    runner, slot = found
    # The output's summary counts even when the exit status is 0: agents pipe test runs
    # through `tail` or `head`, and a pipeline exits with its last command's status, so
    # `pnpm test | tail -20` over two failing tests exits 0 (Claude Code then fires
    # PostToolUse, the success event). "passed" there would be a false fact.
    failed = bool(event.exit_code) or bool(_FAILED_SUMMARY.search(event.output))
    if not failed:
        return [_fact("ran_tests", ctx, slot, f"{runner} passed", category="test")]
    names: list[str] = []
    for pattern in _FAILING:
        for name in pattern.findall(event.output):
            name = clean(name, 120)
            if name and name not in names and not name.startswith("Test suite failed"):
                names.append(name)
    shown = ", ".join(names[:MAX_FAILING_NAMES])
    more = f" and {len(names) - MAX_FAILING_NAMES} more" if len(names) > MAX_FAILING_NAMES else ""
    detail = f": {len(names)} failing: {shown}{more}" if names else ""
    return [_fact("ran_tests", ctx, slot, f"{runner} failed{detail}", category="test")]


# -- files, subagents, errors ------------------------------------------------------------


def _relative(path: str, cwd: str | None) -> str:
    if cwd and os.path.isabs(path):
        try:
            relative = os.path.relpath(path, cwd)
        except ValueError:
            return path
        if not relative.startswith(".."):
            return relative
    return path


def files_edited(event: ToolEvent, ctx: RuleContext) -> list[CapturedFact]:
    """A file edit: one value of the session's many-valued edited files (kept once each)."""
    if event.kind != "edit" or event.failed:
        return []
    return [
        _fact("files_edited", ctx, "edited_file", _relative(path, event.cwd),
              kind=Kind.EVENT, category="file")
        for path in dict.fromkeys(event.files)
    ]  # fmt: skip


def subagent_finished(event: ToolEvent, ctx: RuleContext) -> list[CapturedFact]:
    """A subagent (Task) finished: what it was asked to do."""
    if event.kind != "subagent" or event.failed:
        return []
    what = event.description or "a subagent task"
    return [
        _fact("subagent_finished", ctx, "subagent_finished", what,
              kind=Kind.EVENT, category="process")
    ]  # fmt: skip


def failure_key(event: ToolEvent) -> str | None:
    """What makes two failures "the same": the command, else the tool and its first error line."""
    if not event.failed and not event.exit_code:
        return None
    if event.kind == "shell" and _runner(event) is not None:
        return None  # a failing test run is a test result, not a tool error
    if event.command:
        return "cmd:" + clean(strip_credentials(event.command), 300)
    first = clean((event.error or "").splitlines()[0] if event.error else "", 120)
    return f"tool:{event.tool_name}:{first}"


def repeated_tool_error(event: ToolEvent, ctx: RuleContext) -> list[CapturedFact]:
    """The same command (or tool error) failing a second time in one session."""
    key = failure_key(event)
    if key is None or ctx.failures_before < 1:
        return []
    what = clean(strip_credentials(event.command), 160) if event.command else event.tool_name
    lines = [ln for ln in (event.error or event.output).splitlines() if ln.strip()]
    reason = clean(strip_credentials(lines[-1]), 160) if lines else "no output"
    count = ctx.failures_before + 1
    return [
        _fact("repeated_tool_error", ctx, "repeated_tool_error",
              f"`{what}` failed {count} times: {reason}", kind=Kind.EVENT, category="process")
    ]  # fmt: skip


RULES: tuple[Rule, ...] = (
    git_commit,
    git_push,
    branch_switched,
    default_branch,
    pull_request_opened,
    ran_tests,
    files_edited,
    subagent_finished,
    repeated_tool_error,
)


def facts_from(event: ToolEvent, ctx: RuleContext) -> list[CapturedFact]:
    """Every rule over one event; the same slot and value once (a commit names the branch too)."""
    out: dict[tuple[str, str, str], CapturedFact] = {}
    for rule in RULES:
        for fact in rule(event, ctx):
            out.setdefault((fact.subject, fact.predicate, fact.object), fact)
    return list(out.values())
