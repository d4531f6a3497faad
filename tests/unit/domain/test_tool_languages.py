"""Which language a tool serves (twoclocks/domain/tool_languages.py)."""

from __future__ import annotations

import pytest

from twoclocks.domain.tool_languages import (
    for_another_language,
    language_of_name,
    languages_of_value,
    narrowed_to_its_language,
)


@pytest.mark.parametrize(
    ("name", "language"),
    [
        ("python_formatter", "python"),
        ("TSLinter", "javascript"),
        ("node_package_manager", "javascript"),
        ("python3_path", "python"),
        ("golang-ci", "go"),
        ("formatter", None),
        ("python_to_go_port", None),  # two languages: neither is the name's
    ],
)
def test_language_of_name(name: str, language: str | None) -> None:
    assert language_of_name(name) == language


def test_languages_of_value_reads_past_versions_and_notes() -> None:
    assert languages_of_value("Black 24.3") == {"python"}
    assert languages_of_value("pnpm (workspaces)") == {"javascript"}
    assert languages_of_value("Bazel") == frozenset()
    assert languages_of_value("Priya Raman") == frozenset()


def test_slot_drift_a_language_qualifier_keeps_another_languages_tool_apart() -> None:
    assert for_another_language("python_formatter", ["Black"], "formatter", ["Prettier"])
    assert for_another_language("formatter", ["Black"], "js_formatter", ["Prettier"])
    assert for_another_language("python_linter", ["Ruff"], "go_linter", ["staticcheck"])
    # The values say nothing against it: the names decide, as before.
    assert not for_another_language("python_formatter", ["Black"], "formatter", ["Black"])
    assert not for_another_language("python_formatter", ["Ruff"], "formatter", ["Black"])
    assert not for_another_language("python_version", ["3.12"], "version", ["2.4.1"])
    assert not for_another_language("python_formatter", ["Black"], "formatter", [])
    assert not for_another_language("js_framework", ["Vue 3"], "javascript_framework", ["React"])
    # One unknown value among the held ones is enough to leave it to the names.
    assert not for_another_language("python_linter", ["Ruff"], "linter", ["ESLint", "our-lint"])


def test_slot_drift_a_name_narrowed_to_its_values_language_is_the_same_slot() -> None:
    assert narrowed_to_its_language("typescript_test_runner", ["Vitest"], "test_runner", ["Jest"])
    assert narrowed_to_its_language("formatter", ["Ruff"], "python_formatter", ["Black"])
    # Another tool's language, other words besides the language, or no values: not this rule.
    assert not narrowed_to_its_language("python_formatter", ["Black"], "formatter", ["Prettier"])
    assert not narrowed_to_its_language(
        "python_formatter_config", ["pyproject.toml"], "formatter", ["Black"]
    )
    assert not narrowed_to_its_language("python_formatter", ["Black"], "formatter", [])
    assert not narrowed_to_its_language("python_formatter", ["Ruff"], "js_formatter", ["Prettier"])
