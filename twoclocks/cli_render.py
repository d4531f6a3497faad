"""How the CLI reads times a person types and shows the rows it gets back.

A person reads times in the account's zone, to the minute; `--json` keeps the API's
RFC 3339. A person may type a date for any time option: midnight in the account's zone.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime, time
from shlex import quote as quote_arg
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo

import typer

from twoclocks.cli_recall_lines import later_lines
from twoclocks.domain.block_lines import format_time
from twoclocks.domain.fact_text import history_note, mended_ends, triple
from twoclocks.domain.model import RetiredReason, on_one_line
from twoclocks.domain.sentence_parts import sentence_parts
from twoclocks.domain.temporal import midnight_of

WHEN_HELP = "RFC 3339 with an offset, or a date (midnight in the account's zone)"
"""The help every time option shares: what `parse_when` takes."""


def parse_when(text: str, zone: str, option: str) -> str:
    """A time a person typed, as RFC 3339: a date is midnight in the account's ``zone``.

    A time without an offset is refused rather than guessed (as the API does).
    """
    value = text.strip()
    example = f"e.g. 2026-11-30T09:00:00+03:00, or a date such as 2026-11-30 (midnight {zone})"
    try:
        if (day := midnight_of(value, ZoneInfo(zone))) is not None:
            return day.isoformat()
        moment = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise typer.BadParameter(
            f"{text!r} is not a time: give RFC 3339 with an offset, {example}", param_hint=option
        ) from None
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise typer.BadParameter(
            f"{text!r} has no UTC offset: add one, {example}", param_hint=option
        )
    return moment.isoformat()


def _moment(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value.replace("Z", "+00:00")) if value else None


def _as_of_arg(moment: datetime) -> str:
    """``moment`` as a person would type it to ``--as-of``: a date when it is midnight."""
    if moment.timetz().replace(tzinfo=None) == time():
        return moment.date().isoformat()
    return moment.replace(microsecond=0).isoformat()


def shown(value: str | None, zone: ZoneInfo) -> str:
    """An RFC 3339 time from the API, in the account's zone to the minute."""
    moment = _moment(value)
    return format_time(moment, zone) if moment else "-"


def _triple(fact: dict[str, Any]) -> str:
    # On one line even though writes refuse line breaks now: a row stored before the rule,
    # or imported, must not print as two lines.
    return triple(fact["subject"], fact["predicate"], fact["object"], fact.get("written_as"))


def _history(fact: dict[str, Any], zone: ZoneInfo, end_mended: bool = False) -> str:
    """Why a row is history (``[ended]``, ``[believed until ...]``, ``[corrected]``), or ""."""
    reason = fact.get("retired_reason")
    note = history_note(
        _moment(fact.get("invalid_at")),
        _moment(fact.get("expired_at")),
        RetiredReason(reason) if reason else None,
        lambda moment: format_time(moment, zone),
        datetime.now(UTC),
        end_mended,
    )
    return f" {note}" if note else ""


class _Recorded(NamedTuple):
    fact_id: str
    version_id: str
    retired_reason: RetiredReason | None
    created_at: datetime
    expired_at: datetime | None


def mended_rows(facts: list[dict[str, Any]]) -> set[str]:
    """``domain.fact_text.mended_ends`` of the API's rows: ends a correction took back."""
    return mended_ends(
        _Recorded(
            f["fact_id"],
            f["version_id"],
            RetiredReason(f["retired_reason"]) if f.get("retired_reason") else None,
            created,
            _moment(f.get("expired_at")),
        )
        for f in facts
        if f.get("version_id") and (created := _moment(f.get("created_at"))) is not None
    )


def fact_line(fact: dict[str, Any], zone: ZoneInfo, mended: Collection[str] = ()) -> str:
    """One fact: short id, triple, its valid window, tier, and why it is history if it is
    (``mended``: the read's closed copies a correction gave back, ``mended_rows``)."""
    end = f" until {shown(fact['invalid_at'], zone)}" if fact.get("invalid_at") else ""
    # A start nobody stated is when the store was told, not when the value became true.
    begun = "from" if fact.get("start_stated", True) else "known from"
    if fact.get("kind") == "event" and not end:
        begun = "at"  # it happened once: "from" would read as still going on
    return (
        f"{fact['fact_id'][:12]}  {_triple(fact)}"
        f"  ({begun} {shown(fact['valid_at'], zone)}{end}, {fact.get('tier') or 'no tier'})"
        f"{_history(fact, zone, fact.get('version_id') in mended)}"
    )


