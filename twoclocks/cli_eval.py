"""`twoclocks eval`: measurements anyone can rerun offline, on a throwaway store.

Registered on the main CLI as the ``eval`` group. The store eval runs in a temporary
data dir (embedded FalkorDB) unless ``--store`` names a Neo4j; either way each arm
writes into a fresh account of its own and deletes its rows when done.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from twoclocks import bootstrap
from twoclocks.cli_client import fail
from twoclocks.domain.errors import TwoclocksError

app = typer.Typer(help="Measure the store on our scenario (store).", no_args_is_help=True)


@app.command("store")
def eval_store(
    store: Annotated[
        str | None,
        typer.Option("--store", help="a bolt:// or neo4j:// URI (default: a temporary embedded)"),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the results as JSON")] = False,
    chart: Annotated[
        Path | None,
        typer.Option("--chart", help="also write a PNG chart here (needs the eval extra)"),
    ] = None,
    no_drift: Annotated[bool, typer.Option("--no-drift", help="skip the drift variant")] = False,
    misses: Annotated[
        bool, typer.Option("--misses", help="list every miss behind the figures")
    ] = False,
) -> None:
    """Three arms (bi-temporal, append-only, overwrite) on 24 facts and 38 changes, graded."""
    from twoclocks.eval import store_eval

    with tempfile.TemporaryDirectory(prefix="twoclocks-eval-") as tmp:
        settings = bootstrap.load_settings(data_dir=Path(tmp), store=store or "embedded")

        async def measure() -> list[store_eval.ArmResult]:
            bootstrap.quiet_libraries()
            embedder = bootstrap.load_embedder(settings)
            target = bootstrap.open_store(settings)
            await target.start()
            try:
                variants = (False,) if no_drift else (False, True)
                return await store_eval.run(target, embedder, variants=variants)
            finally:
                await target.close()

        try:
            results = asyncio.run(measure())
            if chart is not None:
                from twoclocks.eval.chart import store_chart

                store_chart(results, chart)
        except TwoclocksError as exc:
            fail(exc)
    if as_json:
        typer.echo(json.dumps([r.as_dict() for r in results], indent=2))
        return
    typer.echo(store_eval.table(results))
    for r in results:
        for miss in r.misses if misses else ():
            typer.echo(f"  {r.arm} ({r.variant}): {miss}")
    if chart is not None:
        typer.echo(f"chart: {chart}")
