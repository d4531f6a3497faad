"""Accounts, and turning a presented API key into who is calling. The key names the account
and its role; only its hash is stored, in the store itself, so several API replicas over
one store share them, and a revoked key is refused at once by every replica (each request
reads its key: one indexed lookup, no cache to go stale)."""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import timedelta
from typing import NamedTuple
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from twoclocks.domain.account_settings import AccountSettings
from twoclocks.domain.errors import InvalidInput, Unauthorized
from twoclocks.domain.trust import KeyRole
from twoclocks.graph.port import Store
from twoclocks.service.collaborators import RecordClock

ACCOUNT_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
KEY_PREFIX = "tck_"
LAST_USE_RESOLUTION = timedelta(minutes=1)
"""A key's last use is written at most once a minute: a read per request, rarely a write."""


def hash_key(key: str) -> str:
    """SHA-256 of a key: keys are 256 random bits, so a slow hash adds nothing."""
    return hashlib.sha256(key.encode()).hexdigest()


def new_key() -> str:
    """A fresh secret key: the prefix and 256 random bits."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


class KeyHolder(NamedTuple):
    """Who a presented key names: the account, the key's role and the key's name."""

    account: str
    role: KeyRole
    key_name: str


class Accounts:
    """Create accounts and turn a presented key into the account it names."""

    def __init__(self, store: Store, clock: RecordClock, default_zone: str = "UTC") -> None:
        self.store = store
        self.clock = clock
        self.default_zone = default_zone

    async def create(self, name: str) -> str:
        """Create an account and return its new person key (shown once, never stored in clear)."""
        if not ACCOUNT_NAME.match(name):
            raise InvalidInput(f"account name {name!r} must be 1-64 letters, digits, '_' or '-'")
        key = new_key()
        if not await self.store.save_account(name, hash_key(key), self.clock()):
            raise InvalidInput(f"account {name!r} exists already: pick another name")
        return key

    async def authenticate(self, key: str | None) -> KeyHolder:
        """The account and role a live key names; Unauthorized when none, or when revoked."""
        if not key:
            raise Unauthorized("no API key: send 'Authorization: Bearer <key>'")
        digest = hash_key(key)
        found = await self.store.key_by_hash(digest)
        if found is None:
            raise Unauthorized("this API key names no account: check TWOCLOCKS_KEY or the key file")
        if found.revoked_at is not None:
            raise Unauthorized(
                f"this API key ({found.name!r}) was revoked at {found.revoked_at.isoformat()}: "
                "use a current key (`twoclocks keys list` shows them; `twoclocks keys create` "
                "makes one)"
            )
        now = self.clock()
        if found.last_used_at is None or now - found.last_used_at >= LAST_USE_RESOLUTION:
            await self.store.touch_key(digest, now)
        return KeyHolder(found.account, found.role, found.name)

    async def settings(self, account: str) -> AccountSettings:
        """The account's own settings (defaults where it set none)."""
        raw = await self.store.account_settings(account)
        return AccountSettings.model_validate_json(raw) if raw else AccountSettings()

    async def zone_in_use(self, account: str) -> str:
        """The time zone the account's times are shown in: its own, else the server's."""
        return (await self.settings(account)).timezone or self.default_zone

    async def update_settings(self, account: str, new: AccountSettings) -> AccountSettings:
        """Replace the account's settings after checking the time zone exists."""
        if new.timezone is not None:
            zone_of(new.timezone)
        if not await self.store.save_account_settings(account, new.model_dump_json()):
            raise Unauthorized(f"account {account!r} does not exist")
        return new


def zone_of(name: str) -> ZoneInfo:
    """An IANA time zone by name; InvalidInput naming it when unknown."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidInput(
            f"time zone {name!r} is unknown: use an IANA name such as Europe/Istanbul"
        ) from None
