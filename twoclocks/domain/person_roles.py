"""Slot names for people's roles: "product_owner" is not "owner", "reviewer" is "approver".

One team has several leads, owners and managers, often different people; a name that
adds a word of its own before a role names another role, while the main one or the one
now ("primary_owner", "current_manager") is the same. Pure: names in, a verdict out.
"""

from __future__ import annotations

from functools import lru_cache

from twoclocks.domain.name_core import core_words, subject_words
from twoclocks.domain.slot_names import canonical_tokens

# The last word of a name for a person's role. "product_owner" is not "owner", nor
# "design_lead" "lead": one team has several, often different people. "manager" is left
# out: as often a tool ("password_manager", "secret manager", "package_manager").
PERSON_ROLES = frozenset(
    {
        "owner", "lead", "engineer", "contact", "reviewer", "designer", "architect",
        "maintainer", "champion", "sponsor", "approver", "director", "officer", "steward",
    }
)  # fmt: skip

# Words before a role that still name that role: the main one, the one now.
SAME_ROLE = frozenset({"primary", "main", "default", "current", "overall", "official"})

# Roles that name a person only when the values are people: "manager" is as often a tool.
_ROLES_OF_PEOPLE = PERSON_ROLES | {"manager"}

# Role heads that name one role: who answers for a thing, who signs a change off.
_ONE_ROLE = (
    frozenset({"owner", "maintainer", "steward", "champion"}),
    frozenset({"reviewer", "approver"}),
)


def another_role(
    longer: list[str],
    shorter: list[str],
    own: frozenset[str],
    roles: frozenset[str] = PERSON_ROLES,
) -> bool:
    """True when ``longer`` is the person role ``shorter`` with a word of its own before it.

    ``own``: the subject's own words, which name no other role ("data_eng_lead" of
    data-engineering is its "lead").

    >>> another_role(["product", "owner"], ["owner"], frozenset())
    True
    >>> another_role(["current", "owner"], ["owner"], frozenset())
    False
    """
    if not shorter or len(longer) <= len(shorter) or shorter[-1] not in roles:
        return False
    if longer[-1] != shorter[-1] or not set(shorter) <= set(longer):
        return False
    added = set(longer) - set(shorter)
    return bool(added - SAME_ROLE - own)


@lru_cache(maxsize=4096)
def another_role_of_people(a: str, b: str, subject: str = "") -> bool:
    """True when one name is the other's role with a word of its own, for two people.

    Asked only when both slots hold people: then "manager" is a person's role too, and
    "product_manager" Sam is not the team's "manager" Dana.

    >>> another_role_of_people("manager", "product_manager")
    True
    >>> another_role_of_people("manager", "current_manager")
    False

    Two roles by their heads are two roles too ("product_manager" / "product_designer"),
    unless the heads are names of one role ("owner" / "maintainer").

    >>> another_role_of_people("product_manager", "product_designer")
    True
    >>> another_role_of_people("service_owner", "maintainer")
    False
    """
    own = subject_words(subject)
    core_a, core_b = core_words(canonical_tokens(a)), core_words(canonical_tokens(b))
    if core_a and core_b and _two_role_heads(core_a[-1], core_b[-1]):
        return True
    return another_role(core_a, core_b, own, _ROLES_OF_PEOPLE) or another_role(
        core_b, core_a, own, _ROLES_OF_PEOPLE
    )


def _two_role_heads(a: str, b: str) -> bool:
    """Whether two last words are two different roles of people."""
    if a == b or a not in _ROLES_OF_PEOPLE or b not in _ROLES_OF_PEOPLE:
        return False
    return not any(a in group and b in group for group in _ONE_ROLE)
