"""Place (DESIGN.md §4): a ladder of four; the class sets the default, categories cap it."""

from __future__ import annotations

import pytest

from twoclocks.domain.model import FactClass, Place
from twoclocks.domain.places import LADDER, LOCAL_CATEGORIES, Workspace, narrower, resolve_place


@pytest.mark.parametrize(
    ("fact_class", "place"),
    [
        (FactClass.USER, Place.EVERYWHERE),
        (FactClass.RULE, Place.EVERYWHERE),
        (FactClass.PROJECT, Place.PROJECT),
        (FactClass.ENVIRONMENT, Place.PROJECT),
        (FactClass.DECISION, Place.WORKTREE),
        (FactClass.TASK, Place.WORKTREE),
    ],
)
def test_class_sets_the_default_place(fact_class: FactClass, place: Place) -> None:
    assert resolve_place(fact_class, None) is place


def test_no_class_counts_as_task_so_worktree() -> None:
    assert resolve_place(None, None) is Place.WORKTREE
    assert resolve_place(None, None) is resolve_place(FactClass.TASK, None)


def test_ladder_runs_widest_first() -> None:
    assert LADDER == (Place.EVERYWHERE, Place.REPO, Place.PROJECT, Place.WORKTREE)
    assert narrower(Place.EVERYWHERE, Place.PROJECT) is Place.PROJECT
    assert narrower(Place.WORKTREE, Place.PROJECT) is Place.WORKTREE
    assert narrower(Place.REPO, Place.REPO) is Place.REPO


@pytest.mark.parametrize(
    "category",
    ["env", "git", "cwd", "file", "sandbox", "branch", "path", "port", "process", "build", "test"],
)
def test_local_categories_never_go_wider_than_project(category: str) -> None:
    assert category in LOCAL_CATEGORIES
    assert resolve_place(FactClass.USER, category) is Place.PROJECT
    assert resolve_place(FactClass.RULE, category.upper()) is Place.PROJECT
    # a narrower default is kept: the cap only ever narrows
    assert resolve_place(FactClass.DECISION, category) is Place.WORKTREE


def test_other_categories_keep_the_class_default() -> None:
    assert resolve_place(FactClass.USER, "preference") is Place.EVERYWHERE


def test_account_override_moves_a_class_default() -> None:
    overrides = {FactClass.DECISION: Place.PROJECT}
    assert resolve_place(FactClass.DECISION, None, overrides) is Place.PROJECT
    # other classes keep their default
    assert resolve_place(FactClass.TASK, None, overrides) is Place.WORKTREE
    # an override is still capped for local categories
    assert resolve_place(FactClass.DECISION, "git", {FactClass.DECISION: Place.EVERYWHERE}) is (
        Place.PROJECT
    )
    # and it applies to "no class", which is task
    assert resolve_place(None, None, {FactClass.TASK: Place.REPO}) is Place.REPO


FULL = Workspace(repo="repo:acme/api", project="project:acme-api", worktree="wt:acme-api/login")


def test_workspace_key_for_each_place() -> None:
    assert FULL.key_for(Place.EVERYWHERE) is None
    assert FULL.key_for(Place.REPO) == "repo:acme/api"
    assert FULL.key_for(Place.PROJECT) == "project:acme-api"
    assert FULL.key_for(Place.WORKTREE) == "wt:acme-api/login"
    assert FULL.keys == ("repo:acme/api", "project:acme-api", "wt:acme-api/login")


def test_workspace_key_falls_back_to_the_next_wider_known_level() -> None:
    no_worktree = Workspace(repo="repo:acme/api", project="project:acme-api")
    assert no_worktree.key_for(Place.WORKTREE) == "project:acme-api"
    repo_only = Workspace(repo="repo:acme/api")
    assert repo_only.key_for(Place.WORKTREE) == "repo:acme/api"
    assert repo_only.key_for(Place.PROJECT) == "repo:acme/api"
    # a fallback never lands on a key a reader in this workspace cannot match
    for ws in (no_worktree, repo_only):
        for place in (Place.REPO, Place.PROJECT, Place.WORKTREE):
            assert ws.key_for(place) in ws.keys


def test_workspace_never_falls_back_to_a_narrower_level() -> None:
    no_repo = Workspace(project="project:acme-api", worktree="wt:acme-api/login")
    assert no_repo.key_for(Place.REPO) is None
    assert no_repo.key_for(Place.PROJECT) == "project:acme-api"


def test_workspace_names_are_the_last_segment_of_repo_and_project() -> None:
    ws = Workspace(
        repo="repo:github.com/acme/billing-api",
        project="project:/src/payments/",
        worktree="worktree:/src/billing-api-login",
    )
    assert ws.names == ("billing-api", "payments")
    # a local repo keyed by its path, a .git suffix, and one name for both levels
    assert Workspace(repo="repo:/srv/git/api.git", project="project:/home/u/API").names == ("api",)
    # the worktree's directory is not a name (it is often a branch or a scratch copy)
    assert Workspace(worktree="worktree:/tmp/login-fix").names == ()
    assert Workspace().names == ()


@pytest.mark.parametrize("category", ["repo", "remote", "Remote"])
def test_repo_categories_place_the_fact_at_the_repo(category: str) -> None:
    # A remote or default branch is the repository's: every worktree shares it.
    for fact_class in (FactClass.PROJECT, FactClass.TASK, FactClass.USER, None):
        assert resolve_place(fact_class, category) is Place.REPO
    worktree = Workspace(repo="repo:github.com/acme/web", project="project:/src/web")
    assert (
        worktree.key_for(resolve_place(FactClass.PROJECT, category)) == "repo:github.com/acme/web"
    )
