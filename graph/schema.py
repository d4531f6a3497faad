"""The graph layout shared by every engine, and the FactVersion <-> edge-row mapping.

Graphiti-compatible, so graphiti-core's own search can read a twoclocks graph:

* ``(:Entity {uuid, name, group_id, created_at, summary})``, one per (group_id, name);
* each version is ``(subject:Entity)-[:RELATES_TO]->(object:Entity)`` carrying Graphiti's
  edge fields (``uuid`` = version_id, ``group_id`` = account, ``name`` = predicate, ``fact``,
  ``fact_embedding``, ``episodes``, ``valid_at``, ``invalid_at``, ``created_at``,
  ``expired_at``) plus ours (``fact_id``, ``subject``, ``predicate``, ``object``, ...);
* ``(:Slot {group_id, key, counter})``: the optimistic-concurrency counter of a slot;
* ``(:Episodic {...})-[:MENTIONS]->(:Entity)``: the raw text a fact came from.

The four clocks are stored twice: in the engine's native form under Graphiti's names (so
its parser reads them) and as epoch microseconds under ``*_us``. Every filter and sort
of ours uses the integers: FalkorDB's range index on a string ignores ``<`` and ``<=``
(4.16 and 4.22), so ISO strings must never be compared. Reads rebuild datetimes from the
integers too, which makes the mapping back engine-neutral.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from twoclocks.domain.errors import InvalidInput
from twoclocks.domain.model import FactVersion, Plan
from twoclocks.domain.slot_names import fact_text
from twoclocks.graph.port import Episode

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_ONE_US = timedelta(microseconds=1)
_ACCOUNT = re.compile(r"^[a-zA-Z0-9_-]+$")
# A fixed namespace makes entity ids deterministic, so a MERGE that races (or a re-run)
# lands on the same uuid instead of minting a second one.
_NAMESPACE = uuid.UUID("7c0f3b8e-2d0a-4c59-9a53-6b1f0e4f7a21")

TimeEncoder = Callable[[datetime], Any]
"""How an engine stores a datetime under Graphiti's names (native DateTime, ISO string)."""

CLOCKS = ("valid_at", "invalid_at", "created_at", "expired_at")
"""The four clock fields of a version; each is also stored as ``<name>_us``."""

# Our own edge properties that are plain strings (or None) on both sides of the mapping.
_TEXT_FIELDS = (
    "fact_id", "subject", "predicate", "object", "kind", "cardinality", "tier",
    "fact_class", "category", "place", "workspace", "retired_reason", "supersedes", "writer",
    "written_as",
)  # fmt: skip


_FLAG_FIELDS = ("start_stated",)
"""Our own edge properties that are booleans; a missing one (an older store) reads True."""


def check_account(account: str) -> str:
    """Refuse an account name that cannot be a Graphiti group_id or a FalkorDB graph name."""
    if not isinstance(account, str) or not _ACCOUNT.match(account):
        raise InvalidInput(
            f"account {account!r} is not a valid name: use only letters, digits, '_' and '-'"
        )
    return account


def to_us(value: datetime) -> int:
    """Epoch microseconds of an aware datetime (exact: no float rounding)."""
    return (value - EPOCH) // _ONE_US


def opt_us(value: datetime | None) -> int | None:
    """``to_us`` that passes an open end (None) through."""
    return None if value is None else to_us(value)


def from_us(value: int | None) -> datetime | None:
    """The UTC datetime of epoch microseconds; None stays None (an open end)."""
    return None if value is None else EPOCH + value * _ONE_US


def iso_utc(value: datetime) -> str:
    """The string form graphiti-core's FalkorDB driver writes and parses: UTC isoformat."""
    return value.astimezone(UTC).isoformat()


def native_utc(value: datetime) -> datetime:
    """The form graphiti-core's Neo4j driver writes: the datetime itself, in UTC."""
    return value.astimezone(UTC)


def slot_key(subject: str, predicate: str) -> str:
    """The Slot node's key: unambiguous for any subject and predicate text."""
    return json.dumps([subject, predicate], ensure_ascii=False)


def entity_uuid(account: str, name: str) -> str:
    """The uuid of the Entity node named ``name`` in ``account``: the same on every write."""
    return str(uuid.uuid5(_NAMESPACE, f"{account}\n{name}"))


def _opt(value: datetime | None, encode: TimeEncoder) -> Any:
    return None if value is None else encode(value)


def edge_props(version: FactVersion, account: str, encode: TimeEncoder) -> dict[str, Any]:
    """Every property of the RELATES_TO edge of ``version`` (the embedding is set apart)."""
    props: dict[str, Any] = {
        "uuid": version.version_id,
        "group_id": account,
        "name": version.predicate,
        "fact": fact_text(version.subject, version.predicate, version.object),
        "episodes": list(version.episodes),
    }
    for field in _TEXT_FIELDS:
        value = getattr(version, field)
        props[field] = None if value is None else str(value)
    for flag in _FLAG_FIELDS:
        props[flag] = bool(getattr(version, flag))
    for clock in CLOCKS:
        value = getattr(version, clock)
        props[clock] = _opt(value, encode)
        props[f"{clock}_us"] = opt_us(value)
    return props


