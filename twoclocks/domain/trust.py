"""Trust tiers: who could witness a fact, decided from the writer, never from the text.

* ``asserted``: the person's own words; ``observed``: a rule read it from a tool
  result; ``inferred``: a model's extraction or guess.
* Each writer (the source, e.g. the turn extractor) and each channel it came
  through (e.g. a hook) has a ceiling; the lowest of the claim and both ceilings wins.
* An ``asserted`` claim whose value is not in the person's own message drops to
  ``inferred``.
* A write that declares no tier gets its writer's default (the person: asserted;
  a tool rule: observed; an agent or a model: inferred), capped the same way, and
  the answer says the tier stored and why it was lowered. Only imported rows that
  never had a tier keep none, and a row with no tier is never sent to a model.
"""

from __future__ import annotations

import re
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from twoclocks.domain.model import Tier

_RANK = {Tier.INFERRED: 0, Tier.OBSERVED: 1, Tier.ASSERTED: 2}


class Writer(StrEnum):
    """The source of a write, with its tier ceiling in WRITER_CEILING."""

    PERSON = "person"  # typed by the person: CLI, web UI
    AGENT = "agent"  # the agent's remember call (MCP tool or HTTP client)
    TOOL_RULE = "tool_rule"  # a deterministic rule over a tool event (commit, push, ...)
    EXTRACTOR = "extractor"  # the turn extractor model


class Channel(StrEnum):
    """The surface a write came through."""

    CLI = "cli"
    HTTP = "http"
    MCP = "mcp"
    HOOK = "hook"
    SHELL = "shell"  # the CLI run by a coding agent from its own shell (its Bash tool)
    TURN = "turn"  # a fact read from a finished turn, checked against the person's own text


class KeyRole(StrEnum):
    """What an API key may write as, fixed when the key is made (DESIGN.md §4)."""

    PERSON = "person"  # the CLI and the web screen: the person's own words
    AGENT = "agent"  # MCP and hooks: never more than the agent or a tool rule


def channel_named(declared: str | None) -> Channel:
    """The surface a client says it is (cli, mcp, hook, shell); anything else is plain HTTP.

    >>> channel_named("Hook"), channel_named("turn"), channel_named(None)
    (<Channel.HOOK: 'hook'>, <Channel.HTTP: 'http'>, <Channel.HTTP: 'http'>)
    """
    said = (declared or "").strip().lower()
    # TURN is the server's own channel for extracted facts: no client may claim it.
    known = {Channel.CLI.value, Channel.MCP.value, Channel.HOOK.value, Channel.SHELL.value}
    return Channel(said) if said in known else Channel.HTTP


def writer_of(role: KeyRole, channel: Channel) -> Writer:
    """Who writes: the key's role, lowered (never raised) by the channel a call came through.

    Only a person key writes as the person, and only from the CLI, the web screen or a
    plain HTTP call; through MCP, or the CLI in a shell an agent started, the model is
    talking; through a hook a tool rule is.

    >>> writer_of(KeyRole.AGENT, Channel.CLI), writer_of(KeyRole.PERSON, Channel.SHELL)
    (<Writer.AGENT: 'agent'>, <Writer.AGENT: 'agent'>)
    >>> writer_of(KeyRole.PERSON, Channel.HTTP), writer_of(KeyRole.PERSON, Channel.HOOK)
    (<Writer.PERSON: 'person'>, <Writer.TOOL_RULE: 'tool_rule'>)
    """
    if channel is Channel.HOOK:
        return Writer.TOOL_RULE
    if channel in (Channel.MCP, Channel.SHELL) or role is not KeyRole.PERSON:
        return Writer.AGENT
    return Writer.PERSON


WRITER_CEILING: dict[Writer, Tier] = {
    Writer.PERSON: Tier.ASSERTED,
    Writer.AGENT: Tier.ASSERTED,
    Writer.TOOL_RULE: Tier.OBSERVED,
    Writer.EXTRACTOR: Tier.INFERRED,
}

ASSERTED_ON_EVIDENCE: frozenset[Writer] = frozenset({Writer.EXTRACTOR})
"""Writers whose asserted claim stands only when the value is a verbatim span of the
person's own message (a model quoting the person): over their ceiling, never observed."""

