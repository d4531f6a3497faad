"""The write planner: ``(incoming, visible versions of the slot, now) -> plan``.

Rules (DESIGN.md §3), each with a worked example; times are valid times:

* **new value, one-value slot**: "Hetzner" [Jan, ∞) is current; "Render" arrives
  at Mar. The Hetzner version is expired and a closed copy [Jan, Mar) is written;
  Render is [Mar, ∞). The windows meet with no gap and no overlap.
* **late, older value**: "Render" [Mar, ∞) is current; "Fly" arrives dated Feb.
  It is stored already closed as [Feb, Mar); Render stays current.
* **a guess the person's word overrules**: an agent guessed "Postgres 15" at Dec 6
  (inferred, [Dec 6, ∞)); the person then says "we upgraded to Postgres 16 last week"
  (asserted, dated Nov 29). Read as a late, older value, the guess would stay current
  and the person's word would be filed as history [Nov 29, Dec 6). Instead the guess is
  ``corrected`` (belief axis: it was never true, the person says Postgres 16 held then)
  and Postgres 16 is [Nov 29, ∞). Had the agent guessed "Postgres 16", the guess was
  right: it goes on as the person's fact, from Nov 29 (``rewritten``, as a restatement
  that vouches more). Only the person's word overrules, only a guess that starts by now
  (a guessed plan for next week is left be) and inside the window the person's value
  gets from the values the store does not guess at.
* **a start nobody stated**: at 09:20 the person says "deploy target Heroku" with no
  start, so Heroku is [09:20, ∞) though it surely held before; at 11:00 they say "we moved
  to Fly.io today" (dated 00:00). Read as a late, older value, Fly.io would be filed as
  history [00:00, 09:20) and Heroku would stay current, against the person's latest word.
  A start nobody stated is only when the store was told, so it does not hold the slot
  against a word that dates the change: Heroku [09:20, ∞) is ``outdated`` (it did not
  hold from 09:20: Fly.io did; it may well have held before 00:00, so it is not
  ``corrected``, never true) and Fly.io is [00:00, ∞). Had they said "Heroku since
  January", Heroku goes on from January (``rewritten``). Only a word that states its own
  start and is at least as trusted overrules, and only a value told by now.
* **restatement**: "CI runs on CircleCI" is current; "our CI runs on CircleCI"
  arrives. No new version: the episode is added to the existing one. Only a
  version whose window covers the incoming one's restates it: with Render closed
  as [Jun, Sep) and nothing newer believed, "Render since Jun" opens Render again;
  with Fly.io current from Sep, "Render in Jul" gets [Jul, Sep), which the closed
  Render covers, so it confirms history.
* **many-value slot**: every value is kept open; near-copies are restatements.
* **a new value applies where the one it replaces did**: the person said "hosting
  Railway" for the whole project; an agent in one worktree writes "hosting Render" with
  no class (this worktree only, by default). Railway is closed for every worktree that
  read it, so Render is kept at the project too: kept to one worktree, it would leave the
  others' slot empty, their block silent on the change. Only with no class (a class said
  is a place said) and never past its category's cap (a ``git`` fact stays within one
  project).
* **a restatement that vouches more**: "cache Redis" is current as an agent's guess
  (inferred, this worktree only); the person says "cache Redis" with class user. The
  guess is expired (``rewritten``: the record changed, not the world) and written again
  with the same fact id and window as asserted, everywhere: the higher tier and the
  wider place win, a lower or narrower restatement changes neither. Widened, it closes
  what other places held for the slot ("Helix" in another worktree), as a new value
  would. A closed value is only confirmed.

The planner only sees what the writer can see; the caller decides that.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from twoclocks.domain.cardinality import resolve_cardinality
from twoclocks.domain.errors import InvalidInput, InvalidTemporalRange
from twoclocks.domain.model import (
    Cardinality,
    EpisodeLink,
    Expiry,
    FactVersion,
    Incoming,
    Kind,
    Outcome,
    Plan,
    RetiredReason,
    Tier,
)
from twoclocks.domain.places import LADDER, narrower, seen_from, wider, widest_place
from twoclocks.domain.restatement import is_restatement
from twoclocks.domain.temporal import holds_at
from twoclocks.domain.trust import lower

IdFactory = Callable[[], str]


def _trusted_more(tier: Tier | None, than: Tier | None) -> bool:
    # A row with no tier (an old import) is trusted less than any tier.
    return tier is not None and tier != than and (than is None or lower(tier, than) == than)


def vouches_more(version: FactVersion, incoming: Incoming | FactVersion) -> dict[str, object]:
    """What a restatement raises in the version it restates: its tier, its place, or nothing.

    >>> from datetime import UTC, datetime
    >>> t = datetime(2026, 1, 1, tzinfo=UTC)
    >>> guess = FactVersion(version_id="v", fact_id="f", subject="api", predicate="cache",
    ...     object="Redis", tier=Tier.INFERRED, writer="agent", valid_at=t, created_at=t)
    >>> said = Incoming(subject="api", predicate="cache", object="Redis", valid_at=t,
    ...     tier=Tier.ASSERTED, writer="person")
    >>> vouches_more(guess, said)
    {'tier': <Tier.ASSERTED: 'asserted'>, 'writer': 'person'}
    >>> vouches_more(guess.model_copy(update={"tier": Tier.ASSERTED}), said)
    {}
    """
    update: dict[str, object] = {}
    if _trusted_more(incoming.tier, version.tier):
        update |= {"tier": incoming.tier, "writer": incoming.writer}
    if wider(seen_from(incoming), seen_from(version)):
        update |= {
            "place": incoming.place,
            "workspace": incoming.workspace,
            "fact_class": incoming.fact_class,
            "category": incoming.category,
        }
    return update


def raised_between(before: FactVersion, after: FactVersion) -> str:
    """What a restatement that vouched more changed, in words, for its writer's answer.

    >>> from datetime import UTC, datetime
    >>> from twoclocks.domain.model import Place
    >>> t = datetime(2026, 1, 1, tzinfo=UTC)
    >>> guess = FactVersion(version_id="v", fact_id="f", subject="user", predicate="editor",
    ...     object="Helix", tier=Tier.INFERRED, place=Place.WORKTREE, workspace="worktree:/w",
    ...     valid_at=t, created_at=t)
    >>> raised_between(guess, guess.model_copy(update={"tier": Tier.ASSERTED,
    ...     "place": Place.EVERYWHERE, "workspace": None}))
    'tier inferred -> asserted, place worktree -> everywhere'
    """
    parts = []
    if before.tier != after.tier:
        parts.append(f"tier {before.tier or 'none'} -> {after.tier or 'none'}")
    if seen_from(before) != seen_from(after):
        parts.append(f"place {seen_from(before)} -> {seen_from(after)}")
    return ", ".join(parts)


def _restated(
    incoming: Incoming, candidates: Sequence[FactVersion], now: datetime, new_id: IdFactory
) -> Plan | None:
    for version in sorted(candidates, key=lambda v: v.valid_at, reverse=True):
        if not is_restatement(version.object, incoming.object):
            continue
        episode = incoming.episode_id
        # Only a current value is raised: a closed one's end is read off how its versions
        # were expired (domain.correction), and a re-written copy would blur that.
        if version.invalid_at is None and (raised := vouches_more(version, incoming)):
            # Confirmed by a writer who vouches more: the same fact and window, believed
            # from now on as that writer's, so the block stops calling it a guess.
            episodes = version.episodes + (
                (episode,) if episode and episode not in version.episodes else ()
            )
            again = version.model_copy(
                update={
                    **raised,
                    "version_id": new_id(),
                    "created_at": now,
                    "expired_at": None,
                    "retired_reason": None,
                    "episodes": episodes,
                }
            )
            return Plan(
                now=now,
                expire=(Expiry(version_id=version.version_id, reason=RetiredReason.REWRITTEN),),
                insert=(again,),
                outcome=Outcome.RESTATED,
                fact_id=version.fact_id,
                version_id=again.version_id,
                predicate=version.predicate,
            )
        links: tuple[EpisodeLink, ...] = ()
        if episode and episode not in version.episodes:
            links = (EpisodeLink(version_id=version.version_id, episode_id=episode),)
        return Plan(
            now=now,
            link_episodes=links,
            outcome=Outcome.RESTATED,
            fact_id=version.fact_id,
            version_id=version.version_id,
            predicate=version.predicate,
        )
    return None


def covers(version: FactVersion, start: datetime, end: datetime | None) -> bool:
    """True when the version's valid window contains the whole window [start, end)."""
    if version.valid_at > start:
        return False
    if version.invalid_at is None:
        return True
    return end is not None and end <= version.invalid_at


