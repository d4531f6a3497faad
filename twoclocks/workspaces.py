"""Which workspace a session is in, decided by the server from its working directory.

No tool takes a space a model could be argued into (DESIGN.md §4): the keys come
from the directory alone, read off the filesystem in a few ``stat`` calls (no
subprocess: the session-start hook has 800 ms for everything).

* project: the override (the caller reads it from the environment), else the
  space whose configured path matches the directory longest, else the config's
  ``default_space``, else the main checkout of the git repo, else the directory;
* repo: the ``origin`` remote as ``host/owner/name``, else the main checkout's
  path; None outside git;
* worktree: the top of the checkout the directory is in (each linked worktree its
  own), else the directory.

Config file (TOML)::

    default_space = "personal"   # optional

    [[space]]
    id = "work"
    paths = ["~/codes/acme-*", "/srv/work"]
    reads_from = ["personal"]    # optional: also read these spaces, one way

``reads_from`` names spaces this one also reads (the block, and a ``wide`` recall);
never the reverse. Unknown ids and loops are errors naming the space.

A path matches the directory itself and everything beneath it; a trailing ``*``
matches by plain prefix (``~/codes/acme-*`` covers ``~/codes/acme-api``). Two
spaces matching at the same length is an error, never a guess.
"""

from __future__ import annotations

import os
import re
import tomllib
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from twoclocks.domain.errors import AmbiguousWorkspace, ConfigError, InvalidInput
from twoclocks.domain.places import Workspace
from twoclocks.domain.scope import IMPLICIT_SPACE, check_reads_from

_SPACE_KEYS = {"id", "paths", "reads_from"}
_TOP_KEYS = {"default_space", "space"}


def _canonical(path: str) -> str:
    """Absolute, ``~`` expanded, symlinks resolved, so one directory has one spelling."""
    return os.path.realpath(os.path.expanduser(path))


@dataclass(frozen=True)
class SpacePath:
    """One configured path: a directory (and all beneath it), or a plain prefix ending in ``*``."""

    raw: str
    prefix: str
    is_prefix: bool

    @classmethod
    def parse(cls, raw: str, space: str) -> SpacePath:
        """Normalize one entry of a space's ``paths``."""
        text = raw.strip()
        is_prefix = text.endswith("*")
        body = text[:-1] if is_prefix else text
        if not body or any(c in body for c in "*?["):
            raise ConfigError(
                f'space "{space}": path {raw!r} is not a directory or a directory prefix '
                f"ending in a single *: only a trailing * is supported"
            )
        expanded = os.path.expanduser(body)
        if not os.path.isabs(expanded):
            raise ConfigError(f'space "{space}": path {raw!r} must be absolute or start with ~')
        if is_prefix:
            # Resolve the parent only: the prefix itself names no directory yet.
            parent, stem = os.path.split(expanded)
            prefix = os.path.join(os.path.realpath(parent), stem)
        else:
            prefix = _canonical(expanded)
        return cls(raw=raw, prefix=prefix, is_prefix=is_prefix)

    def match_length(self, directory: str) -> int:
        """How specific the match is (the path's length), or -1 when it does not match.

        >>> p = SpacePath(raw="/srv/work", prefix="/srv/work", is_prefix=False)
        >>> p.match_length("/srv/work/api"), p.match_length("/srv/workshop")
        (9, -1)
        >>> acme = SpacePath(raw="/c/acme-*", prefix="/c/acme-", is_prefix=True)
        >>> acme.match_length("/c/acme-web")
        8
        """
        if self.is_prefix:
            return len(self.prefix) if directory.startswith(self.prefix) else -1
        base = self.prefix.rstrip(os.sep) or os.sep
        inside = directory == base or directory.startswith(base.rstrip(os.sep) + os.sep)
        return len(base) if inside else -1


@dataclass(frozen=True)
class Space:
    """A named space and the directories it claims."""

    id: str
    paths: tuple[SpacePath, ...]
    reads_from: tuple[str, ...] = ()


