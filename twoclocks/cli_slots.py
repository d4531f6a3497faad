"""`twoclocks aliases`, `split`, `merge`, `close-slots`, `keep-apart`: which names are one slot.

Each command is one call to the HTTP v1 route the web screen and agents use too.
"""

from __future__ import annotations

from pathlib import Path
from shlex import quote as quote_arg
from typing import Annotated

import typer

from twoclocks.cli_client import AllWorkspaces, AsJson, call, query_string, show
from twoclocks.cli_render import merge_lines, split_lines
from twoclocks.domain.model import on_one_line


def aliases(
    subject: Annotated[str | None, typer.Option(help="Only this subject's")] = None,
    as_json: AsJson = False,
) -> None:
    """List the slot-drift merges and the pairs of slot names kept apart.

    Each merge says which name went under which slot, and who decided it.
    """
    answer = call("GET", "/v1/aliases?" + query_string({"subject": subject}))
    lines = [
        f"{a['subject']} · {a['alias']} -> {a['canonical']}"
        + (f"  (decided by {a['decided_by']})" if a["decided_by"] else "")
        for a in answer["aliases"]
    ]
    join = (
        "join two: twoclocks merge NAME --into SLOT --subject SUBJECT (one current value); "
        "twoclocks close-slots lists close names left as two slots that may be one"
    )
    if lines:
        lines.append("undo one: twoclocks split ALIAS --subject SUBJECT (both values current)")
    else:
        lines.append("no merges: every name is its own slot")
    apart = [
        f"{p['subject']} · {p['first']} | {p['second']}  ({p['decided_by']})"
        for p in answer["apart"]
    ]
    if apart:
        lines += ["kept apart (never merged, not listed as close):", *apart]
    show(answer, as_json, [*lines, join])


def split(
    alias: Annotated[str, typer.Argument(help="The name the writer used (a fact's written_as)")],
    subject: Annotated[
        str | None, typer.Option(help="Whose alias, when several subjects have it")
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Undo a slot-drift merge: the alias becomes its own slot again, both values current."""
    answer = call("POST", "/v1/aliases/split", {"alias": alias, "subject": subject})
    show(answer, as_json, split_lines(answer))


def merge(
    alias: Annotated[str, typer.Argument(help="The slot name to fold in; it becomes an alias")],
    into: Annotated[str, typer.Option(help="The slot it joins, which keeps its name")],
    subject: Annotated[str, typer.Option(help="Whose slots")],
    as_json: AsJson = False,
) -> None:
    """Merge what slot drift missed: ALIAS becomes another name of slot INTO."""
    body = {"alias": alias, "canonical": into, "subject": subject}
    answer = call("POST", "/v1/aliases/merge", body)
    show(answer, as_json, merge_lines(answer))


def keep_apart(
    slot: Annotated[str, typer.Argument(help="One slot name")],
    other: Annotated[str, typer.Argument(help="The other slot name")],
    subject: Annotated[str, typer.Option(help="Whose slots")],
    as_json: AsJson = False,
) -> None:
    """Keep two slot names apart: drift never merges them, close-slots no longer lists them."""
    body = {"subject": subject, "slot": slot, "other": other}
    answer = call("POST", "/v1/aliases/apart", body)
    show(
        answer,
        as_json,
        [
            f"kept apart: {answer['first']} and {answer['second']} ({answer['subject']}) are "
            "two slots",
            f"undo: twoclocks merge {quote_arg(other)} --into {quote_arg(slot)} --subject "
            f"{quote_arg(subject)} (makes them one)",
        ],
    )


def close_slots(
    subject: Annotated[str | None, typer.Option(help="Only this subject")] = None,
    all_workspaces: AllWorkspaces = False,
    as_json: AsJson = False,
) -> None:
    """List close slot names left as two slots that may name one thing (both values current)."""
    query = {
        "subject": subject,
        "all_workspaces": "true" if all_workspaces else None,
        "cwd": str(Path.cwd()),
    }
    answer = call("GET", "/v1/aliases/close?" + query_string(query))
    if not answer["close"]:
        show(answer, as_json, ["no close slots: every pair of names is plainly apart or merged"])
        return
    lines: list[str] = []
    for pair in answer["close"]:
        lines.append(
            f"{pair['subject']} · {pair['slot']} ({_values(pair['values'])}) ~ "
            f"{pair['other']} ({_values(pair['other_values'])})  {pair['similarity']:.2f}: "
            f"{pair['why']}"
        )
        args = " ".join(quote_arg(a) for a in (pair["other"], "--into", pair["slot"]))
        who = f"--subject {quote_arg(pair['subject'])}"
        lines.append(f"  one slot? twoclocks merge {args} {who}")
        apart = " ".join(quote_arg(a) for a in (pair["slot"], pair["other"]))
        lines.append(f"  two slots? twoclocks keep-apart {apart} {who}")
    show(answer, as_json, lines)


def _values(values: list[str]) -> str:
    return ", ".join(on_one_line(v) for v in values)
