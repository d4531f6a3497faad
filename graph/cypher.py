"""The Cypher both engines run unchanged; each adapter only wraps it (transaction, one query).

Every statement filters on ``$g`` (the account) so one Neo4j database can hold many
accounts; on FalkorDB each account is its own graph and the filter is merely redundant.
All time comparisons use the ``*_us`` integers (see ``schema``), half-open everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from twoclocks.domain.model import Place
from twoclocks.graph.port import Clock, FactQuery, TimelineQuery
from twoclocks.graph.schema import VERSION_RETURN, opt_us, to_us

# --- writes: the parts of one plan, in the order they must run -------------------------

EXPIRE = """
UNWIND $expire AS x
MATCH ()-[e:RELATES_TO {uuid: x.version_id}]->()
WHERE e.group_id = $g AND e.expired_at_us IS NULL
SET e.expired_at = $now, e.expired_at_us = $now_us, e.retired_reason = x.reason
"""
"""Close versions on the record clock; one already closed keeps its first expired_at."""


def insert_statement(embedding: str) -> str:
    """Create the versions of a plan, MERGEing their Entity endpoints.

    ``embedding`` is the engine's expression that turns ``x.embedding`` (a list of floats
    or null) into the stored vector.
    """
    return f"""
UNWIND $inserts AS x
MERGE (a:Entity {{group_id: $g, name: x.subject}})
  ON CREATE SET a.uuid = x.subject_uuid, a.created_at = x.created_at, a.summary = ''
MERGE (b:Entity {{group_id: $g, name: x.object}})
  ON CREATE SET b.uuid = x.object_uuid, b.created_at = x.created_at, b.summary = ''
CREATE (a)-[e:RELATES_TO]->(b)
SET e = x.props
SET e.fact_embedding = {embedding}
"""


LINK = """
UNWIND $links AS x
MATCH ()-[e:RELATES_TO {uuid: x.version_id}]->()
WHERE e.group_id = $g
SET e.episodes = coalesce(e.episodes, [])
    + [i IN x.episode_ids WHERE NOT i IN coalesce(e.episodes, [])]
"""
"""A restatement adds its episode to an existing version (provenance only)."""

MENTIONS = """
UNWIND $mentions AS m
MATCH (ep:Episodic {uuid: m.episode_id})
WHERE ep.group_id = $g
SET ep.entity_edges = coalesce(ep.entity_edges, [])
    + [i IN m.edge_ids WHERE NOT i IN coalesce(ep.entity_edges, [])]
WITH ep, m
UNWIND m.edge_ids AS edge_id
MATCH (a:Entity)-[e:RELATES_TO {uuid: edge_id}]->(b:Entity)
WHERE e.group_id = $g
MERGE (ep)-[ra:MENTIONS]->(a)
  ON CREATE SET ra.uuid = ep.uuid + '/' + a.uuid, ra.group_id = $g, ra.created_at = m.created_at
MERGE (ep)-[rb:MENTIONS]->(b)
  ON CREATE SET rb.uuid = ep.uuid + '/' + b.uuid, rb.group_id = $g, rb.created_at = m.created_at
"""
"""Graphiti's provenance: an episode lists its edges and MENTIONS their entities.

Episodes must be saved (Store.save_episode) before the plan that cites them is applied;
a plan citing an unknown episode still records the id in the edge's ``episodes``.
"""


def plan_body(embedding: str) -> str:
    """Every part of a plan as unit subqueries of one statement, in the order they must run.

    Each part runs once per incoming row; with no row (a counter guard that failed) none runs.
    """
    parts = (EXPIRE, insert_statement(embedding), LINK, MENTIONS)
    return "".join(f"CALL {{{part}}}\n" for part in parts)


SAVE_EPISODE = """
MERGE (ep:Episodic {group_id: $g, uuid: $uuid})
  ON CREATE SET ep += $props, ep.entity_edges = [], ep.saved_by = $token
RETURN ep.saved_by = $token AS created
"""
"""Idempotent on the id; ``created`` says whether this call stored it (the token is fresh per
call), which is how a replayed tool event is told from a new one."""

RECORD_ALIAS = """
MERGE (s:Slot {group_id: $g, key: $key})
  ON CREATE SET s.counter = 0, s.subject = $subject, s.predicate = $alias
SET s.counter = s.counter + 1
MERGE (a:SlotAlias {group_id: $g, subject: $subject, alias: $alias})
SET a.canonical = $canonical, a.decided_by = $decided_by
"""
"""Slot drift: ``alias`` names the slot ``canonical`` of this subject from now on.