@dataclass(frozen=True)
class SpacesConfig:
    """The directory-to-space map, loaded once at start."""

    spaces: tuple[Space, ...] = ()
    default_space: str | None = None
    source: str = "<spaces config>"

    @classmethod
    def load(cls, path: str | Path) -> SpacesConfig:
        """Read and check a spaces TOML file; any problem is a ConfigError naming the file."""
        source = str(path)
        try:
            with open(path, "rb") as handle:
                data = tomllib.load(handle)
        except FileNotFoundError:
            raise ConfigError(
                f"spaces file {source} does not exist: create it or unset the setting"
            ) from None
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"spaces file {source} cannot be read: {exc}") from None
        return cls.parse(data, source)

    @classmethod
    def parse(cls, data: Mapping[str, Any], source: str = "<spaces config>") -> SpacesConfig:
        """Check an already-parsed TOML document; unknown keys are errors, so typos surface."""
        unknown = set(data) - _TOP_KEYS
        if unknown:
            raise ConfigError(f"{source}: unknown setting(s) {', '.join(sorted(unknown))}")
        default = data.get("default_space")
        if default is not None and (not isinstance(default, str) or not default.strip()):
            raise ConfigError(f"{source}: default_space must be a non-empty string")
        entries = data.get("space", [])
        if not isinstance(entries, list):
            raise ConfigError(f"{source}: write each space as a [[space]] table")
        spaces: list[Space] = []
        for entry in entries:
            spaces.append(_parse_space(entry, source))
        ids = [s.id for s in spaces]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ConfigError(f"{source}: space id(s) defined twice: {', '.join(dupes)}")
        known = set(ids) | ({default.strip()} if default else set())
        try:
            check_reads_from({s.id: s.reads_from for s in spaces}, known)
        except ConfigError as exc:
            raise ConfigError(f"{source}: {exc}") from None
        return cls(
            spaces=tuple(spaces), default_space=default.strip() if default else None, source=source
        )

    def space_for(self, directory: str) -> str | None:
        """The space whose path matches ``directory`` longest; None when none matches.

        Raises AmbiguousWorkspace when two spaces match at the same length.
        """
        best: dict[str, int] = {}
        for space in self.spaces:
            length = max((p.match_length(directory) for p in space.paths), default=-1)
            if length >= 0:
                best[space.id] = length
        if not best:
            return None
        top = max(best.values())
        winners = [sid for sid, length in best.items() if length == top]
        if len(winners) > 1:
            names = [f'"{w}"' for w in winners]
            listed = ", ".join(names[:-1]) + " and " + names[-1]
            raise AmbiguousWorkspace(
                f"{directory} matches {listed} equally; make one path more specific "
                f"(in {self.source})"
            )
        return winners[0]

    def reads_from(self, space: str) -> tuple[str, ...]:
        """The spaces ``space`` also reads, one way (none for an unconfigured space)."""
        return next((s.reads_from for s in self.spaces if s.id == space), ())


def _parse_space(entry: object, source: str) -> Space:
    if not isinstance(entry, dict):
        raise ConfigError(f"{source}: write each space as a [[space]] table")
    sid = entry.get("id")
    if not isinstance(sid, str) or not sid.strip():
        raise ConfigError(f"{source}: every [[space]] needs an id, a non-empty string")
    sid = sid.strip()
    unknown = set(entry) - _SPACE_KEYS
    if unknown:
        listed = ", ".join(sorted(unknown))
        raise ConfigError(f'{source}: space "{sid}" has unknown key(s) {listed}')
    paths = entry.get("paths")
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        raise ConfigError(f'{source}: space "{sid}" needs paths, a list of strings')
    reads = entry.get("reads_from", [])
    if not isinstance(reads, list) or not all(isinstance(r, str) and r.strip() for r in reads):
        raise ConfigError(f'{source}: space "{sid}" reads_from must be a list of space ids')
    return Space(
        id=sid,
        paths=tuple(SpacePath.parse(p, sid) for p in paths),
        reads_from=tuple(dict.fromkeys(r.strip() for r in reads)),
    )


# -- git, read off the disk ----------------------------------------------------------


@dataclass(frozen=True)
class GitCheckout:
    """Where a directory sits in git: its checkout's top, the main checkout, the remote."""

    top: str
    main_root: str
    remote_url: str | None


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return None


_SECTION = re.compile(r'^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]')


def _git_value(raw: str) -> str:
    """A git config value: inline comments dropped, quotes and escapes undone."""
    out: list[str] = []
    quoted = False
    i = 0
    while i < len(raw):
        c = raw[i]
        if c == "\\" and i + 1 < len(raw):
            out.append({"n": "\n", "t": "\t", "b": "\b"}.get(raw[i + 1], raw[i + 1]))
            i += 2
            continue
        if c == '"':
            quoted = not quoted
        elif c in "#;" and not quoted:
            break
        else:
            out.append(c)
        i += 1
    return "".join(out).strip()


