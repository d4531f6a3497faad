"""Slot names for people's roles (domain/person_roles.py)."""

from __future__ import annotations

from twoclocks.domain.person_roles import another_role_of_people


def test_slot_drift_a_manager_of_people_with_a_word_before_it_is_another_role() -> None:
    # Asked only when both slots hold people: "password_manager" is a tool's slot.
    assert another_role_of_people("manager", "product_manager")
    assert another_role_of_people("delivery_manager", "manager")
    assert not another_role_of_people("manager", "current_manager")
    assert not another_role_of_people("manager", "platform_manager", subject="platform-team")


def test_two_people_under_two_role_heads_are_two_roles() -> None:
    # product_manager Lena and product_designer Marco: one name is not the other plus a word.
    assert another_role_of_people("product_manager", "product_designer")
    assert another_role_of_people("tech_lead", "engineering_manager")
    assert not another_role_of_people("service_owner", "maintainer")  # one role, two words
    assert not another_role_of_people("code_reviewer", "approver")
