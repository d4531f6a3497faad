"""The final recall order (issue 11): the question's cosine to each fact, its slot cosine,
the legs' fused rank and the session's workspace, combined as ``by_score`` does."""

from __future__ import annotations

import pytest

from twoclocks.service.recall_order import (
    CATEGORY_SHARE,
    CHECK_KIN_SHARE,
    FORMER_SHARE,
    FUSION_SHARE,
    KIND_SHARE,
    NAMED_SHARE,
    SUBJECT_SHARE,
    WORKSPACE_SHARE,
    Shares,
    by_score,
)
from twoclocks.service.relevance import Relevance


def signals(**slot: float) -> dict[str, Relevance]:
    return {vid: Relevance(lexical=0.0, slot=s, vector=None) for vid, s in slot.items()}


def order(scored: list[tuple[str, float]]) -> list[str]:
    return [vid for vid, _ in scored]


def test_the_fact_closest_to_the_question_leads_even_when_the_ranks_favour_another() -> None:
    fused = [("walked", 0.05), ("close", 0.02)]
    got = by_score(fused, signals(walked=0.3, close=0.3), {"walked": 0.3, "close": 0.6}, set())
    assert order(got) == ["close", "walked"]


def test_the_slot_the_question_names_breaks_a_near_tie_of_cosines() -> None:
    fused = [("other", 0.03), ("asked", 0.03)]
    got = by_score(fused, signals(other=0.1, asked=0.7), {"other": 0.5, "asked": 0.48}, set())
    assert order(got) == ["asked", "other"]


def test_a_fact_the_vector_leg_missed_scores_as_its_least_close_find() -> None:
    fused = [("found", 0.02), ("missed", 0.03)]
    got = dict(by_score(fused, signals(found=0.0, missed=0.0), {"found": 0.4}, set()))
    assert got["missed"] == pytest.approx(0.4 + FUSION_SHARE)
    assert got["found"] == pytest.approx(0.4 + FUSION_SHARE * 0.02 / 0.03)


def test_a_fact_of_the_sessions_workspace_beats_an_equally_close_one_elsewhere() -> None:
    fused = [("elsewhere", 0.03), ("ours", 0.03)]
    cos = {"elsewhere": 0.5, "ours": 0.5 - WORKSPACE_SHARE / 2}
    got = by_score(fused, signals(elsewhere=0.2, ours=0.2), cos, {"ours"})
    assert order(got) == ["ours", "elsewhere"]


def test_a_fact_of_the_entity_the_question_names_beats_a_look_alike_of_another() -> None:
    fused = [("look_alike", 0.03), ("named", 0.03)]
    cos = {"look_alike": 0.6, "named": 0.6 - NAMED_SHARE / 2}
    got = by_score(fused, signals(look_alike=0.2, named=0.2), cos, set(), {"named"})
    assert order(got) == ["named", "look_alike"]


@pytest.mark.parametrize(
    ("signal", "share"),
    [
        # "who owns ingest?": among one service's facts the owner beats the port.
        ("kind", KIND_SHARE),
        # "the billing service" is about billing-api, though it names it otherwise.
        ("subject", SUBJECT_SHARE),
        # "do we still use Black?": the formatter slot, now Ruff, answers.
        ("former", FORMER_SHARE),
        # "who handles card charges?" is close to the payment processor's gloss.
        ("category", CATEGORY_SHARE),
    ],
)
def test_a_signal_the_question_gives_beats_a_cosine_lead_of_half_its_share(
    signal: str, share: float
) -> None:
    fused = [("closer", 0.03), ("answers", 0.03)]
    rel = {
        "closer": Relevance(lexical=0.0, slot=0.2, vector=None),
        "answers": Relevance(lexical=0.0, slot=0.2, vector=None, **{signal: 1.0}),
    }
    got = by_score(fused, rel, {"closer": 0.6, "answers": 0.6 - share / 2}, set())
    assert order(got) == ["answers", "closer"]


def test_a_yes_or_no_question_lets_the_kind_of_thing_it_names_weigh_more() -> None:
    # "are we an AWS shop?": the cloud slot (GCP) answers it, though "AWS region" facts are
    # closer in words; a plain question ("which AWS region is production in?") asks the
    # region, and the product it names adds nothing.
    fused = [("region", 0.03), ("cloud", 0.03)]
    cos = {"region": 0.5, "cloud": 0.5 - CHECK_KIN_SHARE / 2}
    rel = {
        "region": Relevance(lexical=0.0, slot=0.0, vector=None),
        "cloud": Relevance(lexical=0.0, slot=0.0, vector=None, kin=1.0),
    }
    assert order(by_score(fused, rel, cos, set())) == ["region", "cloud"]
    yes_no = by_score(fused, rel, cos, set(), kin_share=CHECK_KIN_SHARE)
    assert order(yes_no) == ["cloud", "region"]


def test_shares_given_to_by_score_replace_the_services() -> None:
    # bench/recall_fit.py refits through by_score itself, so what it measures is the order
    # the service would give with those shares.
    fused = [("other", 0.03), ("asked", 0.03)]
    rel = signals(other=0.1, asked=0.7)
    cos = {"other": 0.5, "asked": 0.48}
    assert order(by_score(fused, rel, cos, set())) == ["asked", "other"]
    assert order(by_score(fused, rel, cos, set(), shares=Shares(slot=0.0))) == ["other", "asked"]