VERSION_RETURN = ", ".join(
    ["e.uuid AS version_id", "e.episodes AS episodes"]
    + [f"e.{field} AS {field}" for field in _TEXT_FIELDS + _FLAG_FIELDS]
    + [f"e.{clock}_us AS {clock}_us" for clock in CLOCKS]
)
"""The RETURN items that ``version_from_row`` reads (never the embedding: it is big)."""

VERSION_COLUMNS = (
    "version_id", "episodes", *_TEXT_FIELDS, *_FLAG_FIELDS,
    *(f"{clock}_us" for clock in CLOCKS),
)  # fmt: skip
"""The column names VERSION_RETURN yields, in order."""


def version_from_row(row: Mapping[str, Any]) -> FactVersion:
    """Rebuild a FactVersion from a row of VERSION_RETURN columns."""
    data: dict[str, Any] = {field: row[field] for field in _TEXT_FIELDS}
    data["version_id"] = row["version_id"]
    data["episodes"] = tuple(row["episodes"] or ())
    for flag in _FLAG_FIELDS:
        data[flag] = row[flag] is not False
    for clock in CLOCKS:
        data[clock] = from_us(row[f"{clock}_us"])
    return FactVersion.model_validate(data)


def versions_from_rows(rows: Iterable[Sequence[Any]]) -> list[FactVersion]:
    """``version_from_row`` over positional rows in VERSION_COLUMNS order."""
    return [version_from_row(dict(zip(VERSION_COLUMNS, row, strict=True))) for row in rows]


def plan_params(
    account: str,
    plan: Plan,
    encode: TimeEncoder,
    embeddings: Mapping[str, Sequence[float]] | None = None,
) -> dict[str, Any]:
    """The parameters of the write statements in ``cypher`` for one plan."""
    embeddings = embeddings or {}
    inserts = [
        {
            "subject": v.subject,
            "object": v.object,
            "subject_uuid": entity_uuid(account, v.subject),
            "object_uuid": entity_uuid(account, v.object),
            "created_at": encode(plan.now),
            "props": edge_props(v, account, encode),
            "embedding": _embedding(embeddings.get(v.version_id)),
        }
        for v in plan.insert
    ]
    # One row per edge: two SETs of the same list in one query may not see each other.
    links: dict[str, list[str]] = {}
    for link in plan.link_episodes:
        links.setdefault(link.version_id, []).append(link.episode_id)
    return {
        "g": account,
        "now": encode(plan.now),
        "now_us": to_us(plan.now),
        "expire": [{"version_id": x.version_id, "reason": str(x.reason)} for x in plan.expire],
        "inserts": inserts,
        "links": [{"version_id": k, "episode_ids": v} for k, v in links.items()],
        "mentions": _mentions(plan, encode),
    }


def _embedding(value: Sequence[float] | None) -> list[float] | None:
    # No coercion: a malformed vector must fail inside the query so the plan rolls back.
    return None if value is None else list(value)


def _mentions(plan: Plan, encode: TimeEncoder) -> list[dict[str, Any]]:
    """Per episode the plan cites: the edges it now supports (inserted or linked)."""
    by_episode: dict[str, list[str]] = {}
    for v in plan.insert:
        for episode_id in v.episodes:
            by_episode.setdefault(episode_id, []).append(v.version_id)
    for link in plan.link_episodes:
        by_episode.setdefault(link.episode_id, []).append(link.version_id)
    created_at = encode(plan.now)
    return [
        {"episode_id": episode_id, "edge_ids": edges, "created_at": created_at}
        for episode_id, edges in by_episode.items()
    ]


def episode_params(account: str, episode: Episode, encode: TimeEncoder) -> dict[str, Any]:
    """Properties of an ``:Episodic`` node in Graphiti's episode schema.

    Graphiti parses ``source`` as its own EpisodeType (message/json/text), so our source
    (remember/tool/turn) goes in ``source_description`` and ``source`` says 'text'.
    """
    return {
        "g": account,
        "uuid": episode.episode_id,
        "props": {
            "uuid": episode.episode_id,
            "group_id": account,
            "name": episode.episode_id,
            "content": episode.content,
            "source": "text",
            "source_description": episode.source,
            "created_at": encode(episode.created_at),
            "valid_at": encode(episode.valid_at),
            "created_at_us": to_us(episode.created_at),
            "valid_at_us": to_us(episode.valid_at),
            # Only when there is one: a null in a property map is refused by some engines.
            **({"workspace": episode.workspace} if episode.workspace else {}),
        },
    }
