"""What a model reads of a recall or a timeline: one line per fact, as the block writes them.

Why: an MCP client hands its model a tool's answer as text, or (Claude Code 2.1, when the
answer has one) as its structured content in JSON: about 500 characters a fact, twenty
fields, half of them null, so a recall of 10 cost the agent ~1,500 tokens. These lines
keep what an agent acts on (the value, its window on the world clock, its tier, why it is
history, where it applies when that is elsewhere, and a short id that revise and retract
take) at about a seventh of the size, and recall and timeline answer with them alone.
Programs read the same rows whole from the HTTP API (`/v1/recall`, `/v1/timeline`).

For example, a recall with the billing cache, a fact from another project and a value a
correction retired (asked with include_history)::

    rows: 3 facts, best first (revise and retract take the id)
    - api · cache: Redis (since 2026-12-03 21:39 +00, asserted) id 1f0fca608f12
    - web · ui: Astro (since 2026-11-02 09:00 +00, asserted, from project:/site) id 9a1c20e4b7d3
    - api · ci: Drone (since 2026-01-05 00:00 +00, inferred — a guess, verify) [corrected]
      id 51e0c9d2aa40

(the last is one line in the answer).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, tzinfo

from twoclocks.domain.before_questions import BEFORE_ANY_FACT, first_value_line
from twoclocks.domain.belief_questions import believed_then_head, none_believed_line
from twoclocks.domain.block_lines import format_time, tier_note
from twoclocks.domain.change_questions import (
    changed_head,
    more_changes_line,
    nothing_changed_line,
    other_changes_line,
)
from twoclocks.domain.corrections_made import corrected_head, none_corrected_line
from twoclocks.domain.fact_text import (
    ENDED_SLOT_HEAD,
    TOLD_LATER_HEAD,
    ended_values_head,
    history_note,
    mended_ends,
    replaced_belief,
    triple,
)
from twoclocks.domain.model import Kind, on_one_line
from twoclocks.domain.named_times import (
    NamedTime,
    held_then_head,
    none_held_line,
    still_held_head,
)
from twoclocks.domain.times_to_come import (
    NOTHING_MATCHES_NOW,
    holds_during,
    more_to_come_line,
    none_to_come_line,
    nothing_to_come_line,
    to_come_head,
)
from twoclocks.service.recall_requests import RecallResult, ScoredFact
from twoclocks.service.requests import Fact

SHORT_ID = 12
"""As the CLI shows ids: enough to be unique in any account, and revise takes a start."""

_STATUS = {
    "empty": "empty: nothing recorded matches (a measured no, not an error)",
    "unavailable": "unavailable: the store could not answer; nothing is known either way, "
    "try again",
}


def recall_text(answer: RecallResult, zone: tzinfo = UTC) -> str:
    """The lines a model reads for a recall answer."""
    # A plan memory was told in the time a question asks about is said there, once.
    told = {f.version_id for f in answer.changed}
    later = [f for f in answer.starting_later if f.version_id not in told]
    verb = "starts" if len(later) == 1 else "start"
    scheduled = [
        f"{_count(later)} {verb} later (not true yet, say so if you use them):",
        *(fact_line(f, zone=zone) for f in later),
    ]
    if answer.changes_in is not None and answer.status != "unavailable":
        return "\n".join([*_changed(answer, zone), *(scheduled if later else [])])
    then = _held_then(answer, zone) + _told_later(answer, zone)
    if answer.status == "empty" and answer.told_later:
        # Nothing on the record then, but values told since with no start may have held:
        # "empty" alone would read as "there was none".
        return "\n".join(["empty then: nothing on the record held then; " + then[0], *then[1:]])
    if answer.status == "empty" and answer.time_to_come is not None and later:
        # "What's coming up?": the plans are the answer, under the time it names; "nothing
        # holds now" would read as an empty store, where only its words matched no row.
        return "\n".join(["empty now: " + NOTHING_MATCHES_NOW, *_to_come(answer, [], True, zone)])
    if answer.status == "empty" and (answer.held_then or later):
        # Nothing holds now, but what held at the time asked about, or what is planned, is
        # the answer the question wants: said after "empty now", never as a current fact.
        rest = [*(then if answer.held_then else []), *(scheduled if later else [])]
        none_now = "nothing holds now" if answer.held_then else NOTHING_MATCHES_NOW
        return "\n".join([f"empty now: {none_now}; " + rest[0], *rest[1:]])
    if answer.status == "empty" and (answer.ended or answer.ended_values):
        # Nothing holds now, and the slot the question names ended: its last value is the
        # truth to tell ("it ended"), not "nothing recorded".
        ended = _ended(answer, zone)
        return "\n".join(["empty now: nothing holds now; " + ended[0], *ended[1:]])
    if answer.status == "empty" and answer.time_to_come is not None and not answer.elsewhere:
        # "What's coming up?" with no plan: said of the time to come, not a bare "empty".
        return "empty: " + nothing_to_come_line(answer.time_to_come.label)
    if answer.status == "empty" and answer.elsewhere:
        # Not "never recorded": another project or worktree of this space may hold an
        # answer. "May": the count passes recall's relevance floor, which does not prove an answer.
        return (
            f"empty here: nothing recorded in this workspace matches; {_count_of(answer.elsewhere)}"
            " in other projects or worktrees of this space may answer it:"
            ' call recall again with scope "wide" to read them'
        )
    if answer.status != "rows" or not answer.facts:
        return _STATUS.get(answer.status, _STATUS["empty"])
    head = f"rows: {_count(answer.facts)}, best first (revise and retract take the id)"
    missed = []
    if answer.elsewhere:
        # The rows are this workspace's, about something else: a model would read the
        # storefront's owner as the owner of the service the question names.
        missed = [
            f"none of these is about what the question names; {_count_of(answer.elsewhere)}"
            f" about it {'is' if answer.elsewhere == 1 else 'are'} in other projects or worktrees"
            ' of this space: call recall again with scope "wide" to read them'
        ]
    # A recall with history holds every version of a fact it found: a value a correction
    # gave back is not called corrected there either.
    mended = mended_ends(answer.facts)
    # Facts that held at the time the question names and still hold, and events that
    # happened in it, are said there, once.
    said_then = {f.version_id for f in [*answer.still_held, *answer.held_then]}
    facts = [f for f in answer.facts if f.version_id not in said_then]
    now = [*(fact_line(f, f.version_id in mended, zone) for f in facts), *missed]
    rows = [head, *now, *then]
    if then and answer.named_time is not None and not answer.held_then and not answer.still_held:
        # Nothing found held at the time named: said first, or "what warehouse did we use in
        # October?" read its first row, BigQuery from November 15, as October's.
        rows = [then[0], head, *now, *then[1:]]
    # What held at the time the question names, or the last value of the ended slot it
    # names, is its answer: read first, or a model would take a current row for it.
    first = (
        _held_then(answer, zone) if answer.held_then or answer.still_held else _ended(answer, zone)
    )
    named = answer.named_time
    if named is not None and named.since == BEFORE_ANY_FACT and not answer.held_then:
        first = [first_value_line(named.said)]  # "before Bea", Bea its slot's first value
    if first:
        where = ", in other slots" if answer.ended and not answer.ended_values else ""
        # What held then and still holds is true now too: these are the others.
        other = "other " if len(facts) < len(answer.facts) else ""
        head = (
            f"rows: {_count(facts, other + 'fact')} true now{where}, best first "
            "(revise and retract take the id)"
        )
        rows = [*first, *([head, *now] if facts else missed), *_told_later(answer, zone)]
    if answer.time_to_come is not None:
        return "\n".join(_to_come(answer, rows, bool(first), zone))
    if answer.later_first and not first:
        # The plan is what the question asks about ("is there a deploy freeze?"); read
        # first, the current rows would be taken for the answer.
        best = f"{_count(later)} {verb} later and {'matches' if len(later) == 1 else 'match'}"
        head = f"rows: {_count(answer.facts)} true now, each a weaker match than the above"
        return "\n".join(
            [
                f"{best} the question best (not true yet, say so if you use them):",
                *(fact_line(f, zone=zone) for f in later),
                f"{head} (revise and retract take the id)",
                *rows[1:],
            ]
        )
    return "\n".join([*rows, *(scheduled if later else [])])


def _changed(answer: RecallResult, zone: tzinfo) -> list[str]:
    """A question asking what changed: the facts that began or ended in its time first, or
    a word that none did (never "empty": that reads as "nothing changed" only by chance),
    then the facts found wrong then, each followed by what holds instead, then the rows
    true now that match its words. Asked what was corrected, the corrections come alone."""
    assert answer.changes_in is not None
    label, told = answer.changes_in.label, answer.changes_told
    wrong = [corrected_head(label), *(fact_line(f, zone=zone) for f in answer.corrected)]
    if answer.changes_corrected:
        first = wrong if answer.corrected else [none_corrected_line(label)]
    else:
        more = answer.changes_more
        changed = [
            changed_head(label, told),
            *(fact_line(f, zone=zone) for f in answer.changed),
            *([more_changes_line(more, label, told)] if more else []),
        ]
        none = [
            nothing_changed_line(label, told, answer.changes_about),
            *([other_changes_line(more, label)] if more else []),
        ]
        first = changed if answer.changed else none
        first += wrong if answer.corrected else []
    said = {f.version_id for f in [*answer.changed, *answer.corrected]}
    facts = [f for f in answer.facts if f.version_id not in said]
    other = "other " if answer.changed or answer.corrected else ""
    rows = [
        f"rows: {_count(facts, other + 'fact')} true now that match the question's words, "
        "best first (revise and retract take the id)",
        *(fact_line(f, zone=zone) for f in facts),
    ]
    return [*first, *(rows if facts else [])]


def _held_then(answer: RecallResult, zone: tzinfo) -> list[str]:
    """The facts that held at the past time the question names, under their own head."""
    named = answer.named_time
    if named is None:
        return []
    if answer.then_believed:
        if not answer.held_then:
            return [none_believed_line(named.label)]
        # The closed copy a correction gave back (Airflow, closed by a wrong guess) was
        # believed then too: its end was the mistake, not its value.
        mended = mended_ends([*answer.facts, *answer.held_then])
        believed = (fact_line(f, f.version_id in mended, zone) for f in answer.held_then)
        return [believed_then_head(named.label), *believed]
    still = [fact_line(f, zone=zone) for f in answer.still_held]
    if not answer.held_then:
        if still:  # nothing ended: what held then and holds still is the answer
            return [still_held_head(named.label, after_ended=False), *still]
        return [none_held_line(named.label)]
    return [
        held_then_head(named.label, all(f.kind is Kind.EVENT for f in answer.held_then)),
        *(fact_line(f, zone=zone) for f in answer.held_then),
        *([still_held_head(named.label), *still] if still else []),
    ]


def _ended(answer: RecallResult, zone: tzinfo) -> list[str]:
    """The last value of each ended slot the question names, and each ended value it names
    of a slot holding others, under their own heads."""
    slots = (
        [ENDED_SLOT_HEAD, *(fact_line(f, zone=zone) for f in answer.ended)] if answer.ended else []
    )
    values = answer.ended_values
    head = ended_values_head([f.retired_reason for f in values])
    return slots + ([head, *(fact_line(f, zone=zone) for f in values)] if values else [])


def _told_later(answer: RecallResult, zone: tzinfo) -> list[str]:
    """A past read's values told since with no start stated, under their own head."""
    if not answer.told_later:
        return []
    head = f"{TOLD_LATER_HEAD}, say so if you use them):"
    return [head, *(fact_line(f, zone=zone) for f in answer.told_later)]


