"""The one exception tree of twoclocks.

Every error the service raises on purpose is a `TwoclocksError`. The edges (HTTP,
MCP, CLI, hooks) translate them; nothing below the edges knows about status codes,
except for the `http_status` hint each class carries so the translation is a lookup,
not a chain of `isinstance` checks.
"""

from __future__ import annotations


class TwoclocksError(Exception):
    """Root of every error twoclocks raises on purpose; the message says what to do."""

    http_status: int = 500

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    @property
    def name(self) -> str:
        """The wire name of the error, e.g. ``FactNotFound``."""
        return type(self).__name__


class InvalidInput(TwoclocksError, ValueError):
    """Raised when a request is malformed: empty text, a field too long, a bad enum value.

    Also a ValueError, so pydantic validators may raise it and keep its name.
    """

    http_status = 422


class NaiveDatetime(InvalidInput):
    """Raised when a time arrives without a UTC offset; twoclocks never guesses a zone."""


class InvalidTemporalRange(InvalidInput):
    """Raised when an interval would end before it starts, e.g. `ended` before valid_at."""


class SecretRefused(InvalidInput):
    """Raised when a write's subject, predicate, object or evidence looks like a credential."""


class BodyTooLarge(InvalidInput):
    """Raised when a request body passes the server's limit (64 KB; a backup import
    256 MB), before the body is read; the message says to send shorter facts."""

    http_status = 413


class FactNotFound(TwoclocksError):
    """Raised when no fact with the given id exists in (or is visible to) the caller's account."""

    http_status = 404


class AliasNotFound(TwoclocksError):
    """Raised when a split names an alias slot drift never recorded (for that subject)."""

    http_status = 404


class SlotNotFound(TwoclocksError):
    """Raised when a merge names a slot its subject does not have."""

    http_status = 404


class AmbiguousFactId(TwoclocksError):
    """Raised when a shortened fact id is the start of more than one fact; the message names
    them, so a longer prefix can be given."""

    http_status = 409


class ReadNotAllowed(TwoclocksError):
    """Raised when an agent asks for a read only the person may make, e.g. every workspace."""

    http_status = 403


class FactAlreadyRetired(TwoclocksError):
    """Raised when revising a fact that is already ended or corrected; re-read current state."""

    http_status = 409


class FactNotRetracted(TwoclocksError):
    """Raised when `reopen` targets a fact that is not retracted, so there is nothing to undo."""

    http_status = 409


class WriteConflict(TwoclocksError):
    """Raised when a slot kept changing under a writer past the retry limit; try again."""

    http_status = 409


class AccountNotEmpty(TwoclocksError):
    """Raised when a backup is imported into an account that already holds facts, episodes or
    aliases; a restore is exact only into an empty account."""

    http_status = 409


class WriteNotAllowed(TwoclocksError):
    """Raised when a writer asks for a write only the person may make, e.g. restoring a backup."""

    http_status = 403


class KeysNotAllowed(TwoclocksError):
    """Raised when a key other than the person's (an agent key, or any key through MCP or a
    hook) asks to list, create, rotate or revoke API keys, or to sign the web screen in;
    use the person's key from the CLI or the web screen."""

    http_status = 403


class KeyNotFound(TwoclocksError):
    """Raised when a rotate or revoke names no live key of the caller's account."""

    http_status = 404


class AmbiguousWorkspace(TwoclocksError):
    """Raised when two spaces claim a working directory equally; make one path more specific."""

    http_status = 422


class Unauthorized(TwoclocksError):
    """Raised when a request carries no API key, one that names no account, or a revoked one."""

    http_status = 401


class StoreUnavailable(TwoclocksError):
    """Raised when the graph store cannot be reached or refuses to start."""

    http_status = 503


class SchemaTooNew(StoreUnavailable):
    """Raised at start when the store records a schema version newer than this release reads;
    the message names both versions and says to upgrade twoclocks."""


class ServerUnreachable(StoreUnavailable):
    """Raised by a client (CLI, hook, MCP over stdio) when the twoclocks server at its URL does
    not answer; the message says how to start it or point the client at it."""


class ModelUnavailable(TwoclocksError):
    """Raised when the embedding model cannot be loaded, or fails while encoding; the
    message names the model path."""

    http_status = 503


class ExtractorUnavailable(TwoclocksError):
    """Raised when the turn extractor's chat endpoint fails every retry; the turn is
    counted as failed and the message names the endpoint and its settings."""

    http_status = 503


class PortInUse(TwoclocksError):
    """Raised by ``twoclocks serve`` when its listen address is taken, before it starts
    anything (usually a twoclocks server already runs there); names the address."""


class ConfigError(TwoclocksError):
    """Raised at start when a setting is missing or contradictory; names the setting."""
