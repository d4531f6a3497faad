"""The recall legs (DESIGN.md §6), shared by both engines: text, filters, Cypher, ranking.

Each engine supplies only what differs (``Dialect``): the index procedure a search
starts from and its query syntax (RediSearch on FalkorDB, Lucene on Neo4j). Everything
after the ``CALL`` - the account, both clocks, the workspaces, the slot filters - is the
same Cypher on both, built from ``cypher.visibility`` so every leg filters exactly like
``Store.query``.

Keyword search reads a ``search_text`` property written with each version: the fact
text plus the words of subject, predicate and object split at ``_ - . /`` and camelCase,
lowercased. So "which CI do we use?" reaches ``ci_provider = "CircleCI"`` through the
word ``ci`` (of ``ci provider`` and of ``Circle CI``), which no tokenizer finds inside
``ci_provider`` or ``CircleCI`` on its own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from twoclocks.domain.errors import ConfigError
from twoclocks.domain.model import FactVersion
from twoclocks.graph.cypher import visibility
from twoclocks.graph.port import Episode, FactQuery
from twoclocks.graph.schema import VERSION_COLUMNS, VERSION_RETURN, from_us, version_from_row
from twoclocks.graph.search_terms import (
    STOP_WORDS,
    Unit,
    plain_words,
    query_terms,
    query_units,
    search_text,
    words,
)

EMBEDDING_DIMENSION = 384
"""Length of every stored fact embedding and query vector (all-MiniLM-L6-v2).

