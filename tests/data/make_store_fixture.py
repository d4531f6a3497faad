"""Write tests/data/store_v<CURRENT_SCHEMA>: a small embedded store as this release leaves it.

    .venv/bin/python tests/data/make_store_fixture.py

Run it once per schema version, when a release bumps CURRENT_SCHEMA, and commit the result:
tests/test_schema_fixtures.py starts a server on every store_v* kept here and checks it is
migrated and read as it was written (``expected.json``). Keep it small (a few facts).
"""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from twoclocks import bootstrap
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.service.requests import Caller, RememberRequest, ReviseRequest
from twoclocks.service.schema_versions import CURRENT_SCHEMA

ACCOUNT = "fixture"
HERE = Path(__file__).resolve().parent
FIELDS = ("fact_id", "version_id", "subject", "predicate", "object", "valid_at",
          "invalid_at", "created_at", "expired_at", "supersedes", "retired_reason", "tier",
          "workspace", "start_stated")  # fmt: skip


def at(day: int) -> datetime:
    """A fixed valid time in 2026."""
    return datetime(2026, 1, day, tzinfo=UTC)


async def write(data_dir: Path) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """A few facts with history, a revision and a retraction; their export and episodes."""
    settings = bootstrap.load_settings(data_dir=data_dir, store="embedded")
    runtime = await bootstrap.start_runtime(settings, embedder=HashingEmbedder(384))
    try:
        await runtime.accounts.create(ACCOUNT)
        who = Caller(account=ACCOUNT)
        memory = runtime.service

        async def remember(subject: str, predicate: str, obj: str, day: int) -> str:
            # The person's words are kept as an episode (placed since schema 3).
            req = RememberRequest(subject=subject, predicate=predicate, object=obj,
                                  valid_at=at(day), cwd="/work/acme-api",
                                  evidence=f"{subject} {predicate} is {obj}")  # fmt: skip
            return (await memory.remember(who, req)).fact_id

        await remember("acme-api", "deploy_target", "Heroku", 1)
        fly = await remember("acme-api", "deploy_target", "Fly.io", 5)
        await remember("acme-api", "database", "Postgres 15", 2)
        ci = await remember("acme-api", "ci_provider", "CircleCI", 3)
        ended = {"reason": "ended", "at": at(9).isoformat(),
                 "replacement": {"object": "GitHub Actions"}}  # fmt: skip
        await memory.revise(who, ci, ReviseRequest.model_validate(ended))
        await memory.retract(who, await remember("acme-api", "linter", "flake8", 4))
        # Told with no start (start_stated false, since schema 4).
        told = RememberRequest(subject="acme-api", predicate="cache", object="Redis",
                               cwd="/work/acme-api")  # fmt: skip
        await memory.remember(who, told)
        # Told with no start, then a word that dates a change before it: outdated (schema 5).
        region = RememberRequest(subject="acme-api", predicate="region", object="us-east-1",
                                 cwd="/work/acme-api")  # fmt: skip
        await memory.remember(who, region)
        await remember("acme-api", "region", "eu-west-1", 10)
        assert fly
        versions = [
            {k: v[k] for k in FIELDS}
            async for version in runtime.store.export(ACCOUNT)
            for v in [version.model_dump(mode="json")]
        ]
        episodes = [
            e.model_dump(mode="json", include={"episode_id", "content", "workspace"})
            for e in await runtime.store.export_episodes(ACCOUNT)
        ]
        return versions, episodes
    finally:
        await runtime.close()


def main() -> None:
    """Write the store in a temp dir, keep its AOF and what its export must read."""
    target = HERE / f"store_v{CURRENT_SCHEMA}"
    with tempfile.TemporaryDirectory(prefix="tc-fixture-") as tmp:
        versions, episodes = asyncio.run(write(Path(tmp)))
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(Path(tmp) / "falkordb" / "appendonlydir", target / "appendonlydir")
    expected = {"schema": CURRENT_SCHEMA, "account": ACCOUNT, "versions": versions,
                "episodes": episodes}  # fmt: skip
    (target / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    size = sum(f.stat().st_size for f in target.rglob("*") if f.is_file())
    print(f"wrote {target} ({size / 1024:.0f} KB, {len(versions)} versions, "
          f"{len(episodes)} episodes)")  # fmt: skip


if __name__ == "__main__":
    main()
