"""`twoclocks recall`: one call to ``POST /v1/recall``, and the lines a person reads.

The answer's parts (what held at a time named, what ended, what changed, what is to come)
are laid out by ``cli_recall_lines``; this module reads them off the API's JSON.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer

from twoclocks.cli_client import AccountZone, AsJson, call, show
from twoclocks.cli_recall_lines import (
    changed_lines,
    ended_lines,
    holds_in,
    later_lines,
    then_lines,
    to_come_lines,
)
from twoclocks.cli_render import WHEN_HELP, empty_line, fact_line, mended_rows, missed_line
from twoclocks.domain.before_questions import BEFORE_ANY_FACT
from twoclocks.domain.fact_text import TOLD_LATER_HEAD
from twoclocks.domain.model import on_one_line
from twoclocks.domain.scope import Scope


def recall(
    words: Annotated[
        list[str],
        typer.Argument(
            metavar="query",
            help="What to look for, in words (quotes optional)",
            show_default=False,
        ),
    ],
    k: Annotated[
        int, typer.Option("-k", "--k", min=1, max=200, help="How many facts at most")
    ] = 10,
    as_of: Annotated[str | None, typer.Option(help=f"What was true then: {WHEN_HELP}")] = None,
    as_believed: Annotated[
        str | None, typer.Option(help=f"What the store held then: {WHEN_HELP}")
    ] = None,
    history: Annotated[bool, typer.Option("--history", help="Closed versions too")] = False,
    scope: Annotated[
        Scope, typer.Option(help="here: this workspace; wide: every project of this space")
    ] = Scope.HERE,
    as_json: AsJson = False,
) -> None:
    """Hybrid recall of facts for this working directory (or, wide, its whole space)."""
    query = " ".join(words)  # `twoclocks recall who owns checkout` asks what it says
    zone = AccountZone()
    body = {
        "query": query,
        "k": k,
        "as_of": zone.when(as_of, "--as-of"),
        "as_believed": zone.when(as_believed, "--as-believed"),
        "include_history": history or None,
        "cwd": str(Path.cwd()),
        "scope": scope.value,
    }
    answer = call("POST", "/v1/recall", {k: v for k, v in body.items() if v is not None})
    lines = [f"result: {answer['status']}"]
    elsewhere = answer.get("elsewhere")
    where, how = "other projects or worktrees of this space", "add --scope wide to read them"
    # An ended slot, a past time's value or a plan the question names is its answer, said
    # next: "empty here; 2 facts in other projects" first read as if nothing here did.
    answered = ("ended", "ended_values", "held_then", "starting_later")
    if elsewhere and not answer["facts"] and not any(answer.get(key) for key in answered):
        lines = [empty_line(elsewhere, where=where, how=how)]
    # Facts that held at the time the question names and still hold, events that happened
    # in it, and facts that changed in the time a question asking what changed names, are
    # said there, once.
    still = answer.get("still_held") or []
    apart = [*still, *(answer.get("held_then") or []), *(answer.get("changed") or [])]
    apart += answer.get("corrected") or []
    said_apart = {f["version_id"] for f in apart}
    # A closed copy a correction gave back reads "[end corrected]", not "[corrected]": the
    # value it was given back as may be a row or in any list beside them.
    listed = [*answer["facts"], *apart, *(answer.get("ended_values") or [])]
    mended = mended_rows(listed)
    rows = [f for f in answer["facts"] if f["version_id"] not in said_apart]
    if answer["facts"] and not as_json:
        # A row from another project says which, so it is never read as this one's.
        lines += [
            fact_line(f, zone.info, mended)
            + (f"  [elsewhere: {on_one_line(f['workspace'])}]" if f.get("elsewhere") else "")
            for f in rows
        ]
    if elsewhere and answer["facts"] and not as_json:
        lines.append(missed_line(elsewhere, where=where, how=how))
    if not as_json:
        # A plan memory was told in the time asked about is said there, once.
        plans = [f for f in answer.get("starting_later") or [] if f["version_id"] not in said_apart]
        later = [fact_line(f, zone.info, mended) for f in plans]
        named = answer.get("named_time")
        held_then = answer.get("held_then") or []
        then = [fact_line(f, zone.info, mended) for f in held_then]
        events = bool(held_then) and all(f.get("kind") == "event" for f in held_then)
        label = named["label"] if named else None
        still_lines = [fact_line(f, zone.info, mended) for f in still]
        believed = bool(answer.get("then_believed"))
        first_value = (
            named["said"]
            if named and datetime.fromisoformat(named["since"]) == BEFORE_ANY_FACT
            else None
        )
        # What memory believed in a time still running holds its current facts too: said
        # there, none is left for the rows, and "nothing holds now" would be false.
        held_now = bool(rows) or (believed and bool(answer["facts"]))
        lines = then_lines(lines, label, then, held_now, still_lines, events, believed, first_value)
        ended = [fact_line(f, zone.info, mended) for f in answer.get("ended") or []]
        named_ended = answer.get("ended_values") or []
        ended_values = [fact_line(f, zone.info, mended) for f in named_ended]
        reasons = [f.get("retired_reason") for f in named_ended]
        lines = ended_lines(lines, ended, ended_values, bool(answer["facts"]), reasons)
        if span := answer.get("changes_in"):
            changed = [fact_line(f, zone.info, mended) for f in answer.get("changed") or []]
            learned = bool(answer.get("changes_told"))
            corrected = [fact_line(f, zone.info, mended) for f in answer.get("corrected") or []]
            lines = changed_lines(
                lines, span["label"], changed, bool(rows), learned, corrected,
                bool(answer.get("changes_corrected")), answer.get("changes_about") or (),
                answer.get("changes_more") or 0,
            )  # fmt: skip
        first = bool(answer.get("later_first"))
        if to_come := answer.get("time_to_come"):
            during = [fact_line(f, zone.info, mended) for f in plans if holds_in(f, to_come)]
            rest = [fact_line(f, zone.info, mended) for f in plans if not holds_in(f, to_come)]
            more = answer.get("starting_later_more") or 0
            lines = to_come_lines(lines, to_come["label"], during, rest, first, more)
        else:
            lines = later_lines(lines, later, first=first)
        if told := [fact_line(f, zone.info, mended) for f in answer.get("told_later") or []]:
            lines += [f"{TOLD_LATER_HEAD}):", *told]
    show(answer, as_json, lines)
