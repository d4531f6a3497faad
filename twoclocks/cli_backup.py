"""The backup commands: `twoclocks export` writes a complete NDJSON backup, `twoclocks
import` restores one into an empty account, every recorded clock kept (docs/backup.md).

Each is one streamed call to ``/v1/export`` or ``/v1/import``; registered on the main
CLI by ``cli_client.register``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from twoclocks.cli_client import AsJson, cli_client, fail, show
from twoclocks.domain.errors import TwoclocksError


def export(
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write to this file (default: stdout)")
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="Accepted like every client command's; export is always NDJSON"
        ),
    ] = False,
) -> None:
    """A complete backup as NDJSON, one JSON object a line; `twoclocks import` restores it.

    Settings, aliases, episodes and every version with both clocks (RFC 3339).
    """
    try:
        client = cli_client(acts=False)
        if output is None:
            for line in client.stream_lines("/v1/export"):
                sys.stdout.write(line + "\n")
            return
        count = 0
        with (
            output.open("w") as sink,
            typer.progressbar(
                client.stream_lines("/v1/export"), label="exporting", file=sys.stderr
            ) as lines,
        ):
            for line in lines:
                sink.write(line + "\n")
                count += 1
        typer.echo(f"{count} records written to {output}", err=True)
    except TwoclocksError as exc:
        fail(exc)


def _chunks(path: Path, size: int = 256 * 1024) -> Iterator[bytes]:
    with path.open("rb") as source:
        while chunk := source.read(size):
            yield chunk


def import_(
    file: Annotated[
        Path,
        typer.Argument(exists=True, dir_okay=False, readable=True, help="A `twoclocks export`"),
    ],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Check the file and count; write nothing")
    ] = False,
    as_json: AsJson = False,
) -> None:
    """Restore a backup into this (empty) account, every recorded clock kept."""
    try:
        answer = cli_client(acts=not dry_run).post_stream(
            "/v1/import" + ("?dry_run=true" if dry_run else ""),
            _chunks(file),
            "application/x-ndjson",
        )
    except TwoclocksError as exc:
        fail(exc)
    verb = "would restore" if dry_run else "restored"
    counts = (
        f"{verb}: {answer['versions']} versions of {answer['facts']} facts, "
        f"{answer['episodes']} episodes, {answer['aliases']} aliases, "
        f"{answer['apart']} pairs kept apart, settings {'yes' if answer['settings'] else 'no'}"
    )
    logged = [] if dry_run else [f"logged as episode {answer['import_episode']}"]
    show(answer, as_json, [counts, *logged])