CHANNEL_CEILING: dict[Channel, Tier] = {
    Channel.CLI: Tier.ASSERTED,
    Channel.HTTP: Tier.ASSERTED,
    Channel.MCP: Tier.ASSERTED,
    Channel.HOOK: Tier.OBSERVED,
    Channel.SHELL: Tier.ASSERTED,
    Channel.TURN: Tier.ASSERTED,
}


WRITER_DEFAULT: dict[Writer, Tier] = {
    Writer.PERSON: Tier.ASSERTED,
    Writer.AGENT: Tier.INFERRED,
    Writer.TOOL_RULE: Tier.OBSERVED,
    Writer.EXTRACTOR: Tier.INFERRED,
}
"""The tier a write gets when it declares none."""


class TierDecision(BaseModel):
    """The tier a write is stored with, and, when it is below the claim, why."""

    model_config = ConfigDict(frozen=True)

    tier: Tier
    claimed: Tier | None
    lowered: str | None = None


def lower(a: Tier, b: Tier) -> Tier:
    """The less trusted of two tiers."""
    return a if _RANK[a] <= _RANK[b] else b


def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def value_in_evidence(value: str, evidence: str | None) -> bool:
    """True when the value appears in the person's message (case, punctuation and spacing aside).

    Whole words only: "5 attempts" is not in "15 attempts", nor "main" in "maintain".
    """
    if not evidence:
        return False
    needle = _words(value)
    return bool(needle) and f" {needle} " in f" {_words(evidence)} "


def decide_tier(
    claimed: Tier | None,
    writer: Writer,
    channel: Channel,
    value: str,
    evidence: str | None,
) -> TierDecision:
    """The tier a write is stored with, and why it is lower than claimed, if it is.

    >>> decide_tier(None, Writer.AGENT, Channel.HTTP, "Render", None).tier
    <Tier.INFERRED: 'inferred'>
    >>> decide_tier(Tier.ASSERTED, Writer.AGENT, Channel.MCP, "Render", "use Fly").lowered
    "asserted needs the value in the person's own words (evidence); stored as inferred"
    """
    asked = WRITER_DEFAULT[writer] if claimed is None else claimed
    ceiling = WRITER_CEILING[writer]
    if (
        writer in ASSERTED_ON_EVIDENCE
        and asked is Tier.ASSERTED
        and value_in_evidence(value, evidence)
    ):
        ceiling = Tier.ASSERTED
    tier = lower(lower(asked, ceiling), CHANNEL_CEILING[channel])
    why: str | None = None
    if tier is not asked:
        why = f"{writer.value} writing through {channel.value} may claim at most {tier.value}"
    if (
        tier is Tier.ASSERTED
        and writer is not Writer.PERSON
        and not value_in_evidence(value, evidence)
    ):
        tier = Tier.INFERRED
        why = "asserted needs the value in the person's own words (evidence); stored as inferred"
    return TierDecision(tier=tier, claimed=claimed, lowered=why)


def effective_tier(
    claimed: Tier | None,
    writer: Writer,
    channel: Channel,
    value: str,
    evidence: str | None,
) -> Tier:
    """The tier a write is stored with (see ``decide_tier``).

    >>> effective_tier(Tier.ASSERTED, Writer.AGENT, Channel.MCP, "Buildkite", "use Buildkite")
    <Tier.ASSERTED: 'asserted'>
    >>> effective_tier(Tier.ASSERTED, Writer.AGENT, Channel.MCP, "Buildkite", "switch CI please")
    <Tier.INFERRED: 'inferred'>
    >>> effective_tier(Tier.ASSERTED, Writer.TOOL_RULE, Channel.HOOK, "abc123", None)
    <Tier.OBSERVED: 'observed'>
    >>> effective_tier(None, Writer.PERSON, Channel.CLI, "x", None)
    <Tier.ASSERTED: 'asserted'>
    """
    return decide_tier(claimed, writer, channel, value, evidence).tier


def shown_to_model(tier: Tier | None) -> bool:
    """A row with no tier is never sent to a model."""
    return tier is not None
