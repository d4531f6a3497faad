"""Rewriting runs of words: the longest run starting at each word that a lookup knows wins.

Predicate names are matched as words, and several words often stand for one
(``mother tongue`` is ``native language``, ``site reliability`` is ``sre``). Both the
lexicon's phrases (``slot_names``) and the acronyms one name spells out for another
(``slot_verdict``) are found by this one left-to-right, longest-first scan.

Everything here is pure: no model, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

# What a run of words stands for, or None when it stands for nothing.
RunLookup = Callable[[tuple[str, ...]], Sequence[str] | None]


def replace_longest_runs(tokens: Sequence[str], lookup: RunLookup, longest: int) -> list[str]:
    """Replace, left to right, the longest run (at most ``longest`` words) that ``lookup`` knows.

    A word that starts no known run is kept as it is; the words of a replaced run are
    consumed, so runs never overlap.

    >>> table = {("mother", "tongue"): ("native", "language")}
    >>> replace_longest_runs(["my", "mother", "tongue"], table.get, 2)
    ['my', 'native', 'language']
    """
    out: list[str] = []
    i = 0
    while i < len(tokens):
        for n in range(min(longest, len(tokens) - i), 0, -1):
            found = lookup(tuple(tokens[i : i + n]))
            if found is not None:
                out.extend(found)
                i += n
                break
        else:
            out.append(tokens[i])
            i += 1
    return out