The alias's own slot counter moves in the same statement (``$key`` is that slot's key):
a write of the name that read the slot before the alias then fails its counter check,
reads again, and finds the alias (``READ_SLOT_COUNTER``). The Slot is locked first, as
every plan's apply locks it first."""

DELETE_ALIAS = """
MATCH (a:SlotAlias {group_id: $g, subject: $subject, alias: $alias})
DELETE a
"""
"""A split alias: ``alias`` names no other slot of this subject any more."""

RECORD_APART = """
MERGE (p:SlotApart {group_id: $g, subject: $subject, first: $first, second: $second})
SET p.decided_by = $decided_by
"""
"""Two slot names of this subject are two slots (``SlotsApart``; the names sorted)."""

DELETE_APART = """
MATCH (p:SlotApart {group_id: $g, subject: $subject, first: $first, second: $second})
DELETE p
"""
"""A pair kept apart and since merged by hand: the latest word is that they are one."""

EXPORT_APART = """
MATCH (p:SlotApart)
WHERE p.group_id = $g
RETURN p.subject AS subject, p.first AS first, p.second AS second, p.decided_by AS decided_by
ORDER BY p.subject, p.first, p.second
"""
"""Every pair of slot names kept apart in the account."""

SAVE_ACCOUNT = """
OPTIONAL MATCH (old:Account {name: $name})
WITH count(old) AS taken
WHERE taken = 0
CREATE (a:Account {name: $name, created_at_us: $created_at_us})
CREATE (:ApiKey {hash: $key_hash, name: 'person', role: 'person', account: $name,
                 created_at_us: $created_at_us})
RETURN a.name AS name
"""
"""Register an account with its person key (graph/keys_cypher.py); no row when the name is
taken (Neo4j's constraint closes the race)."""

ACCOUNT_SETTINGS = """
MATCH (a:Account {name: $name})
RETURN a.settings_json AS settings
"""
"""An account's settings as JSON text (null until first saved)."""

SAVE_ACCOUNT_SETTINGS = """
MATCH (a:Account {name: $name})
SET a.settings_json = $settings
RETURN a.name AS name
"""
"""Replace an account's settings; no row when the account does not exist."""

NOTE_WORKSPACE = """
MERGE (w:WorkspaceSpace {group_id: $g, key: $key, space: $space})
"""
"""Remember that facts were written under workspace ``key`` from a session in ``space``."""

WORKSPACE_SPACES = """
MATCH (w:WorkspaceSpace {group_id: $g})
RETURN w.key AS key, w.space AS space
"""
"""Every (workspace key, space) the account has written from."""

SCHEMA_VERSION = """
MATCH (s:TwoclocksSchema {name: 'twoclocks'})
RETURN s.version AS version
"""
"""The schema version the store records (no row: a store from before versions)."""

RECORD_SCHEMA_VERSION = """
MERGE (s:TwoclocksSchema {name: 'twoclocks'})
SET s.version = $version
"""

ANY_NODE = """
MATCH (n)
RETURN 1 AS found
LIMIT 1
"""
"""One row when the graph holds any node at all (a store someone has written to)."""

# --- reads ----------------------------------------------------------------------------

SLOT_NAMES = """
MATCH (:Entity {group_id: $g, name: $subject})-[e:RELATES_TO]->()
WHERE e.group_id = $g
RETURN DISTINCT e.predicate AS alias, e.predicate AS canonical
UNION
MATCH (a:SlotAlias {group_id: $g, subject: $subject})
RETURN a.alias AS alias, a.canonical AS canonical
"""
"""Every predicate the subject has (any version) and every alias recorded for it."""


def slot_map(rows: Iterable[tuple[str, str]]) -> dict[str, str]:
    """SLOT_NAMES rows as alias -> slot name; a slot name maps to itself unless aliased.

    A recorded alias is the latest word on a name: a slot merged into another by hand
    (``twoclocks merge``) keeps its old versions, expired, under its own name, and its
    name must lead later writes to the slot it joined.
    """
    rows = list(rows)
    names = {alias: alias for alias, canonical in rows if alias == canonical}
    names.update({alias: canonical for alias, canonical in rows if alias != canonical})
    return names


READ_SLOT_COUNTER = """
OPTIONAL MATCH (s:Slot {group_id: $g, key: $key})
OPTIONAL MATCH (a:SlotAlias {group_id: $g, subject: $subject, alias: $predicate})
RETURN coalesce(s.counter, 0) AS counter, a.canonical AS merged_into
"""
"""The slot's counter, and the slot an alias of its name points to (null when none)."""