def timeline_line(
    fact: dict[str, Any], clock: str, zone: ZoneInfo, mended: Collection[str] = ()
) -> str:
    """One version on one clock, with that clock's own window.

    world: when it was true (valid_at -> invalid_at), and why it is history (it ended, it
    was corrected, or, for a belief a later record replaced, until when it was believed);
    system: when the store held it (created_at -> expired_at), with the same note: a
    version held now whose world window closed is ``[ended]`` there too, so it does not
    read as current, and a replaced belief is not marked with the end it never had.

    For example, standup 09:30 told on June 1 as true from January 5, ended on December 1
    by a change told on December 3, reads on the world clock as two versions::

        2026-01-05 00:00 +00 -> open  ...  team · standup: 09:30 [believed until 2026-12-03 ...]
        2026-01-05 00:00 +00 -> 2026-12-01 00:00 +00  ...  team · standup: 09:30 [ended]

    ``mended``: the read's closed copies a correction gave back without their end
    (``mended_rows``), ``[end corrected]``, not ``[corrected]``.
    """
    if clock == "system":
        start, end = fact["created_at"], fact.get("expired_at")
    else:
        start, end = fact["valid_at"], fact.get("invalid_at")
    why = _history(fact, zone, fact.get("version_id") in mended)
    window = f"{shown(start, zone)} -> {shown(end, zone) if end else 'open'}"
    return f"{window}  {fact['fact_id'][:12]}  {_triple(fact)}{why}"


_OUTCOMES = {
    "inserted": "stored",
    "restated": "already known, nothing changed",
    "stored_closed": "stored as history",
}


def _place_line(workspace: str) -> str:
    """Where a fact written with no class applies, and the classes that widen it."""
    level, _, where = workspace.partition(":")
    wider = "`--class user` or `--class rule` for everywhere"
    if level == "worktree":
        wider = f"`--class project` for the whole project, {wider}"
    return f"applies in this {level} only ({on_one_line(where)}): {wider}"


def _held_after(answer: dict[str, Any]) -> str:
    """The value a write stored as history ends at, named: "a later value" left the writer
    guessing which, and a value told with no start took over only when it was told."""
    after = answer.get("held_after")
    if after is None:
        return "a later value of the slot"
    value = f"{on_one_line(after['object'])} ({after['fact_id'][:12]})"
    if after["start_stated"]:
        return value
    return f"{value}, told then with no start stated ({after['tier']}),"


def remember_lines(
    answer: dict[str, Any],
    subject: str,
    fact_class: str | None = None,
    valid_at: str | None = None,
    until: str | None = None,
) -> list[str]:
    """What a write did, in words: stored or not, under which slot, and what it replaced.

    A write under another name than the one typed, and a value it closed, are said
    outright: either changes what the store answers next, and a person should not have
    to read ``--json`` to learn it. So is a fact with no class kept to this workspace:
    typed in one repository, it is not in the next one's block.
    """
    outcome = _OUTCOMES.get(answer["outcome"], answer["outcome"])
    predicate = on_one_line(answer["predicate"])
    ends = _moment(answer.get("invalid_at")) if answer["outcome"] == "stored_closed" else None
    if ends is not None and ends > datetime.now(UTC):
        outcome = "stored"  # true until a later value starts: not history yet
    if answer.get("raised"):
        outcome = f"already known, now {on_one_line(answer['raised'])}"
    lines = [f"{outcome}: {answer['fact_id']} ({predicate}, {answer['tier']})"]
    if fact_class is None and answer.get("workspace") and answer["outcome"] != "restated":
        lines.append(_place_line(answer["workspace"]))
    if answer.get("written_as"):
        alias = on_one_line(answer["written_as"])
        lines.append(
            f"written under {predicate}, the slot {alias} names too "
            f"(`twoclocks split {alias} --subject {on_one_line(subject)}` keeps them apart)"
        )
    # A value written to start later replaces the old one only from then, and is in no
    # list of what is true now until then: said here, or the write seems lost.
    starts = _moment(valid_at)
    later = None
    if starts is not None and starts > datetime.now(UTC):
        later = format_time(starts, starts.tzinfo or UTC)  # as typed: the account's zone
        if answer["outcome"] in ("inserted", "stored_closed"):
            lines.append(
                f"true from {later}: not true until then; `facts` lists it as starting "
                "later, recall names it so when asked, the block in its last 7 days before "
                f"(`twoclocks facts --as-of {_as_of_arg(starts)}` shows it as true)"
            )
    if ends is not None:
        # Closed at once because a later value of the slot was already known, or at the end
        # the writer gave: say until when it holds, and that it is history only after that.
        when = format_time(ends, starts.tzinfo if starts and starts.tzinfo else UTC)
        given = _moment(until)
        if given is not None and ends == given:
            lines.append(f"true until {when}, the end you gave")
        else:
            tense = "takes" if ends > datetime.now(UTC) else "took"
            lines.append(f"true until {when}, when {_held_after(answer)} {tense} over")
    for old in answer.get("replaced", []):
        value = f"{on_one_line(old['object'])} ({old['fact_id'][:12]})"
        if later:
            lines.append(f"replaced from {later}: {value}")
        else:
            lines.append(
                f"replaced: {value}, {_HOW_REPLACED.get(old.get('retired_reason'), 'now history')}"
            )
    if answer.get("tier_lowered"):
        lines.append(f"tier lowered: {answer['tier_lowered']}")
    if near := answer.get("near_slot"):
        # Both values are current now; only the person (or agent) who wrote knows whether
        # the two names are one slot, so the way to make them one is spelled out.
        close = on_one_line(near["predicate"])
        held = "; ".join(on_one_line(v) for v in near["values"])
        merge = " ".join(
            quote_arg(part)
            for part in ("twoclocks", "merge", answer["predicate"], "--into", near["predicate"])
        )
        apart = " ".join(
            quote_arg(part)
            for part in ("twoclocks", "keep-apart", near["predicate"], answer["predicate"])
        )
        who = f"--subject {quote_arg(subject)}"
        lines.append(
            f"kept apart from the close slot {close} ({held}): if the two name one thing, "
            f"`{merge} {who}` makes {close} the one slot; if two, `{apart} {who}` "
            "stops this hint"
        )
    return lines


