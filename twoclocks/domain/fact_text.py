"""A fact as one line of text for the CLI and for a model over MCP: its triple and why it
is history.

Both read the wire rows (the API's JSON, the MCP tools' `Fact`), name a slot as stored
(the name a writer types back) and mark history the same way. The first-turn block
(``domain.block``) writes its own lines: it humanizes slot names and holds no history.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Protocol

from twoclocks.domain.model import RetiredReason, on_one_line
from twoclocks.domain.slot_verdict import name_used

_REPLACED_BY_A_LATER_RECORD = {RetiredReason.ENDED, RetiredReason.REWRITTEN}
"""A no-longer-believed version with these reasons was replaced by a later record of the
same fact (its end, or the same value vouched for again), which is its own line."""


def slot_label(predicate: str, written_as: str | None) -> str:
    """The slot's name, and the name the value was written under when the slot's own would
    mislabel it: ``timeout_seconds (written as timeout ms)``."""
    if used := name_used(predicate, written_as):
        return f"{on_one_line(predicate)} (written as {on_one_line(used)})"
    return on_one_line(predicate)


def triple(subject: str, predicate: str, obj: str, written_as: str | None = None) -> str:
    """``subject · predicate: value`` on one line, whatever the stored text holds."""
    return f"{on_one_line(subject)} · {slot_label(predicate, written_as)}: {on_one_line(obj)}"


def replaced_belief(expired_at: datetime | None, reason: RetiredReason | None) -> bool:
    """True for a version memory stopped believing because a later record of the same fact
    replaced it (its end told, the value vouched for again), not because it was wrong."""
    return expired_at is not None and (reason is None or reason in _REPLACED_BY_A_LATER_RECORD)


class RecordedVersion(Protocol):
    """What ``mended_ends`` reads of a version: its ids and its record clock."""

    @property
    def fact_id(self) -> str: ...
    @property
    def version_id(self) -> str: ...
    @property
    def retired_reason(self) -> RetiredReason | None: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def expired_at(self) -> datetime | None: ...


def mended_ends(rows: Iterable[RecordedVersion]) -> set[str]:
    """Versions retired as ``corrected`` whose own fact was written again at that instant.

    Correcting a mistake gives back the value the mistake had closed (``domain.correction``):
    the closed copy of that value is retired as ``corrected`` and the value written again
    without the end. What was wrong there is the end, not the value: RabbitMQ, closed by an
    agent's wrong "Redis streams" and given back when it was corrected, must not read as
    "RabbitMQ [corrected]". Only versions among ``rows`` are seen.
    """
    rows = list(rows)
    again = {(v.fact_id, v.created_at) for v in rows}
    return {
        v.version_id
        for v in rows
        if v.retired_reason is RetiredReason.CORRECTED and (v.fact_id, v.expired_at) in again
    }


ENDED_SLOT_HEAD = "no value now in the slot the question names; its last one ended (not true now):"
"""The head of a recall's ``ended`` lines: "what was our release cadence?" after it ended
with nothing after it, said before rows about other slots that would be taken for it."""

ENDED_VALUE_HEAD = "ended, not true now (the question names it; what holds now follows):"
"""The head of a recall's ``ended_values`` lines: "is Bo still a maintainer?" after Bo's
value of a many-value slot ended, said before the maintainers now, which do not say it (or
"do we still use Heroku?", when Render began months after Heroku's end)."""

CORRECTED_VALUE_HEAD = "found wrong, never true (the question names it; what holds now follows):"
"""The head of a recall's ``ended_values`` lines when each was corrected: "is the ci still
GitHub Actions?" after GitHub Actions was corrected to Buildkite."""


def ended_values_head(reasons: Sequence[str | None]) -> str:
    """The head above the ended values a question names, by why each is history
    (``retired_reason``): ended, found wrong, or some of each.

    >>> ended_values_head(["corrected"])
    'found wrong, never true (the question names it; what holds now follows):'
    >>> ended_values_head(["ended", "corrected"])
    'ended or found wrong, not true now (the question names it; what holds now follows):'
    """
    wrong = [reason == RetiredReason.CORRECTED for reason in reasons]
    if wrong and all(wrong):
        return CORRECTED_VALUE_HEAD
    if any(wrong):
        return "ended or found wrong, not true now (the question names it; what holds now follows):"
    return ENDED_VALUE_HEAD


TOLD_LATER_HEAD = "told later, with no start stated (they may have held then; memory does not know"
"""The head of a past read's ``told_later`` lines, its bracket left open for a surface to
add to (the MCP lines ask the model to say so); each closes it with "):"."""


def history_note(
    invalid_at: datetime | None,
    expired_at: datetime | None,
    reason: RetiredReason | None,
    when: Callable[[datetime], str],
    now: datetime,
    end_mended: bool = False,
) -> str:
    """Why a version is history, in brackets; empty for a version still held and true now.

    Two clocks give three cases. CircleCI used from January, replaced by Drone on June 1
    (told that day), is two versions of one fact::

        CircleCI (from 2026-01-05, until 2026-06-01)   [ended]
        CircleCI (from 2026-01-05)                     [believed until 2026-06-01 09:00]

    the first is what memory holds now (it was true, then the world changed); the second
    is what memory believed before the change was told, replaced by the first. A version
    found wrong leaves belief for that reason: ``[corrected]``, ``[retracted]``,
    ``[held_back]``; a value told with no start that a later word dates a change before
    reads ``[outdated when told]`` (it did not hold from when it was told, and may have
    held before: ``RetiredReason.OUTDATED``). Marking the replaced belief ``[ended]`` (as
    both readers once did) put the end on the line that has none and left the closed line
    unmarked. A closed copy
    a correction gave back without its end says ``[end corrected]`` (``end_mended``).

    An end still to come is not history: release day Tuesday, told on December 4 that it
    becomes Friday on January 1, is Tuesday (until 2027-01-01) with no mark until then.
    """
    if expired_at is not None and replaced_belief(expired_at, reason):
        return f"[believed until {when(expired_at)}]"
    if expired_at is None and invalid_at is not None and invalid_at > now:
        return ""  # true now; the window says until when
    if end_mended and reason is RetiredReason.CORRECTED:
        return "[end corrected]"  # the value holds on in a later version (mended_ends)
    if reason is RetiredReason.OUTDATED:
        return "[outdated when told]"
    if reason is not None and (expired_at is not None or invalid_at is not None):
        return f"[{reason.value}]"
    return ""  # open, or with an end it was written with (the window shows it)
