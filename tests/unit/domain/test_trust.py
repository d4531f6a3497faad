"""Trust tiers (DESIGN.md §4): from the writer, never from the text; the lower tier wins."""

from __future__ import annotations

import pytest

from twoclocks.domain.model import Tier
from twoclocks.domain.trust import (
    CHANNEL_CEILING,
    WRITER_CEILING,
    Channel,
    Writer,
    decide_tier,
    effective_tier,
    lower,
    shown_to_model,
    value_in_evidence,
)

ASSERTED, OBSERVED, INFERRED = Tier.ASSERTED, Tier.OBSERVED, Tier.INFERRED


def test_writer_ceilings() -> None:
    assert WRITER_CEILING == {
        Writer.PERSON: ASSERTED,
        Writer.AGENT: ASSERTED,
        Writer.TOOL_RULE: OBSERVED,
        Writer.EXTRACTOR: INFERRED,
    }
    # a claim above the writer's ceiling is cut to the ceiling
    assert effective_tier(ASSERTED, Writer.TOOL_RULE, Channel.HOOK, "abc123", None) is OBSERVED
    assert effective_tier(OBSERVED, Writer.EXTRACTOR, Channel.HOOK, "Render", None) is INFERRED
    # a claim at or under the ceiling stands
    assert effective_tier(ASSERTED, Writer.PERSON, Channel.CLI, "Render", None) is ASSERTED
    assert effective_tier(OBSERVED, Writer.TOOL_RULE, Channel.HOOK, "abc123", None) is OBSERVED


def test_lower_of_source_and_channel_wins() -> None:
    assert CHANNEL_CEILING[Channel.HOOK] is OBSERVED
    # the CLI in an agent's shell is the agent (writer_of), not a lower channel ceiling
    assert CHANNEL_CEILING[Channel.SHELL] is ASSERTED
    # the person's own words, arriving through a hook, are at most observed
    assert effective_tier(ASSERTED, Writer.PERSON, Channel.HOOK, "Render", "Render") is OBSERVED
    # a tool rule over the CLI is still at most observed (the source is lower)
    assert effective_tier(ASSERTED, Writer.TOOL_RULE, Channel.CLI, "abc123", None) is OBSERVED
    # and the claim itself can be the lowest
    assert effective_tier(INFERRED, Writer.PERSON, Channel.CLI, "Render", "Render") is INFERRED


@pytest.mark.parametrize(
    ("a", "b", "low"),
    [
        (ASSERTED, OBSERVED, OBSERVED),
        (OBSERVED, ASSERTED, OBSERVED),
        (OBSERVED, INFERRED, INFERRED),
        (INFERRED, ASSERTED, INFERRED),
        (ASSERTED, ASSERTED, ASSERTED),
    ],
)
def test_lower_is_the_less_trusted_tier(a: Tier, b: Tier, low: Tier) -> None:
    assert lower(a, b) is low


def test_asserted_claim_whose_value_is_not_in_the_evidence_drops_to_inferred() -> None:
    said = "we use Buildkite now, not CircleCI"
    assert effective_tier(ASSERTED, Writer.AGENT, Channel.MCP, "Buildkite", said) is ASSERTED
    assert effective_tier(ASSERTED, Writer.AGENT, Channel.MCP, "GitHub Actions", said) is INFERRED
    assert effective_tier(ASSERTED, Writer.AGENT, Channel.HTTP, "Buildkite", None) is INFERRED
    assert effective_tier(ASSERTED, Writer.AGENT, Channel.HTTP, "Buildkite", "") is INFERRED


def test_evidence_match_ignores_case_punctuation_and_spacing() -> None:
    assert value_in_evidence("Render, Oregon", "deploy is on render   oregon!")
    assert value_in_evidence("ci_provider", "the CI_PROVIDER is set")


def test_evidence_match_is_on_whole_words() -> None:
    # "5 attempts" is not what the person said when they said "15 attempts"
    assert not value_in_evidence("5 attempts", "it took 15 attempts")
    assert not value_in_evidence("main", "we maintain it ourselves")
    assert (
        effective_tier(ASSERTED, Writer.AGENT, Channel.MCP, "5 attempts", "it took 15 attempts")
        is INFERRED
    )
    assert value_in_evidence("15 attempts", "it took 15 attempts")


def test_a_write_that_declares_no_tier_gets_its_writers_default() -> None:
    assert effective_tier(None, Writer.PERSON, Channel.CLI, "Render", None) is ASSERTED
    assert effective_tier(None, Writer.TOOL_RULE, Channel.HOOK, "abc123", None) is OBSERVED
    assert effective_tier(None, Writer.AGENT, Channel.MCP, "Render", None) is INFERRED
    assert effective_tier(None, Writer.AGENT, Channel.HTTP, "Render", "Render") is INFERRED
    assert effective_tier(None, Writer.EXTRACTOR, Channel.HOOK, "Render", "Render") is INFERRED


def test_an_extracted_value_is_asserted_only_as_a_verbatim_span_of_the_persons_message() -> None:
    person = "our commits start with the Jira key, like PAY-1432: summary"
    assert (
        effective_tier(ASSERTED, Writer.EXTRACTOR, Channel.TURN, "the Jira key", person) is ASSERTED
    )
    assert effective_tier(ASSERTED, Writer.EXTRACTOR, Channel.TURN, "Jira ticket id", person) is (
        INFERRED
    )
    assert effective_tier(None, Writer.EXTRACTOR, Channel.TURN, "the Jira key", person) is INFERRED
    # the answer is not the person's words, and a hook can never carry an asserted fact
    assert effective_tier(ASSERTED, Writer.EXTRACTOR, Channel.TURN, "Render", None) is INFERRED
    assert effective_tier(ASSERTED, Writer.EXTRACTOR, Channel.HOOK, "Render", "Render") is OBSERVED


def test_the_default_tier_is_capped_like_a_claim() -> None:
    # The person typing through a hook is capped by the hook's ceiling.
    assert effective_tier(None, Writer.PERSON, Channel.HOOK, "Render", None) is OBSERVED


def test_a_lowered_tier_says_why_and_a_kept_one_says_nothing() -> None:
    kept = decide_tier(ASSERTED, Writer.PERSON, Channel.CLI, "Render", None)
    assert kept.tier is ASSERTED and kept.lowered is None
    no_words = decide_tier(ASSERTED, Writer.AGENT, Channel.HTTP, "Render", "move us to Fly")
    assert no_words.tier is INFERRED
    assert no_words.lowered is not None and "evidence" in no_words.lowered
    capped = decide_tier(ASSERTED, Writer.TOOL_RULE, Channel.HOOK, "abc123", None)
    assert capped.tier is OBSERVED
    assert capped.lowered is not None and "at most observed" in capped.lowered
    defaulted = decide_tier(None, Writer.AGENT, Channel.MCP, "Render", None)
    assert defaulted.tier is INFERRED and defaulted.lowered is None


def test_a_row_with_no_tier_is_never_shown_to_a_model() -> None:
    assert shown_to_model(None) is False
    assert all(shown_to_model(tier) for tier in Tier)
