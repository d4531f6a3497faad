"""One-time sign-in tokens for the web screen (issue 14.1)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from twoclocks.domain.errors import Unauthorized
from twoclocks.service.ui_tokens import UiTokens

NOON = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def test_a_sign_in_token_redeems_once_for_the_key_it_was_minted_for() -> None:
    tokens = UiTokens()
    token = tokens.mint("key-a", NOON)
    assert "key-a" not in token
    assert tokens.redeem(token, NOON + timedelta(seconds=5)) == "key-a"
    with pytest.raises(Unauthorized, match="used or expired"):
        tokens.redeem(token, NOON + timedelta(seconds=6))


def test_a_sign_in_token_expires_after_sixty_seconds() -> None:
    tokens = UiTokens()
    token = tokens.mint("key-a", NOON)
    with pytest.raises(Unauthorized):
        tokens.redeem(token, NOON + timedelta(seconds=60))


def test_an_unknown_sign_in_token_is_refused() -> None:
    with pytest.raises(Unauthorized):
        UiTokens().redeem("made-up", NOON)


def test_expired_sign_in_tokens_are_forgotten_when_the_next_is_minted() -> None:
    tokens = UiTokens()
    tokens.mint("key-a", NOON)
    tokens.mint("key-b", NOON + timedelta(minutes=5))
    assert [key for key, _ in tokens.pending.values()] == ["key-b"]
