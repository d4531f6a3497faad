"""Which value took over from which: the one rule the block's changes and its coming-up use.

Worked example: ``deploy_target`` Render [Jun 1, Sep 1) and AWS [Sep 1, open) in one
worktree. AWS holds the slot at the instant Render ended, so ``successor(Render)`` is AWS
("Render -> AWS" in recent changes) and ``predecessor(AWS)`` is Render (the coming-up
line "Render -> AWS (changes Sep 1)" when read in August). A revise with a replacement
names what it replaced (``supersedes``), and that pointer wins over the slot. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence

from twoclocks.domain.model import Cardinality, FactVersion
from twoclocks.domain.places import seen_from, wider


def replacements(old: FactVersion, rows: Sequence[FactVersion]) -> list[FactVersion]:
    """Believed versions that took over when ``old`` ended, whatever their tier or workspace.

    One that names ``old`` (``supersedes``: a revise with a replacement) replaced it;
    otherwise, in a one-value slot, one that holds the slot at the instant ``old``
    ended: usually it opens there (the write planner closes a value at its successor's
    ``valid_at``); a value widened to everywhere held since before (Zed, said again for
    every place, ends another worktree's Helix). A value that starts after a gap did not
    replace anything: ``old`` had ended before it.
    """
    end = old.invalid_at
    if end is None:
        return []
    others = [v for v in rows if v.expired_at is None and v.fact_id != old.fact_id]
    pointing = [v for v in others if v.supersedes == old.fact_id]
    if pointing or old.cardinality is not Cardinality.ONE:
        return pointing
    return [
        v for v in others
        if v.slot == old.slot and v.valid_at <= end and (v.invalid_at is None or v.invalid_at > end)
    ]  # fmt: skip


def successor(old: FactVersion, rows: Sequence[FactVersion]) -> FactVersion | None:
    """The version that replaced ``old`` in its workspace, or None when nothing did."""
    found = replacements(old, rows)
    pointing = [v for v in found if v.supersedes == old.fact_id]
    # A revise keeps the replaced fact's workspace, so a pointer is the successor
    # wherever it lives; a same-slot value from another place is not this one's, unless
    # it applies everywhere, this place included, or it was written at a narrower place
    # right where ``old`` ended (a worktree's ``--class task`` value closing the
    # project's: its own worktree's reader sees both, and the one took over from the other).
    mine = pointing or [
        v
        for v in found
        if v.workspace in (old.workspace, None)
        or (v.valid_at == old.invalid_at and wider(seen_from(old), seen_from(v)))
    ]
    return min(mine, key=lambda v: (v.valid_at, v.version_id)) if mine else None


def predecessor(new: FactVersion, rows: Sequence[FactVersion]) -> FactVersion | None:
    """The believed value whose ``successor`` is ``new``, the earliest one; or None."""
    # Only a value it names or one of its slot can be replaced by it: ask just those.
    maybe = [
        v for v in rows
        if v.expired_at is None and v.invalid_at is not None and v.fact_id != new.fact_id
        and (v.fact_id == new.supersedes or v.slot == new.slot)
    ]  # fmt: skip
    replaced = [v for v in maybe if successor(v, rows) == new]
    return min(replaced, key=lambda v: (v.valid_at, v.version_id)) if replaced else None
