"""What common slot names ask, in the words a question uses (recall, issue 11).

"Where does billing run in production?" shares little with ``deploy_target``; MiniLM puts
the name in words ("deploy target") well below a sibling like ``invoice_run``. A gloss
says what the slot answers ("where it runs and is hosted in production"), and recall
compares the question with it as it does with the name. Keyed by canonical words
(``slot_names.canonical_tokens``): a gloss applies to every name holding all its words.
Written from general usage of coding-agent memory, like ``category_glosses``. Pure: a table.
"""

from __future__ import annotations

from functools import lru_cache

from twoclocks.domain.slot_names import canonical_tokens

# A test run's result slot, by runner (capture.suite_runs): `npm_test_result` holds "test";
# `pytest_result` and the others name only the runner.
_TEST_RUN_SLOTS = (
    ("test", "result"), ("pytest", "result"), ("jest", "result"), ("vitest", "result"),
    ("tox", "result"),
)  # fmt: skip

SLOT_GLOSSES: dict[tuple[str, ...], str] = {
    ("deployment",): "where it runs and is hosted in production, the platform it is deployed to",
    ("hosting",): "where it is hosted and runs, the platform it is deployed to",
    ("ci",): "where its builds, tests and checks run on every push",
    ("access",): "how to get into it or reach it: VPN, SSH, login",
    ("url",): "the web address people open to reach it",
    ("minimum", "sdk"): "the oldest OS or platform version it still supports",
    ("minimum", "version"): "the oldest version it still supports",
    ("daily", "sync"): "when the team's daily meeting is",
    ("on", "call"): "who is on call and gets paged for incidents right now",
    ("owner",): "who owns it and is responsible for it",
    ("task",): "the work to do, the open work item, what is being worked on",
    ("coverage",): "the share of code lines the tests must exercise",
    ("secret",): "where credentials, passwords and API keys are kept and fetched from",
    ("latency",): "how fast it must answer, its response time",
    ("rate", "limit"): "how many requests a client may make per second or minute",
    ("branch",): "how branches are used, named and how long they live before merging",
    ("replica",): "how many instances or pods of it must run",
    ("queue",): "where its messages and events are sent and read from",
    ("dead", "letter"): "where failed and poison messages end up",
    ("schema", "registry"): "where the definitions of its events and messages live",
    ("state", "management"): "the library that shares data and state between UI components",
    ("background", "job"): "what runs its async work and background jobs",
    ("answer",): "how long, verbose and detailed answers should be",
    ("release", "day"): "which day of the week releases ship",
    ("timezone",): "the local time zone for times and meetings",
    ("region",): "the cloud region, the part of the world where it runs",
    ("uptime",): "how much of the time it must be up and available",
    ("port",): "the port number it listens on",
    ("test", "command"): "the command that runs its tests",
    ("build", "command"): "the command that builds it",
    ("package", "manager"): "the tool that installs its dependencies",
    ("language",): "the programming language its code is written in",
    ("database",): "where its data is stored",
    ("cache",): "where it keeps hot data in memory",
    ("error", "tracker"): "where its exceptions and crashes are reported",
    ("monitoring",): "where its metrics, dashboards and alerts are",
    ("web", "framework"): "the framework that serves its HTTP routes and endpoints",
    ("frontend", "framework"): "the framework its web pages and UI are built with",
    ("job", "title"): "a person's role and position at work",
    # The slots capture writes (docs/capture.md): asked of in the words of the work, "are
    # the tests green?", "which branch am I on?", never in the slot's own name.
    ("current", "branch"): "the git branch checked out and worked on right now",
    ("primary", "branch"): "the main branch that pull requests merge into",
    ("last", "commit"): "the latest commit made: its hash, branch and message",
    ("committed",): "the commits made: hash, branch and message",
    ("last", "push"): "the branch last pushed to the remote",
    ("opened", "pull", "request"): "the pull request opened for review",
    ("edited", "file"): "the files changed and worked on",
    ("repeated", "tool", "error"): "a command that keeps failing and the error it gives",
    ("subagent", "finished"): "the work a subagent was asked to do and finished",
    **dict.fromkeys(
        _TEST_RUN_SLOTS, "whether the tests pass or fail, green or red: how the last run went"
    ),
}


@lru_cache(maxsize=4096)  # recall asks it of every candidate's slot name, per question
def slot_gloss(name: str) -> str | None:
    """The gloss of a slot name: the most specific one whose words the name holds all of.

    >>> slot_gloss("deploy_target")
    'where it runs and is hosted in production, the platform it is deployed to'
    >>> slot_gloss("favourite_colour") is None
    True
    """
    held = set(canonical_tokens(name))
    fitting = [key for key in SLOT_GLOSSES if held.issuperset(key)]
    if not fitting:
        return None
    return SLOT_GLOSSES[max(fitting, key=len)]