READ_SLOT_VERSIONS = f"""
MATCH (:Entity {{group_id: $g, name: $subject}})-[e:RELATES_TO]->()
WHERE e.group_id = $g AND e.predicate = $predicate AND e.expired_at_us IS NULL
RETURN {VERSION_RETURN}
ORDER BY e.valid_at_us, e.created_at_us, e.uuid
"""
"""Read after the counter: a write landing in between only makes the counter stale."""

VERSIONS_OF = f"""
MATCH ()-[e:RELATES_TO]->()
WHERE e.fact_id = $fact_id AND e.group_id = $g
RETURN {VERSION_RETURN}
ORDER BY e.created_at_us, e.valid_at_us, e.uuid
"""

FACT_IDS_STARTING = """
MATCH ()-[e:RELATES_TO]->()
WHERE e.group_id = $g AND e.fact_id STARTS WITH $prefix
RETURN DISTINCT e.fact_id AS fact_id
ORDER BY fact_id
LIMIT $limit
"""
"""The ids a shortened id may stand for (git-style prefixes in revise, retract, reopen)."""

DELETE_FACT = """
MATCH ()-[e:RELATES_TO]->()
WHERE e.fact_id = $fact_id AND e.group_id = $g
DELETE e
RETURN count(*) AS removed
"""

EXPORT_EPISODES = """
MATCH (n:Episodic)
WHERE n.group_id = $g
RETURN n.uuid AS episode_id, n.source_description AS source, n.content AS content,
       n.created_at_us AS created_at_us, n.valid_at_us AS valid_at_us, n.workspace AS workspace
ORDER BY n.created_at_us, n.uuid
"""
"""Every episode of the account, oldest record first (for a backup)."""

EPISODES_BY_ID = """
MATCH (n:Episodic)
WHERE n.group_id = $g AND n.uuid IN $ids
RETURN n.uuid AS episode_id, n.source_description AS source, n.content AS content,
       n.created_at_us AS created_at_us, n.valid_at_us AS valid_at_us, n.workspace AS workspace
ORDER BY n.created_at_us, n.uuid
"""
"""The episodes with these ids (those a fact's versions name), oldest record first."""

PLACE_EPISODES = """
MATCH ()-[e:RELATES_TO]->()
WHERE ($g IS NULL OR e.group_id = $g) AND size(coalesce(e.episodes, [])) > 0
UNWIND e.episodes AS episode_id
WITH e.group_id AS g, episode_id, collect(coalesce(e.workspace, '')) AS places
MATCH (ep:Episodic {uuid: episode_id})
WHERE ep.group_id = g AND ep.workspace IS NULL
  AND places[0] <> '' AND all(p IN places WHERE p = places[0])
SET ep.workspace = places[0]
RETURN count(ep) AS placed
"""
"""Schema 2 -> 3, and a restored backup from before: an episode kept with no place takes the
workspace of the facts that cite it, when every one of them has the same one (one edge
scan, then a lookup by id; ``$g`` one account, or null for all). An episode cited by an
unplaced fact, by facts of two workspaces, or by none stays unplaced."""

OUTDATE_TOLD_LATE = """
MATCH (s:Entity)-[e:RELATES_TO]->()
WHERE ($g IS NULL OR e.group_id = $g)
  AND e.retired_reason = 'corrected' AND e.start_stated = false
MATCH (s)-[n:RELATES_TO]->()
WHERE n.group_id = e.group_id AND n.predicate = e.predicate AND n.fact_id <> e.fact_id
  AND n.created_at_us = e.expired_at_us AND n.valid_at_us < e.valid_at_us
  AND n.start_stated = true
  AND (n.workspace IS NULL OR e.workspace IS NULL OR n.workspace = e.workspace)
WITH DISTINCT e
SET e.retired_reason = 'outdated'
RETURN count(e) AS outdated
"""
"""Schema 4 -> 5, and a restored backup from before: a value told with no start that a word
dating the change before it overruled was retired as ``corrected``; it is ``outdated``
(``RetiredReason.OUTDATED``). Found as the planner left it: a version of another fact of
the slot, with a stated start before this one's, written at the instant this one left
belief. A correction's replacement keeps the corrected window, so it never matches."""

EXPORT_ALIASES = """
MATCH (a:SlotAlias)
WHERE a.group_id = $g AND ($d IS NULL OR a.decided_by = $d)
RETURN a.subject AS subject, a.alias AS alias, a.canonical AS canonical,
       a.decided_by AS decided_by
ORDER BY a.subject, a.alias
"""
"""Every slot alias of the account (for a backup), or those one decider recorded ($d)."""


