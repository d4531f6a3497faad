"""Wiring: the local account and its key file, the recorded store, the settings."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from twoclocks import bootstrap
from twoclocks.config import Settings, machine_zone
from twoclocks.domain.errors import ConfigError

pytestmark = [pytest.mark.anyio, pytest.mark.falkordb]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_first_run_creates_the_local_account_and_a_0600_key_file(tmp_path: Path) -> None:
    settings = bootstrap.load_settings(data_dir=tmp_path)
    runtime = await bootstrap.start_runtime(settings, load_model=False)
    try:
        key = await bootstrap.ensure_local_account(runtime)
        path = bootstrap.key_file(tmp_path)
        assert key and path.read_text().strip() == key
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        holder = await runtime.accounts.authenticate(key)
        assert (holder.account, holder.role) == ("local", "person")
        assert await bootstrap.ensure_local_account(runtime) is None
        assert path.read_text().strip() == key
    finally:
        await runtime.close()


def test_a_data_dir_remembers_the_store_its_server_ran_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TWOCLOCKS_STORE", raising=False)
    bootstrap.record_store(Settings(data_dir=tmp_path, store="bolt://127.0.0.1:7687"))
    assert bootstrap.load_settings(data_dir=tmp_path).store == "bolt://127.0.0.1:7687"
    assert bootstrap.load_settings(data_dir=tmp_path, store="embedded").store == "embedded"


def test_a_uri_with_a_password_is_never_written_to_disk(tmp_path: Path) -> None:
    bootstrap.record_store(Settings(data_dir=tmp_path, store="neo4j://u:secret@db:7687"))
    assert not (tmp_path / bootstrap.STORE_FILE).exists()


def test_an_unknown_store_is_a_config_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="mysql://x"):
        bootstrap.open_store(Settings(data_dir=tmp_path, store="mysql://x"))


def test_an_unknown_time_zone_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="Mars/Olympus"):
        bootstrap.account_zone(Settings(data_dir=tmp_path, timezone="Mars/Olympus"))


def test_the_default_time_zone_is_the_machines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A local server's person lives in its machine's zone: TZ, else what /etc/localtime
    # links to; a TWOCLOCKS_TIMEZONE still wins, and nothing known reads as UTC.
    monkeypatch.delenv("TWOCLOCKS_TIMEZONE", raising=False)
    linked = tmp_path / "localtime"
    linked.symlink_to("/usr/share/zoneinfo/Asia/Tokyo")
    monkeypatch.delenv("TZ", raising=False)
    assert machine_zone(linked) == "Asia/Tokyo"
    assert machine_zone(tmp_path / "missing") == "UTC"
    monkeypatch.setenv("TZ", ":Europe/Berlin")
    assert machine_zone(linked) == "Europe/Berlin"
    assert Settings(data_dir=tmp_path).timezone == "Europe/Berlin"
    monkeypatch.setenv("TWOCLOCKS_TIMEZONE", "America/Lima")
    assert Settings(data_dir=tmp_path).timezone == "America/Lima"
    for unknown in ("CET-1CEST", "Mars/Olympus", "../../etc/passwd"):
        monkeypatch.setenv("TZ", unknown)
        assert machine_zone(tmp_path / "missing") == "UTC", unknown
    utc = tmp_path / "utc"
    utc.symlink_to("/usr/share/zoneinfo/Etc/UTC")
    assert machine_zone(utc) == "UTC"


def test_docs_configuration_lists_every_setting() -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "configuration.md").read_text()
    for name in Settings.model_fields:
        assert f"TWOCLOCKS_{name.upper()}" in doc, f"docs/configuration.md misses {name}"


def test_the_service_merges_slot_names_at_the_measured_threshold(tmp_path: Path) -> None:
    # The labelled pairs' precision and recall are measured at SlotMatcher's default; a
    # different service default would ship a matcher nobody measured.
    from twoclocks.embeddings.slot_matcher import DEFAULT_THRESHOLD

    assert bootstrap.load_settings(data_dir=tmp_path).drift_threshold == DEFAULT_THRESHOLD


def test_a_bad_setting_is_a_config_error_naming_its_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TWOCLOCKS_DRIFT_THRESHOLD", "2")
    with pytest.raises(ConfigError, match=r"TWOCLOCKS_DRIFT_THRESHOLD: .*less than or equal to 1"):
        bootstrap.load_settings(data_dir=tmp_path)


def test_a_grey_floor_above_the_threshold_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="drift_grey_floor"):
        bootstrap.load_settings(data_dir=tmp_path, drift_grey_floor=0.9)


def test_the_slot_judge_is_opt_in_and_is_the_extractor_model(tmp_path: Path) -> None:
    from twoclocks.embeddings.slot_matcher import DEFAULT_GREY_FLOOR

    plain = bootstrap.load_settings(data_dir=tmp_path)
    assert plain.drift_grey_floor == DEFAULT_GREY_FLOOR
    assert bootstrap.open_slot_judge(plain) is None
    extractor_only = bootstrap.load_settings(data_dir=tmp_path, extractor_url="local")
    assert bootstrap.open_slot_judge(extractor_only) is None
    with pytest.raises(ConfigError, match="TWOCLOCKS_EXTRACTOR_URL is unset"):
        bootstrap.load_settings(data_dir=tmp_path, drift_judge=True)
    on = bootstrap.load_settings(
        data_dir=tmp_path, extractor_url="local", extractor_model="qwen3:4b", drift_judge=True
    )
    judge = bootstrap.open_slot_judge(on)
    assert judge is not None and judge.decided_by == "model qwen3:4b"
