"""What a checkout's HEAD says, in the words the git rules write (``capture.rules``).

The commit rule keeps ``last_commit`` as git prints a commit ("9c0ffee on main: Fix
token expiry"); read off HEAD, the same commit reads the same way, its subject left out
when git has already packed the commit away.
"""

from __future__ import annotations

import re

from twoclocks.workspaces import HeadCommit

SHORT_SHA = 7
"""Characters of a commit id in a ``last_commit`` line, as git abbreviates it by default."""

_LEADING_ID = re.compile(r"^([0-9a-f]{4,64})\b")


def commit_line(commit: HeadCommit) -> str:
    """``last_commit`` for the commit HEAD is at: ``9c0ffee on main: Fix token expiry``.

    >>> commit_line(HeadCommit(sha="9c0ffee" + "0" * 33, branch="main", subject="Fix it"))
    '9c0ffee on main: Fix it'
    >>> commit_line(HeadCommit(sha="9c0ffee" + "0" * 33, branch=None, subject=None))
    '9c0ffee on detached HEAD'
    """
    line = f"{commit.sha[:SHORT_SHA]} on {commit.branch or 'detached HEAD'}"
    return f"{line}: {commit.subject}" if commit.subject else line


def names_commit(stored: str, sha: str) -> bool:
    """True when a ``last_commit`` value names the commit ``sha`` (by any abbreviation).

    >>> names_commit("9c0ffee on main: Fix it", "9c0ffee" + "0" * 33)
    True
    >>> names_commit("1a2b3c4 on main: Other", "9c0ffee" + "0" * 33)
    False
    """
    match = _LEADING_ID.match(stored.strip())
    return match is not None and sha.startswith(match[1])
