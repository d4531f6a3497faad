"""How far a read reaches (issue 17): the pure rules of domain.scope."""

from __future__ import annotations

import pytest

from twoclocks.domain.errors import ConfigError
from twoclocks.domain.places import Workspace
from twoclocks.domain.scope import (
    IMPLICIT_SPACE,
    Scope,
    block_spaces,
    check_reads_from,
    here_first,
    keys_in_scope,
    readable_spaces,
)

WORK = Workspace(project="project:work", worktree="worktree:/w/api", space="work",
                 reads_from=("personal",))  # fmt: skip
REGISTRY = [
    ("worktree:/w/web", "work"),
    ("project:personal", "personal"),
    ("worktree:/c/portal", "client"),
    ("project:/code/x", IMPLICIT_SPACE),
]


def test_here_reads_only_this_workspace() -> None:
    assert keys_in_scope(WORK, REGISTRY, readable_spaces(WORK, Scope.HERE)) == WORK.keys


def test_wide_reads_its_space_and_the_spaces_it_reads_from_never_another() -> None:
    keys = keys_in_scope(WORK, REGISTRY, readable_spaces(WORK, Scope.WIDE))
    assert set(keys) == {*WORK.keys, "worktree:/w/web", "project:personal"}


def test_reads_from_is_one_way() -> None:
    personal = Workspace(project="project:personal", space="personal")
    keys = keys_in_scope(personal, REGISTRY, readable_spaces(personal, Scope.WIDE))
    assert "worktree:/w/web" not in keys and "worktree:/w/api" not in keys


def test_the_block_reads_the_spaces_it_reads_from_never_its_other_projects() -> None:
    keys = keys_in_scope(WORK, REGISTRY, block_spaces(WORK))
    assert set(keys) == {*WORK.keys, "project:personal"}


def test_a_key_written_from_two_spaces_is_readable_from_either() -> None:
    both = [("repo:github.com/acme/api", "work"), ("repo:github.com/acme/api", "client")]
    client = Workspace(project="project:client", space="client")
    for ws in (WORK, client):
        assert "repo:github.com/acme/api" in keys_in_scope(
            ws, both, readable_spaces(ws, Scope.WIDE)
        )


def test_a_read_with_no_working_directory_widens_to_nothing() -> None:
    assert keys_in_scope(Workspace(), REGISTRY, readable_spaces(Workspace(), Scope.WIDE)) == ()


def test_rows_from_elsewhere_rank_below_equally_good_rows_from_here() -> None:
    ranked = [("there", 0.0164), ("here", 0.0164), ("there-2", 0.0161)]
    out = here_first(ranked, {0: False, 1: True, 2: False})
    assert [row for row, _, _ in out] == ["here", "there", "there-2"]
    assert [elsewhere for _, _, elsewhere in out] == [False, True, True]


def test_a_clearly_better_row_from_elsewhere_still_ranks_first() -> None:
    out = here_first([("there", 1 / 61), ("here", 1 / 70)], {0: False, 1: True})
    assert out[0][0] == "there"


def test_reads_from_an_unknown_space_names_the_space() -> None:
    with pytest.raises(ConfigError, match='space "work" reads_from unknown space "home"'):
        check_reads_from({"work": ["home"]}, ["work"])


def test_reads_from_round_a_loop_names_the_space() -> None:
    with pytest.raises(ConfigError, match='space "a" reads_from makes a loop: a -> b -> c -> a'):
        check_reads_from({"a": ["b"], "b": ["c"], "c": ["a"]}, ["a", "b", "c"])


def test_a_slots_value_here_ranks_above_its_values_elsewhere() -> None:
    # Asked from billing-api "what am I working on?": web-app's task for the same slot
    # is closer in words, and still follows the one written here.
    ranked = [("web-app task", 0.96), ("billing task", 0.84), ("docs port", 0.83)]
    slots = {0: ("user", "working_on"), 1: ("user", "working_on"), 2: ("docs", "port")}
    out = here_first(ranked, {0: False, 1: True, 2: False}, slots)
    assert [row for row, _, _ in out] == ["billing task", "web-app task", "docs port"]
    assert out[1][1] < out[0][1]


def test_another_subjects_slot_elsewhere_keeps_its_place() -> None:
    # search-api's port asked from billing-api: no slot here holds it, so it stays first.
    ranked = [("search-api port", 0.9), ("billing port", 0.5)]
    slots = {0: ("search-api", "port"), 1: ("billing-api", "port")}
    out = here_first(ranked, {0: False, 1: True}, slots)
    assert out[0][0] == "search-api port"
