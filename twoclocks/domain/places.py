"""Where a fact applies: a ladder of four places, widest first.

everywhere > repo > project > worktree. A fact's class sets its default place
(``user`` and ``rule`` everywhere; ``project`` and ``environment`` the project;
``decision`` and ``task`` the worktree; no class counts as ``task``). Some
categories (env, git, cwd, ...) never go wider than the project, and a few
(repo, remote) are about the repository itself, so they go to the repo place. An
account may move a class's default, e.g. decisions to the project.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict

from twoclocks.domain.model import FactClass, FactVersion, Incoming, Place

LADDER: tuple[Place, ...] = (Place.EVERYWHERE, Place.REPO, Place.PROJECT, Place.WORKTREE)

DEFAULT_PLACE: dict[FactClass, Place] = {
    FactClass.USER: Place.EVERYWHERE,
    FactClass.RULE: Place.EVERYWHERE,
    FactClass.PROJECT: Place.PROJECT,
    FactClass.ENVIRONMENT: Place.PROJECT,
    FactClass.DECISION: Place.WORKTREE,
    FactClass.TASK: Place.WORKTREE,
}

LOCAL_CATEGORIES: frozenset[str] = frozenset(
    {"env", "git", "cwd", "file", "sandbox", "branch", "path", "port", "process", "build", "test"}
)
"""Categories that never go wider than one project."""

REPO_CATEGORIES: frozenset[str] = frozenset({"repo", "remote"})
"""Categories about the repository itself (its remotes, its default branch): every checkout
and worktree of the repo shares them, and nothing outside it does."""


def narrower(a: Place, b: Place) -> Place:
    """The narrower of two places on the ladder."""
    return a if LADDER.index(a) >= LADDER.index(b) else b


def wider(place: Place, than: Place) -> bool:
    """Whether ``place`` is wider on the ladder than ``than`` (not the same place)."""
    return place != than and narrower(place, than) == than


def seen_from(row: FactVersion | Incoming) -> Place:
    """Where a row applies: its place, or everywhere when it is kept under no workspace key."""
    return row.place if row.place is not None and row.workspace is not None else Place.EVERYWHERE


def widest_place(category: str | None) -> Place:
    """The widest place a fact of ``category`` may apply at (``resolve_place``'s caps).

    >>> widest_place("git"), widest_place("remote"), widest_place(None)
    (<Place.PROJECT: 'project'>, <Place.REPO: 'repo'>, <Place.EVERYWHERE: 'everywhere'>)
    """
    if category and category.lower() in REPO_CATEGORIES:
        return Place.REPO
    if category and category.lower() in LOCAL_CATEGORIES:
        return Place.PROJECT
    return Place.EVERYWHERE


def resolve_place(
    fact_class: FactClass | None,
    category: str | None,
    overrides: Mapping[FactClass, Place] | None = None,
) -> Place:
    """The place a fact is stored with.

    >>> resolve_place(FactClass.USER, None)
    <Place.EVERYWHERE: 'everywhere'>
    >>> resolve_place(None, None)
    <Place.WORKTREE: 'worktree'>
    >>> resolve_place(FactClass.RULE, "git")
    <Place.PROJECT: 'project'>
    >>> resolve_place(FactClass.DECISION, None, {FactClass.DECISION: Place.PROJECT})
    <Place.PROJECT: 'project'>
    >>> resolve_place(FactClass.PROJECT, "remote")
    <Place.REPO: 'repo'>
    """
    klass = fact_class or FactClass.TASK
    place = (overrides or {}).get(klass, DEFAULT_PLACE[klass])
    if category and category.lower() in REPO_CATEGORIES:
        return Place.REPO
    return narrower(place, widest_place(category))


class Workspace(BaseModel):
    """A session's position on the ladder, resolved by the server from its working directory.

    Each level is a key such as ``repo:github.com/acme/api``; a level that does not
    apply (not a git checkout, say) is None. ``space`` is the space the session is in
    (``domain.scope.IMPLICIT_SPACE`` for checkouts no configured space claims) and
    ``reads_from`` the spaces it also reads, one way; neither is ever a key a fact
    is stored under.
    """

    model_config = ConfigDict(frozen=True)

    repo: str | None = None
    project: str | None = None
    worktree: str | None = None
    space: str | None = None
    reads_from: tuple[str, ...] = ()

    def key_for(self, place: Place) -> str | None:
        """The workspace key a fact placed at ``place`` is stored under (None: everywhere)."""
        if place is Place.EVERYWHERE:
            return None
        # A narrower level that is unknown falls back to the next wider one that is
        # known, so a fact is never stored under a key no reader can match.
        chain = {
            Place.REPO: (self.repo,),
            Place.PROJECT: (self.project, self.repo),
            Place.WORKTREE: (self.worktree, self.project, self.repo),
        }[place]
        return next((k for k in chain if k), None)

    def placed(self, place: Place) -> tuple[Place, str | None]:
        """Where a fact meant for ``place`` applies from here, and the key it is kept under.

        The place said is the level of the key used, so it never claims to be narrower
        than what reads see: a level this workspace lacks falls back to the next wider one
        it knows (``key_for``), and with no key at all (a write with no working
        directory) the fact is seen everywhere, so it says everywhere.

        >>> Workspace(project="project:p").placed(Place.WORKTREE)
        (<Place.PROJECT: 'project'>, 'project:p')
        >>> Workspace().placed(Place.WORKTREE)
        (<Place.EVERYWHERE: 'everywhere'>, None)
        """
        key = self.key_for(place)
        levels = {self.repo: Place.REPO, self.project: Place.PROJECT, self.worktree: Place.WORKTREE}
        return (levels[key], key) if key else (Place.EVERYWHERE, None)

    @property
    def keys(self) -> tuple[str, ...]:
        """Every key a read in this workspace sees (plus unplaced rows)."""
        return tuple(k for k in (self.repo, self.project, self.worktree) if k)

    @property
    def worktree_folder(self) -> str | None:
        """The folder at the top of the worktree, as its key names it (None: no worktree).

        >>> Workspace(worktree="worktree:/src/billing-api-login").worktree_folder
        '/src/billing-api-login'
        """
        return self.worktree.split(":", 1)[1] if self.worktree else None

    @property
    def names(self) -> tuple[str, ...]:
        """What people call this workspace: the last path segment of its repo and project.

        Recall starts a graph walk from entities with these names, so a question asked
        inside the ``billing-api`` checkout reaches ``billing-api``'s facts unnamed.

        >>> Workspace(repo="repo:github.com/acme/billing-api", project="project:/src/billing-api",
        ...           worktree="worktree:/src/billing-api-login").names
        ('billing-api',)
        >>> Workspace(project="project:payments").names
        ('payments',)
        """
        found: list[str] = []
        for key in (self.repo, self.project):
            if not key:
                continue
            name = key.split(":", 1)[-1].rstrip("/\\").replace("\\", "/").rsplit("/", 1)[-1]
            name = name.removesuffix(".git")
            if name and name.lower() not in {n.lower() for n in found}:
                found.append(name)
        return tuple(found)
