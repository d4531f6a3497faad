"""`twoclocks eval`: measurements anyone can rerun offline, on a throwaway store.

Registered on the main CLI as the ``eval`` group. Each eval runs in a temporary data dir
(embedded FalkorDB) unless ``--store`` names a Neo4j; either way each run writes into a
fresh account of its own and deletes its rows when done.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar
from urllib.parse import urlsplit

import typer

from twoclocks import bootstrap
from twoclocks.cli_client import fail
from twoclocks.domain.errors import TwoclocksError
from twoclocks.embeddings.port import Embedder
from twoclocks.graph.port import Store

app = typer.Typer(
    help="Measure the store on our scenario (store) and on MemoryAgentBench (fc).",
    no_args_is_help=True,
)

T = TypeVar("T")

StoreOption = Annotated[
    str | None,
    typer.Option("--store", help="a bolt:// or neo4j:// URI (default: a temporary embedded)"),
]
JsonOption = Annotated[bool, typer.Option("--json", help="print the results as JSON")]
ChartOption = Annotated[
    Path | None,
    typer.Option("--chart", help="also write a PNG chart here (needs the eval extra)"),
]
MissesOption = Annotated[bool, typer.Option("--misses", help="list every miss behind the figures")]


def _measure(store: str | None, work: Callable[[Store, Embedder], Awaitable[T]]) -> T:
    """Run ``work`` on a started store (a temporary embedded one unless ``store`` is a URI)."""
    with tempfile.TemporaryDirectory(prefix="twoclocks-eval-") as tmp:
        settings = bootstrap.load_settings(data_dir=Path(tmp), store=store or "embedded")

        async def measure() -> T:
            bootstrap.quiet_libraries()
            embedder = bootstrap.load_embedder(settings)
            target = bootstrap.open_store(settings)
            await target.start()
            try:
                return await work(target, embedder)
            finally:
                await target.close()

        return asyncio.run(measure())


def _echo_results(
    results: list[Any], as_json: bool, text: str, misses: bool, chart: Path | None
) -> None:
    """The JSON, or the table with (on request) each result's misses and the chart's path."""
    if as_json:
        typer.echo(json.dumps([r.as_dict() for r in results], indent=2))
        return
    typer.echo(text)
    for r in results if misses else ():
        label = getattr(r, "arm", None) or getattr(r, "store", "")
        variant = getattr(r, "variant", None) or getattr(r, "size", "")
        for miss in r.misses:
            typer.echo(f"  {label} ({variant}): {miss}")
    if chart is not None:
        typer.echo(f"chart: {chart}")


def _store_label(store: str | None) -> str:
    """The store as the table names it: never the user or password a URI may carry."""
    if store is None:
        return "embedded"
    uri = urlsplit(store)
    return f"{uri.scheme}://{uri.hostname}" + (f":{uri.port}" if uri.port else "")


@app.command("store")
def eval_store(
    store: StoreOption = None,
    as_json: JsonOption = False,
    chart: ChartOption = None,
    no_drift: Annotated[bool, typer.Option("--no-drift", help="skip the drift variant")] = False,
    misses: MissesOption = False,
) -> None:
    """Three arms (bi-temporal, append-only, overwrite) on 24 facts and 38 changes, graded."""
    from twoclocks.eval import store_eval

    variants = (False,) if no_drift else (False, True)
    try:
        results = _measure(
            store, lambda target, embedder: store_eval.run(target, embedder, variants=variants)
        )
        if chart is not None:
            from twoclocks.eval.chart import store_chart

            store_chart(results, chart)
    except TwoclocksError as exc:
        fail(exc)
    _echo_results(results, as_json, store_eval.table(results), misses, chart)


@app.command("fc")
def eval_fc(
    size: Annotated[
        list[str] | None,
        typer.Option("--size", help="6K, 32K, 64K or 262K; repeat for several (default 6K)"),
    ] = None,
    store: StoreOption = None,
    as_json: JsonOption = False,
    chart: ChartOption = None,
    limit: Annotated[
        int | None,
        typer.Option("--limit", min=1, help="ask only the first N questions of each hop"),
    ] = None,
    misses: MissesOption = False,
) -> None:
    """MemoryAgentBench FactConsolidation: ingest the facts in order, ask through recall."""
    from twoclocks.eval import fc_data, fc_eval

    label = _store_label(store)

    def progress(done: int, total: int, seconds: float) -> None:
        rate = done / max(seconds, 1e-9)
        left = (total - done) / max(rate, 1e-9)
        typer.echo(f"  ingest {done}/{total} ({rate:.1f} facts/s, ~{left:.0f} s left)", err=True)

    async def work(target: Store, embedder: Embedder) -> list[fc_eval.FcResult]:
        out = []
        for data in sets:
            typer.echo(f"{data.size}: {len(data.sentences)} facts into {label}", err=True)
            result = await fc_eval.run(
                target, embedder, data, store_label=label, limit=limit, progress=progress
            )
            # A long run's earlier sizes are on screen even if a later one is cut short.
            typer.echo(f"{data.size} done: {fc_eval.summary(result)}", err=True)
            out.append(result)
        return out

    try:
        # Every size is read before the store starts: a wrong size or a missing package
        # fails in a second, not after an ingest.
        sets = [fc_data.load(s) for s in size or ["6K"]]
        results = _measure(store, work)
        if chart is not None:
            from twoclocks.eval.chart import fc_chart

            fc_chart(results, chart)
    except TwoclocksError as exc:
        fail(exc)
    _echo_results(results, as_json, fc_eval.table(results), misses, chart)