def named(fact_ids: list[str], answer: dict[str, Any]) -> str:
    """Fact ids as a person reads them: each with its value, from the answer's ``values``
    ("Render (d69d3a383ed7)"); a bare id where the server sent no value."""
    values = answer.get("values") or {}
    return ", ".join(f"{values[f]} ({f[:12]})" if f in values else f for f in fact_ids)


def merge_lines(answer: dict[str, Any]) -> list[str]:
    """What a merge did: values moved, values it made history, values folded into the
    same value of the slot, whether the lesson spreads, and how to undo it."""
    alias, canonical, subject = answer["alias"], answer["canonical"], answer["subject"]
    lines = [f"merged {alias} into {canonical} ({subject})"]
    if answer["moved"]:
        lines.append("moved: " + named(answer["moved"], answer))
    if answer["closed"]:
        lines.append(
            "now history (the later value replaced them): " + named(answer["closed"], answer)
        )
    for gone, kept in (answer.get("folded") or {}).items():
        lines.append(
            f"one fact: {named([gone], answer)} said the same as {named([kept], answer)}, "
            "which keeps its start"
        )
    if answer["teaches"]:
        lines.append(
            f"from now on, {alias} written beside {canonical} for any other subject joins it too"
        )
    else:
        lines.append("other subjects are left to drift (you kept these two names apart elsewhere)")
    lines.append(f"undo: twoclocks split {quote_arg(alias)} --subject {quote_arg(subject)}")
    return lines


def split_lines(answer: dict[str, Any]) -> list[str]:
    """What a split did: the values moved back and believed open again, or that none was
    current (the merged facts were already history), so only the name was parted."""
    alias, canonical = answer["alias"], answer["canonical"]
    lines = [f"split {alias} from {canonical} ({answer['subject']})"]
    if answer["moved"]:
        lines.append("moved back: " + named(answer["moved"], answer))
    if answer["reopened"]:
        lines.append("believed open again: " + named(answer["reopened"], answer))
    if not answer["moved"] and not answer["reopened"]:
        lines.append(
            f"nothing written as {alias} is believed any more, so no fact moved; "
            f"from now on {alias} is a slot of its own"
        )
    return lines


def revise_lines(answer: dict[str, Any], reason: str, at: str | None = None) -> list[str]:
    """What a revision did: its successor, what a correction believed again, or that
    that nothing replaced it (a bare "successor -" left that to be guessed).

    An end still to come (``--at`` later than now) is said as one: the value holds until
    then, and its successor starts then."""
    head = f"{reason}: {answer['fact_id']}"
    ends = _moment(at)
    ahead = ends is not None and ends > datetime.now(UTC)
    if ends is not None and ahead:
        head = (
            f"ends {format_time(ends, ends.tzinfo or UTC)}: {answer['fact_id']} (true until then)"
        )
    if successor := answer.get("successor_id"):
        tier = f" ({answer['successor_tier']})" if answer.get("successor_tier") else ""
        lines = [f"{head}; successor {successor}{tier}{' from then' if ahead else ''}"]
    elif answer.get("restored"):
        lines = [f"{head}; believed again: " + named(answer["restored"], answer)]
    elif reason == "corrected":
        lines = [f"{head}; nothing replaces it, and no earlier value was believed again"]
    else:  # an end may lie ahead (`--at`): until then the value still holds
        lines = [f"{head}; nothing replaces it"]
    if answer.get("tier_lowered"):
        lines.append(f"tier lowered: {answer['tier_lowered']}")
    return lines


