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
from collections.abc import Sequence

from twoclocks.capture.captured import (
    CapturedFact,
    Rule,
    RuleContext,
    captured_fact,
    clean,
    option_value,
    segments,
    strip_credentials,
)
from twoclocks.capture.events import ToolEvent
from twoclocks.capture.suite_runs import ran_tests, runner_of
from twoclocks.domain.model import FactClass, Kind

__all__ = [
    "CURRENT_BRANCH",
    "LAST_COMMIT",
    "RULES",
    "CapturedFact",
    "RuleContext",
    "clean",
    "facts_from",
    "failure_key",
    "strip_credentials",
]

CURRENT_BRANCH = "current_branch"
"""The worktree's branch: written by the git rules, and corrected from the worktree's HEAD
when a read finds it names another (``CaptureService.observe_checkout``)."""

LAST_COMMIT = "last_commit"
"""The commit the worktree is at: written by the commit rule, and read off HEAD when a read
finds HEAD at another commit (a commit made in the person's own terminal)."""


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
    # An amend replaces the commit before it: without saying so, the events line would
    # list the commit that no longer exists beside its replacement as two commits.
    amends = " (amends the commit before)" if any("--amend" in a for a in calls) else ""
    line = f"{sha} on {branch}: {subject}{amends}"
    facts = [
        captured_fact("git_commit", ctx, "committed", line, kind=Kind.EVENT, category="git"),
        captured_fact("git_commit", ctx, LAST_COMMIT, line, category="git"),
    ]
    if branch != "detached HEAD":
        facts.append(
            captured_fact(
                "git_commit", ctx, CURRENT_BRANCH, branch, category="branch", read_off=True
            )
        )
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
        captured_fact(
            "git_push",
            ctx,
            "last_push",
            f"{branch or 'the current branch'} to {where}",
            category="git",
        ),
    ]
    if url is not None and "://" not in remote and "@" not in remote:
        facts.append(
            captured_fact(
                "git_push",
                ctx,
                f"git_remote_{clean(remote, 40)}",
                url,
                fact_class=FactClass.PROJECT,
                category="remote",
            )
        )
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
    return [captured_fact("branch_switched", ctx, CURRENT_BRANCH, found[-1], category="branch")]


_HEAD_BRANCH = re.compile(r"^\s*HEAD branch: (\S+)\s*$", re.M)
_ORIGIN_HEAD = re.compile(
    r"refs/remotes/origin/HEAD\s*(?:->)?\s*refs/remotes/origin/(\S+)|origin/HEAD -> origin/(\S+)"
)


# What agents ask before opening a pull request: `git symbolic-ref [--short]
# refs/remotes/origin/HEAD` and `git rev-parse --abbrev-ref origin/HEAD` print the branch
# alone (`refs/remotes/origin/main`, `origin/main`); `gh repo view --json defaultBranchRef`
# prints it in JSON.
_ASKS_ORIGIN_HEAD = re.compile(r"\bgit\s+(?:symbolic-ref|rev-parse)\b.*\borigin/HEAD\b")
_ORIGIN_HEAD_ALONE = re.compile(r"^\s*(?:refs/remotes/)?origin/(\S+)\s*$", re.M)
_GH_DEFAULT = re.compile(r'"defaultBranchRef"\s*:\s*\{\s*"name"\s*:\s*"([^"\s]+)"')


def default_branch(event: ToolEvent, ctx: RuleContext) -> list[CapturedFact]:
    """The repo's default branch, when a command printed it (`git remote show origin`, ...)."""
    if not _succeeded(event):
        return []
    match = _HEAD_BRANCH.search(event.output)
    name = match.group(1) if match else None
    if name is None:
        origin = _ORIGIN_HEAD.search(event.output)
        name = (origin.group(1) or origin.group(2)) if origin else None
    if name is None and _ASKS_ORIGIN_HEAD.search(event.command or ""):
        alone = _ORIGIN_HEAD_ALONE.search(event.output)
        name = alone.group(1) if alone else None
    if name is None:
        gh = _GH_DEFAULT.search(event.output)
        name = gh.group(1) if gh else None
    if not name or name == "(unknown)":
        return []
    return [
        captured_fact(
            "default_branch",
            ctx,
            "default_branch",
            name,
            fact_class=FactClass.PROJECT,
            category="remote",
            read_off=True,
        )
    ]


# -- pull requests -----------------------------------------------------------------------

_PR_URL = re.compile(r"https://[^\s\"']+/pull/(\d+)")


def pull_request_opened(event: ToolEvent, ctx: RuleContext) -> list[CapturedFact]:
    """`gh pr create` (or a create-pull-request MCP tool): the PR's number, title and URL."""
    title: str | None = None
    url: str | None = None
    if event.kind == "shell" and _succeeded(event):
        calls = [w for w in segments(event.command or "") if w[:3] == ["gh", "pr", "create"]]
        if not calls or _dry_run(calls[-1]):
            return []
        title = option_value(calls[-1], "--title", "-t")
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
        captured_fact(
            "pull_request_opened", ctx, "opened_pull_request", text, kind=Kind.EVENT, category="git"
        )
    ]


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
        captured_fact(
            "files_edited",
            ctx,
            "edited_file",
            _relative(path, event.cwd),
            kind=Kind.EVENT,
            category="file",
        )
        for path in dict.fromkeys(event.files)
    ]


def subagent_finished(event: ToolEvent, ctx: RuleContext) -> list[CapturedFact]:
    """A subagent (Task) finished: what it was asked to do."""
    if event.kind != "subagent" or event.failed:
        return []
    what = event.description or "a subagent task"
    return [
        captured_fact(
            "subagent_finished", ctx, "subagent_finished", what, kind=Kind.EVENT, category="process"
        )
    ]


def failure_key(event: ToolEvent) -> str | None:
    """What makes two failures "the same": the command, else the tool and its first error line."""
    if not event.failed and not event.exit_code:
        return None
    if event.kind == "shell" and runner_of(event) is not None:
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
        captured_fact(
            "repeated_tool_error",
            ctx,
            "repeated_tool_error",
            f"`{what}` failed {count} times: {reason}",
            kind=Kind.EVENT,
            category="process",
        )
    ]


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
