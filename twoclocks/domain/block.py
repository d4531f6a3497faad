"""The first-turn block: what a new session is told before its first prompt (DESIGN.md §6).

The service selects the versions (current facts of the workspace and unplaced
ones, plus closed versions still believed, for history); this module only orders,
labels and fits them in the budget. Worked example (``now`` 2026-03-02 12:00 UTC,
shown in Europe/Istanbul)::

    [[CM-MEM]] rules: 1 your current message overrides every fact;
    2 when facts conflict the newest valid_at wins; 3 ✗ INVALID lines are history;
    4 these lines are the whole result of this read: cite memory for nothing else.
    result: rows
    Rules you set:
    - keep your answers to five lines or less
    Facts:
    - production · deploy target: Render, Oregon region (since 2026-03-01 12:00 +03, asserted)
    Recent changes (last 48 h):
    - production · deploy target: Hetzner -> Render, Oregon region (changed 2026-03-01 12:00 +03)

Rules:

* a row with no tier is never rendered; a ``rule`` the person asserted is quoted
  verbatim under "Rules you set" (with its subject and slot when the value alone states
  no rule: ``rule_line``); an inferred line is marked as a guess;
* another workspace's value of a slot that holds a value here is left out (``held_here``),
  and so is its recent change; a fact of another workspace says ``from`` which;
* facts of this workspace come first, then unplaced ones, then the rest; inside each
  group ``query_rank`` order when given, then facts before events, newest ``valid_at``
  first; the events of one slot (captured edits, commits) share one line, the newest
  5 named and the rest counted, and a fact whose value an event of its subject names
  (``last_commit``) is told by that line, put where the fact ranked;
* at most 3 recent changes, newest first (and a line counting the rest, when more
  happened: ``more_changes_line``): facts corrected in the last 48 h
  (``correction_line``: what was never true, and what holds instead), and versions
  whose world-time end falls in the last 48 h,
  each paired with the version that replaced it (old -> new): one that names it
  (``supersedes``), else one opening the same slot, in the same workspace, exactly
  where it ended. The line is left out when that successor is not shown (no tier),
  lives in another workspace, or restates the same value, and when every old value
  on it is an event the block names (``last_commit`` beside the ``committed`` events);
  "nothing replaced it" is said only when no version anywhere took over;
* a current fact with a scheduled end says "until"; its "since" is when the value
  began, so a value written again after it had closed keeps its first start;
* at most 3 values that start in the next 7 days, soonest first, under "Coming up"
  (``coming_up``), each naming the value it replaces, and a line counting the rest
  (``more_coming_line``);
* closed versions show as ``✗ INVALID`` only for session-state predicates, and not
  while the same value is current again;
* the whole text fits ``budget`` characters; when anything is cut, the last line
  (inside the budget) says how many rows are missing and which tool lists them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime, tzinfo
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict

from twoclocks.domain.block_lines import (
    BLOCK_MARKER,
    fact_line,
    format_time,
    one_line,
    rule_line,
    slot_label,
    tier_note,
)
from twoclocks.domain.coming_up import HEADING as COMING_HEADING
from twoclocks.domain.coming_up import coming_line, coming_more, coming_up, more_coming_line
from twoclocks.domain.errors import InvalidInput
from twoclocks.domain.model import FactClass, FactVersion, Kind, Tier
from twoclocks.domain.recent_changes import (
    MAX_RECENT_CHANGES,
    RECENT_WINDOW,
    change_line,
    correction_line,
    correction_successor,
    earlier_in_window,
    is_recent_ending,
    more_changes_line,
    recent_change,
)
from twoclocks.domain.restatement import is_restatement
from twoclocks.domain.slot_names import predicate_tokens
from twoclocks.domain.temporal import is_current
from twoclocks.domain.trust import shown_to_model

BlockStatus = Literal["rows", "empty", "unavailable"]

HEADER = (
    f"{BLOCK_MARKER} rules: 1 your current message overrides every fact;\n"
    "2 when facts conflict the newest valid_at wins; 3 ✗ INVALID lines are history;\n"
    "4 these lines are the whole result of this read: cite memory for nothing else."
)

DEFAULT_BUDGET = 8000
"""Characters; under Claude Code's 10,000-character cap on a hook's additionalContext."""

MIN_BUDGET = 500
"""The smallest budget that still holds the header, the result line and the cut line."""

MAX_EVENTS_SHOWN = 5
"""Of a slot's events (edited files, commits), the newest this many are named; the rest counted."""

