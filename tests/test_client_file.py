"""One place: `serve` writes the client file; every client finds server and key through it."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from twoclocks import bootstrap, client_file
from twoclocks.hooks import claude_code


@pytest.fixture
def no_exports(monkeypatch: pytest.MonkeyPatch) -> None:
    """A client started from a GUI: no TWOCLOCKS_* in its environment."""
    for name in list(os.environ):
        if name.lower().startswith("twoclocks_"):
            monkeypatch.delenv(name)


@pytest.fixture
def served(tmp_path: Path) -> Path:
    """The data dir of a server on a non-default port, announced as `serve` does."""
    data_dir = tmp_path / "served-data"
    data_dir.mkdir()
    (data_dir / "key").write_text("tck_served-key\n")
    os.chmod(data_dir / "key", 0o600)
    settings = bootstrap.load_settings(data_dir=data_dir, host="0.0.0.0", port=9311)
    bootstrap.announce(settings)
    return data_dir


def test_a_client_with_no_exports_finds_the_server_and_key_through_the_client_file(
    no_exports: None, served: Path
) -> None:
    target = bootstrap.client_settings()
    assert target.url == "http://127.0.0.1:9311"
    assert target.key == "tck_served-key"
    assert target.data_dir == served.resolve()
    assert "written by `twoclocks serve`" in target.url_from
    # The hooks, which cannot import bootstrap, find the same.
    assert claude_code.client_target(os.environ) == target


def test_the_client_file_never_holds_the_key_and_anyone_may_read_it(
    no_exports: None, served: Path
) -> None:
    text = client_file.path().read_text()
    assert "tck_" not in text
    assert set(json.loads(text)) == {"url", "data_dir"}
    assert stat.S_IMODE(client_file.path().stat().st_mode) == 0o644


def test_the_environment_overrides_the_client_file(
    no_exports: None, served: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere"
    monkeypatch.setenv("TWOCLOCKS_URL", "http://memory.internal:9000")
    monkeypatch.setenv("TWOCLOCKS_DATA_DIR", str(elsewhere))
    target = bootstrap.client_settings()
    assert (target.url, target.data_dir, target.key) == (
        "http://memory.internal:9000",
        elsewhere,
        None,
    )
    assert target.url_from == "TWOCLOCKS_URL"
    assert claude_code.client_target(os.environ) == target


def test_without_a_client_file_clients_use_the_defaults_serve_uses(no_exports: None) -> None:
    target = bootstrap.client_settings()
    assert target.url == "http://127.0.0.1:8765"
    assert target.data_dir == bootstrap.load_settings().data_dir
    assert target.url_from == "the default"


def test_a_client_that_finds_no_server_says_one_is_starting_on_its_data_dir(
    tmp_path: Path,
) -> None:
    # `serve` listens only once its model and store are loaded (a minute or more for a
    # large store); "start it with `twoclocks serve`" would send the person to start another.
    from twoclocks.client import unreachable

    refused = ConnectionRefusedError("refused")
    client_file.mark_starting(tmp_path)  # as `serve` does, from this (live) process
    message = unreachable("http://127.0.0.1:9", refused, tmp_path).message
    assert "is still starting" in message and f"pid {os.getpid()}" in message
    assert "'ready' line" in message

    client_file.clear_starting(tmp_path)
    message = unreachable("http://127.0.0.1:9", refused, tmp_path).message
    assert "start it with `twoclocks serve`" in message

    # A note a killed `serve` left behind says nothing.
    gone = subprocess.Popen(["true"])
    gone.wait()  # reaped: its pid names no process now
    note = {"pid": gone.pid, "since": 0}
    (tmp_path / client_file.STARTING_FILE).write_text(json.dumps(note) + "\n")
    assert client_file.starting(tmp_path) is None
    assert "start it with `twoclocks serve`" in unreachable("u", refused, tmp_path).message


def test_a_client_with_no_key_yet_says_the_first_serve_is_still_starting(tmp_path: Path) -> None:
    # The first `serve` writes the key file only once it is ready; asked before that, the
    # CLI said "Unauthorized: no API key", not what is happening.
    from twoclocks.client import Client
    from twoclocks.domain.errors import ServerUnreachable, Unauthorized

    client = Client("http://127.0.0.1:9", None, data_dir=tmp_path)
    client_file.mark_starting(tmp_path)
    with pytest.raises(ServerUnreachable, match="is still starting"):
        client.call("GET", "/v1/facts")

    client_file.clear_starting(tmp_path)
    with pytest.raises(Unauthorized, match="no API key"):
        client.call("GET", "/v1/facts")


def test_a_server_that_stops_hands_the_client_file_back_to_the_one_it_replaced(
    no_exports: None, served: Path, tmp_path: Path
) -> None:
    # The person's server (port 9311) runs; a second one starts for a while (a check, a
    # copy of the store) and takes the file over. When it stops, clients point back.
    before = client_file.read()
    other = tmp_path / "other-data"
    other.mkdir()
    client_file.write("http://127.0.0.1:9400", other)
    assert client_file.hand_back("http://127.0.0.1:9400", other, before)
    assert client_file.read() == before
    # A third server took the file over meanwhile: the stopping one leaves it alone.
    client_file.write("http://127.0.0.1:9500", other)
    assert not client_file.hand_back("http://127.0.0.1:9400", other, before)
    assert client_file.read()["url"] == "http://127.0.0.1:9500"
    # The same server restarted, or none named before: nothing to hand back.
    client_file.write("http://127.0.0.1:9400", other)
    assert not client_file.hand_back("http://127.0.0.1:9400", other, client_file.read())
    assert not client_file.hand_back("http://127.0.0.1:9400", other, {})
    assert client_file.read()["url"] == "http://127.0.0.1:9400"
