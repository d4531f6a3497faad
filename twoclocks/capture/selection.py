"""Which part of a test suite a run selected: the words that narrow it, or none.

A run of part of the suite (`pytest tests/test_api.py`, `go test -run Cart ./cart`,
`npm test -- orders`) passing says nothing about the tests it did not run. Recorded in
the suite's slot, `pytest tests/test_api.py` passing would close the whole run's
failure, and the next session's block would say the suite is green while a test fails.
So a selected run reports to a slot of its own, and its value names what it selected
(``capture.suite_runs.ran_tests``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict


class RunnerOptions(BaseModel):
    """How one test runner's command line narrows the suite."""

    model_config = ConfigDict(frozen=True)

    takes_value: frozenset[str] = frozenset()
    """Options whose next word is their value (``-n 4``), not a test to run."""
    selects: frozenset[str] = frozenset()
    """Options that narrow the run (``-k expr``, ``--lf``), kept with their value."""
    selects_with_value: frozenset[str] = frozenset()
    """The options of ``selects`` that take the next word as their value."""
    whole: frozenset[str] = frozenset()
    """Bare words that run everything (``./...``) or are a subcommand (``vitest run``)."""


_PYTEST = RunnerOptions(
    takes_value=frozenset({
        "-p", "-n", "-c", "-o", "-W", "--numprocesses", "--maxfail", "--tb", "--rootdir",
        "--junitxml", "--junit-xml", "--cov", "--cov-report", "--cov-config", "--basetemp",
        "--durations", "--log-level", "--log-cli-level", "--confcutdir", "--import-mode",
        "--dist", "--timeout", "--count", "--reruns", "--html", "--capture", "--color",
        "--override-ini", "--config-file",
    }),
    selects=frozenset({
        "-k", "-m", "--lf", "--last-failed", "--sw", "--stepwise", "--deselect", "--ignore",
        "--ignore-glob", "--pyargs",
    }),
    selects_with_value=frozenset({"-k", "-m", "--deselect", "--ignore", "--ignore-glob"}),
    whole=frozenset({".", "tests", "tests/", "test", "test/"}),  # the usual whole-suite roots
)  # fmt: skip
_GO = RunnerOptions(
    takes_value=frozenset({
        "-timeout", "-tags", "-p", "-count", "-coverprofile", "-covermode", "-coverpkg",
        "-parallel", "-cpu", "-exec", "-o", "-C",
    }),
    selects=frozenset({"-run", "-skip", "-bench"}),
    selects_with_value=frozenset({"-run", "-skip", "-bench"}),
    whole=frozenset({"./...", "..."}),
)  # fmt: skip
_CARGO = RunnerOptions(
    takes_value=frozenset({
        "--features", "-F", "-j", "--jobs", "--target", "--manifest-path", "--profile",
        "--target-dir", "--color", "--test-threads", "--format", "--message-format",
    }),
    selects=frozenset({
        "-p", "--package", "--test", "--bench", "--example", "--bin", "--lib", "--doc",
        "--exclude", "--exact", "--skip", "--ignored", "-E", "--filter-expr",
    }),
    selects_with_value=frozenset({
        "-p", "--package", "--test", "--bench", "--example", "--bin", "--exclude", "--skip",
        "-E", "--filter-expr",  # nextest's filter expressions
    }),
    whole=frozenset({"run"}),  # `cargo nextest run`
)  # fmt: skip
_JS = RunnerOptions(
    takes_value=frozenset({
        "-c", "--config", "--maxWorkers", "-w", "--reporter", "--reporters", "--root",
        "--environment", "--outputFile", "--coverageDirectory", "--pool", "--mode",
    }),
    selects=frozenset({
        "-t", "--testNamePattern", "--testPathPattern", "--testPathPatterns", "--onlyChanged",
        "-o", "--changed", "--related", "--findRelatedTests", "--project", "--shard",
    }),
    selects_with_value=frozenset({
        "-t", "--testNamePattern", "--testPathPattern", "--testPathPatterns", "--project",
        "--shard",
    }),
    whole=frozenset({"run", "watch"}),
)  # fmt: skip
_TOX = RunnerOptions(
    takes_value=frozenset({"-c", "--conf", "-p", "--parallel", "--workdir", "-x", "--override"}),
    selects=frozenset({"-e", "--env", "-m", "-f", "--factors", "--labels"}),
    selects_with_value=frozenset({"-e", "--env", "-m", "-f", "--factors", "--labels"}),
)  # fmt: skip
# Maven and Gradle: goals and tasks that run the whole suite are not a selection; a module
# (`-pl api`, `:api:test`) or a test filter (`-Dtest=CalcTest`, `--tests CalcTest`) is.
_BUILD_GOALS = frozenset({"clean", "compile", "test-compile", "test", "verify", "check", "build"})
_MAVEN = RunnerOptions(
    takes_value=frozenset({
        "-f", "--file", "-s", "--settings", "-gs", "--global-settings", "-t", "--toolchains",
        "-T", "--threads", "-P", "--activate-profiles", "-l", "--log-file",
    }),
    selects=frozenset({
        "-pl", "--projects", "-rf", "--resume-from", "-Dtest", "-Dit.test", "-Dgroups",
        "-DexcludedGroups", "-Dsurefire.failIfNoSpecifiedTests",
    }),
    selects_with_value=frozenset({"-pl", "--projects", "-rf", "--resume-from"}),
    whole=_BUILD_GOALS,
)  # fmt: skip
_GRADLE = RunnerOptions(
    takes_value=frozenset({
        "-p", "--project-dir", "-b", "--build-file", "-c", "--settings-file", "-x",
        "--exclude-task", "--max-workers", "-g", "--gradle-user-home", "--console",
    }),
    selects=frozenset({"--tests"}),
    selects_with_value=frozenset({"--tests"}),
    whole=_BUILD_GOALS,
)  # fmt: skip
_OPTIONS = {
    "pytest": _PYTEST,
    "go test": _GO,
    "cargo test": _CARGO,
    "cargo nextest": _CARGO,
    "jest": _JS,
    "vitest": _JS,
    "tox": _TOX,
    "mvn test": _MAVEN,
    "mvn verify": _MAVEN,
    "gradle test": _GRADLE,
    "gradle check": _GRADLE,
    "npm": RunnerOptions(),  # `npm test -- orders`: what follows the script narrows it
}
_REDIRECT = re.compile(r"^\d*(?:>>?|<|>&\d*|&>)")


