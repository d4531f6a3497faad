"""The HTTP calls on API keys (issue 15 point 4): list, create, rotate, revoke.

Only a person key (from the CLI, the web screen or plain HTTP) manages keys; any other
caller gets a 403 KeysNotAllowed. Each route is a thin call into service/api_keys.py,
which the CLI's `twoclocks keys` commands call too.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from twoclocks.api.routes import CallerDep, ErrorBody
from twoclocks.api.state import runtime_of
from twoclocks.domain.trust import KeyRole
from twoclocks.graph.port import ApiKey
from twoclocks.service.api_keys import NewKey

_FORBIDDEN: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorBody, "description": "KeysNotAllowed: only the person's key manages keys"},
}
_BY_NAME: dict[int | str, dict[str, Any]] = {
    **_FORBIDDEN,
    404: {"model": ErrorBody, "description": "KeyNotFound: no live key of that name"},
}

keys_router = APIRouter(prefix="/v1/keys", tags=["keys"], responses=_FORBIDDEN)

KeyName = Annotated[str, Path(min_length=1, max_length=64, description="the key's name")]


class KeyList(BaseModel):
    """The account's keys: name, role, created, last use, revoked; never a secret."""

    keys: list[ApiKey]


class CreateKeyRequest(BaseModel):
    """Body of POST /v1/keys."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=64, description="letters, digits, '_', '.', '-'")
    role: KeyRole = Field(
        description="person (may assert: the CLI, the web screen) or agent (MCP and hooks: "
        "at most observed or inferred); fixed for the key's life"
    )


@keys_router.get("", response_model=KeyList)
async def list_keys(request: Request, who: CallerDep) -> KeyList:
    """Every key of this account, revoked ones too, by name, role and last use."""
    return KeyList(keys=await runtime_of(request).keys.list(who))


@keys_router.post("", status_code=201, response_model=NewKey)
async def create_key(body: CreateKeyRequest, request: Request, who: CallerDep) -> NewKey:
    """Make a key with a fixed role; its secret is in this answer only."""
    return await runtime_of(request).keys.create(who, body.name, body.role)


@keys_router.post("/{name}/rotate", response_model=NewKey, responses=_BY_NAME)
async def rotate_key(name: KeyName, request: Request, who: CallerDep) -> NewKey:
    """A new secret for a live key (same name and role); the old secret stops at once."""
    return await runtime_of(request).keys.rotate(who, name)


@keys_router.post("/{name}/revoke", response_model=ApiKey, responses=_BY_NAME)
async def revoke_key(name: KeyName, request: Request, who: CallerDep) -> ApiKey:
    """Revoke a live key for good: every replica refuses it from its next request."""
    return await runtime_of(request).keys.revoke(who, name)