def new_version(
    incoming: Incoming,
    *,
    version_id: str,
    fact_id: str,
    cardinality: Cardinality,
    now: datetime,
    invalid_at: datetime | None,
) -> FactVersion:
    """Build the version an incoming write becomes, with ``created_at = now``."""
    return FactVersion(
        version_id=version_id,
        fact_id=fact_id,
        subject=incoming.subject,
        predicate=incoming.predicate,
        object=incoming.object,
        kind=incoming.kind,
        cardinality=cardinality,
        tier=incoming.tier,
        fact_class=incoming.fact_class,
        category=incoming.category,
        place=incoming.place,
        workspace=incoming.workspace,
        valid_at=incoming.valid_at,
        invalid_at=invalid_at,
        created_at=now,
        supersedes=incoming.supersedes,
        episodes=(incoming.episode_id,) if incoming.episode_id else (),
        writer=incoming.writer,
        written_as=incoming.written_as,
        start_stated=incoming.start_stated,
    )


def closed_copy(
    version: FactVersion, *, version_id: str, invalid_at: datetime, now: datetime
) -> FactVersion:
    """The copy of ``version`` that records its world-time end; the original gets expired."""
    return version.model_copy(
        update={
            "version_id": version_id,
            "invalid_at": invalid_at,
            "created_at": now,
            "expired_at": None,
            "retired_reason": RetiredReason.ENDED,
        }
    )


