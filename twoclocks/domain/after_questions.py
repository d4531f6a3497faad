"""A question asking what replaced a value, and the rows that answer it.

"What replaced Expo?" was answered by the rows that matched its words best, analytics'
Mixpanel first, and a model read Mixpanel as Expo's successor. The value is read off the
question ("what replaced Expo?", "what did we replace Heroku with?", "what do we use
instead of Sentry?", "what came after Jenkins?"); the slots that held it are the ones the
question asks of (``replaced_slots``), and their rows come first (``rows_of_slots_first``),
the others after them in the order they ranked.

Pure: words and versions in, an order out.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from twoclocks.domain.model import FactVersion
from twoclocks.domain.named_things import names_value

_AFTER = re.compile(
    r"\bwhat\s+(?:has\s+|have\s+|had\s+)?replaced\s+(?P<replaced>[^,;?!]+)"
    r"|\bwhat\s+(?:did|do|have|has|had)\s+(?:we|you|i|they)\s+replace[ds]?\s+"
    r"(?P<replaced_with>[^,;?!]+?)\s+with\b"
    r"|\b(?:instead\s+of|in\s+place\s+of)\s+(?P<instead>[^,;?!]+)"
    r"|\b(?:came|comes|come)\s+after\s+(?P<after>[^,;?!]+)",
    re.IGNORECASE,
)
_WORDS_NAMED = 5
"""How many words may name the value replaced: "instead of the old Postgres cluster", not
the rest of "instead of Sentry, which the mobile team also dropped"."""

_PRONOUNS = frozenset({"it", "that", "this", "them", "those", "these"})

Row = tuple[FactVersion, float]
"""A ranked row: a version and its score."""


def what_was_replaced(question: str) -> str | None:
    """The words that name the value a question asks the successor of, if any.

    >>> what_was_replaced("what replaced Expo?")
    'Expo'
    >>> what_was_replaced("what did we replace Heroku with?")
    'Heroku'
    >>> what_was_replaced("what do we use instead of Sentry now?")
    'Sentry now'
    >>> what_was_replaced("what came after Jenkins")
    'Jenkins'
    >>> what_was_replaced("which CI do we use?") is None
    True
    >>> what_was_replaced("we dropped Rollbar, right? what replaced it?") is None
    True
    """
    match = _AFTER.search(question)
    if match is None:
        return None
    named = next(group for group in match.groups() if group is not None)
    words = named.split()[:_WORDS_NAMED]
    if not words or words[0].casefold() in _PRONOUNS:
        return None  # "what replaced it?" names no value: the rows decide
    return " ".join(words)


def rows_of_slots_first(ranked: Sequence[Row], slots: Collection[tuple[str, str]]) -> list[Row]:
    """``ranked`` with the rows of ``slots`` first, each part in its own order, and scored
    as the best row (a later sort by score keeps them first).

    Worked example: asked "what replaced Expo?", the rows analytics: Mixpanel (0.61),
    build_tool: React Native CLI (0.48) and branch: master (0.40), with Expo a former build
    tool, read React Native CLI (0.61), Mixpanel (0.61), master (0.40).
    """
    top = max((score for _, score in ranked), default=0.0)
    first = [(v, top) for v, _ in ranked if v.slot in slots]
    return [*first, *(row for row in ranked if row[0].slot not in slots)]


def replaced_slots(question: str, former: Sequence[FactVersion]) -> set[tuple[str, str]]:
    """The slots that held the value the question asks the successor of
    (``what_was_replaced``), among ``former``: versions no longer held."""
    replaced = what_was_replaced(question)
    if replaced is None:
        return set()
    return {v.slot for v in former if names_value(replaced, v.object)}
