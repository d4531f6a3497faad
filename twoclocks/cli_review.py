"""`twoclocks held` and `twoclocks review`: the person's check of what models wrote.

Each command is one call to the HTTP v1 route that the web screen uses too (api/review_routes.py),
so the CLI, as the person, may restore, accept, fix and reject.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

import typer

from twoclocks.cli_client import AccountZone, AsJson, FactId, call, show
from twoclocks.cli_render import fact_line

held_app = typer.Typer(
    help="Facts a model wrote that rode refused turns, held back until you restore them.",
    invoke_without_command=True,
)
review_app = typer.Typer(
    help="Facts the turn extractor wrote, for you to accept, fix or reject.",
    invoke_without_command=True,
)


def _lines(facts: list[dict[str, Any]], empty: str) -> list[str]:
    if not facts:
        return [empty]
    zone = AccountZone().info
    return [fact_line(fact, zone) for fact in facts]


@held_app.callback()
def held(ctx: typer.Context, as_json: AsJson = False) -> None:
    """List the held-back facts (newest first); `held restore ID` takes one back."""
    if ctx.invoked_subcommand is not None:
        return
    answer = call("GET", "/v1/held")
    facts = [h["fact"] for h in answer["held"]]
    show(answer, as_json, _lines(facts, "nothing held back"))


@held_app.command("restore")
def restore(fact_id: FactId, as_json: AsJson = False) -> None:
    """Restore a held-back fact: current again, and never held back again."""
    answer = call("POST", f"/v1/held/{quote(fact_id, safe='')}/restore", {})
    show(answer, as_json, [f"restored {answer['fact_id']}"])


@review_app.callback()
def review(ctx: typer.Context, as_json: AsJson = False) -> None:
    """List the extracted facts to review (newest first)."""
    if ctx.invoked_subcommand is not None:
        return
    answer = call("GET", "/v1/review")
    show(answer, as_json, _lines(answer["to_review"], "nothing to review"))


@review_app.command("accept")
def accept(fact_id: FactId, as_json: AsJson = False) -> None:
    """Keep it as extracted (it stays inferred: restate it yourself to make it yours)."""
    answer = call("POST", f"/v1/review/{quote(fact_id, safe='')}/accept", {})
    show(answer, as_json, [f"accepted {answer['fact_id']}"])


@review_app.command("fix")
def fix(
    fact_id: FactId,
    obj: Annotated[str, typer.Argument(metavar="object", help="The right value")],
    predicate: Annotated[str | None, typer.Option(help="A new slot name, if it changes")] = None,
    as_json: AsJson = False,
) -> None:
    """Correct it: it never held; your value replaces it."""
    body = {"object": obj, **({"predicate": predicate} if predicate else {})}
    answer = call("POST", f"/v1/review/{quote(fact_id, safe='')}/fix", body)
    show(answer, as_json, [f"fixed {answer['fact_id']}: now {answer['successor_id']}"])


@review_app.command("reject")
def reject(fact_id: FactId, as_json: AsJson = False) -> None:
    """Reject it: retracted (kept as history; `twoclocks reopen ID` undoes it)."""
    answer = call("POST", f"/v1/review/{quote(fact_id, safe='')}/reject", {})
    show(answer, as_json, [f"rejected {answer['fact_id']}"])
