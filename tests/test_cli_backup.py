"""`twoclocks export` and `twoclocks import` against a live server over the embedded store."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from test_cli import Served, anyio_backend, served

pytestmark = [pytest.mark.falkordb, pytest.mark.anyio]
__all__ = ["anyio_backend", "served"]


async def test_cli_export_then_import_dry_run_counts_and_import_restores(
    served: Served, tmp_path: Path
) -> None:
    await served.ok("remember", "api", "runs_on", "Fly")
    await served.ok("remember", "api", "runs_on", "Render")
    backup = tmp_path / "backup.ndjson"
    await served.ok("export", "-o", str(backup))
    lines = backup.read_text().splitlines()

    other = await served.runtime.accounts.create(f"b{uuid.uuid4().hex[:12]}")
    served.env = {**served.env, "TWOCLOCKS_KEY": other}
    out = await served.ok("import", str(backup), "--dry-run")
    assert out.startswith("would restore: 3 versions of 2 facts")
    assert (await served.ok("facts")).strip() == "result: empty"
    out = await served.ok("import", str(backup))
    assert out.startswith("restored: 3 versions of 2 facts") and "logged as episode" in out
    again = tmp_path / "again.ndjson"
    await served.ok("export", "-o", str(again))
    restored = [line for line in again.read_text().splitlines() if '"source":"import"' not in line]
    assert sorted(restored) == sorted(lines)


async def test_cli_import_into_a_non_empty_account_says_account_not_empty(
    served: Served, tmp_path: Path
) -> None:
    await served.ok("remember", "api", "runs_on", "Fly")
    backup = tmp_path / "backup.ndjson"
    await served.ok("export", "-o", str(backup))
    result = await served.cli("import", str(backup))
    assert result.exit_code == 2 and result.output.startswith("AccountNotEmpty: ")
