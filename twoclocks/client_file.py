"""The client file: where `twoclocks serve` tells every client where it runs.

One person, one machine, no exports: `serve` writes ``client.json`` in the user config
dir (``~/.config/twoclocks/client.json`` on Linux) with the URL it listens on and its
data dir. The CLI, the hooks and `twoclocks mcp` read it, so a client started from a
GUI (which inherits no shell exports) still finds the server, and the key file in that
data dir. The file never holds a key: the person's key stays in ``<data dir>/key`` and
the agent key `twoclocks install` makes in ``<data dir>/agent-key``, both mode 0600. The
hooks and `twoclocks mcp` send the agent key (the person's key until there is one: the
server lowers it to agent or tool rule there anyway); the CLI sends the person's.

Order, for each value: the ``TWOCLOCKS_*`` environment first, then the client file, then
the defaults. Standard library only (platformdirs aside): the session-start hooks read
it inside their 800 ms.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

FILE_NAME = "client.json"
STARTING_FILE = "serve-starting"
"""In the data dir while `serve` loads its model and store: its pid and start time."""
KEY_FILE = "key"
AGENT_KEY_FILE = "agent-key"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


class Target(NamedTuple):
    """Where the server is, the key to send, the data dir, and where the URL came from."""

    url: str
    key: str | None
    data_dir: Path
    url_from: str


def setting(env: Mapping[str, str], name: str) -> str | None:
    """``TWOCLOCKS_<NAME>`` as pydantic-settings reads it: names case-blind, "" means unset."""
    # The hooks must not import pydantic-settings (a quarter of their budget);
    # tests/hooks checks this and bootstrap.client_settings agree.
    wanted = f"twoclocks_{name}"
    for key, value in env.items():
        if key.lower() == wanted and value:
            return value
    return None


def path() -> Path:
    """The client file's place: the user config dir (XDG_CONFIG_HOME on Linux)."""
    from platformdirs import user_config_dir

    return Path(user_config_dir("twoclocks", appauthor=False)) / FILE_NAME


def default_data_dir() -> Path:
    """The user data dir (e.g. ~/.local/share/twoclocks), where `serve` keeps its data."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("twoclocks", appauthor=False))


def read() -> dict[str, Any]:
    """What the last `serve` wrote: {"url", "data_dir"}; {} when missing or unreadable."""
    try:
        data = json.loads(path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write(url: str, data_dir: Path) -> Path:
    """Record where this server listens and keeps its data; atomic, no secrets in it."""
    target = path()
    target.parent.mkdir(parents=True, exist_ok=True)
    body = json.dumps({"url": url, "data_dir": str(data_dir.resolve())}, indent=2) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=f".{FILE_NAME}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(body)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def hand_back(url: str, data_dir: Path, before: Mapping[str, Any]) -> bool:
    """On `serve`'s stop: the file back to the server it named before, if it still names this.

    A second server started for a while (a check, a copy of the store, another port)
    took the file over, and its clients would keep sending to it after it stopped, while
    the person's own server still runs. Untouched when another server has taken it since,
    or when it named this server or none before. True when it was handed back.
    """
    mine = {"url": url, "data_dir": str(data_dir.resolve())}
    earlier = {k: before.get(k) for k in mine}
    if read() != mine or earlier == mine or not all(isinstance(v, str) for v in earlier.values()):
        return False
    write(str(earlier["url"]), Path(str(earlier["data_dir"])))
    return True


def mark_starting(data_dir: Path) -> None:
    """Note that this process, a `serve`, is starting on ``data_dir`` (it is not listening
    until its model and store are loaded: a minute or more for a large store)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    body = json.dumps({"pid": os.getpid(), "since": time.time()})
    (data_dir / STARTING_FILE).write_text(body + "\n", encoding="utf-8")


def clear_starting(data_dir: Path) -> None:
    """`serve` is listening, or gave up: its note goes (another's stays)."""
    note = starting(data_dir)
    if note is None or note[0] == os.getpid():
        (data_dir / STARTING_FILE).unlink(missing_ok=True)


def starting(data_dir: Path) -> tuple[int, float] | None:
    """The pid of a `serve` still starting on ``data_dir`` and its seconds so far; None
    when none is (no note, or its process is gone)."""
    try:
        note = json.loads((data_dir / STARTING_FILE).read_text(encoding="utf-8"))
        pid, since = int(note["pid"]), float(note["since"])
        os.kill(pid, 0)  # a note left by a killed `serve` says nothing
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return pid, max(0.0, time.time() - since)


def still_starting(url: str, data_dir: Path) -> str | None:
    """What to tell someone who finds no server at ``url`` while a `serve` is starting on
    ``data_dir``; None when none is."""
    start = starting(data_dir)
    if start is None:
        return None
    pid, seconds = start
    return (
        f"the twoclocks server at {url} is still starting (pid {pid}, {seconds:.0f}s so far: "
        "it loads the embedding model, then reads its store back, a minute or more for a "
        "large store); try again once it prints its 'ready' line"
    )


def write_key_file(path: Path, key: str) -> None:
    """Write a key to a new file only its owner can read (0600 from the first byte)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(key + "\n")


def listen_url(host: str, port: int) -> str:
    """The URL a client on this machine uses for a server listening on host:port."""
    # A server on every interface is reached over loopback from here.
    shown = {"0.0.0.0": DEFAULT_HOST, "::": "::1", "": DEFAULT_HOST}.get(host, host)
    return f"http://[{shown}]:{port}" if ":" in shown else f"http://{shown}:{port}"


def resolve(
    url: str | None = None,
    host: str | None = None,
    port: str | int | None = None,
    data_dir: str | Path | None = None,
    key: str | None = None,
    agent: bool = False,
) -> Target:
    """URL, key and data dir: the explicit values (from the environment) over the file.

    ``agent``: for the hooks and MCP, whose key is the agent key when there is one.
    """
    recorded = read()
    where = str(data_dir or recorded.get("data_dir") or "") or None
    directory = Path(where) if where else default_data_dir()
    if url:
        chosen, origin = url, "TWOCLOCKS_URL"
    elif host or port:
        chosen = listen_url(host or DEFAULT_HOST, int(port or DEFAULT_PORT))
        origin = "TWOCLOCKS_HOST/TWOCLOCKS_PORT"
    elif isinstance(recorded.get("url"), str) and recorded["url"]:
        chosen, origin = recorded["url"], f"{path()} (written by `twoclocks serve`)"
    else:
        chosen, origin = listen_url(DEFAULT_HOST, DEFAULT_PORT), "the default"
    for name in (AGENT_KEY_FILE, KEY_FILE) if agent else (KEY_FILE,):
        if key:
            break
        try:
            key = (directory / name).read_text().strip() or None
        except OSError:
            key = None
    return Target(url=chosen, key=key, data_dir=directory, url_from=origin)


def target_of(env: Mapping[str, str], agent: bool = False) -> Target:
    """Everything from a raw environment (the hooks' path: no pydantic-settings)."""
    return resolve(
        url=setting(env, "url"),
        host=setting(env, "host"),
        port=setting(env, "port"),
        data_dir=setting(env, "data_dir"),
        key=setting(env, "key"),
        agent=agent,
    )
