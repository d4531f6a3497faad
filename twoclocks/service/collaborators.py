"""What bootstrap hands the services besides the store: the clock, workspaces, settings.

Passed in, never read from the environment or the system clock inside a service, so a test
can hand a fixed clock and a fake resolver (house style 1 and 2).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime

from twoclocks.domain.account_settings import AccountSettings
from twoclocks.domain.places import Workspace

RecordClock = Callable[[], datetime]
"""The store's own clock: the only source of created_at / expired_at."""

WorkspaceResolver = Callable[[str | None], Workspace]
"""A session's working directory (or None) to its workspace: repo, project, worktree."""

SettingsLookup = Callable[[str], Awaitable[AccountSettings]]
"""An account's settings (its zone, its capture switch), by account name."""
