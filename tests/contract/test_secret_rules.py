"""Secrets by label (issue 9, point 8) through the service, on every real store: a value a
credential word introduces is refused at the one write path, naming the field, never
echoed, storing nothing; ordinary facts that mention the words are stored."""

from __future__ import annotations

import itertools
import uuid
from datetime import UTC, datetime

import pytest
from storekit import FakeClock

from twoclocks.domain.errors import SecretRefused
from twoclocks.graph.port import Store
from twoclocks.service.memory import MemoryService
from twoclocks.service.requests import (
    Caller,
    FactsRequest,
    RememberRequest,
    Replacement,
    ReviseRequest,
)

pytestmark = pytest.mark.anyio

T0 = datetime(2026, 3, 1, tzinfo=UTC)
AWS_EXAMPLE = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"


def service_on(store: Store) -> MemoryService:
    ids = (uuid.uuid4().hex for _ in itertools.count())
    clock = FakeClock(T0)
    return MemoryService(store, lambda: clock.now, lambda: next(ids))


@pytest.mark.parametrize(
    ("fields", "field", "secret"),
    [
        ({"object": f"AWS_SECRET_ACCESS_KEY={AWS_EXAMPLE}"}, "object", AWS_EXAMPLE),
        ({"object": f"aws_secret_access_key = {AWS_EXAMPLE}"}, "object", AWS_EXAMPLE),
        ({"object": "db password is hunter2Sup3rS3cret!"}, "object", "hunter2Sup3rS3cret!"),
        ({"predicate": "db_password", "object": "hunter2Sup3rS3cret!"}, "object", "hunter2"),
        ({"object": "redis://:c4cheP4ssw0rd@cache:6379"}, "object", "c4cheP4ssw0rd"),
        ({"evidence": "the token: ghx_7Qw9ZtR2mK4pL8vN3xB6"}, "evidence", "ghx_7Qw9"),
    ],
)
async def test_a_value_labelled_as_a_credential_is_refused_and_stores_nothing(
    store: Store, account: str, fields: dict[str, str], field: str, secret: str
) -> None:
    svc, who = service_on(store), Caller(account=account)
    body = {"subject": "prod", "predicate": "note", "object": "x", **fields}
    with pytest.raises(SecretRefused) as refused:
        await svc.remember(who, RememberRequest(**body))
    assert refused.value.message.startswith(field) and secret not in refused.value.message
    assert [v async for v in svc.export(who)] == []


async def test_a_labelled_secret_as_a_replacement_is_refused_and_changes_nothing(
    store: Store, account: str
) -> None:
    svc, who = service_on(store), Caller(account=account)
    fact = await svc.remember(
        who, RememberRequest(subject="ci", predicate="runner", object="GitHub Actions")
    )
    with pytest.raises(SecretRefused) as refused:
        await svc.revise(
            who,
            fact.fact_id,
            ReviseRequest(
                reason="ended",
                replacement=Replacement(object=f"Buildkite, api key {AWS_EXAMPLE}"),
            ),
        )
    assert refused.value.message.startswith("replacement.object")
    current = await svc.facts(who, FactsRequest(subject="ci"))
    assert [(f.object, f.expired_at) for f in current] == [("GitHub Actions", None)]


async def test_ordinary_facts_that_mention_credential_words_are_stored(
    store: Store, account: str
) -> None:
    svc, who = service_on(store), Caller(account=account)
    ordinary = {
        "token_rotation": "rotate the token weekly",
        "password_manager": "1Password",
        "secret_store": "secrets live in Vault",
        "api_keys": "API keys are stored in AWS Secrets Manager",
        "token_expiry": "token expiry is 15 minutes",
        "password_policy": "password policy requires 12 characters",
        "login_owner": "the auth service owns login",
    }
    for predicate, obj in ordinary.items():
        await svc.remember(who, RememberRequest(subject="acme", predicate=predicate, object=obj))
    stored = await svc.facts(who, FactsRequest(subject="acme"))
    assert sorted(f.object for f in stored) == sorted(ordinary.values())