def parse_git_config(text: str) -> dict[str, list[str]]:
    """The values of a git config file as ``section.subsection.key`` -> values, in file order.

    >>> parse_git_config('[remote "origin"]\\n\\turl = git@github.com:acme/api.git\\n')
    {'remote.origin.url': ['git@github.com:acme/api.git']}
    """
    values: dict[str, list[str]] = {}
    section = ""
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped[0] in "#;":
            continue
        header = _SECTION.match(stripped)
        if header:
            name, sub = header.group(1).lower(), header.group(2)
            # [remote "origin"] keeps its subsection's case; [core] is case-blind.
            section = f"{name}.{sub}" if sub is not None else name
            stripped = stripped[header.end() :].strip()
            if not stripped:
                continue
        key, sep, value = stripped.partition("=")
        # A bare key ("bare" alone) is a boolean true in git's format.
        values.setdefault(f"{section}.{key.strip().lower()}", []).append(
            _git_value(value) if sep else "true"
        )
    return values


def _git_dir_of(top: str) -> str | None:
    """The git dir ``top/.git`` names: the folder itself, or the target of a ``gitdir:`` file."""
    dot_git = os.path.join(top, ".git")
    if os.path.isdir(dot_git):
        return dot_git
    if os.path.isfile(dot_git):
        text = _read(dot_git) or ""
        for line in text.splitlines():
            if line.startswith("gitdir:"):
                return os.path.normpath(os.path.join(top, line[len("gitdir:") :].strip()))
    return None


def _git_dir_above(directory: str) -> tuple[str, str] | None:
    """The nearest folder at or above ``directory`` holding ``.git``, and its git dir."""
    current = directory
    while True:
        git_dir = _git_dir_of(current)
        if git_dir is not None:
            return current, git_dir
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def find_checkout(directory: str) -> GitCheckout | None:
    """The checkout holding ``directory``, found by walking up for ``.git``; None outside git."""
    found = _git_dir_above(directory)
    return None if found is None else _describe(*found)


def _describe(top: str, git_dir: str) -> GitCheckout:
    # A linked worktree's git dir (.git/worktrees/<name>) names the shared one in
    # `commondir`; the remote and core settings live there.
    common = git_dir
    pointer = _read(os.path.join(git_dir, "commondir"))
    if pointer and pointer.strip():
        common = os.path.normpath(os.path.join(git_dir, pointer.strip()))
    config = parse_git_config(_read(os.path.join(common, "config")) or "")

    # origin names the repo; a clone with only another remote (upstream) uses its first.
    remotes = [k for k in config if k.startswith("remote.") and k.endswith(".url")]
    chosen = "remote.origin.url" if "remote.origin.url" in config else next(iter(remotes), None)
    remote = config[chosen][-1] if chosen else None

    if os.path.basename(common) == ".git":
        main_root = os.path.dirname(common)
    elif config.get("core.worktree"):
        # A submodule's git dir lives in the superproject's .git/modules/ and says
        # where its checkout is.
        main_root = os.path.normpath(os.path.join(common, config["core.worktree"][-1]))
    else:
        main_root = top
    return GitCheckout(top=top, main_root=main_root, remote_url=remote or None)


_HEAD_REF = re.compile(r"^ref: refs/heads/(\S.*?)\s*$")


def checked_out_branch(cwd: str | None) -> str | None:
    """The branch the checkout holding ``cwd`` has out, read from its ``HEAD`` file.

    None outside git, on a detached HEAD (a rebase, a checked-out tag or commit) and when
    the file cannot be read: then nothing is known, which is never a branch.
    """
    git_dir = _checkout_git_dir(cwd)
    if git_dir is None:
        return None
    match = _HEAD_REF.match(_read(os.path.join(git_dir, "HEAD")) or "")
    return match[1] if match else None


def _checkout_git_dir(cwd: str | None) -> str | None:
    """The git dir of the checkout holding ``cwd`` (an absolute path), or None."""
    if cwd is None or not cwd.strip():
        return None
    expanded = os.path.expanduser(cwd.strip())
    if not os.path.isabs(expanded):
        return None
    found = _git_dir_above(os.path.realpath(expanded))
    return None if found is None else found[1]


_SHA = re.compile(r"^[0-9a-f]{40}(?:[0-9a-f]{24})?$")


@dataclass(frozen=True)
class HeadCommit:
    """The commit a checkout's HEAD is at: its id, the branch (None when detached), and the
    first line of its message when a loose object holds it (None once git packed it)."""

    sha: str
    branch: str | None
    subject: str | None


