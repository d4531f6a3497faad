"""The Store's API-key calls, written once over the Cypher in graph/keys_cypher.py.

Each engine supplies ``_registry_rows`` (``graph.registry``: run one statement where the
accounts live and answer rows as dicts); everything else about keys is the same on every
engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from twoclocks.domain.trust import KeyRole
from twoclocks.graph import keys_cypher
from twoclocks.graph.port import ApiKey
from twoclocks.graph.registry import RegistryStore
from twoclocks.graph.schema import check_account, from_us, to_us


def key_from_row(row: Mapping[str, Any]) -> ApiKey:
    """An ApiKey from a row of ``keys_cypher.KEY_FIELDS``."""
    created = from_us(row["created_at_us"])
    assert created is not None  # every key is created with its time
    return ApiKey(
        name=str(row["name"]),
        role=KeyRole(str(row["role"])),
        account=str(row["account"]),
        created_at=created,
        last_used_at=from_us(row["last_used_at_us"]),
        revoked_at=from_us(row["revoked_at_us"]),
    )


class KeyStore(RegistryStore):
    """Base of each engine's store: the key calls of the Store port, over ``_registry_rows``."""

    async def save_key(
        self, account: str, name: str, role: KeyRole, key_hash: str, created_at: datetime
    ) -> bool:
        """Add a key to an account; False when a live key of the account has that name."""
        params = {"account": check_account(account), "name": name, "role": role.value,
                  "hash": key_hash, "created_at_us": to_us(created_at)}  # fmt: skip
        return bool(await self._registry_rows(keys_cypher.SAVE_KEY, params, write=True))

    async def key_by_hash(self, key_hash: str) -> ApiKey | None:
        """The key (live or revoked) with this hash, or None."""
        rows = await self._registry_rows(keys_cypher.KEY_BY_HASH, {"hash": key_hash}, write=False)
        return key_from_row(rows[0]) if rows else None

    async def account_for_key(self, key_hash: str) -> str | None:
        """The account a live (not revoked) hashed key names, or None."""
        key = await self.key_by_hash(key_hash)
        return key.account if key is not None and key.revoked_at is None else None

    async def keys_of(self, account: str) -> list[ApiKey]:
        """Every key of the account, revoked ones too, oldest first."""
        params = {"account": check_account(account)}
        return [
            key_from_row(row)
            for row in await self._registry_rows(keys_cypher.KEYS_OF, params, write=False)
        ]

    async def rotate_key(
        self, account: str, name: str, key_hash: str, at: datetime
    ) -> ApiKey | None:
        """Give a live key a new secret (the old one stops working); None when no such key."""
        params = {"account": check_account(account), "name": name, "hash": key_hash,
                  "at_us": to_us(at)}  # fmt: skip
        rows = await self._registry_rows(keys_cypher.ROTATE_KEY, params, write=True)
        return key_from_row(rows[0]) if rows else None

    async def revoke_key(self, account: str, name: str, at: datetime) -> ApiKey | None:
        """Revoke a live key for good (kept, listed as revoked); None when no such key."""
        params = {"account": check_account(account), "name": name, "at_us": to_us(at)}
        rows = await self._registry_rows(keys_cypher.REVOKE_KEY, params, write=True)
        return key_from_row(rows[0]) if rows else None

    async def touch_key(self, key_hash: str, at: datetime) -> None:
        """Record that the key was used at ``at``."""
        params = {"hash": key_hash, "at_us": to_us(at)}
        await self._registry_rows(keys_cypher.TOUCH_KEY, params, write=True)

    async def adopt_account_keys(self) -> int:
        """Schema 1 -> 2: each account's single key becomes its person key; how many."""
        rows = await self._registry_rows(keys_cypher.ADOPT_ACCOUNT_KEYS, {}, write=True)
        return int(rows[0]["adopted"]) if rows else 0
