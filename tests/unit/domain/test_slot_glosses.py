"""What common slot names ask, in words (``domain.slot_glosses``, issue 11 point 4)."""

from __future__ import annotations

import pytest

from twoclocks.domain.slot_glosses import SLOT_GLOSSES, slot_gloss
from twoclocks.domain.slot_names import canonical_tokens


@pytest.mark.parametrize("key", list(SLOT_GLOSSES))
def test_every_gloss_is_keyed_by_canonical_words_so_it_can_match(key: tuple[str, ...]) -> None:
    # A key word the lexicon rewrites ("db", "deploy") would never be in a name's tokens.
    assert [t for word in key for t in canonical_tokens(word)] == list(key)


def test_a_slot_gets_the_most_specific_gloss_whose_words_it_holds() -> None:
    assert slot_gloss("min_sdk_version") == SLOT_GLOSSES[("minimum", "sdk")]
    assert slot_gloss("deploy-target") == SLOT_GLOSSES[("deployment",)]
    assert slot_gloss("dlq") is None  # no gloss for a name whose words none holds