def _cut(
    holding: Sequence[FactVersion],
    t: datetime,
    end: datetime | None,
    now: datetime,
    new_id: IdFactory,
) -> tuple[list[Expiry], list[FactVersion], list[str]]:
    """Cut every version holding at ``t`` there: (expiries, versions to insert, facts closed)."""
    expire: list[Expiry] = []
    insert: list[FactVersion] = []
    closed: list[str] = []
    for old in holding:
        # ``old`` covers t: its window is cut at t. A copy of zero length would
        # never hold, so a value replaced at its own start is only expired.
        expire.append(Expiry(version_id=old.version_id, reason=RetiredReason.ENDED))
        if old.valid_at < t:
            insert.append(closed_copy(old, version_id=new_id(), invalid_at=t, now=now))
        if end is not None and (old.invalid_at is None or end < old.invalid_at):
            # A bounded incoming window (a reopened closed version) ends inside ``old``:
            # the rest of ``old`` is kept, as its own fact so each fact has one believed
            # version, instead of being lost from the timeline.
            rest = {"version_id": new_id(), "fact_id": new_id(), "valid_at": end}
            insert.append(old.model_copy(update={**rest, "created_at": now, "expired_at": None}))
        if old.invalid_at is None:
            closed.append(old.fact_id)
    return expire, insert, closed


