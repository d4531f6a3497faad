"""Accounts and API keys. The key names the account; only its hash is stored, in the store
itself, so several API replicas over one Neo4j share them."""

from __future__ import annotations

import hashlib
import re
import secrets
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from twoclocks.domain.account_settings import AccountSettings
from twoclocks.domain.errors import InvalidInput, Unauthorized
from twoclocks.graph.port import Store
from twoclocks.service.memory import RecordClock

ACCOUNT_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
KEY_PREFIX = "tck_"


def hash_key(key: str) -> str:
    """SHA-256 of a key: keys are 256 random bits, so a slow hash adds nothing."""
    return hashlib.sha256(key.encode()).hexdigest()


class Accounts:
    """Create accounts and turn a presented key into the account it names."""

    def __init__(self, store: Store, clock: RecordClock, default_zone: str = "UTC") -> None:
        self.store = store
        self.clock = clock
        self.default_zone = default_zone
        self._cache: dict[str, str] = {}

    async def create(self, name: str) -> str:
        """Create an account and return its new key (shown once, never stored in clear)."""
        if not ACCOUNT_NAME.match(name):
            raise InvalidInput(f"account name {name!r} must be 1-64 letters, digits, '_' or '-'")
        key = KEY_PREFIX + secrets.token_urlsafe(32)
        if not await self.store.save_account(name, hash_key(key), self.clock()):
            raise InvalidInput(f"account {name!r} exists already: pick another name")
        return key

    async def authenticate(self, key: str | None) -> str:
        """The account a key names; Unauthorized when there is none."""
        if not key:
            raise Unauthorized("no API key: send 'Authorization: Bearer <key>'")
        digest = hash_key(key)
        if digest in self._cache:
            return self._cache[digest]
        account = await self.store.account_for_key(digest)
        if account is None:
            raise Unauthorized("this API key names no account: check TWOCLOCKS_KEY or the key file")
        self._cache[digest] = account
        return account

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
