"""One-time sign-in tokens for the web screen, so `twoclocks ui` never puts the key in a URL."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from twoclocks.domain.errors import Unauthorized

TOKEN_LIFETIME = timedelta(seconds=60)


@dataclass
class UiTokens:
    """Tokens held in this process only: minted for a key, good for one redeem within 60 s."""

    pending: dict[str, tuple[str, datetime]] = field(default_factory=dict)

    def mint(self, key: str, now: datetime) -> str:
        """A fresh token that redeems once for ``key`` until it expires."""
        self._forget_expired(now)
        token = secrets.token_urlsafe(32)
        self.pending[token] = (key, now + TOKEN_LIFETIME)
        return token

    def redeem(self, token: str, now: datetime) -> str:
        """The key a token was minted for; the token is spent either way."""
        key, expires = self.pending.pop(token, ("", now))
        if not key or now >= expires:
            raise Unauthorized(
                "this sign-in link is used or expired (they last 60 s and work once): "
                "run `twoclocks ui` again, or sign in with the account key"
            )
        return key

    def _forget_expired(self, now: datetime) -> None:
        # Unredeemed tokens would otherwise pile up for the life of the server.
        for token in [t for t, (_, expires) in self.pending.items() if now >= expires]:
            del self.pending[token]
