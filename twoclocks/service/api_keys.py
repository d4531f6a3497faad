"""Managing an account's API keys: list, create, rotate, revoke (issue 15 point 4).

Only the person manages keys: a caller writing as the person (a person key from the CLI,
the web screen or plain HTTP). An agent key, or any key through MCP or a hook, gets
KeysNotAllowed. A key's secret is shown once, when it is made or rotated; the store keeps
only its hash, and a list never shows either.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from twoclocks.domain.errors import InvalidInput, KeyNotFound, KeysNotAllowed
from twoclocks.domain.trust import KeyRole, Writer
from twoclocks.graph.port import ApiKey, Store
from twoclocks.service.accounts import hash_key, new_key
from twoclocks.service.collaborators import RecordClock
from twoclocks.service.requests import Caller

KEY_NAME = re.compile(r"^[a-zA-Z0-9_.-]{1,64}$")


class NewKey(BaseModel):
    """A key just made or rotated: the only time its secret is shown."""

    name: str
    role: KeyRole
    key: str = Field(description="the secret: shown once, keep it (e.g. in a 0600 file)")


class ApiKeys:
    """The key calls the HTTP routes and the CLI share."""

    def __init__(self, store: Store, clock: RecordClock) -> None:
        self.store = store
        self.clock = clock

    async def list(self, caller: Caller) -> list[ApiKey]:
        """Every key of the caller's account (name, role, dates), revoked ones too."""
        _require_person(caller)
        return await self.store.keys_of(caller.account)

    async def create(self, caller: Caller, name: str, role: KeyRole) -> NewKey:
        """A new key with a role fixed for its life."""
        _require_person(caller)
        if not KEY_NAME.match(name):
            raise InvalidInput(f"key name {name!r} must be 1-64 letters, digits, '_', '.' or '-'")
        secret = new_key()
        saved = await self.store.save_key(
            caller.account, name, role, hash_key(secret), self.clock()
        )
        if not saved:
            raise InvalidInput(
                f"a live key named {name!r} exists already: pick another name, or rotate it "
                f"(`twoclocks keys rotate {name}`)"
            )
        return NewKey(name=name, role=role, key=secret)

    async def rotate(self, caller: Caller, name: str) -> NewKey:
        """A new secret for a live key (same name and role); the old secret stops at once."""
        _require_person(caller)
        secret = new_key()
        rotated = await self.store.rotate_key(caller.account, name, hash_key(secret), self.clock())
        if rotated is None:
            raise _no_such_key(name)
        return NewKey(name=name, role=rotated.role, key=secret)

    async def revoke(self, caller: Caller, name: str) -> ApiKey:
        """Revoke a live key for good: every replica refuses it from its next request."""
        _require_person(caller)
        revoked = await self.store.revoke_key(caller.account, name, self.clock())
        if revoked is None:
            raise _no_such_key(name)
        return revoked


def _require_person(caller: Caller) -> None:
    if caller.writer is not Writer.PERSON:
        raise KeysNotAllowed(
            "only the person's key manages keys, from the CLI (`twoclocks keys ...`) or the "
            f"web screen; this call writes as {caller.writer.value} through "
            f"{caller.channel.value}"
        )


def _no_such_key(name: str) -> KeyNotFound:
    return KeyNotFound(
        f"this account has no live key named {name!r}: `twoclocks keys list` shows its keys"
    )