SESSION_STATE: frozenset[str] = frozenset(
    {
        "decided", "decision", "working_on", "current_task", "current_ticket",
        "current_branch", "current_focus", "current_goal", "next_step", "next_steps",
        "blocked_on", "in_progress", "todo",
    }
)  # fmt: skip
"""Predicates (as snake_case words) whose closed versions still show, as ✗ INVALID history.

Where work stood last session is worth seeing even after it moved on; an old deploy
target is not, because its successor already says everything the model needs.
"""

_HEADINGS = {
    "rule": "Rules you set:",
    "fact": "Facts:",
    "change": "Recent changes (last 48 h):",
    "coming": COMING_HEADING,
    "invalid": "History, no longer true:",
}
# Cutting follows this order (rules are kept longest); display follows _DISPLAY.
_PRIORITY = ("rule", "change", "coming", "fact", "invalid")
_DISPLAY = ("rule", "fact", "change", "coming", "invalid")


class RenderedBlock(BaseModel):
    """The block's text, what it says about the read, how many rows it shows and how many it cut."""

    model_config = ConfigDict(frozen=True)

    status: BlockStatus
    text: str
    rows: int
    """How many versions the kept lines tell (an events line of 12 edits tells 12)."""
    more: int
    """How many versions the cut lines would have told: the count on the cut line."""


class _Line(NamedTuple):
    """A line of the block and how many versions it tells, for the cut line's count."""

    text: str
    rows: int = 1


def is_session_state(predicate: str) -> bool:
    """True for predicates whose history the block keeps as ✗ INVALID lines.

    >>> is_session_state("workingOn"), is_session_state("deploy_target")
    (True, False)
    """
    return "_".join(predicate_tokens(predicate)) in SESSION_STATE


def _held_since(v: FactVersion, rows: Sequence[FactVersion]) -> datetime:
    """When the value began: a restatement that reopened it continues the closed run before it."""
    start, seen = v.valid_at, {v.version_id}
    while True:
        before = [
            p for p in rows
            if p.version_id not in seen and p.expired_at is None and p.slot == v.slot
            and p.workspace == v.workspace and p.invalid_at == start
            and is_restatement(p.object, v.object)
        ]  # fmt: skip
        if not before:
            return start
        start = min(p.valid_at for p in before)
        seen.update(p.version_id for p in before)


def _fact_lines(
    current: Sequence[FactVersion],
    shown: Sequence[FactVersion],
    tz: tzinfo,
    workspace_keys: Collection[str],
) -> list[_Line]:
    """One line per fact, and one per slot of events, in ``current``'s order.

    A fact whose value an event of its subject names (``last_commit`` beside the
    ``committed`` events, as capture writes them) is told by the events line, put in the
    fact's place: "last commit: 1a2b3c4 fix" above "committed: 1a2b3c4 fix" said one
    commit twice.
    """
    events: dict[tuple[tuple[str, str], str | None], list[FactVersion]] = {}
    group_of: dict[tuple[str, str | None, str], tuple[tuple[str, str], str | None]] = {}
    for v in current:
        if v.kind is Kind.EVENT:
            events.setdefault((v.slot, v.workspace), []).append(v)
            group_of.setdefault(_event_key(v), (v.slot, v.workspace))
    lines: list[_Line] = []
    for v in current:
        elsewhere = not _here(v, workspace_keys)
        if v.kind is Kind.EVENT:
            if same := events.pop((v.slot, v.workspace), None):
                lines.append(_Line(_events_line(same, tz, elsewhere), len(same)))
        elif (group := group_of.get(_event_key(v))) is None:
            since = _held_since(v, shown)
            # A start nobody stated is when the store was told, not when it became true.
            begun = "since" if v.start_stated or since != v.valid_at else "known since"
            lines.append(_Line(fact_line(v, since, tz, begun=begun, elsewhere=elsewhere)))
        elif same := events.pop(group, None):
            lines.append(_Line(_events_line(same, tz, elsewhere), len(same) + 1))
    return lines