def plan_write(
    incoming: Incoming,
    visible: Sequence[FactVersion],
    now: datetime,
    new_id: IdFactory,
    fact_id: str | None = None,
    overrule_guesses: bool = True,
) -> Plan:
    """Plan one write against the believed versions of its slot that the writer can see.

    ``fact_id`` keeps an existing logical fact's id (used by reopen); by default a
    new fact is started. ``overrule_guesses=False`` (reopen: the slot as if the retract had
    never happened) files the write against later guesses as a late, older value.
    """
    believed = [v for v in visible if v.expired_at is None]
    cardinality = resolve_cardinality(incoming.cardinality, incoming.predicate, incoming.kind)
    t = incoming.valid_at

    if cardinality is Cardinality.MANY:
        restated = _restated(incoming, [v for v in believed if v.invalid_at is None], now, new_id)
        if restated:
            return restated
        end = incoming.invalid_at
        version = new_version(
            incoming,
            version_id=new_id(),
            fact_id=fact_id or new_id(),
            cardinality=cardinality,
            now=now,
            invalid_at=end,
        )
        return Plan(
            now=now,
            insert=(version,),
            outcome=Outcome.STORED_CLOSED if end else Outcome.INSERTED,
            fact_id=version.fact_id,
            version_id=version.version_id,
            predicate=version.predicate,
        )

    covered = overruled_by_the_word(incoming, believed, now) if overrule_guesses else []
    wrong = [v for v in covered if not is_restatement(v.object, incoming.object)]
    right = [v for v in covered if v not in wrong]
    if covered:
        gone = {v.version_id for v in covered}
        believed = [v for v in believed if v.version_id not in gone]
        if incoming.supersedes is None and not right and len({v.fact_id for v in wrong}) == 1:
            incoming = incoming.model_copy(update={"supersedes": wrong[0].fact_id})
        if right and fact_id is None:
            fact_id = right[0].fact_id  # the guess the person confirmed goes on as their fact
    retired_guesses = [Expiry(version_id=v.version_id, reason=_why_wrong(v)) for v in wrong] + [
        Expiry(version_id=v.version_id, reason=RetiredReason.REWRITTEN) for v in right
    ]
    overruled_facts = tuple(dict.fromkeys(v.fact_id for v in wrong if v.invalid_at is None))

    # The new window runs until the next known value starts (a late, older value
    # is therefore stored already closed), or until the writer's own end.
    later_starts = [v.valid_at for v in believed if v.valid_at > t]
    ends = [e for e in ([min(later_starts)] if later_starts else []) + [incoming.invalid_at] if e]
    end = min(ends) if ends else None

    holding = [v for v in believed if holds_at(v, t)]
    # Only a version whose window covers the one this write would get is restated: a
    # closed "Render [Jun, Sep)" does not cover an open "Render since June" when nothing
    # newer holds, so that write opens Render again instead of vanishing into history.
    restated = _restated(incoming, [v for v in holding if covers(v, t, end)], now, new_id)
    if restated and not restated.insert:
        if not retired_guesses:
            return restated
        return restated.model_copy(
            update={
                "expire": restated.expire + tuple(retired_guesses),
                "closed": restated.closed + overruled_facts,
            }
        )
    if restated:
        # Raised to a wider place, the fact now meets values other places held for the
        # slot (the person's editor in another worktree): it closes them, as the same
        # value written new at that place would have.
        others = [v for v in holding if v.fact_id != restated.fact_id]
        expire, insert, closed = _cut(others, t, end, now, new_id)
        return restated.model_copy(
            update={
                "expire": restated.expire + tuple(expire + retired_guesses),
                "insert": restated.insert + tuple(insert),
                "closed": tuple(closed) + overruled_facts,
            }
        )

    expire, insert, closed = _cut(holding, t, end, now, new_id)
    # What the word overruled was replaced too: a project's value told late, outdated by a
    # dated word in one worktree, leaves every worktree that read it wanting the new one.
    incoming = _at_widest_replaced(incoming, [*holding, *covered])
    version = new_version(
        incoming,
        version_id=new_id(),
        fact_id=fact_id or new_id(),
        cardinality=cardinality,
        now=now,
        invalid_at=end,
    )
    if right:
        episodes = dict.fromkeys([e for v in right for e in v.episodes] + list(version.episodes))
        version = version.model_copy(update={"episodes": tuple(episodes)})
    insert.append(version)
    confirmed = Outcome.RESTATED if right else Outcome.INSERTED
    return Plan(
        now=now,
        expire=tuple(expire + retired_guesses),
        insert=tuple(insert),
        outcome=Outcome.STORED_CLOSED if end else confirmed,
        fact_id=version.fact_id,
        version_id=version.version_id,
        predicate=version.predicate,
        closed=tuple(closed) + overruled_facts,
    )