def _holds(t: str) -> str:
    return f"e.valid_at_us <= {t} AND (e.invalid_at_us IS NULL OR {t} < e.invalid_at_us)"


def visibility(q: FactQuery) -> tuple[list[str], dict[str, Any]]:
    """``domain.temporal.is_visible`` as Cypher conditions on ``e`` and their parameters."""
    if q.as_of is None and q.as_believed is None:
        if q.include_history:
            return [], {}
        if q.include_later:  # current, or believed and starting after now: not yet ended
            later = "(e.invalid_at_us IS NULL OR $now_us < e.invalid_at_us)"
            return ["e.expired_at_us IS NULL", later], {"now_us": to_us(q.now)}
        return ["e.expired_at_us IS NULL", _holds("$now_us")], {"now_us": to_us(q.now)}
    conds: list[str] = []
    params: dict[str, Any] = {}
    if q.as_believed is None:
        conds.append("e.expired_at_us IS NULL")
    else:
        conds.append(
            "e.created_at_us <= $s_us AND (e.expired_at_us IS NULL OR $s_us < e.expired_at_us)"
        )
        params["s_us"] = to_us(q.as_believed)
    if q.as_of is not None:
        conds.append(_holds("$t_us"))
        params["t_us"] = to_us(q.as_of)
    return conds, params


def _anchor(subject: str | None) -> str:
    # Starting from the subject's Entity expands a few dozen edges instead of scanning all.
    if subject is None:
        return "MATCH ()-[e:RELATES_TO]->()"
    return "MATCH (:Entity {group_id: $g, name: $subject})-[e:RELATES_TO]->()"


def _fact_filter(account: str, q: FactQuery) -> tuple[str, dict[str, Any]]:
    conds, params = visibility(q)
    conds.insert(0, "e.group_id = $g")
    params.update(g=account, subject=q.subject, predicate=q.predicate)
    if q.predicate is not None:
        conds.append("e.predicate = $predicate")
    if q.workspaces is not None:
        conds.append("(e.workspace IS NULL OR e.workspace IN $workspaces)")
        params["workspaces"] = list(q.workspaces)
    if q.tiered_only:
        conds.append("e.tier IS NOT NULL")
    conds += _row_filters(q, params)
    return f"{_anchor(q.subject)}\nWHERE {' AND '.join(conds)}", params


def _row_filters(q: FactQuery, params: dict[str, Any]) -> list[str]:
    # The memory screen's filters; each set one adds a condition and its parameter.
    conds = []
    if q.text:
        params["text"] = q.text.lower()
        # The workspace too: on the person's screen of every workspace, "api-hotfix"
        # narrows it to that checkout.
        conds.append(
            "(toLower(e.subject) CONTAINS $text OR toLower(e.predicate) CONTAINS $text"
            " OR toLower(e.object) CONTAINS $text"
            " OR (e.workspace IS NOT NULL AND toLower(e.workspace) CONTAINS $text))"
        )
    if q.place is not None:
        # Where its readers see it: a row under no workspace key is seen everywhere, even
        # one an older release stored with a narrower place (Fact.of says the same).
        params["place"] = str(q.place)
        conds.append(
            "(e.place = $place OR e.workspace IS NULL)"
            if q.place is Place.EVERYWHERE
            else "(e.place = $place AND e.workspace IS NOT NULL)"
        )
    for field in ("tier", "writer", "fact_class"):
        value = getattr(q, field)
        if value is not None:
            params[field] = str(value)
            conds.append(f"e.{field} = ${field}")
    return conds


def fact_query(
    account: str, q: FactQuery, floor_us: int | None = None
) -> tuple[str, dict[str, Any]]:
    """The Store.query read: slot filters, both clocks, workspaces, newest valid_at first.

    ``floor_us``: only rows valid from then on (a window graph.paging reads a page from).
    """
    match, params = _fact_filter(account, q)
    if floor_us is not None:
        match = match.replace("\nWHERE ", "\nWHERE e.valid_at_us >= $floor_us AND ", 1)
        params["floor_us"] = floor_us
    page = ""
    if q.offset > 0:
        page = "SKIP $offset "
        params["offset"] = q.offset
    if q.limit is not None:
        page += "LIMIT $limit"
        params["limit"] = max(0, q.limit)
    cypher = (
        f"{match}\nRETURN {VERSION_RETURN}\n"
        f"ORDER BY e.valid_at_us DESC, e.created_at_us DESC, e.uuid\n{page}"
    )
    return cypher, params


