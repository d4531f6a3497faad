"""The fact and its two clocks (DESIGN.md §2): validated value types."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from pydantic import ValidationError

from twoclocks.domain.errors import InvalidInput, NaiveDatetime, TwoclocksError
from twoclocks.domain.model import (
    MAX_TEXT,
    FactVersion,
    Incoming,
    require_aware,
    require_text,
)

AWARE = datetime(2026, 2, 2, 9, 0, tzinfo=UTC)
NAIVE = datetime(2026, 2, 2, 9, 0)


def typed_error(build: Callable[[], object]) -> TwoclocksError:
    """The twoclocks error a model refuses input with, raised bare or inside pydantic's."""
    try:
        build()
    except ValidationError as wrapped:
        (error,) = wrapped.errors()
        cause = error.get("ctx", {}).get("error")
        assert isinstance(cause, TwoclocksError), error
        return cause
    except TwoclocksError as error:
        return error
    raise AssertionError("the input was accepted")


def incoming(**fields: Any) -> Incoming:
    base: dict[str, Any] = {
        "subject": "production",
        "predicate": "deployed_to",
        "object": "Render",
        "valid_at": AWARE,
    }
    base.update(fields)
    return Incoming(**base)


def version(**fields: Any) -> FactVersion:
    base: dict[str, Any] = {
        "version_id": "v1",
        "fact_id": "f1",
        "subject": "production",
        "predicate": "deployed_to",
        "object": "Render",
        "valid_at": AWARE,
        "created_at": AWARE,
    }
    base.update(fields)
    return FactVersion(**base)


def test_require_aware_refuses_a_naive_time_with_naive_datetime() -> None:
    with pytest.raises(NaiveDatetime) as info:
        require_aware(NAIVE, "valid_at")
    assert "valid_at" in info.value.message
    assert "offset" in info.value.message
    assert info.value.http_status == 422
    assert require_aware(None) is None
    assert require_aware(AWARE) is AWARE


@pytest.mark.parametrize("field", ["valid_at", "invalid_at"])
def test_incoming_refuses_naive_datetimes(field: str) -> None:
    assert isinstance(typed_error(lambda: incoming(**{field: NAIVE})), NaiveDatetime)


@pytest.mark.parametrize("field", ["valid_at", "invalid_at", "created_at", "expired_at"])
def test_version_refuses_naive_datetimes(field: str) -> None:
    assert isinstance(typed_error(lambda: version(**{field: NAIVE})), NaiveDatetime)


def test_any_utc_offset_is_accepted() -> None:
    istanbul = timezone(timedelta(hours=3))
    assert incoming(valid_at=datetime(2026, 2, 2, 12, 0, tzinfo=istanbul)).valid_at == AWARE


@pytest.mark.parametrize("field", ["subject", "predicate", "object"])
def test_text_over_500_characters_is_refused_with_the_limit(field: str) -> None:
    error = typed_error(lambda: incoming(**{field: "x" * (MAX_TEXT + 1)}))
    assert isinstance(error, InvalidInput)
    assert MAX_TEXT == 500
    assert "501" in error.message and "500" in error.message
    assert incoming(**{field: "x" * MAX_TEXT})  # exactly the limit is fine


@pytest.mark.parametrize("field", ["subject", "predicate", "object"])
@pytest.mark.parametrize("empty", ["", "   ", "\n\t"])
def test_empty_text_is_refused(field: str, empty: str) -> None:
    error = typed_error(lambda: incoming(**{field: empty}))
    assert isinstance(error, InvalidInput)
    assert "empty" in error.message


def test_text_is_stripped() -> None:
    assert require_text("  Render, Oregon \n", "object") == "Render, Oregon"
    assert incoming(object="  Render ").object == "Render"


def test_a_version_is_immutable() -> None:
    row = version()
    with pytest.raises(ValidationError):
        row.object = "Fly"  # type: ignore[misc]
    assert row.object == "Render"


def test_slot_is_subject_and_predicate() -> None:
    assert version().slot == ("production", "deployed_to")
    assert version().believed
    assert not version(expired_at=AWARE).believed


def test_text_refuses_control_characters_and_lone_surrogates() -> None:
    from twoclocks.domain.model import require_printable

    assert require_printable("line one\n\tline two 🚀 ü", "object") == "line one\n\tline two 🚀 ü"
    for bad, shown in (("a\x00b", "control character U+0000"), ("x\ud800y", "surrogate U+D800")):
        with pytest.raises(InvalidInput) as refused:
            require_printable(bad, "object")
        message = refused.value.message
        assert message.startswith("object contains") and shown in message
