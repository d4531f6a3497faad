"""A small HTTP client for the v1 API, used by the CLI, the hooks and MCP over stdio."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import httpx

from twoclocks import bootstrap, client_file
from twoclocks.domain import errors
from twoclocks.domain.errors import ServerUnreachable, TwoclocksError, Unauthorized


def _error_from(status: int, body: Any) -> TwoclocksError:
    name = body.get("error") if isinstance(body, dict) else None
    message = body.get("message") if isinstance(body, dict) else str(body)
    cls = getattr(errors, name or "", None)
    if isinstance(cls, type) and issubclass(cls, TwoclocksError):
        return cls(message or name or "")
    exc = TwoclocksError(f"HTTP {status}: {message}")
    return exc


def unreachable(url: str, exc: Exception, data_dir: Path | None = None) -> ServerUnreachable:
    """The error a client shows when nothing answers at its URL, with how to fix that."""
    if data_dir is not None and (note := client_file.still_starting(url, data_dir)):
        return ServerUnreachable(note)
    return ServerUnreachable(
        f"the twoclocks server at {url} is not answering ({type(exc).__name__}): start it "
        "with `twoclocks serve` or `make run`, or point TWOCLOCKS_URL at it"
    )


CHANNEL_HEADER = "X-Twoclocks-Channel"
"""Which surface a request came through: cli, shell (the CLI in an agent's shell), mcp,
hook or http (the default)."""
AGENT_CHANNELS = frozenset({"mcp", "hook"})
"""The surfaces that send the agent key (`<data dir>/agent-key`) rather than the person's."""


class Client:
    """Talks to a running twoclocks server with one account's key."""

    def __init__(
        self,
        url: str,
        key: str | None,
        timeout: float = 30.0,
        channel: str = "http",
        data_dir: Path | None = None,
    ) -> None:
        self.url = url.rstrip("/")
        self.key = key
        self.timeout = timeout
        self.channel = channel
        self.data_dir = data_dir

    @classmethod
    def from_environment(cls, timeout: float = 30.0, channel: str = "http") -> Client:
        """TWOCLOCKS_URL and TWOCLOCKS_KEY, else the client file and the key file.

        ``channel`` (cli, shell, mcp, hook, http) tells the server which surface the write came
        through; its tier ceiling applies (DESIGN.md §4). MCP and hooks send the agent key.
        """
        target = bootstrap.client_settings(agent=channel in AGENT_CHANNELS)
        return cls(target.url, target.key, timeout, channel, target.data_dir)

    def _headers(self) -> dict[str, str]:
        if not self.key:
            # A first `serve` writes the key file only once its model and store are loaded:
            # until then, "starting" is the truth and "no key" would send them elsewhere.
            if self.data_dir is not None and (
                note := client_file.still_starting(self.url, self.data_dir)
            ):
                raise ServerUnreachable(note)
            looked = f" or {self.data_dir / 'key'}" if self.data_dir else ""
            raise Unauthorized(
                f"no API key (none in TWOCLOCKS_KEY{looked}): run `twoclocks serve` once "
                "(it writes the key file and tells clients where it is; if it is starting, "
                "wait for its 'ready' line), or set TWOCLOCKS_KEY"
            )
        return {"Authorization": f"Bearer {self.key}", CHANNEL_HEADER: self.channel}

    def call(self, method: str, path: str, body: Any = None) -> Any:
        """One JSON call; a v1 error comes back as the matching TwoclocksError."""
        try:
            r = httpx.request(
                method, self.url + path, json=body, headers=self._headers(), timeout=self.timeout
            )
        except httpx.HTTPError as exc:
            raise unreachable(self.url, exc, self.data_dir) from None
        data = r.json() if r.content else None
        if r.status_code >= 400:
            raise _error_from(r.status_code, data)
        return data

    def post_stream(self, path: str, chunks: Iterable[bytes], content_type: str) -> Any:
        """POST a body sent as it is read (a backup file); the JSON answer, or a typed error."""
        headers = {**self._headers(), "Content-Type": content_type}
        try:
            r = httpx.post(self.url + path, content=chunks, headers=headers, timeout=self.timeout)
        except httpx.HTTPError as exc:
            raise unreachable(self.url, exc, self.data_dir) from None
        data = r.json() if r.content else None
        if r.status_code >= 400:
            raise _error_from(r.status_code, data)
        return data

    def stream_lines(self, path: str) -> Iterator[str]:
        """The lines of an NDJSON answer, as they arrive."""
        try:
            with httpx.stream(
                "GET", self.url + path, headers=self._headers(), timeout=self.timeout
            ) as r:
                if r.status_code >= 400:
                    r.read()
                    raise _error_from(r.status_code, r.json())
                for line in r.iter_lines():
                    if line.strip():
                        yield line
        except httpx.HTTPError as exc:
            raise unreachable(self.url, exc, self.data_dir) from None