def timeline_text(facts: Sequence[Fact], more: int, clock: str, zone: tzinfo = UTC) -> str:
    """The lines a model reads for a timeline: one per version, in the clock's order."""
    if not facts:
        return "empty: no version in that window"
    order = "by when each was true" if clock == "world" else "by when memory recorded each"
    cut = f"; {more} more matched (narrow since/until or raise limit)" if more else ""
    lines = [f"{_count(facts, 'version')}, {order}{cut}"]
    mended = mended_ends(facts)
    for fact in facts:
        believed = format_time(fact.created_at, zone)
        # A replaced belief already says "[believed until T]": the same T twice is noise.
        if fact.expired_at is not None and not replaced_belief(
            fact.expired_at, fact.retired_reason
        ):
            believed += f" until {format_time(fact.expired_at, zone)}"
        lines.append(f"{fact_line(fact, fact.version_id in mended, zone)} (recorded {believed})")
    return "\n".join(lines)


def fact_line(fact: Fact, end_mended: bool = False, zone: tzinfo = UTC) -> str:
    """One fact: triple, window, tier, why it is history, where it applies if elsewhere, id.

    ``end_mended``: a closed copy a correction gave back without its end (``mended_ends``).
    """
    start = format_time(fact.valid_at, zone)
    now = datetime.now(UTC)
    if fact.kind is Kind.EVENT and fact.invalid_at is None:
        # It happened once: "since" would read as still going on (an incident, an error).
        window = f"at {start}"
    elif fact.invalid_at is None:
        # "since" a time still to come would read as true now.
        window = f"{'from' if fact.valid_at > now else 'since'} {start}"
    else:
        window = f"{start} until {format_time(fact.invalid_at, zone)}"
    if not fact.start_stated and fact.kind is not Kind.EVENT:  # when told, not when true
        window = f"known {window}" if fact.invalid_at is None else f"known from {window}"
    notes = [window, tier_note(fact.tier) or "no tier"]
    if isinstance(fact, ScoredFact) and fact.elsewhere and fact.workspace:
        notes.append(f"from {on_one_line(fact.workspace)}")
    why = history_note(
        fact.invalid_at, fact.expired_at, fact.retired_reason, lambda t: format_time(t, zone), now,
        end_mended,
    )  # fmt: skip
    return (
        f"- {triple(fact.subject, fact.predicate, fact.object, fact.written_as)}"
        f" ({', '.join(notes)}){' ' + why if why else ''} id {fact.fact_id[:SHORT_ID]}"
    )