def _at_widest_replaced(incoming: Incoming, replaced: Sequence[FactVersion]) -> Incoming:
    """A new value written with no class, kept where the widest value it replaces applied
    (module docstring: "a new value applies where the one it replaces did"), within its
    category's cap. A class said is a place said: kept as the writer chose."""
    if incoming.fact_class is not None:
        return incoming
    cap = widest_place(incoming.category)
    beyond = [
        v
        for v in replaced
        if wider(seen_from(v), seen_from(incoming)) and narrower(seen_from(v), cap) == seen_from(v)
    ]
    if not beyond:
        return incoming
    widest = min(beyond, key=lambda v: LADDER.index(seen_from(v)))
    return incoming.model_copy(update={"place": widest.place, "workspace": widest.workspace})


def _overrules(incoming: Incoming, version: FactVersion) -> bool:
    """Whether a later word with an earlier start speaks for ``version`` (module docstring:
    "a guess the person's word overrules", "a start nobody stated")."""
    if incoming.tier is Tier.ASSERTED and version.tier is Tier.INFERRED:
        return True
    # A start nobody stated is only when the store was told; a word at least as trusted
    # that dates the change gives the slot's history, the told time never did.
    return (
        incoming.start_stated
        and not version.start_stated
        and (
            version.tier is None
            or lower(incoming.tier or version.tier, version.tier) == version.tier
        )
    )


def _why_wrong(version: FactVersion) -> RetiredReason:
    """Why a value the word overrules leaves belief: a stated start the word contradicts was
    a wrong guess (``corrected``); a start nobody stated may only have been told late, after
    the change the word dates (``outdated``)."""
    return RetiredReason.CORRECTED if version.start_stated else RetiredReason.OUTDATED


def overruled_by_the_word(
    incoming: Incoming, believed: Sequence[FactVersion], now: datetime
) -> list[FactVersion]:
    """The versions of a one-value slot a later word with an earlier start speaks for,
    earliest first: guesses (inferred) the person's word (asserted) overrules, and values
    whose start nobody stated that a word at least as trusted dates. Only those starting
    after the word's own start and by ``now`` count, inside the window the word gets from
    the other values (module docstring: "a guess the person's word overrules", "a start
    nobody stated"). One of another value did not hold from when it was told; one of
    the same value was right, and goes on from the word's start. One that starts after
    now is a plan the word about today leaves be."""
    t = incoming.valid_at
    later = [v for v in believed if v.valid_at > t]
    spoken_for = [v for v in later if v.valid_at <= now and _overrules(incoming, v)]
    firm = [v.valid_at for v in later if v not in spoken_for]
    ends = [e for e in [*firm, incoming.invalid_at] if e is not None]
    end = min(ends) if ends else None
    return sorted(
        (v for v in spoken_for if end is None or v.valid_at < end), key=lambda v: v.valid_at
    )


def check_end(invalid_at: datetime | None, valid_at: datetime, kind: Kind) -> None:
    """Refuse an end a write cannot have: before its start, or of an event (once, no span).

    DESIGN §2, "An end told with the value": Ravi covers on call from the 14th, told with
    an end on the 21st, is written; the same end on the 10th is ``InvalidTemporalRange``.
    """
    if invalid_at is None:
        return
    if kind is Kind.EVENT:
        raise InvalidInput(
            "an end (invalid_at, --until) is for a fact: an event happens once, at valid_at"
        )
    if invalid_at <= valid_at:
        raise InvalidTemporalRange(
            f"the end (invalid_at, --until) {invalid_at.isoformat()} must be after the start "
            f"(valid_at) {valid_at.isoformat()}, or after now when no start is given"
        )
