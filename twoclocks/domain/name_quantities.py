"""Numbers, units and the two ends of a move in slot names: marks that settle a pair.

``slot_verdict`` reads them before it compares words: ``item_1`` / ``item_2`` are two
slots whatever else they share, ``moved_from`` / ``moved_to`` the two ends of one move,
``timeout_seconds`` / ``timeout_ms`` one quantity in two units. Pure.
"""

from __future__ import annotations

import re


def numbers_in(tokens: list[str]) -> list[str]:
    """Every number in a name's words, sorted as text."""
    # "item_1" / "item_2", "step2" / "step_3", "v1_url" / "v2_url": every number in a name
    # is part of what it names, so names whose numbers differ never share a slot.
    return sorted(re.findall(r"\d+", " ".join(tokens)))


# The two ends of a move: "moved_from" / "moved_to", "migrating_from" / "migrating_to".
# Both are particles slot_verdict's word comparison drops, so they are read first.
_FROM, _TOWARD = frozenset({"from"}), frozenset({"to", "into", "toward", "towards"})


def opposite_directions(a: list[str], b: list[str]) -> bool:
    """True when one name is where a move starts and the other where it ends."""
    set_a, set_b = set(a), set(b)
    return bool((set_a & _FROM and set_b & _TOWARD) or (set_b & _FROM and set_a & _TOWARD))


# Units a quantity's name ends with. One quantity is often written in two units
# ("timeout_seconds" / "timeout_ms", "max_memory_mb" / "max_memory_gb"): its value changed
# unit with the name, and the slot is one. Ambiguous short forms stay out ("us" is a region,
# "min" is read as "minimum", "b" is "plan_b").
_UNIT_FAMILIES = (
    frozenset(
        {
            "ns", "nanosecond", "microsecond", "ms", "msec", "millis", "millisecond", "s",
            "sec", "second", "minute", "h", "hr", "hour",
        }
    ),
    frozenset(
        {
            "kb", "kib", "kilobyte", "mb", "mib", "megabyte", "gb", "gib", "gigabyte", "tb",
            "tib", "terabyte", "byte",
        }
    ),
)  # fmt: skip


def same_but_for_units(a: list[str], b: list[str]) -> bool:
    """True when both names are one quantity, each ending in a unit of one dimension."""
    if len(a) < 2 or len(b) < 2 or a[:-1] != b[:-1]:
        return False
    return any(a[-1] in family and b[-1] in family for family in _UNIT_FAMILIES)
