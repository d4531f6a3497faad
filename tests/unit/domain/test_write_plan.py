"""The write planner (DESIGN.md §3): ``(incoming, visible versions of the slot, now) -> plan``."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from twoclocks.domain.errors import InvalidInput, InvalidTemporalRange
from twoclocks.domain.model import (
    Cardinality,
    FactClass,
    FactVersion,
    Incoming,
    Kind,
    Outcome,
    Place,
    Plan,
    RetiredReason,
    Tier,
)
from twoclocks.domain.temporal import is_current, is_visible
from twoclocks.domain.write_plan import check_end, plan_write


def at(month: int, day: int = 1) -> datetime:
    return datetime(2026, month, day, tzinfo=UTC)


JAN, FEB, MAR, APR = at(1), at(2), at(3), at(4)
NOW = at(6)
LATER = at(7)


def id_factory() -> Callable[[], str]:
    counter = itertools.count(1)
    return lambda: f"id{next(counter)}"


def version(version_id: str, obj: str, valid_at: datetime, **fields: Any) -> FactVersion:
    base: dict[str, Any] = {
        "version_id": version_id,
        "fact_id": f"fact-{version_id}",
        "subject": "production",
        "predicate": "deployed_to",
        "object": obj,
        "valid_at": valid_at,
        "created_at": JAN,
    }
    base.update(fields)
    return FactVersion(**base)


def incoming(obj: str, valid_at: datetime, **fields: Any) -> Incoming:
    base: dict[str, Any] = {
        "subject": "production",
        "predicate": "deployed_to",
        "object": obj,
        "valid_at": valid_at,
        "episode_id": "ep-new",
    }
    base.update(fields)
    return Incoming(**base)


def apply(store: Sequence[FactVersion], plan: Plan) -> list[FactVersion]:
    """What a store does with a plan: expire, link episodes, append; nothing else."""
    expire = {e.version_id: e.reason for e in plan.expire}
    links: dict[str, list[str]] = {}
    for link in plan.link_episodes:
        links.setdefault(link.version_id, []).append(link.episode_id)
    out: list[FactVersion] = []
    for v in store:
        update: dict[str, Any] = {}
        if v.version_id in expire:
            assert v.expired_at is None, f"{v.version_id} expired twice"
            update |= {"expired_at": plan.now, "retired_reason": expire.pop(v.version_id)}
        if v.version_id in links:
            update["episodes"] = v.episodes + tuple(links.pop(v.version_id))
        out.append(v.model_copy(update=update) if update else v)
    assert not expire and not links, "plan names versions the store does not have"
    return out + list(plan.insert)


def believed_windows(store: Sequence[FactVersion]) -> list[tuple[str, datetime, datetime | None]]:
    rows = [v for v in store if v.expired_at is None]
    rows.sort(key=lambda v: v.valid_at)
    return [(v.object, v.valid_at, v.invalid_at) for v in rows]


def assert_no_gap_no_overlap(store: Sequence[FactVersion]) -> None:
    windows = believed_windows(store)
    for (_, _, end), (_, start, _) in itertools.pairwise(windows):
        assert end == start, windows
    assert windows[-1][2] is None, windows


def test_new_value_closes_every_visible_current_version_with_no_gap_and_no_overlap() -> None:
    # Two current versions the writer can see (say one unplaced, one in its worktree).
    hetzner = version("v1", "Hetzner", JAN)
    render = version("v2", "Render", FEB, workspace="wt:acme-api")
    store = [hetzner, render]

    plan = plan_write(incoming("Fly", MAR), store, NOW, id_factory())

    assert plan.outcome is Outcome.INSERTED
    assert {(e.version_id, e.reason) for e in plan.expire} == {
        ("v1", RetiredReason.ENDED),
        ("v2", RetiredReason.ENDED),
    }
    assert set(plan.closed) == {"fact-v1", "fact-v2"}
    copies = {v.object: v for v in plan.insert if v.object != "Fly"}
    new = next(v for v in plan.insert if v.object == "Fly")
    # each closed copy keeps its fact and start, ends exactly where the new value starts
    assert copies["Hetzner"].fact_id == "fact-v1"
    assert (copies["Hetzner"].valid_at, copies["Hetzner"].invalid_at) == (JAN, MAR)
    assert (copies["Render"].valid_at, copies["Render"].invalid_at) == (FEB, MAR)
    assert all(c.created_at == NOW and c.expired_at is None for c in copies.values())
    assert all(c.retired_reason is RetiredReason.ENDED for c in copies.values())
    assert (new.valid_at, new.invalid_at, new.created_at) == (MAR, None, NOW)
    assert new.fact_id not in {"fact-v1", "fact-v2"}

    after = apply(store, plan)
    assert [v.object for v in after if is_current(v, NOW)] == ["Fly"]
    # the two old values are history the store still answers for
    assert {v.object for v in after if is_visible(v, NOW, as_of=at(2, 15))} == {"Hetzner", "Render"}
    assert {v.object for v in after if is_visible(v, NOW, as_of=MAR)} == {"Fly"}


def test_new_value_meets_the_old_window_exactly() -> None:
    store = [version("v1", "Hetzner", JAN)]
    after = apply(store, plan_write(incoming("Render", MAR), store, NOW, id_factory()))
    assert believed_windows(after) == [("Hetzner", JAN, MAR), ("Render", MAR, None)]
    assert_no_gap_no_overlap(after)


def test_late_older_value_is_stored_closed_as_history() -> None:
    render = version("v1", "Render", MAR)
    store = [render]

    plan = plan_write(incoming("Fly", FEB), store, NOW, id_factory())

    assert plan.outcome is Outcome.STORED_CLOSED
    assert plan.expire == ()
    assert plan.closed == ()
    (fly,) = plan.insert
    assert (fly.object, fly.valid_at, fly.invalid_at) == ("Fly", FEB, MAR)
    after = apply(store, plan)
    assert [v.object for v in after if is_current(v, NOW)] == ["Render"]
    assert_no_gap_no_overlap(after)


def test_late_value_inside_a_closed_window_splits_it() -> None:
    # Hetzner [Jan, Mar) is history, Render [Mar, ∞) is current; Fly arrives dated Feb.
    hetzner = version("v1", "Hetzner", JAN, invalid_at=MAR, retired_reason=RetiredReason.ENDED)
    render = version("v2", "Render", MAR)
    store = [hetzner, render]

    plan = plan_write(incoming("Fly", FEB), store, NOW, id_factory())

    assert plan.outcome is Outcome.STORED_CLOSED
    assert [e.version_id for e in plan.expire] == ["v1"]
    assert plan.closed == ()  # no open value was closed
    after = apply(store, plan)
    assert believed_windows(after) == [
        ("Hetzner", JAN, FEB),
        ("Fly", FEB, MAR),
        ("Render", MAR, None),
    ]
    # what the store believed before the late write is still answerable
    assert [v.object for v in after if is_visible(v, NOW, as_of=at(2, 15), as_believed=JAN)] == [
        "Hetzner"
    ]


def test_a_guess_the_persons_word_overrules_is_corrected_and_the_word_holds() -> None:
    # Hetzner [Jan, ∞) was the person's; an agent guessed Fly at Mar, which closed it.
    # The person then says "we moved to Render in February".
    hetzner = version("v1", "Hetzner", JAN, invalid_at=MAR, tier=Tier.ASSERTED,
                      retired_reason=RetiredReason.ENDED)  # fmt: skip
    guess = version("v2", "Fly", MAR, tier=Tier.INFERRED, created_at=MAR)
    store = [hetzner, guess]

    plan = plan_write(incoming("Render", FEB, tier=Tier.ASSERTED), store, NOW, id_factory())

    assert plan.outcome is Outcome.INSERTED
    assert (RetiredReason.CORRECTED, "v2") in {(e.reason, e.version_id) for e in plan.expire}
    assert plan.closed == ("fact-v2",)  # the answer names the guess it replaced
    after = apply(store, plan)
    assert believed_windows(after) == [("Hetzner", JAN, FEB), ("Render", FEB, None)]
    render = next(v for v in after if v.object == "Render")
    assert render.supersedes == "fact-v2"
    # What the store believed before the person spoke is still answerable.
    assert [v.object for v in after if is_visible(v, NOW, as_of=APR, as_believed=APR)] == ["Fly"]


def test_only_the_persons_word_overrules_and_only_a_guess_it_speaks_for() -> None:
    guess = version("v2", "Fly", MAR, tier=Tier.INFERRED)
    firm = version("v2", "Fly", MAR, tier=Tier.OBSERVED)
    # Another guess, a tool's observation, or the person against their own later value:
    # a late, older value, stored closed, as before.
    for store, tier in (
        ([guess], Tier.INFERRED),
        ([firm], Tier.ASSERTED),
        ([guess.model_copy(update={"tier": Tier.ASSERTED})], Tier.ASSERTED),
    ):
        plan = plan_write(incoming("Render", FEB, tier=tier), store, NOW, id_factory())
        assert (plan.outcome, plan.expire) == (Outcome.STORED_CLOSED, ()), (store, tier)
    # A guessed plan (it starts after now) is not what the word about today says.
    plan_ahead = version("v4", "Fly", LATER, tier=Tier.INFERRED)
    plan = plan_write(incoming("Render", NOW, tier=Tier.ASSERTED), [plan_ahead], NOW, id_factory())
    assert (plan.outcome, plan.expire) == (Outcome.STORED_CLOSED, ())
    # A guess after a value nobody guessed is outside the word's window: it stays.
    later = version("v3", "Heroku", at(5), tier=Tier.INFERRED)
    plan = plan_write(incoming("Render", FEB, tier=Tier.ASSERTED), [firm, later], NOW, id_factory())
    assert plan.expire == () and plan.insert[-1].invalid_at == MAR  # fmt: skip


def test_a_guess_the_persons_word_confirms_goes_on_as_theirs_from_the_words_start() -> None:
    # An agent guessed Render at Mar; the person says "we've been on Render since Feb".
    # Filed as a late, older value, the current Render would stay "a guess, verify".
    guess = version("v2", "Render", MAR, tier=Tier.INFERRED, episodes=("ep-guess",))
    plan = plan_write(incoming("Render", FEB, tier=Tier.ASSERTED), [guess], NOW, id_factory())
    assert plan.outcome is Outcome.RESTATED and plan.closed == ()
    assert [(e.version_id, e.reason) for e in plan.expire] == [("v2", RetiredReason.REWRITTEN)]
    after = apply([guess], plan)
    (now,) = [v for v in after if is_current(v, NOW)]
    assert (now.fact_id, now.tier, now.valid_at) == ("fact-v2", Tier.ASSERTED, FEB)
    assert now.episodes == ("ep-guess", "ep-new")
    assert [v.tier for v in after if is_visible(v, NOW, as_of=APR, as_believed=APR)] == [
        Tier.INFERRED
    ]


def test_a_start_nobody_stated_gives_way_to_a_word_that_dates_the_change() -> None:
    # Heroku was told at Mar with no start (valid_at is the told time); at Apr the person
    # says "we moved to Fly.io in February". Read as a late, older value, Fly.io would be
    # history [Feb, Mar) and Heroku would stay current against the person's latest word.
    heroku = version("v1", "Heroku", MAR, tier=Tier.ASSERTED, created_at=MAR,
                     start_stated=False)  # fmt: skip
    plan = plan_write(incoming("Fly.io", FEB, tier=Tier.ASSERTED), [heroku], APR, id_factory())

    assert plan.outcome is Outcome.INSERTED and plan.closed == ("fact-v1",)
    # Outdated, not corrected: it did not hold from Mar, yet it may have held before Feb.
    assert [(e.version_id, e.reason) for e in plan.expire] == [("v1", RetiredReason.OUTDATED)]
    after = apply([heroku], plan)
    assert believed_windows(after) == [("Fly.io", FEB, None)]
    fly = next(v for v in after if v.object == "Fly.io")
    assert fly.supersedes == "fact-v1" and fly.start_stated
    # What the store believed before the word is still answerable.
    assert [v.object for v in after if is_visible(v, APR, as_of=MAR, as_believed=MAR)] == ["Heroku"]


def test_a_value_told_late_is_outdated_and_a_guess_dated_wrong_is_corrected() -> None:
    # Both are overruled by the person's word dated Feb. The agent's guess said its own
    # start (Mar), which the word contradicts: it was never true. The one told with no
    # start only reached the store after the change: outdated, whoever told it.
    dated_guess = version("v1", "Heroku", MAR, tier=Tier.INFERRED)
    told_guess = dated_guess.model_copy(update={"start_stated": False})
    for held, why in ((dated_guess, RetiredReason.CORRECTED), (told_guess, RetiredReason.OUTDATED)):
        plan = plan_write(incoming("Fly.io", FEB, tier=Tier.ASSERTED), [held], APR, id_factory())
        assert [(e.version_id, e.reason) for e in plan.expire] == [("v1", why)]


def test_a_start_nobody_stated_goes_on_from_the_start_a_later_word_gives_it() -> None:
    heroku = version("v1", "Heroku", MAR, tier=Tier.ASSERTED, start_stated=False)
    plan = plan_write(incoming("Heroku", JAN, tier=Tier.ASSERTED), [heroku], APR, id_factory())
    assert plan.outcome is Outcome.RESTATED
    assert [(e.version_id, e.reason) for e in plan.expire] == [("v1", RetiredReason.REWRITTEN)]
    (now,) = [v for v in apply([heroku], plan) if is_current(v, APR)]
    assert (now.fact_id, now.valid_at, now.start_stated) == ("fact-v1", JAN, True)


def test_only_a_dated_word_as_trusted_overrules_a_start_nobody_stated() -> None:
    told = version("v1", "Heroku", MAR, tier=Tier.ASSERTED, start_stated=False)
    stated = told.model_copy(update={"start_stated": True})
    # An agent's guess dated earlier, a value whose start was stated, a word with no start
    # of its own (its valid_at is the told time, so it cannot be earlier), and a value told
    # for later than now: a late, older value, stored closed, as before.
    for store, word in (
        ([told], incoming("Fly.io", FEB, tier=Tier.INFERRED)),
        ([stated], incoming("Fly.io", FEB, tier=Tier.ASSERTED)),
        ([told], incoming("Fly.io", FEB, tier=Tier.ASSERTED, start_stated=False)),
        (
            [told.model_copy(update={"valid_at": LATER})],
            incoming("Fly.io", FEB, tier=Tier.ASSERTED),
        ),
    ):
        plan = plan_write(word, store, APR, id_factory())
        assert (plan.outcome, plan.expire) == (Outcome.STORED_CLOSED, ()), (store, word)
    # A tool's observation dates a change over the person's told value no better.
    plan = plan_write(incoming("Fly.io", FEB, tier=Tier.OBSERVED), [told], APR, id_factory())
    assert plan.outcome is Outcome.STORED_CLOSED
    # A stated value between the word and the told one bounds the word: it stays closed.
    render = version("v2", "Render", FEB, tier=Tier.ASSERTED, invalid_at=MAR)
    plan = plan_write(
        incoming("Fly.io", JAN, tier=Tier.ASSERTED), [render, told], APR, id_factory()
    )
    assert plan.expire == () and plan.insert[-1].invalid_at == FEB


def test_restatement_adds_episode_instead_of_new_version() -> None:
    ci = version("v1", "CI runs on CircleCI", JAN, episodes=("ep-1",))
    store = [ci]

    plan = plan_write(
        incoming("our CI runs on CircleCI", MAR, episode_id="ep-2"), store, NOW, id_factory()
    )

    assert plan.outcome is Outcome.RESTATED
    assert plan.insert == () and plan.expire == ()
    assert (plan.fact_id, plan.version_id) == ("fact-v1", "v1")
    assert [(link.version_id, link.episode_id) for link in plan.link_episodes] == [("v1", "ep-2")]
    (after,) = apply(store, plan)
    assert after.episodes == ("ep-1", "ep-2")
    assert after.valid_at == JAN  # the restatement does not move the start


def test_restatement_of_an_episode_already_linked_links_nothing() -> None:
    ci = version("v1", "CI runs on CircleCI", JAN, episodes=("ep-1",))
    plan = plan_write(
        incoming("CI runs on CircleCI", MAR, episode_id="ep-1"), [ci], NOW, id_factory()
    )
    assert plan.outcome is Outcome.RESTATED
    assert not plan.changes_anything


def test_restatement_that_vouches_more_raises_the_tier_and_keeps_the_window() -> None:
    # An agent guessed Redis; the person says it. The guess is expired (the record, not
    # the world, changed) and the same fact is believed again as asserted, from JAN still.
    guess = version("v1", "Redis", JAN, tier=Tier.INFERRED, writer="agent", episodes=("ep-1",))
    said = incoming("Redis", MAR, tier=Tier.ASSERTED, writer="person")
    plan = plan_write(said, [guess], NOW, id_factory())
    assert plan.outcome is Outcome.RESTATED
    assert [(e.version_id, e.reason) for e in plan.expire] == [("v1", RetiredReason.REWRITTEN)]
    (again,) = plan.insert
    assert (plan.fact_id, plan.version_id) == ("fact-v1", again.version_id)
    assert (again.fact_id, again.tier, again.writer) == ("fact-v1", Tier.ASSERTED, "person")
    assert (again.valid_at, again.invalid_at, again.created_at) == (JAN, None, NOW)
    assert again.episodes == ("ep-1", "ep-new")


def test_restatement_that_vouches_more_widens_the_place_never_narrows_it() -> None:
    here = {"place": Place.WORKTREE, "workspace": "worktree:/w/one", "fact_class": None}
    everywhere = {"place": Place.EVERYWHERE, "workspace": None, "fact_class": FactClass.USER}
    narrow = version("v1", "Helix", JAN, **here)
    (wide,) = plan_write(incoming("Helix", MAR, **everywhere), [narrow], NOW, id_factory()).insert
    assert (wide.place, wide.workspace, wide.fact_class) == (Place.EVERYWHERE, None, FactClass.USER)
    # Said again from a worktree with no class: the fact stays everywhere, nothing changes.
    plan = plan_write(incoming("Helix", APR, episode_id=None, **here), [wide], NOW, id_factory())
    assert plan.outcome is Outcome.RESTATED and not plan.changes_anything


def test_restatement_that_widens_the_place_closes_what_other_places_held() -> None:
    # Zed in worktree one, Helix in worktree two; the person says Zed with class user (a
    # write that sees every place): Zed now applies everywhere and Helix ends where a new
    # Zed would have ended it.
    zed = version("v1", "Zed", JAN, place=Place.WORKTREE, workspace="worktree:/w/one")
    helix = version("v2", "Helix", FEB, place=Place.WORKTREE, workspace="worktree:/w/two")
    said = incoming("Zed", MAR, place=Place.EVERYWHERE, fact_class=FactClass.USER)
    plan = plan_write(said, [zed, helix], NOW, id_factory())
    assert (plan.outcome, plan.fact_id, plan.closed) == (Outcome.RESTATED, "fact-v1", ("fact-v2",))
    after = apply([zed, helix], plan)
    current = [v for v in after if v.invalid_at is None and v.expired_at is None]
    assert [(v.object, v.workspace, v.valid_at) for v in current] == [("Zed", None, JAN)]
    (ended,) = [v for v in after if v.object == "Helix" and v.expired_at is None]
    assert (ended.valid_at, ended.invalid_at) == (FEB, MAR)


def test_write_closes_only_what_it_can_see_and_takes_the_closed_values_place() -> None:
    # The person said "Railway" for the project; an agent in one worktree says "Render"
    # with no class. Railway ends for every worktree that read it, so Render is kept at
    # the project: kept to the one worktree, the others' slot would hold nothing.
    project = {"place": Place.PROJECT, "workspace": "project:/src/harbor"}
    railway = version("v1", "Railway", JAN, tier=Tier.ASSERTED, **project)
    guess = incoming(
        "Render", MAR, tier=Tier.INFERRED, place=Place.WORKTREE, workspace="worktree:/w/one"
    )
    plan = plan_write(guess, [railway], NOW, id_factory())
    assert plan.closed == ("fact-v1",)
    (render,) = [v for v in plan.insert if v.version_id == plan.version_id]
    assert (render.place, render.workspace) == (Place.PROJECT, "project:/src/harbor")
    # A value nothing replaced keeps the place its class gave it.
    first = plan_write(guess, [], NOW, id_factory())
    assert [(v.place, v.workspace) for v in first.insert] == [(Place.WORKTREE, "worktree:/w/one")]
    # A class said is a place said: a task of this worktree stays this worktree's.
    task = guess.model_copy(update={"fact_class": FactClass.TASK})
    plan = plan_write(task, [railway], NOW, id_factory())
    (render,) = [v for v in plan.insert if v.version_id == plan.version_id]
    assert (render.place, render.workspace) == (Place.WORKTREE, "worktree:/w/one")


def test_a_word_that_overrules_a_value_kept_wider_takes_that_values_place() -> None:
    # The project's warehouse was told as Snowflake with no start; the person, in one
    # worktree, says "BigQuery since November 15" with no class. Snowflake is outdated for
    # every worktree that read it, so BigQuery applies at the project, as any new value
    # replacing a value kept wider does; kept to the one worktree, the others would read
    # no warehouse at all. A guess the person's word corrects likewise.
    project = {"place": Place.PROJECT, "workspace": "project:/src/etl"}
    here = {"place": Place.WORKTREE, "workspace": "worktree:/src/etl"}
    told = version("v1", "Snowflake", MAR, tier=Tier.ASSERTED, start_stated=False, **project)
    guess = version("v1", "Snowflake", MAR, tier=Tier.INFERRED, **project)
    for held, why in ((told, RetiredReason.OUTDATED), (guess, RetiredReason.CORRECTED)):
        word = incoming("BigQuery", FEB, tier=Tier.ASSERTED, **here)
        plan = plan_write(word, [held], APR, id_factory())
        assert [(e.version_id, e.reason) for e in plan.expire] == [("v1", why)]
        (bigquery,) = [v for v in plan.insert if v.version_id == plan.version_id]
        assert (bigquery.place, bigquery.workspace) == (Place.PROJECT, "project:/src/etl")
    # The person confirming the guess's value keeps it where the guess applied.
    same = incoming("Snowflake", FEB, tier=Tier.ASSERTED, **here)
    plan = plan_write(same, [guess], APR, id_factory())
    (snowflake,) = [v for v in plan.insert if v.version_id == plan.version_id]
    assert (snowflake.place, snowflake.workspace) == (Place.PROJECT, "project:/src/etl")


def test_a_new_value_never_goes_past_its_category_cap_to_reach_what_it_replaces() -> None:
    # A value kept everywhere, replaced by a git fact: git never goes wider than a project.
    anywhere = version("v1", "main", JAN, place=Place.EVERYWHERE, workspace=None)
    branch = incoming("dev", MAR, category="git", place=Place.WORKTREE, workspace="worktree:/w/one")
    plan = plan_write(branch, [anywhere], NOW, id_factory())
    (dev,) = [v for v in plan.insert if v.version_id == plan.version_id]
    assert (dev.place, dev.workspace) == (Place.WORKTREE, "worktree:/w/one")


def test_restatement_that_vouches_more_leaves_a_closed_value_as_it_was() -> None:
    # History is confirmed, not re-written: a closed window's end is read off how its
    # versions were expired (domain.correction), so its versions stay as they are.
    closed = version("v1", "Render", JAN, invalid_at=MAR, tier=Tier.INFERRED)
    plan = plan_write(
        incoming("Render", FEB, tier=Tier.ASSERTED, invalid_at=MAR), [closed], NOW, id_factory()
    )
    assert plan.outcome is Outcome.RESTATED
    assert plan.insert == () and plan.expire == ()


def test_restatement_by_a_writer_who_vouches_less_changes_nothing() -> None:
    said = version("v1", "Redis", JAN, tier=Tier.ASSERTED, writer="person")
    plan = plan_write(
        incoming("Redis", MAR, tier=Tier.INFERRED, writer="agent", episode_id=None),
        [said],
        NOW,
        id_factory(),
    )
    assert plan.outcome is Outcome.RESTATED and not plan.changes_anything


def test_changed_number_is_not_a_restatement() -> None:
    retries = version("v1", "3 attempts", JAN)
    plan = plan_write(incoming("5 attempts", MAR), [retries], NOW, id_factory())
    assert plan.outcome is Outcome.INSERTED
    assert [e.version_id for e in plan.expire] == ["v1"]
    assert believed_windows(apply([retries], plan)) == [
        ("3 attempts", JAN, MAR),
        ("5 attempts", MAR, None),
    ]


def test_many_value_slot_keeps_each_value_and_drops_near_copies() -> None:
    selin = version("v1", "Selin Aydin", JAN, predicate="works_with", cardinality=Cardinality.MANY)
    new = id_factory()

    other = plan_write(incoming("Mehmet Kaya", MAR, predicate="works_with"), [selin], NOW, new)
    assert other.outcome is Outcome.INSERTED
    assert other.expire == () and other.closed == ()
    store = apply([selin], other)
    assert sorted(v.object for v in store if is_current(v, NOW)) == ["Mehmet Kaya", "Selin Aydin"]
    assert all(v.cardinality is Cardinality.MANY for v in store)

    copy = plan_write(
        incoming("selin aydin", APR, predicate="works_with", episode_id="ep-9"), store, NOW, new
    )
    assert copy.outcome is Outcome.RESTATED
    assert copy.insert == () and copy.expire == ()
    assert [(link.version_id, link.episode_id) for link in copy.link_episodes] == [("v1", "ep-9")]


def test_event_never_closes_an_earlier_event() -> None:
    ran = version("v1", "pytest -q", JAN, predicate="ran_command", kind=Kind.EVENT)
    plan = plan_write(
        incoming("make lint", MAR, predicate="ran_command", kind=Kind.EVENT),
        [ran],
        NOW,
        id_factory(),
    )
    assert plan.outcome is Outcome.INSERTED
    assert plan.expire == ()
    assert plan.insert[0].cardinality is Cardinality.MANY


def test_write_closes_only_what_it_can_see() -> None:
    # The slot holds one current value per worktree; the writer in worktree A sees only A's.
    in_a = version("v1", "feature/login", JAN, predicate="working_on", workspace="wt:a")
    in_b = version("v2", "fix/flaky-ci", JAN, predicate="working_on", workspace="wt:b")
    store = [in_a, in_b]

    plan = plan_write(
        incoming("feature/signup", MAR, predicate="working_on", workspace="wt:a"),
        [in_a],
        NOW,
        id_factory(),
    )

    assert [e.version_id for e in plan.expire] == ["v1"]
    assert plan.closed == ("fact-v1",)
    after = apply(store, plan)
    current = {(v.workspace, v.object) for v in after if is_current(v, NOW)}
    assert current == {("wt:a", "feature/signup"), ("wt:b", "fix/flaky-ci")}


def test_value_replaced_at_its_own_start_is_only_expired() -> None:
    render = version("v1", "Render", MAR)
    plan = plan_write(incoming("Fly", MAR), [render], NOW, id_factory())

    assert [e.version_id for e in plan.expire] == ["v1"]
    # no zero-length copy [Mar, Mar): the only insert is the new value
    assert [(v.object, v.valid_at, v.invalid_at) for v in plan.insert] == [("Fly", MAR, None)]
    assert plan.closed == ("fact-v1",)
    after = apply([render], plan)
    assert believed_windows(after) == [("Fly", MAR, None)]
    # before the write, the store believed Render from Mar on
    assert [v.object for v in after if is_visible(v, LATER, as_of=APR, as_believed=JAN)] == [
        "Render"
    ]


def test_expired_versions_given_to_the_planner_are_ignored() -> None:
    old = version("v1", "Hetzner", JAN, expired_at=FEB)
    plan = plan_write(incoming("Render", MAR), [old], NOW, id_factory())
    assert plan.expire == ()
    assert [(v.object, v.invalid_at) for v in plan.insert] == [("Render", None)]


def test_future_dated_write_keeps_the_old_value_current_until_it_starts() -> None:
    hetzner = version("v1", "Hetzner", JAN)
    plan = plan_write(incoming("Render", LATER), [hetzner], NOW, id_factory())
    after = apply([hetzner], plan)
    assert [v.object for v in after if is_current(v, NOW)] == ["Hetzner"]
    assert [v.object for v in after if is_current(v, LATER)] == ["Render"]


def test_planner_uses_the_given_clock_and_id_factory_only() -> None:
    store = [version("v1", "Hetzner", JAN)]
    first = plan_write(incoming("Render", MAR), store, NOW, id_factory())
    second = plan_write(incoming("Render", MAR), store, NOW, id_factory())
    assert first == second  # deterministic: no clock reads, no random ids
    assert first.now == NOW
    assert {v.version_id for v in first.insert} | {first.fact_id} <= {"id1", "id2", "id3"}
    assert all(v.created_at == NOW for v in first.insert)


# ---- restating a closed value (issue 9.2) ------------------------------------------------


def test_restating_a_closed_value_not_covering_the_claim_opens_it_again() -> None:
    # Render [Feb, Apr) is closed and nothing newer is believed: "Render since Feb"
    # claims [Feb, ∞), which the closed window does not cover.
    closed = version("r1", "Render", FEB, invalid_at=APR)
    plan = plan_write(incoming("Render", FEB), [closed], NOW, id_factory())
    assert plan.outcome is Outcome.INSERTED
    (new,) = [v for v in plan.insert if v.object == "Render" and v.invalid_at is None]
    assert new.valid_at == FEB and is_current(new, NOW)
    assert [e.version_id for e in plan.expire] == ["r1"]


def test_restating_a_value_inside_a_closed_window_confirms_history() -> None:
    # Fly.io holds from Apr; "Render in Mar" would get [Mar, Apr), inside Render [Feb, Apr).
    render = version("r1", "Render", FEB, invalid_at=APR)
    fly = version("f1", "Fly.io", APR)
    plan = plan_write(incoming("Render", MAR), [render, fly], NOW, id_factory())
    assert plan.outcome is Outcome.RESTATED
    assert plan.version_id == "r1"
    assert not plan.insert and not plan.expire


def test_restating_the_current_open_value_still_confirms_it() -> None:
    render = version("r1", "Render", FEB)
    plan = plan_write(incoming("Render", MAR), [render], NOW, id_factory())
    assert plan.outcome is Outcome.RESTATED and plan.version_id == "r1"


def test_an_end_told_with_the_value_must_come_after_its_start_and_belong_to_a_fact() -> None:
    start = datetime(2026, 12, 14, tzinfo=UTC)
    check_end(None, start, Kind.FACT)
    check_end(start + timedelta(days=7), start, Kind.FACT)
    with pytest.raises(InvalidTemporalRange):
        check_end(start, start, Kind.FACT)
    with pytest.raises(InvalidInput):
        check_end(start + timedelta(days=1), start, Kind.EVENT)
