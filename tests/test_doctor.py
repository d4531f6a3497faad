"""`twoclocks doctor`'s server check, against the real app served on a loopback port."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from live_server import serving

from twoclocks import bootstrap
from twoclocks.doctor import check_server
from twoclocks.embeddings.hashing import HashingEmbedder

pytestmark = [pytest.mark.anyio, pytest.mark.falkordb]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_doctor_names_the_store_and_model_of_a_ready_server(
    falkordb_server: Any, tmp_path: Path
) -> None:
    from twoclocks.graph.falkordb.store import FalkorDBStore

    settings = bootstrap.load_settings(data_dir=tmp_path / "data")
    runtime = await bootstrap.start_runtime(
        settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder()
    )
    try:
        async with serving(runtime) as url:
            # The check is a blocking client: off the loop that serves it.
            ready = await asyncio.to_thread(check_server, url)
            runtime.ready = False
            not_ready = await asyncio.to_thread(check_server, url)
    finally:
        await runtime.close()
    assert ready.ok is True and "store FalkorDBStore" in ready.text and "model" in ready.text
    assert not_ready.ok is False and "not ready (HTTP 503" in not_ready.text
    # Nothing listens there any more: the check says where it looked and what to do.
    gone = await asyncio.to_thread(check_server, url)
    assert gone.ok is False and url in gone.text and "twoclocks serve" in gone.text


def test_doctor_shows_each_spaces_reads_from_and_names_a_bad_one(tmp_path: Path) -> None:
    from twoclocks.doctor import check_spaces

    good = tmp_path / "spaces.toml"
    good.write_text(
        'default_space = "personal"\n[[space]]\nid = "work"\npaths = ["/w"]\n'
        'reads_from = ["personal"]\n'
    )
    check = check_spaces(good)
    assert check.ok is True and "work reads_from: personal" in check.details
    bad = tmp_path / "bad.toml"
    bad.write_text('[[space]]\nid = "work"\npaths = ["/w"]\nreads_from = ["home"]\n')
    check = check_spaces(bad)
    assert check.ok is False and 'space "work" reads_from unknown space "home"' in check.text