def _here(v: FactVersion, workspace_keys: Collection[str]) -> bool:
    """Of the session's workspace, or of none (applies everywhere)."""
    return v.workspace is None or v.workspace in workspace_keys


def held_here(
    v: FactVersion, here_slots: Collection[tuple[str, str]], workspace_keys: Collection[str]
) -> bool:
    """False for another workspace's value of a slot that holds a value here (left out).

    A space that reads from another (``reads_from``) sees its workspaces' facts, and
    the person's own slots repeat across them: in a client checkout, the block said
    ``user · working on: client portal login`` and, from a personal checkout, ``user ·
    working on: kafka retry worker``, two current tasks for one session. The value
    here is the one that applies; the other workspace keeps its own, and recall still
    reads it with scope ``wide``. A slot held only elsewhere stays, marked ``from``
    its workspace. ``here_slots``: the slots of the current rows of this workspace.
    """
    return _here(v, workspace_keys) or v.slot not in here_slots


def _event_key(v: FactVersion) -> tuple[str, str | None, str]:
    """What makes a closed value one the block already names as an event."""
    return (v.subject, v.workspace, one_line(v.object))


def _events_line(events: Sequence[FactVersion], tz: tzinfo, elsewhere: bool = False) -> str:
    """Events of one slot, newest first, on one line; an event says when it happened.

    Captured edits file one event per file: twenty lines of "edited file" would fill the
    block and push out what holds. For example::

        - shop-api · edited file (12, newest first): src/a.ts; src/b.ts; src/c.ts; … 7 more
          (latest 2026-03-02 07:00 +03, observed)
        - shop-api · committed: 3f2a1b9 add orders (at 2026-03-02 06:40 +03, observed)

    ("since" would read as if a commit were still going on.)
    """
    if len(events) == 1:
        return fact_line(events[0], events[0].valid_at, tz, begun="at", elsewhere=elsewhere)
    newest = sorted(events, key=lambda v: (-v.valid_at.timestamp(), v.version_id))
    values = [one_line(v.object) for v in newest[:MAX_EVENTS_SHOWN]]
    if len(newest) > MAX_EVENTS_SHOWN:
        values.append(f"… {len(newest) - MAX_EVENTS_SHOWN} more")
    first = newest[0]
    tiers = {tier_note(v.tier) for v in newest}
    tier = tier_note(first.tier) if len(tiers) == 1 else "mixed tiers"
    place = f", from {one_line(first.workspace)}" if elsewhere and first.workspace else ""
    return (
        f"- {one_line(first.subject)} · {slot_label(first)} ({len(newest)}, newest first): "
        f"{'; '.join(values)} (latest {format_time(first.valid_at, tz)}, {tier}{place})"
    )


def _invalid_line(v: FactVersion, tz: tzinfo) -> str:
    assert v.invalid_at is not None
    return (
        f"✗ INVALID {one_line(v.subject)} · {slot_label(v)}: "
        f"{one_line(v.object)} (from {format_time(v.valid_at, tz)} "
        f"until {format_time(v.invalid_at, tz)}, {tier_note(v.tier)})"
    )


def _more_line(count: int, tool: str) -> str:
    return f"… {count} more facts not shown: call {tool} to list them"