_HOW_REPLACED = {
    "outdated": "outdated: told with no start, it had changed before (now history)",
    "corrected": "corrected: the guess this contradicts (now history)",
}
"""How ``remember`` says a value left, where a dated word overruled it (``retired_reason``)."""


def retract_lines(answer: dict[str, Any]) -> list[str]:
    """What a retract did, and the values it leaves ended when its slot holds none now.

    A retract gives nothing back: Memcached had replaced Redis, and retracting
    Memcached leaves the cache slot empty with Redis still ended. Said outright, with
    the two ways on, so the person is not left to find the empty slot later.
    """
    full = answer["fact_id"]
    lines = [f"retracted {full}"]
    ended = answer.get("left_ended") or []
    if ended:
        values = "; ".join(
            f"{on_one_line(v['object'])} ({v['fact_id'][:12]}"
            + (f", {v['retired_reason']})" if v.get("retired_reason") in _HOW_REPLACED else ")")
            for v in ended
        )
        lines += [
            f"its slot holds no value now; what it had replaced stays ended: {values}",
            f"if it was never true: `twoclocks reopen {full[:12]}` then "
            f"`twoclocks revise {full[:12]} --reason corrected` believes that again; "
            "if a value holds again, remember it",
        ]
    return lines


def empty_line(
    elsewhere: int | None,
    noun: str = "fact",
    where: str = "other workspaces",
    how: str = "add --all-workspaces to list them",
) -> str:
    """What an empty read says, pointing at the other workspaces when they hold rows."""
    if not elsewhere:
        return "result: empty"
    rows = noun if elsewhere == 1 else f"{noun}s"
    return f"result: empty here; {elsewhere} {rows} in {where} ({how})"


def missed_line(elsewhere: int, where: str, how: str) -> str:
    """Said under rows none of which is about what the question names, when ``where`` is."""
    rows = "fact about it is" if elsewhere == 1 else "facts about it are"
    return f"none of these is about what the question names; {elsewhere} {rows} in {where} ({how})"


def placed(line: str, fact: dict[str, Any]) -> str:
    """A row of a read across every workspace, with the workspace it lives in.

    Two checkouts' ``working_on`` read as two current values of one slot without it.
    """
    where = fact.get("workspace")
    return f"{line}  [{on_one_line(where)}]" if where else line


def line_of(
    fact: dict[str, Any], zone: ZoneInfo, with_place: bool = False, mended: Collection[str] = ()
) -> str:
    """A fact's line, with its workspace when the read spans every workspace."""
    line = fact_line(fact, zone, mended)
    return placed(line, fact) if with_place else line


def facts_lines(
    facts: list[dict[str, Any]], zone: ZoneInfo, now: datetime, with_place: bool = False
) -> list[str]:
    """A read of now: what holds, then what starts later (``valid_at`` after ``now``)."""
    current: list[str] = []
    later: list[str] = []
    mended = mended_rows(facts)
    for f in facts:
        starts_later = datetime.fromisoformat(f["valid_at"]) > now
        line = line_of(f, zone, with_place, mended)
        (later if starts_later else current).append(line)
    return later_lines(current, later)


def three_parts_message(given: list[str]) -> str:
    """What ``remember`` says when given fewer than its three parts, filled from the
    person's words where one sentence states them (``sentence_parts``)."""
    parts = sentence_parts(" ".join(given))
    if parts is not None:
        slot = parts.slot or "SLOT"
        example = f"twoclocks remember {quote_arg(parts.subject)} {slot} {quote_arg(parts.value)}"
    else:
        example = 'twoclocks remember shop frontend_framework "Next.js 14"'
    lines = [
        f"remember takes three parts and got {len(given)}: what the fact is about, the slot it"
        " fills, and the value, e.g.",
        f"  {example}",
    ]
    if parts is not None and parts.slot is None:
        lines.append(f"  (SLOT: what {parts.value!r} is to {parts.subject!r}, e.g. framework)")
    lines.append(
        "Name the slot by what the value is (framework, owner, deploy_target): such a slot"
        " holds one value, and a new one closes the old, where a verb such as uses holds many"
        " and a change leaves both current. A rule in your own words: twoclocks remember team"
        ' rule "..." --class rule'
    )
    return "\n".join(lines)