def fact_count(account: str, q: FactQuery) -> tuple[str, dict[str, Any]]:
    """The Store.count read: what fact_query matches, counted, without its page."""
    match, params = _fact_filter(account, q)
    return f"{match}\nRETURN count(e) AS n", params


def timeline_query(
    account: str, q: TimelineQuery, count: bool = False
) -> tuple[str, dict[str, Any]]:
    """Every version ordered on one clock, within the half-open range [since, until).

    ``q.workspaces`` as in ``FactQuery``: those workspaces' rows and the unplaced ones; None
    reads every workspace (the person's own read). ``count``: how many, as ``n``.
    """
    field = "e.valid_at_us" if q.clock is Clock.WORLD else "e.created_at_us"
    other = "e.created_at_us" if q.clock is Clock.WORLD else "e.valid_at_us"
    conds = ["e.group_id = $g"]
    within = []
    if q.since is not None:
        within.append(f"{field} >= $since_us")
    if q.until is not None:
        within.append(f"{field} < $until_us")
    # A version's moment on the clock: with ends_too, its end when that is in the range.
    moment = field
    if within and q.ends_too and q.clock is Clock.WORLD:
        ended = " AND ".join(w.replace(field, "e.invalid_at_us") for w in within)
        conds.append(f"(({' AND '.join(within)}) OR ({ended}))")
        moment = f"CASE WHEN {ended} THEN e.invalid_at_us ELSE {field} END"
    else:
        conds += within
    if q.predicate is not None:
        conds.append("e.predicate = $predicate")
    if q.workspaces is not None:
        conds.append("(e.workspace IS NULL OR e.workspace IN $workspaces)")
    params = {
        "g": account,
        "subject": q.subject,
        "since_us": opt_us(q.since),
        "until_us": opt_us(q.until),
        "predicate": q.predicate,
        "workspaces": None if q.workspaces is None else list(q.workspaces),
    }
    where = f"{_anchor(q.subject)}\nWHERE {' AND '.join(conds)}\n"
    if count:
        return where + "RETURN count(e) AS n", params
    if q.latest is not None:
        params["latest"] = q.latest
        where += f"WITH e, {moment} AS moment\nORDER BY moment DESC, e.uuid DESC LIMIT $latest\n"
    return where + f"RETURN {VERSION_RETURN}\nORDER BY {field}, {other}, e.uuid", params


def corrections_query(
    account: str, since: datetime, until: datetime, workspaces: Sequence[str] | None, limit: int
) -> tuple[str, dict[str, Any]]:
    """Facts corrected, or found outdated when told, at a record time in [since, until):
    each one's last version, newest first.

    A version retired as ``corrected`` is the fact's last word only when no version of the
    same fact is believed or retired after it: a correction also retires, as ``corrected``,
    the closed copy of the value the mistake had closed, and writes that value again
    (``domain.correction``), so that fact is not wrong. Only versions with a trust tier
    (they go to a model); ``workspaces`` as in ``FactQuery``.
    """
    conds = [
        "e.group_id = $g",
        "e.expired_at_us >= $since_us",
        "e.expired_at_us < $until_us",
        "e.retired_reason IN ['corrected', 'outdated']",
        "e.tier IS NOT NULL",
    ]
    if workspaces is not None:
        conds.append("(e.workspace IS NULL OR e.workspace IN $workspaces)")
    params = {
        "g": account,
        "since_us": to_us(since),
        "until_us": to_us(until),
        "workspaces": None if workspaces is None else list(workspaces),
        "limit": limit,
    }
    later = (
        "o.group_id = $g AND o.fact_id = e.fact_id"
        " AND (o.expired_at_us IS NULL OR o.expired_at_us > e.expired_at_us)"
    )
    return (
        f"MATCH ()-[e:RELATES_TO]->()\nWHERE {' AND '.join(conds)}\n"
        f"OPTIONAL MATCH ()-[o:RELATES_TO]->() WHERE {later}\n"
        "WITH e, count(o) AS after WHERE after = 0\n"
        f"RETURN {VERSION_RETURN}\nORDER BY e.expired_at_us DESC, e.uuid\nLIMIT $limit",
        params,
    )


TOP_PREDICATES = """
MATCH ()-[e:RELATES_TO]->()
WHERE e.group_id = $g
RETURN e.predicate AS predicate, count(e) AS uses
ORDER BY uses DESC, predicate
LIMIT $limit
"""
"""The account's most used slot names, most versions first (shown to the turn extractor)."""