def selected(runner: str, args: Sequence[str]) -> list[str]:
    """The words of a test command that select part of the suite ([] for the whole suite).

    ``runner`` is the runner as ``capture.suite_runs`` names it, or ``npm`` / ``make`` for a
    script; ``args`` are the words after it (after the script for npm / make). A make
    target's words are make's own (other targets, variables): they select nothing.

    >>> selected("pytest", ["-q", "-p", "no:cacheprovider", "2>&1"])
    []
    >>> selected("pytest", ["-q", "tests/test_api.py", "-k", "cart"])
    ['tests/test_api.py', '-k', 'cart']
    >>> selected("go test", ["-count=1", "./..."])
    []
    """
    options = _OPTIONS.get(runner)
    if options is None:
        return []
    words = _without_redirections(args)
    out: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        name = word.split("=", 1)[0]
        attached = "=" in word
        if word == "--":
            pass  # npm / cargo: the test binary's own arguments follow
        elif name in options.selects:
            out.append(word)
            if name in options.selects_with_value and not attached and index + 1 < len(words):
                index += 1
                out.append(words[index])
        elif word.startswith("-"):
            if name in options.takes_value and not attached:
                index += 1
        elif word not in options.whole:
            out.append(word)
        index += 1
    return out


def _without_redirections(words: Sequence[str]) -> list[str]:
    """``2>&1``, ``> out.txt`` and the like are the shell's, not the runner's."""
    out: list[str] = []
    skip_next = False
    for word in words:
        if skip_next:
            skip_next = False
        elif _REDIRECT.match(word):
            skip_next = word in (">", ">>", "<", "2>", "1>", "&>", "2>>")
        else:
            out.append(word)
    return out