def _ordered(
    rows: Sequence[FactVersion],
    workspace_keys: Collection[str],
    query_rank: Mapping[str, int] | None,
) -> list[FactVersion]:
    """This workspace, then unplaced, then the rest; inside each, by query rank when given,
    then facts before events, newest first."""

    def group(v: FactVersion) -> int:
        if v.workspace is None:
            return 1
        return 0 if v.workspace in workspace_keys else 2

    def key(v: FactVersion) -> tuple[int, float, bool, float, str]:
        rank = float("inf")
        if query_rank is not None and v.version_id in query_rank:
            rank = float(query_rank[v.version_id])
        # What holds before what happened: an hour of captured edits and commits must not
        # push the person's deploy target under the fold.
        return (group(v), rank, v.kind is Kind.EVENT, -v.valid_at.timestamp(), v.version_id)

    return sorted(rows, key=key)


def _sections(
    facts: Sequence[FactVersion],
    now: datetime,
    tz: tzinfo,
    workspace_keys: Collection[str],
    query_rank: Mapping[str, int] | None,
    replaced_elsewhere: Collection[str],
    corrections: Sequence[FactVersion],
) -> dict[str, list[_Line]]:
    shown = [v for v in facts if shown_to_model(v.tier)]
    holding = [v for v in shown if is_current(v, now)]
    here_slots = {v.slot for v in holding if _here(v, workspace_keys)}
    current = _ordered(
        [v for v in holding if held_here(v, here_slots, workspace_keys)], workspace_keys, query_rank
    )
    # Another workspace's change of a slot that holds a value here is not this session's.
    closed = [
        v for v in shown
        if v.expired_at is None and v.invalid_at is not None and v.invalid_at <= now
        and held_here(v, here_slots, workspace_keys)
    ]  # fmt: skip
    # Newest end first: the latest change is the one the model is likeliest to trip on.
    closed.sort(key=lambda v: (-(v.invalid_at or now).timestamp(), v.version_id))

    rules = [v for v in current if v.fact_class is FactClass.RULE and v.tier is Tier.ASSERTED]
    rule_ids = {v.version_id for v in rules}

    # Each line with when it happened (the world end of a change, the record instant of a
    # correction) and the versions it tells, so the two kinds are told newest first
    # together and a session-state value cut from them still shows as history.
    changes: list[tuple[datetime, _Line, tuple[str, ...]]] = []
    as_event_lines: set[str] = set()
    slots_said: set[tuple[tuple[str, str], str | None]] = set()
    as_events = {_event_key(v) for v in current if v.kind is Kind.EVENT}
    for old in closed:
        if not is_recent_ending(old, now) or (old.slot, old.workspace) in slots_said:
            continue
        # Every row, tiered or not, is looked at for the successor: an untiered one
        # still replaced the value, so the line is left out rather than saying "ended".
        said = recent_change(old, facts, replaced_elsewhere)
        if said is not None:
            earlier = earlier_in_window(old, closed, facts, now)
            slots_said.add((old.slot, old.workspace))
            told = (old, *earlier)
            if all(_event_key(v) in as_events for v in told):
                # "last commit: a -> b -> c" beside "committed (3): c; b; a" said each
                # commit a third time and took a change line from the person's facts.
                as_event_lines.update(v.version_id for v in told)
                continue
            line = _Line(change_line(old, said[0], now, tz, earlier), len(told))
            changes.append((old.invalid_at or now, line, tuple(v.version_id for v in told)))

    def still_true(old: FactVersion) -> bool:
        return any(v.slot == old.slot and is_restatement(v.object, old.object) for v in current)

    for wrong in corrections:
        # "Never true" beside a current value that says the same would contradict it: the
        # value was written again since (the person's own word, say).
        if (
            wrong.expired_at is None
            or not shown_to_model(wrong.tier)
            or now - wrong.expired_at > RECENT_WINDOW
            or not held_here(wrong, here_slots, workspace_keys)
            or still_true(wrong)
        ):
            continue
        new = correction_successor(wrong, facts)
        changes.append((wrong.expired_at, _Line(correction_line(wrong, new, now, tz)), ()))
    changes.sort(key=lambda change: -change[0].timestamp())
    more_changes = len(changes) - MAX_RECENT_CHANGES
    del changes[MAX_RECENT_CHANGES:]
    in_changes = as_event_lines | {version_id for _, _, told in changes for version_id in told}

    return {
        "rule": [_Line(rule_line(v)) for v in rules],
        "fact": _fact_lines(
            [v for v in current if v.version_id not in rule_ids], shown, tz, workspace_keys
        ),
        "change": [line for _, line, _ in changes]
        + ([_Line(more_changes_line(more_changes), 0)] if more_changes > 0 else []),
        "coming": [_Line(coming_line(v, shown, tz)) for v in coming_up(shown, now)]
        + ([_Line(more_coming_line(more), 0)] if (more := coming_more(shown, now)) else []),
        "invalid": [
            _Line(_invalid_line(v, tz))
            for v in closed
            if is_session_state(v.predicate)
            and v.version_id not in in_changes
            and not still_true(v)
        ],
    }