The vector indexes are created with this dimension. FalkorDB stores a vector of another
length without complaint and its index then never returns it, so ``prepare_inserts``
refuses one before anything is written.
"""

FETCH_MIN = 100
FETCH_MAX = 12_800
"""An index that answers its top-K before our filters (any vector index; Lucene fulltext)
is asked for K = max(4k, 100), widened x4 while too few rows pass, up to FETCH_MAX
(Neo4j's indexes span every account)."""

ENTITY_CANDIDATES = 50
MAX_FRONTIER = 500
"""Most entities one traversal hop expands from (the newest edges' endpoints first)."""


def prepare_inserts(params: dict[str, Any]) -> dict[str, Any]:
    """Add ``search_text`` to every inserted edge of ``plan_params`` output; check vectors.

    A vector of the wrong length is refused here, before anything is written: FalkorDB
    would store it and its vector index would silently never return that fact.
    """
    for row in params.get("inserts", ()):
        props = row["props"]
        props["search_text"] = search_text(
            props["subject"], props["predicate"], props["object"], props["fact"]
        )
        vector = row.get("embedding")
        if vector is not None and len(vector) != EMBEDDING_DIMENSION:
            raise ConfigError(
                f"fact embedding has {len(vector)} dimensions but the vector index holds "
                f"{EMBEDDING_DIMENSION}: configure a {EMBEDDING_DIMENSION}-dimension model "
                "(all-MiniLM-L6-v2)"
            )
    return params


def check_query_vector(vector: Sequence[float]) -> list[float]:
    """The query vector as plain floats, refused (ConfigError) when its length is wrong."""
    values = [float(x) for x in vector]
    if len(values) != EMBEDDING_DIMENSION:
        raise ConfigError(
            f"query embedding has {len(values)} dimensions but the vector index holds "
            f"{EMBEDDING_DIMENSION}: configure a {EMBEDDING_DIMENSION}-dimension model"
        )
    return values


# --- filters ----------------------------------------------------------------------------


def edge_filter(account: str, q: FactQuery) -> tuple[str, dict[str, Any]]:
    """``Store.query``'s conditions on ``e`` (account, clocks, slot, workspaces) as one string."""
    conds, params = visibility(q)
    conds.insert(0, "e.group_id = $g")
    params["g"] = account
    if q.subject is not None:
        conds.append("e.subject = $subject")
        params["subject"] = q.subject
    if q.predicate is not None:
        conds.append("e.predicate = $predicate")
        params["predicate"] = q.predicate
    if q.workspaces is not None:
        conds.append("(e.workspace IS NULL OR e.workspace IN $workspaces)")
        params["workspaces"] = list(q.workspaces)
    if q.tiered_only:
        conds.append("e.tier IS NOT NULL")
    return " AND ".join(conds), params


# --- the engine-specific part ------------------------------------------------------------

Rows = Callable[[str, dict[str, Any]], Awaitable[Sequence[Sequence[Any]]]]
"""An engine's way to run a read and get positional rows."""


def _same(word: str) -> str:
    return word


@dataclass(frozen=True)
class FulltextSyntax:
    """How one engine's fulltext query language writes a field, AND, OR and a word.

    >>> lucene = FulltextSyntax("{field}:({body})", " AND ", " OR ")
    >>> lucene.two_units("t", [("auth",), ("billing", "api")])
    't:((billing AND api) OR (auth AND (billing AND api)))'
    """

    scope: str
    """The query on one field, with ``{field}`` and ``{body}`` to fill."""
    and_: str
    or_: str
    word: Callable[[str], str] = _same
    """One word as the query language must see it (escaped where it has operators)."""

    def any_of(self, field: str, terms: Sequence[str]) -> str:
        """Matching any of the terms."""
        return self.scope.format(field=field, body=self.or_.join(map(self.word, terms)))

    def all_of(self, field: str, terms: Sequence[str]) -> str:
        """Matching all of the terms."""
        return self.scope.format(field=field, body=self.and_.join(map(self.word, terms)))

    def unit(self, unit: Unit) -> str:
        """One unit: its word, or all its words."""
        words = [self.word(w) for w in unit]
        return words[0] if len(words) == 1 else f"({self.and_.join(words)})"

    def any_unit(self, field: str, units: Sequence[Unit]) -> str:
        """Matching any one unit whole (every word of it)."""
        return self.scope.format(field=field, body=self.or_.join(map(self.unit, units)))

    def two_units(self, field: str, units: Sequence[Unit]) -> str:
        """Matching a unit of several words whole, or two units."""
        whole = [self.unit(u) for u in units if len(u) > 1]
        pairs = [
            f"({self.unit(a)}{self.and_}{self.unit(b)})"
            for i, a in enumerate(units)
            for b in units[i + 1 :]
        ]
        return self.scope.format(field=field, body=self.or_.join([*whole, *pairs]))


@dataclass(frozen=True)
class Dialect:
    """What one engine does differently: the CALLs (each yields ``e``/``n`` and ``score``)."""

    text_call: str
    """Fulltext over RELATES_TO.search_text with ``$ftq`` (and ``$fetch`` when
    ``text_limited``); yields ``e, score``."""
    text_limited: bool
    """True when ``text_call`` returns only the ``$fetch`` best matches (Lucene, over every
    account), False when it returns every match of this account's graph (RediSearch)."""
    vector_call: str
    """Vector index over RELATES_TO.fact_embedding with ``$fetch``, ``$vector``."""
    vector_order: str
    """``ASC`` when the vector score is a distance, ``DESC`` when a similarity."""
    vector_cosine: Callable[[float], float]
    """The vector index's score as the cosine similarity of the two vectors."""
    vector_score: str
    """The vector index's score of ``e`` to ``$vector``, computed exactly (no index)."""
    entity_call: str
    """Fulltext over Entity.name with ``$ftq``; yields ``n, score``."""
    episode_call: str
    """Fulltext over Episodic.content with ``$ftq``; yields ``n, score``."""
    fulltext: FulltextSyntax
    """How this engine writes a fulltext query."""


def _versions(rows: Iterable[Sequence[Any]], skip: int = 0) -> list[FactVersion]:
    return [version_from_row(dict(zip(VERSION_COLUMNS, row[skip:], strict=True))) for row in rows]


def _scored(rows: Sequence[Sequence[Any]], skip: int) -> list[tuple[FactVersion, float]]:
    """Rows of ``[..skip columns.., score, *VERSION_COLUMNS]`` as (version, score)."""
    return list(zip(_versions(rows, skip + 1), (float(r[skip]) for r in rows), strict=True))


async def _filtered_top(
    rows: Rows,
    call: str,
    order: str,
    where: str,
    params: dict[str, Any],
    k: int,
    limited: bool,
) -> list[tuple[FactVersion, float]]:
    """The k best rows of an index CALL that pass ``where``, best first, with the index's score.

    ``limited``: the CALL answers only its ``$fetch`` best (a vector index, Lucene), before
    our filters run; so fetch max(4k, 100) and widen x4 while fewer than k rows pass and
    the index had more, up to FETCH_MAX.
    """
    tail = f"ORDER BY score {order}, e.valid_at_us DESC, e.uuid\nLIMIT $k"
    params["k"] = k
    if not limited:
        statement = f"{call}\nWITH e, score WHERE {where}\nRETURN score, {VERSION_RETURN}\n{tail}"
        return _scored(await rows(statement, params), 0)
    statement = (
        f"{call}\n"
        "WITH collect([e, score]) AS hits\n"
        "UNWIND hits AS hit\n"
        "WITH size(hits) AS fetched, hit[0] AS e, hit[1] AS score\n"
        f"WHERE {where}\n"
        f"RETURN fetched, score, {VERSION_RETURN}\n{tail}"
    )
    fetch = max(4 * k, FETCH_MIN)
    while True:
        params["fetch"] = fetch
        found = await rows(statement, params)
        # No row passed: we cannot tell whether the index ran dry, so widen anyway.
        exhausted = bool(found) and found[0][0] < fetch
        if len(found) >= k or exhausted or fetch >= FETCH_MAX:
            return _scored(found, 1)
        fetch = min(fetch * 4, FETCH_MAX)


PAIR_TERMS = 10
"""Most units combined pairwise for the first tier (45 pairs)."""


async def search_text_leg(
    rows: Rows, dialect: Dialect, account: str, text: str, query: FactQuery, k: int
) -> list[FactVersion]:
    """Keyword leg, best fulltext score first, in two tiers of the question's units.

    First the facts that hold a name of the question whole (``billing-api-17``: billing
    AND api AND 17) or two of its units, then (when those are fewer than k) those with
    any one unit. A plain OR over every word ranks poorly; pairs of words made the
    engine score and sort thousands of matches at 100k facts for pairs such as "billing
    api" (every billing-api-N) or "api provider", where the name held whole matches its
    own few dozen facts.
    """
    units = query_units(text)
    if not units or k <= 0:
        return []
    where, params = edge_filter(account, query)
    tiers = [dialect.fulltext.any_unit("search_text", units)]
    if len(units) > 1 or len(units[0]) > 1:
        first = dialect.fulltext.two_units("search_text", units[:PAIR_TERMS])
        # A question that is one name alone: both tiers would be the same query.
        tiers = [first] if first == tiers[0] else [first, *tiers]
    found: list[FactVersion] = []
    for ftq in tiers:
        params.update(ftq=ftq, seen=[v.version_id for v in found])
        found += [
            v
            for v, _ in await _filtered_top(
                rows,
                dialect.text_call,
                "DESC",
                f"{where} AND NOT e.uuid IN $seen",
                params,
                k - len(found),
                dialect.text_limited,
            )
        ]
        if len(found) >= k:
            break
    return found


async def search_vector_leg(
    rows: Rows,
    dialect: Dialect,
    account: str,
    vector: Sequence[float],
    query: FactQuery,
    k: int,
) -> list[tuple[FactVersion, float]]:
    """Vector leg through the engine's vector index, nearest first, filtered like ``query``.

    Each version comes with its cosine similarity to ``vector`` (from -1 to 1, whatever
    the engine's own score is). The index answers top-K over every edge before our
    filters run (see _filtered_top).
    """
    if k <= 0:
        return []
    where, params = edge_filter(account, query)
    params["vector"] = check_query_vector(vector)
    found = await _filtered_top(
        rows, dialect.vector_call, dialect.vector_order, where, params, k, limited=True
    )
    return [(v, dialect.vector_cosine(score)) for v, score in found]


async def cosines_of(
    rows: Rows, dialect: Dialect, account: str, vector: Sequence[float], version_ids: Sequence[str]
) -> dict[str, float]:
    """The exact cosine to ``vector`` of each of these versions that has an embedding.

    The vector index is approximate (HNSW): among many near-identical facts ("<service>
    ci_provider CircleCI" for dozens of services) it can miss a row however far the leg
    widens, and a row another leg found must still be scored by its own cosine.
    """
    if not version_ids:
        return {}
    statement = (
        "MATCH ()-[e:RELATES_TO]->()\n"
        "WHERE e.uuid IN $ids AND e.group_id = $g AND e.fact_embedding IS NOT NULL\n"
        f"RETURN e.uuid, {dialect.vector_score}"
    )
    params = {"ids": list(version_ids), "g": account, "vector": check_query_vector(vector)}
    return {
        str(uuid): dialect.vector_cosine(float(score))
        for uuid, score in await rows(statement, params)
    }


def _norm(word: str) -> str:
    # A light plural rule so "authors" meets "author" (the index stems; we only compare).
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


async def entities_named_leg(
    rows: Rows, dialect: Dialect, account: str, text: str, limit: int
) -> list[str]:
    """Entities whose names the text mentions, best first.

    Fulltext finds candidates sharing any word with the text; a candidate is kept when at
    least half of its name's words are in the text. When some names are there whole, only
    those are kept: "billing-api-17" asked for must not bring "billing-api-1" along.
    """
    terms = query_terms(text)
    if not terms or limit <= 0:
        return []
    statement = (
        f"{dialect.entity_call}\nWITH n, score WHERE n.group_id = $g\n"
        "RETURN n.name AS name, score ORDER BY score DESC, name LIMIT $n"
    )
    found = await rows(
        statement,
        {"g": account, "ftq": dialect.fulltext.any_of("name", terms), "n": ENTITY_CANDIDATES},
    )
    asked = {_norm(w) for w in (*plain_words(text), *words(text))}
    ranked: list[tuple[float, int, float, str]] = []
    for name, score in found:
        tokens = [w for w in words(name) if w not in STOP_WORDS] or words(name)
        if not tokens:
            continue
        hit = sum(1 for w in tokens if _norm(w) in asked)
        if {_norm(w) for w in plain_words(name)} <= asked:  # "CircleCI" asked as "circleci"
            hit = len(tokens)
        coverage = hit / len(tokens)
        if coverage >= 0.5:
            ranked.append((-coverage, -hit, -float(score), name))
    ranked.sort()
    if ranked and ranked[0][0] == -1.0:
        ranked = [r for r in ranked if r[0] == -1.0]
    return [name for *_, name in ranked[:limit]]


# One equality lookup per frontier name, not `a.name IN $frontier`: FalkorDB 4.16 answers
# an IN list over Entity.name (which graphiti's fulltext index also holds, with stopwords)
# by building a search query, and a stopword in the list ("a", "the", "is") crashes the
# whole engine with SIGSEGV. Entities named "A" or "the" are ordinary; so is a walk to them.
_HOP_MATCH = (
    "UNWIND {names} AS name MATCH {pattern} WHERE a.group_id = $g AND a.name = name "
    "AND NOT e.uuid IN $seen AND {where} RETURN e"
)

TRAVERSE_HOP = (
    "CALL {\n"
    + _HOP_MATCH.replace("{pattern}", "(a:Entity)-[e:RELATES_TO]->(:Entity)").replace(
        "{names}", "$frontier"
    )
    + "\nUNION\n"
    + _HOP_MATCH.replace("{pattern}", "(a:Entity)<-[e:RELATES_TO]-(:Entity)").replace(
        "{names}", "$inward"
    )
    + f"""
}}
WITH e
RETURN {VERSION_RETURN}
ORDER BY e.valid_at_us DESC, e.created_at_us DESC, e.uuid
LIMIT $need
"""
)
"""One hop of the graph leg: the facts touching the frontier that pass every filter.

Out of every frontier entity (``$frontier``), into those that may be walked back from
(``$inward``, see ``traverse_leg``), as a UNION of two directed matches (which also drops
the second copy of an edge between two frontier entities). Not one undirected
``(a)-[e]-()``: FalkorDB 4.16 plans that as an edge index scan when ``e`` has an indexed
property in the WHERE, and the scan follows outgoing edges only, so incoming facts were
silently lost.
"""


async def traverse_leg(
    rows: Rows, account: str, entities: Sequence[str], query: FactQuery, depth: int, k: int
) -> list[FactVersion]:
    """Facts reachable from the entities over facts that pass the query, nearest first.

    Breadth first, one query per hop, along RELATES_TO: a fact that fails the filters
    (ended, expired, another workspace) is neither returned nor followed. Ranked by hop
    count, then newest valid_at; stops once k are found.

    Directions: the named entities and every entity reached as a fact's subject are
    walked both ways; an entity reached only as a fact's value is walked out of, never
    back into. From billing-api, hop 1 reaches its CI, GitHub Actions; hop 2 reads what
    GitHub Actions itself says (its vendor), not the thousand other services that use it:
    reading and sorting those to keep a few was most of a recall's store time at 100k
    facts, and they answer nothing asked about billing-api. A chain of values still
    follows ("the citizenship of the spouse of the author of X"); a question about a
    value's other users names that value, and hop 1 walks both ways from it.
    """
    frontier = list(dict.fromkeys(entities))
    if not frontier or k <= 0 or depth <= 0:
        return []
    where, params = edge_filter(account, query)
    statement = TRAVERSE_HOP.replace("{where}", where)
    visited = set(frontier)
    inward = frontier
    found: list[FactVersion] = []
    seen: set[str] = set()
    for _hop in range(depth):
        params.update(
            frontier=frontier[:MAX_FRONTIER],
            inward=inward[:MAX_FRONTIER],
            seen=sorted(seen),
            need=k - len(found),
        )
        hop = [v for v in _versions(await rows(statement, params)) if v.version_id not in seen]
        found.extend(hop)
        seen.update(v.version_id for v in hop)
        if len(found) >= k:
            break
        frontier = list(
            dict.fromkeys(n for v in hop for n in (v.subject, v.object) if n not in visited)
        )
        subjects = {v.subject for v in hop}
        inward = [n for n in frontier if n in subjects]
        visited.update(frontier)
        if not frontier:
            break
    return found[:k]


EPISODE_RETURN = (
    "n.uuid AS episode_id, n.source_description AS source, n.content AS content, "
    "n.created_at_us AS created_at_us, n.valid_at_us AS valid_at_us, n.workspace AS workspace"
)


def episode_from_row(row: Sequence[Any]) -> Episode:
    """An Episode from a row of EPISODE_RETURN columns."""
    episode_id, source, content, created_us, valid_us, workspace = row
    created, valid = from_us(created_us), from_us(valid_us)
    if created is None or valid is None:
        raise ValueError(f"episode {episode_id} has no clocks")
    return Episode(
        episode_id=episode_id, source=source or "", content=content or "",
        created_at=created, valid_at=valid, workspace=workspace,
    )  # fmt: skip


async def search_episodes_leg(
    rows: Rows,
    dialect: Dialect,
    account: str,
    text: str,
    k: int,
    workspaces: Collection[str] | None = None,
) -> list[Episode]:
    """Episodes whose content matches: those with every word first, then any word; newest
    first within each. ``workspaces``: only theirs and the unplaced ones (None: all)."""
    terms = query_terms(text)
    if not terms or k <= 0:
        return []
    placed = "" if workspaces is None else " AND (n.workspace IS NULL OR n.workspace IN $ws)"
    statement = (
        f"{dialect.episode_call}\nWITH n, score WHERE n.group_id = $g AND NOT n.uuid IN $seen"
        f"{placed}\nRETURN {EPISODE_RETURN}\nORDER BY n.created_at_us DESC, n.uuid\nLIMIT $k"
    )
    out: list[Episode] = []
    queries = [dialect.fulltext.all_of("content", terms)]
    if len(terms) > 1:
        queries.append(dialect.fulltext.any_of("content", terms))
    for ftq in queries:
        params = {"g": account, "ftq": ftq, "k": k - len(out),
                  "seen": [e.episode_id for e in out],
                  "ws": None if workspaces is None else list(workspaces)}  # fmt: skip
        out.extend(episode_from_row(row) for row in await rows(statement, params))
        if len(out) >= k:
            break
    return out
