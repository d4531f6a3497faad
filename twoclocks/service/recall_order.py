"""The final order of recall's candidates: cosines plus what each signal adds (issue 11).

The legs' fused rank keeps the walks and the keyword leg a voice; the fact's cosine to the
question and the signals of ``service.relevance`` decide among close candidates. Every
share below was measured on the tune part of tests/data/recall_questions.jsonl
(bench/quality.py, bench/recall_signals.py); re-measure before changing one.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass

from twoclocks.service.relevance import Relevance

SLOT_SHARE = 0.4
"""In the final score, how much the question-to-slot-name cosine adds to the fact's cosine.

0.3 until 2026-12-05, fitted on set A's tune part; refitted with every share of this
module on the tune parts of sets A, B and D together (233 single-fact questions,
coordinate ascent over 0-0.7, bench/recall_signals.py captures): 0.4, and no kin share
for a question that is not a yes/no one. Pooled tune hit@1 0.893 -> 0.901; held-out,
measured once after, 0.796 -> 0.805 (docs/benchmarks.md)."""

FUSION_SHARE = 0.1
"""In the final score, how much the legs' fused rank (scaled so the best is 1) adds.

The final order is the fact's cosine to the question, plus ``SLOT_SHARE`` times its slot
cosine, plus ``FUSION_SHARE`` times its share of the best fused rank score. Ranks alone
threw the cosines away: the fusion of weighted ranks (held-out hit@1 0.621) lost to the
vector leg alone (0.694). Both shares were the best of 24 pairs on the tune questions of
tests/data/recall_questions.jsonl (hit@1 0.699, MRR 0.767; held-out 0.726, 0.782). The
fused rank keeps the walks and the keyword leg a voice (the workspace's own facts, an
entity named exactly); without the vector leg the fused rank alone orders the facts."""

NAMED_SHARE = 0.1
"""What a fact adds when the store finds its subject's whole name in the question
("what cache does billing-api-17 use?"): the cosine of a fact of another, similar service
can otherwise win. Set for the synthetic recall workload's many look-alike services
(bench/recall.py); with ``SUBJECT_SHARE`` beside it, 0.1 keeps the named one ahead there
(0.2 before it came)."""

SUBJECT_SHARE = 0.2
"""What a fact adds, times ``Relevance.subject``, when the question is about its subject
under another name: "the billing service" for ``billing-api``, "I" for ``user``, "we"
for ``team`` (domain.named_subjects). Tune hit@1 0.711 -> 0.771 with ``KIND_SHARE``
(tests/data/recall_questions.jsonl, bench/recall_signals.py; 0.15-0.3 all score 0.759-0.771)."""

KIND_SHARE = 0.3
"""What a fact adds when its value is the kind the question's form asks for (a person for
"who owns ingest?", domain.answer_kinds). Best of 0.1-0.3 on the tune questions: among one
service's facts, the owner beats the port however close their words."""

WORKSPACE_SHARE = 0.1
"""What a fact of the session's own workspace (reached by the workspace walk) adds to its
final score: a row there beats an equally close row elsewhere (the same CI product for
another service). The quality set asks without a working directory, so this is set by
the rule (test_recall_walks_from_the_workspace_entity), not fitted."""

CATEGORY_SHARE = 0.2
"""What a fact adds, times its value category's gloss cosine to the question
(``Relevance.category``): "who handles card charges?" against "payment processor: card
payments, charges, ..." for ``payment_processor = Stripe``. Tune single hit@1 0.771 ->
0.795 alone; 0.15-0.25 score the same with ``KIN_SHARE``, 0.5 falls to 0.72."""

CHECK_KIN_SHARE = 0.3
"""What a fact adds when a question a yes or a no answers names another thing of its
value's kind ("is the docs site still on Jekyll?" for ``static_site_generator =
Docusaurus 3``, "are we an AWS shop?", ``domain.answer_kinds.names_values_to_check``): the thing
it names is the one to check, so the slot holding that kind of thing answers it. Tune
parts (bench/quality.py), 0.3 for every question: A unchanged, B 0.893 -> 0.920, D 0.907
-> 0.893 (lost "which AWS region is production in?", no yes/no question); so for yes/no
questions only. Other questions had 0.1 until the refit of ``SLOT_SHARE`` found none
better (the product named in "which AWS region is production in?" is not its answer).
A choice asked without a verb ("poetry or something else for telemetry-ingest?") counts
as a yes/no question since 2026-12-07: set I tune 0.893 -> 0.905, others unchanged."""

FORMER_SHARE = 0.2
"""What a fact adds when the question names a value its slot held before ("do we still
use Black?" for ``python_formatter = Ruff format``): the current value answers it."""

SIDE_SHARE = 0.1
"""What a fact adds, times ``Relevance.side``, when its slot is the side of a pair of
opposites the question asks for (``domain.question_sides``): "how many billing pods must
always be up?" of ``min_replicas`` against ``max_replicas``; the other side loses as much."""


@dataclass(frozen=True)
class Shares:
    """What each signal adds to a fact's cosine in the final order; the defaults are the
    service's. A bench that refits them (bench/recall_fit.py) scores through ``by_score``
    with its own, so it ranks exactly as the service would."""

    slot: float = SLOT_SHARE
    fusion: float = FUSION_SHARE
    kind: float = KIND_SHARE
    subject: float = SUBJECT_SHARE
    category: float = CATEGORY_SHARE
    former: float = FORMER_SHARE
    workspace: float = WORKSPACE_SHARE
    named: float = NAMED_SHARE
    side: float = SIDE_SHARE


SERVICE_SHARES = Shares()


def by_score(
    fused: list[tuple[str, float]],
    relevance: Mapping[str, Relevance],
    cosine: Mapping[str, float],
    own_workspace: Set[str],
    named: Set[str] = frozenset(),
    kin_share: float = 0.0,
    shares: Shares = SERVICE_SHARES,
) -> list[tuple[str, float]]:
    """The fused facts ordered by cosine, the relevance signals and fused rank (``FUSION_SHARE``).

    ``cosine`` holds each fact's cosine to the question as ``recall_legs.exact_cosines``
    reads it; a fact without an embedding scores the lowest cosine there. ``kin_share`` is
    ``CHECK_KIN_SHARE`` for a question naming values to check (yes/no, or a choice),
    nothing otherwise.
    """
    if not fused:
        return fused
    unreached = min(cosine.values())
    best_fused = max(rank_score for _, rank_score in fused) or 1.0
    scored = [
        (
            vid,
            cosine.get(vid, unreached)
            + shares.slot * relevance[vid].slot
            + shares.fusion * rank_score / best_fused
            + shares.kind * relevance[vid].kind
            + shares.subject * relevance[vid].subject
            + shares.category * relevance[vid].category
            + kin_share * relevance[vid].kin
            + shares.former * relevance[vid].former
            + shares.side * relevance[vid].side
            + (shares.workspace if vid in own_workspace else 0.0)
            + (shares.named if vid in named else 0.0),
        )
        for vid, rank_score in fused
    ]
    return sorted(scored, key=lambda pair: pair[1], reverse=True)