def head_commit(cwd: str | None) -> HeadCommit | None:
    """The commit the checkout holding ``cwd`` is at, read from its ``HEAD`` and refs.

    None outside git, before the first commit, and when a file cannot be read. A linked
    worktree keeps its own HEAD, and its branches in the main checkout's git dir.
    """
    git_dir = _checkout_git_dir(cwd)
    if git_dir is None:
        return None
    pointer = _read(os.path.join(git_dir, "commondir"))
    common = os.path.normpath(os.path.join(git_dir, pointer.strip())) if pointer else git_dir
    head = (_read(os.path.join(git_dir, "HEAD")) or "").strip()
    match = _HEAD_REF.match(head)
    branch = match[1] if match else None
    sha = head if branch is None else _ref(git_dir, common, f"refs/heads/{branch}")
    if sha is None or not _SHA.match(sha):
        return None
    return HeadCommit(sha=sha, branch=branch, subject=_commit_subject(common, sha))


def _ref(git_dir: str, common: str, ref: str) -> str | None:
    for folder in dict.fromkeys((git_dir, common)):
        loose = _read(os.path.join(folder, *ref.split("/")))
        if loose and loose.strip():
            return loose.strip()
    for line in (_read(os.path.join(common, "packed-refs")) or "").splitlines():
        sha, _, name = line.partition(" ")
        if name.strip() == ref:
            return sha.strip()
    return None


def _commit_subject(common: str, sha: str) -> str | None:
    """The first line of a commit's message, from its loose object (git packs old ones)."""
    try:
        with open(os.path.join(common, "objects", sha[:2], sha[2:]), "rb") as handle:
            raw = zlib.decompress(handle.read())
    except (OSError, zlib.error):
        return None
    header, _, body = raw.partition(b"\0")
    if not header.startswith(b"commit "):
        return None
    _, _, message = body.partition(b"\n\n")
    first = message.decode("utf-8", errors="replace").strip().splitlines()
    return first[0].strip() if first else None


_SCP_LIKE = re.compile(r"^(?:[^@/]+@)?([^:/]+):(?!//)(.+)$")


def normalize_remote(url: str) -> str:
    """A remote URL as ``host/owner/name``: scheme, user, port and ``.git`` dropped, lowercased.

    The same repo cloned over ssh and https gets one key, and a token in the URL
    never reaches a stored key.

    >>> normalize_remote("git@github.com:Acme/api.git")
    'github.com/acme/api'
    >>> normalize_remote("https://user:tok@github.com/acme/api.git/")
    'github.com/acme/api'
    >>> normalize_remote("ssh://git@gitlab.example.com:2222/team/svc")
    'gitlab.example.com/team/svc'
    >>> normalize_remote("/srv/git/api.git")
    '/srv/git/api'
    """
    text = url.strip()
    scheme, sep, rest = text.partition("://")
    if sep:
        if scheme.lower() == "file":
            path = rest
        else:
            authority, _, path = rest.partition("/")
            host = authority.rsplit("@", 1)[-1]
            host = re.sub(r":\d*$", "", host)
            path = f"{host}/{path}"
    elif (scp := _SCP_LIKE.match(text)) and not os.path.isabs(text):
        path = f"{scp.group(1)}/{scp.group(2).lstrip('/')}"
    else:
        path = text
    path = path.rstrip("/")
    if path.endswith(".git"):
        path = path[: -len(".git")]
    return path.rstrip("/").lower()


# -- the session's workspace ---------------------------------------------------------


def resolve_workspace(
    cwd: str | None, config: SpacesConfig | None, override: str | None
) -> Workspace:
    """The keys a session in ``cwd`` reads and writes under; no cwd means unplaced rows only.

    ``override`` is the space the person forced (the caller reads its env variable).
    Raises AmbiguousWorkspace when two spaces claim the directory equally.
    """
    if cwd is None or not cwd.strip():
        return Workspace()
    expanded = os.path.expanduser(cwd.strip())
    if not os.path.isabs(expanded):
        raise InvalidInput(f"cwd {cwd!r} is not an absolute path: send the full directory")
    directory = os.path.realpath(expanded)
    checkout = find_checkout(directory)

    space = override.strip() if override and override.strip() else None
    if space is None and config is not None:
        space = config.space_for(directory) or config.default_space
    # The project key stays what it always was: the space id, else the main checkout.
    project = space or (checkout.main_root if checkout else directory)

    repo: str | None = None
    if checkout is not None:
        repo = normalize_remote(checkout.remote_url) if checkout.remote_url else checkout.main_root
    return Workspace(
        repo=f"repo:{repo}" if repo else None,
        project=f"project:{project}",
        worktree=f"worktree:{checkout.top if checkout else directory}",
        space=space or IMPLICIT_SPACE,
        reads_from=config.reads_from(space) if config is not None and space else (),
    )
