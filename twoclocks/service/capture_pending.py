"""Captured events whose facts are not written yet, kept on disk until they are.

``POST /v1/events`` answers once the event is accepted and writes its facts after the
answer. A server that dies in between would lose those facts for good: the hook got its
202 and will not send the event again, and a replay would be a duplicate. So each
accepted event is appended here (one JSON line, fsynced) before the answer, a ``done``
line follows once its facts are written, and the server writes what is still pending
when it starts (``CaptureService.recover``).

The file lives in the server's data dir with mode 0600, like the key; it holds raw
events (as the hooks' spool does) only until their facts are written: once nothing is
pending it is emptied.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

PENDING_NAME = "capture-pending.jsonl"


class PendingEvents:
    """An append-only journal of accepted events and of the ones whose facts were written."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._open: set[tuple[str, str]] = set()

    def add(self, account: str, event_id: str, entry: dict[str, Any]) -> None:
        """Record an accepted event (durably) before the client is answered."""
        self._append({"account": account, "event_id": event_id, **entry})
        self._open.add((account, event_id))

    def done(self, account: str, event_id: str) -> None:
        """Its facts are written (or refused for good): it is no longer pending."""
        self._append({"account": account, "done": event_id})
        self._open.discard((account, event_id))
        if not self._open:
            self._empty()

    def pending(self) -> list[dict[str, Any]]:
        """Entries added and not done, oldest first (a torn last line is skipped)."""
        try:
            lines = self.path.read_bytes().splitlines()
        except FileNotFoundError:
            return []
        entries: dict[tuple[str, str], dict[str, Any]] = {}
        for line in lines:
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if not isinstance(row, dict):
                continue
            if "done" in row:
                entries.pop((str(row.get("account")), str(row["done"])), None)
            elif "event_id" in row:
                entries[(str(row.get("account")), str(row["event_id"]))] = row
        self._open = set(entries)
        return list(entries.values())

    def _append(self, row: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        line = json.dumps(row, ensure_ascii=False).encode() + b"\n"
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)

    def _empty(self) -> None:
        try:
            with self.path.open("r+b") as handle:
                handle.truncate(0)
                os.fsync(handle.fileno())
        except FileNotFoundError:
            pass