def _told(sections: dict[str, list[_Line]]) -> int:
    return sum(line.rows for lines in sections.values() for line in lines)


def _fit(
    sections: dict[str, list[_Line]], head: str, budget: int, more_tool: str
) -> tuple[dict[str, list[_Line]], int]:
    """Keep lines in priority order while they fit, leaving room for the cut line.

    The cut count is of versions, not lines: a cut "edited file (12, ...)" line is 12
    facts the model was not shown.
    """
    total = _told(sections)

    def size(kept: dict[str, list[_Line]]) -> int:
        lines = [head]
        for name, rows in kept.items():
            if rows:
                lines += [_HEADINGS[name], *(row.text for row in rows)]
        return len("\n".join(lines))

    if size(sections) <= budget:
        return sections, 0
    room = budget - len(_more_line(total, more_tool)) - 1
    kept: dict[str, list[_Line]] = {name: [] for name in sections}
    used = len(head)
    for name in _PRIORITY:
        for line in sections[name]:
            cost = len(line.text) + 1 + (0 if kept[name] else len(_HEADINGS[name]) + 1)
            if used + cost > room:
                return kept, total - _told(kept)
            kept[name].append(line)
            used += cost
    raise AssertionError("unreachable: the whole block fit after all")  # pragma: no cover


def render_block(
    facts: Sequence[FactVersion],
    *,
    now: datetime,
    tz: tzinfo,
    workspace_keys: Collection[str],
    status: BlockStatus,
    budget: int = DEFAULT_BUDGET,
    query_rank: Mapping[str, int] | None = None,
    more_tool: str = "recall",
    replaced_elsewhere: Collection[str] = (),
    corrections: Sequence[FactVersion] = (),
) -> RenderedBlock:
    """Render the first-turn [[CM-MEM]] block from the versions the service selected.

    ``status`` is what the store said: ``unavailable`` renders the header and that
    result alone; otherwise the result is ``rows`` or ``empty`` from what is shown
    (a store holding only untiered rows is ``empty`` to a model).
    ``replaced_elsewhere``: ids of versions (from ``unreplaced_endings``) that a value
    outside this read replaced; the block leaves their change out instead of "ended".
    ``corrections``: facts found wrong (the last version of each, retired as
    ``corrected``), newest first; those corrected in the last 48 h share the recent
    changes' lines.
    """
    if budget < MIN_BUDGET:
        raise InvalidInput(f"budget {budget} is below {MIN_BUDGET} characters: ask for more")
    if status == "unavailable":
        return RenderedBlock(
            status="unavailable", text=f"{HEADER}\nresult: unavailable", rows=0, more=0
        )
    sections = _sections(
        facts, now, tz, workspace_keys, query_rank, replaced_elsewhere, corrections
    )
    if not any(sections.values()):
        return RenderedBlock(status="empty", text=f"{HEADER}\nresult: empty", rows=0, more=0)

    head = f"{HEADER}\nresult: rows"
    kept, more = _fit(sections, head, budget, more_tool)
    lines = [head]
    for name in _DISPLAY:
        if kept[name]:
            lines += [_HEADINGS[name], *(line.text for line in kept[name])]
    if more:
        lines.append(_more_line(more, more_tool))
    text = "\n".join(lines)
    return RenderedBlock(status="rows", text=text, rows=_told(kept), more=more)
