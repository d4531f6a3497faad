"""How far a read reaches: ``here`` (this workspace) or ``wide`` (this space's every project).

A session sits in one space: the configured one whose path matches its directory
longest, else ``default_space``, else the implicit space every unclaimed checkout
shares (``IMPLICIT_SPACE``). Workspace keys do not spell their space (a repo key is
``repo:github.com/acme/api`` wherever it is checked out), so the store keeps a small
registry: each key a fact was written under, with the space of the session that wrote
it. A ``wide`` read sees every key registered to its own space or to a space it
``reads_from``; it never names a space itself, so no caller can ask for another one.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from enum import StrEnum
from typing import TypeVar

from twoclocks.domain.errors import ConfigError
from twoclocks.domain.places import Workspace

IMPLICIT_SPACE = ""
"""The space of every checkout no configured space claims (no configured id is empty)."""

ELSEWHERE_WEIGHT = 0.97
"""A row from another workspace keeps 97% of its score (about 0.03 at the top of a recall
list), so an equally good row from here comes first, while a clearly better answer from
another project still wins; of one slot, the value here always does (``here_first``)."""


class Scope(StrEnum):
    """``here``: this workspace plus unplaced rows. ``wide``: every workspace of the
    session's space and of the spaces it reads from."""

    HERE = "here"
    WIDE = "wide"


def readable_spaces(workspace: Workspace, scope: Scope) -> frozenset[str]:
    """The spaces whose workspaces a recall may see besides its own keys.

    ``here`` reads as it always did (none); ``wide`` reads the session's space and the
    spaces it reads from, one way, never more.

    >>> ws = Workspace(project="project:work", space="work", reads_from=("personal",))
    >>> sorted(readable_spaces(ws, Scope.WIDE)), sorted(readable_spaces(ws, Scope.HERE))
    (['personal', 'work'], [])
    """
    if scope is Scope.HERE or workspace.space is None:
        return frozenset()
    return frozenset({workspace.space, *workspace.reads_from})


def block_spaces(workspace: Workspace) -> frozenset[str]:
    """The spaces the first-turn block reads besides its own keys: only those it reads from.

    >>> sorted(block_spaces(Workspace(space="work", reads_from=("personal",))))
    ['personal']
    """
    return frozenset(workspace.reads_from)


def keys_in_scope(
    workspace: Workspace, registry: Iterable[tuple[str, str]], spaces: frozenset[str]
) -> tuple[str, ...]:
    """The workspace keys a read may see: its own, plus every registered key of ``spaces``.

    ``registry`` holds (key, space) pairs; a key written from two spaces (one repo
    checked out in both) is readable from either.

    >>> ws = Workspace(worktree="worktree:/b", space="")
    >>> keys_in_scope(ws, [("worktree:/a", ""), ("worktree:/c", "work")], frozenset({""}))
    ('worktree:/b', 'worktree:/a')
    >>> keys_in_scope(ws, [("worktree:/a", "")], frozenset())
    ('worktree:/b',)
    """
    out = list(workspace.keys)
    for key, space in registry:
        if space in spaces and key not in out:
            out.append(key)
    return tuple(out)


Row = TypeVar("Row")


def here_first(
    ranked: Sequence[tuple[Row, float]],
    is_here: Mapping[int, bool],
    slot_of: Mapping[int, Hashable] | None = None,
) -> list[tuple[Row, float, bool]]:
    """Rows from elsewhere lose ``ELSEWHERE_WEIGHT`` of their score, then all re-sort.

    ``is_here`` maps a row's position in ``ranked`` to whether it is from this
    workspace (or unplaced). Returns (row, score, elsewhere); ties keep here first.

    >>> here_first([("a", 1.0), ("b", 1.0)], {0: False, 1: True})
    [('b', 1.0, False), ('a', 0.97, True)]

    ``slot_of`` maps a position to its row's slot (subject and name). Another workspace's
    value of a slot that also holds a value here ranks below this one, however much
    closer its words are to the question: asked from ``billing-api`` "what am I working
    on?", the task written there answers, and ``web-app``'s task for the same slot
    follows it. A question that names the other place asks of another subject's slot.

    >>> here_first([("web-app task", 0.96), ("billing task", 0.84)], {0: False, 1: True},
    ...            {0: "user.working_on", 1: "user.working_on"})
    [('billing task', 0.84, False), ('web-app task', 0.8148, True)]
    """
    slots = slot_of or {}
    best_here: dict[Hashable, float] = {}
    for i, (_, score) in enumerate(ranked):
        if is_here[i] and i in slots:
            best_here[slots[i]] = max(score, best_here.get(slots[i], score))
    scored = []
    for i, (row, score) in enumerate(ranked):
        if not is_here[i]:
            score *= ELSEWHERE_WEIGHT
            if i in slots and slots[i] in best_here:
                score = min(score, round(best_here[slots[i]] * ELSEWHERE_WEIGHT, 4))
        scored.append((row, score, not is_here[i]))
    return sorted(scored, key=lambda t: (-t[1], t[2]))


def check_reads_from(reads_from: Mapping[str, Sequence[str]], known: Iterable[str]) -> None:
    """Every space read from exists and no space reads itself, directly or round a loop.

    A loop would make "one way" two ways. Raises ConfigError naming the space.

    >>> check_reads_from({"work": ["personal"], "personal": []}, ["work", "personal"])
    >>> check_reads_from({"a": ["b"], "b": ["a"]}, ["a", "b"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    twoclocks.domain.errors.ConfigError: space "a" reads_from makes a loop: a -> b -> a...
    """
    ids = set(known)
    for space, targets in reads_from.items():
        for target in targets:
            if target not in ids:
                raise ConfigError(
                    f'space "{space}" reads_from unknown space "{target}": '
                    f"define it as a [[space]] or remove it"
                )
    for start in reads_from:
        path = _loop_from(start, reads_from)
        if path:
            raise ConfigError(
                f'space "{start}" reads_from makes a loop: {" -> ".join(path)}: '
                f"reading is one way, remove one of them"
            )


def _loop_from(start: str, reads_from: Mapping[str, Sequence[str]]) -> list[str]:
    """A path from ``start`` back to itself, or [] when there is none (depth-first)."""
    stack: list[tuple[str, list[str]]] = [(start, [start])]
    seen: set[str] = set()
    while stack:
        node, path = stack.pop()
        for nxt in reads_from.get(node, ()):
            if nxt == start:
                return [*path, nxt]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, [*path, nxt]))
    return []