def _count(rows: Sequence[Fact], noun: str = "fact") -> str:
    return _count_of(len(rows), noun)


def _count_of(n: int, noun: str = "fact") -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _to_come(answer: RecallResult, rows: list[str], first_said: bool, zone: tzinfo) -> list[str]:
    """A question naming a time to come ("who is on call next week?"): the plans that hold
    then, first when they answer it (``later_first``), the rows true now, the other plans."""
    assert answer.time_to_come is not None
    span = answer.time_to_come
    named = NamedTime(said=span.said, label=span.label, start=span.since, end=span.until)
    during = [f for f in answer.starting_later if holds_during(named, f.valid_at, f.invalid_at)]
    rest = [f for f in answer.starting_later if f not in during]
    verb = "starts" if len(rest) == 1 else "start"
    after = [
        *([f"{_count(rest)} {verb} later (not true yet, say so if you use them):"] if rest else []),
        *(fact_line(f, zone=zone) for f in rest),
    ]
    if not during:
        # All memory knows of then is what holds now: a row ending before then says so.
        said = f"{none_to_come_line(span.label)}; the rows say when each ends"
        return [*rows, said, *after] if answer.facts else [*rows[:1], said, *after]
    plans = [
        to_come_head(span.label, len(during) > 1)[:-1] + ", say so if you use them:",
        *(fact_line(f, zone=zone) for f in during),
        *([more_to_come_line(more, span.label)] if (more := answer.starting_later_more) else []),
    ]
    if answer.later_first and not first_said:
        head = f"rows: {_count(answer.facts)} true now (revise and retract take the id)"
        return [*plans, head, *rows[1:], *after]
    return [*rows, *plans, *after]
