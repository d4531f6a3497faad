"""Which workspace a session is in, from its working directory alone (DESIGN.md §4)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from twoclocks.domain.errors import AmbiguousWorkspace, ConfigError, InvalidInput
from twoclocks.domain.places import Workspace
from twoclocks.domain.scope import IMPLICIT_SPACE
from twoclocks.workspaces import (
    SpacesConfig,
    checked_out_branch,
    find_checkout,
    head_commit,
    normalize_remote,
    parse_git_config,
    resolve_workspace,
)


def make_repo(root: Path, remote: str | None = "git@github.com:acme/api.git") -> Path:
    """A hand-made checkout: .git/config with an optional origin, as git writes it."""
    (root / ".git").mkdir(parents=True)
    config = "[core]\n\trepositoryformatversion = 0\n\tbare = false\n"
    if remote:
        config += (
            f'[remote "origin"]\n\turl = {remote}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n'
        )
    (root / ".git" / "config").write_text(config)
    return root


def spaces(tmp_path: Path, text: str) -> SpacesConfig:
    path = tmp_path / "spaces.toml"
    path.write_text(text)
    return SpacesConfig.load(path)


# -- repo key -----------------------------------------------------------------------


def test_repo_key_is_the_normalized_origin_url_from_any_depth(tmp_path):
    repo = make_repo(tmp_path / "api")
    deep = repo / "src" / "pkg"
    deep.mkdir(parents=True)
    ws = resolve_workspace(str(deep), None, None)
    assert ws == Workspace(
        repo="repo:github.com/acme/api",
        project=f"project:{repo}",
        worktree=f"worktree:{repo}",
        space=IMPLICIT_SPACE,
    )


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("git@github.com:acme/api.git", "github.com/acme/api"),
        ("https://github.com/acme/api.git", "github.com/acme/api"),
        ("https://github.com/Acme/API", "github.com/acme/api"),
        ("https://x-token:ghp_secret@github.com/acme/api.git", "github.com/acme/api"),
        ("ssh://git@github.com/acme/api.git", "github.com/acme/api"),
        ("ssh://git@gitlab.example.com:2222/team/svc.git/", "gitlab.example.com/team/svc"),
        ("git://example.org/pub/tool.git", "example.org/pub/tool"),
        ("github.com:acme/api", "github.com/acme/api"),
        ("file:///srv/git/api.git", "/srv/git/api"),
        ("/srv/git/api.git", "/srv/git/api"),
    ],
)
def test_remote_urls_normalize_to_host_owner_name(url, key):
    assert normalize_remote(url) == key


def test_ssh_and_https_clones_of_one_repo_share_the_repo_key(tmp_path):
    a = make_repo(tmp_path / "a", "git@github.com:acme/api.git")
    b = make_repo(tmp_path / "b", "https://github.com/acme/api")
    assert resolve_workspace(str(a), None, None).repo == resolve_workspace(str(b), None, None).repo


def test_a_repo_with_no_remote_is_keyed_by_its_main_checkout(tmp_path):
    repo = make_repo(tmp_path / "scratch", remote=None)
    ws = resolve_workspace(str(repo / "sub"), None, None)
    assert ws.repo == f"repo:{repo}"
    assert ws.worktree == f"worktree:{repo}"


def test_without_origin_the_first_remote_names_the_repo(tmp_path):
    repo = tmp_path / "fork"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git" / "config").write_text(
        '[remote "upstream"]\n\turl = https://github.com/acme/api.git ; the real one\n'
        '[remote "mirror"]\n\turl = https://gitlab.com/acme/api.git\n'
    )
    assert resolve_workspace(str(repo), None, None).repo == "repo:github.com/acme/api"


def test_git_config_parsing_handles_quotes_comments_and_case():
    parsed = parse_git_config(
        "# top comment\n"
        "[Core]\n\tBare = false\n\tlogallrefupdates\n"
        '[remote "Origin"] url = "git@host:a/b.git" # trailing\n'
        "[remote.origin]\n\turl = https://h/x/y.git\n"
    )
    assert parsed["core.bare"] == ["false"]
    assert parsed["core.logallrefupdates"] == ["true"]
    assert parsed["remote.Origin.url"] == ["git@host:a/b.git"]
    assert parsed["remote.origin.url"] == ["https://h/x/y.git"]


def test_hand_made_linked_worktree_reads_the_common_dirs_config(tmp_path):
    main = make_repo(tmp_path / "api")
    gitdir = main / ".git" / "worktrees" / "feature"
    gitdir.mkdir(parents=True)
    (gitdir / "commondir").write_text("../..\n")
    linked = tmp_path / "api-feature"
    linked.mkdir()
    (linked / ".git").write_text(f"gitdir: {gitdir}\n")
    ws = resolve_workspace(str(linked), None, None)
    assert ws.repo == "repo:github.com/acme/api"
    assert ws.worktree == f"worktree:{linked}"
    assert ws.project == f"project:{main}"


def test_a_relative_gitdir_file_is_followed(tmp_path):
    super_repo = make_repo(tmp_path / "super", remote=None)
    modules = super_repo / ".git" / "modules" / "lib"
    modules.mkdir(parents=True)
    (modules / "config").write_text(
        "[core]\n\tworktree = ../../../lib\n"
        '[remote "origin"]\n\turl = https://github.com/acme/lib.git\n'
    )
    lib = super_repo / "lib"
    lib.mkdir()
    (lib / ".git").write_text("gitdir: ../.git/modules/lib\n")
    checkout = find_checkout(str(lib))
    assert checkout is not None
    assert (checkout.top, checkout.main_root) == (str(lib), str(lib))
    assert resolve_workspace(str(lib), None, None).repo == "repo:github.com/acme/lib"


@pytest.mark.skipif(shutil.which("git") is None, reason="needs the git CLI to make a worktree")
def test_real_linked_worktrees_get_distinct_worktree_keys_and_one_repo_key(tmp_path):
    main = tmp_path / "api"
    git = git_in(main)

    main.mkdir()
    git("init", "-q")
    git("remote", "add", "origin", "https://github.com/acme/api.git")
    git("commit", "-q", "--allow-empty", "-m", "init")
    git("worktree", "add", "-q", "-b", "one", str(tmp_path / "wt-one"))
    git("worktree", "add", "-q", "-b", "two", str(tmp_path / "wt-two"))
    (tmp_path / "wt-two" / "src").mkdir()

    first = resolve_workspace(str(main), None, None)
    one = resolve_workspace(str(tmp_path / "wt-one"), None, None)
    two = resolve_workspace(str(tmp_path / "wt-two" / "src"), None, None)
    assert first.repo == one.repo == two.repo == "repo:github.com/acme/api"
    assert len({first.worktree, one.worktree, two.worktree}) == 3
    assert two.worktree == f"worktree:{tmp_path / 'wt-two'}"
    # One project across the worktrees, so a decision moved to the project is shared.
    assert first.project == one.project == two.project == f"project:{main}"


def git_in(main: Path) -> Callable[..., str]:
    """``git(*args, cwd=main)`` with no user config and a fixed author: its stdout."""
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}
    env |= {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com"}
    env |= {"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}

    def git(*args: str, cwd: Path = main) -> str:
        done = subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)
        return done.stdout.decode().strip()

    return git


def test_the_branch_checked_out_is_read_from_each_worktrees_head(tmp_path):
    main = tmp_path / "api"
    git = git_in(main)

    main.mkdir()
    git("init", "-q", "-b", "main")
    git("commit", "-q", "--allow-empty", "-m", "init")
    git("worktree", "add", "-q", "-b", "feat/cart", str(tmp_path / "wt"))
    (main / "src").mkdir()
    assert checked_out_branch(str(main / "src")) == "main"
    assert checked_out_branch(str(tmp_path / "wt")) == "feat/cart"  # its own HEAD
    git("checkout", "-q", "--detach")
    assert checked_out_branch(str(main)) is None  # a detached HEAD is no branch
    assert checked_out_branch(str(tmp_path)) is None  # outside git
    assert checked_out_branch("api") is None and checked_out_branch(None) is None


def test_a_directory_outside_git_has_no_repo_key(tmp_path):
    plain = tmp_path / "notes"
    plain.mkdir()
    assert resolve_workspace(str(plain), None, None) == Workspace(
        repo=None, project=f"project:{plain}", worktree=f"worktree:{plain}", space=IMPLICIT_SPACE
    )


def test_no_cwd_means_no_workspace_so_only_unplaced_rows_are_read(tmp_path):
    config = spaces(tmp_path, '[[space]]\nid = "work"\npaths = ["/"]\n')
    assert resolve_workspace(None, config, None) == Workspace()
    assert resolve_workspace(None, config, "work") == Workspace()
    assert Workspace().keys == ()


def test_a_relative_cwd_is_refused(tmp_path):
    with pytest.raises(InvalidInput, match="absolute"):
        resolve_workspace("codes/api", None, None)


# -- project key: spaces ------------------------------------------------------------


def test_the_longest_matching_path_wins(tmp_path):
    codes = tmp_path / "codes"
    api = make_repo(codes / "acme" / "api")
    config = spaces(
        tmp_path,
        f"""
[[space]]
id = "personal"
paths = ["{codes}"]

[[space]]
id = "work"
paths = ["{codes / "acme"}"]
""",
    )
    ws = resolve_workspace(str(api / "src"), config, None)
    assert ws.project == "project:work"
    assert ws.repo == "repo:github.com/acme/api"
    assert resolve_workspace(str(codes / "dotfiles"), config, None).project == "project:personal"


def test_equal_matches_raise_ambiguous_workspace_naming_both(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    config = spaces(
        tmp_path,
        f"""
[[space]]
id = "work"
paths = ["{shared}"]
[[space]]
id = "personal"
paths = ["{shared}"]
""",
    )
    with pytest.raises(AmbiguousWorkspace) as err:
        resolve_workspace(str(shared / "x"), config, None)
    assert 'matches "work" and "personal" equally; make one path more specific' in str(err.value)


def test_the_override_wins_over_every_match(tmp_path):
    repo = make_repo(tmp_path / "api")
    config = spaces(tmp_path, f'[[space]]\nid = "work"\npaths = ["{repo}"]\n')
    ws = resolve_workspace(str(repo), config, "personal")
    assert ws.project == "project:personal"
    # Even an ambiguous config is not consulted when the person forced a space.
    ambiguous = spaces(
        tmp_path,
        f'[[space]]\nid = "a"\npaths = ["{repo}"]\n[[space]]\nid = "b"\npaths = ["{repo}"]\n',
    )
    assert resolve_workspace(str(repo), ambiguous, "work").project == "project:work"
    assert resolve_workspace(str(repo), None, "  ").project == f"project:{repo}"


def test_a_trailing_star_matches_by_plain_prefix(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    codes = tmp_path / "codes"
    for name in ("acme-api", "acme-web", "acmeish", "other"):
        (codes / name).mkdir(parents=True)
    config = spaces(tmp_path, '[[space]]\nid = "work"\npaths = ["~/codes/acme-*"]\n')
    assert resolve_workspace(str(codes / "acme-api"), config, None).project == "project:work"
    assert resolve_workspace(str(codes / "acme-web" / "src"), config, None).project == (
        "project:work"
    )
    assert resolve_workspace(str(codes / "acmeish"), config, None).project == (
        f"project:{codes / 'acmeish'}"
    )


def test_a_path_covers_itself_and_below_but_not_a_sibling_sharing_its_prefix(tmp_path):
    (tmp_path / "work").mkdir()
    (tmp_path / "workshop").mkdir()
    config = spaces(tmp_path, f'[[space]]\nid = "w"\npaths = ["{tmp_path / "work"}"]\n')
    assert resolve_workspace(str(tmp_path / "work"), config, None).project == "project:w"
    assert resolve_workspace(str(tmp_path / "workshop"), config, None).project == (
        f"project:{tmp_path / 'workshop'}"
    )


def test_default_space_applies_when_no_path_matches(tmp_path):
    repo = make_repo(tmp_path / "api")
    config = spaces(
        tmp_path,
        'default_space = "personal"\n[[space]]\nid = "work"\npaths = ["/nowhere/at/all"]\n',
    )
    ws = resolve_workspace(str(repo), config, None)
    assert ws.project == "project:personal"
    assert ws.repo == "repo:github.com/acme/api"


def test_a_symlinked_cwd_resolves_like_its_target(tmp_path):
    repo = make_repo(tmp_path / "api")
    link = tmp_path / "link"
    link.symlink_to(repo)
    assert resolve_workspace(str(link), None, None) == resolve_workspace(str(repo), None, None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("spaces = []\n", "unknown setting"),
        ('[[space]]\npaths = ["/a"]\n', "needs an id"),
        ('[[space]]\nid = "w"\n', "needs paths"),
        ('[[space]]\nid = "w"\npaths = ["relative/dir"]\n', "absolute"),
        ('[[space]]\nid = "w"\npaths = ["/a/*/b"]\n', "trailing"),
        ('[[space]]\nid = "w"\npaths = ["/a"]\nread_from = ["p"]\n', "unknown key"),
        ('[[space]]\nid = "w"\npaths = ["/a"]\n[[space]]\nid = "w"\npaths = ["/b"]\n', "twice"),
        ('default_space = ""\n', "default_space"),
        ("[[space]\n", "cannot be read"),
    ],
)
def test_a_bad_spaces_file_is_a_config_error_that_says_what_to_fix(tmp_path, text, message):
    with pytest.raises(ConfigError, match=message):
        spaces(tmp_path, text)


def test_a_missing_spaces_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        SpacesConfig.load(tmp_path / "absent.toml")


# -- reads_from ----------------------------------------------------------------------

READS = """
default_space = "personal"

[[space]]
id = "work"
paths = ["/srv/work"]
reads_from = ["personal"]

[[space]]
id = "client"
paths = ["/srv/client"]
"""


def test_a_space_reads_from_the_spaces_it_names_one_way(tmp_path):
    config = spaces(tmp_path, READS)
    (tmp_path / "w").mkdir()
    work = resolve_workspace("/srv/work/api", config, None)
    assert (work.space, work.reads_from) == ("work", ("personal",))
    personal = resolve_workspace(str(tmp_path / "w"), config, None)
    assert (personal.space, personal.reads_from) == ("personal", ())
    client = resolve_workspace("/srv/client/x", config, None)
    assert (client.space, client.reads_from) == ("client", ())


def test_reads_from_an_unknown_space_is_an_error_naming_the_space(tmp_path):
    with pytest.raises(ConfigError, match='space "work" reads_from unknown space "home"'):
        spaces(tmp_path, '[[space]]\nid = "work"\npaths = ["/w"]\nreads_from = ["home"]\n')


def test_reads_from_in_a_loop_is_an_error_naming_the_space(tmp_path):
    text = (
        '[[space]]\nid = "a"\npaths = ["/a"]\nreads_from = ["b"]\n'
        '[[space]]\nid = "b"\npaths = ["/b"]\nreads_from = ["a"]\n'
    )
    with pytest.raises(ConfigError, match='space "a" reads_from makes a loop: a -> b -> a'):
        spaces(tmp_path, text)
    with pytest.raises(ConfigError, match='space "a" reads_from makes a loop: a -> a'):
        spaces(tmp_path, '[[space]]\nid = "a"\npaths = ["/a"]\nreads_from = ["a"]\n')


def test_reads_from_must_be_a_list_of_space_ids(tmp_path):
    with pytest.raises(ConfigError, match='space "a" reads_from must be a list'):
        spaces(tmp_path, '[[space]]\nid = "a"\npaths = ["/a"]\nreads_from = "b"\n')


def test_unclaimed_checkouts_share_one_implicit_space(tmp_path):
    one = make_repo(tmp_path / "one")
    two = make_repo(tmp_path / "two", remote=None)
    a, b = resolve_workspace(str(one), None, None), resolve_workspace(str(two), None, None)
    assert a.space == b.space == IMPLICIT_SPACE
    assert a.project != b.project  # the project key stays the main checkout, as before


def test_the_commit_each_worktree_is_at_is_read_from_its_head_refs_and_objects(tmp_path):
    main = tmp_path / "api"
    git = git_in(main)

    main.mkdir()
    git("init", "-q", "-b", "main")
    assert head_commit(str(main)) is None  # no commit yet
    git("commit", "-q", "--allow-empty", "-m", "init")
    git("commit", "-q", "--allow-empty", "-m", "Fix the cart total\n\nLonger body.")
    at = head_commit(str(main))
    assert at is not None and (at.branch, at.subject) == ("main", "Fix the cart total")
    assert at.sha == git("rev-parse", "HEAD")
    # A linked worktree has its own HEAD; its branch lives in the main checkout's refs.
    git("worktree", "add", "-q", "-b", "feat/cart", str(tmp_path / "wt"))
    git("commit", "-q", "--allow-empty", "-m", "cart: wip", cwd=tmp_path / "wt")
    there = head_commit(str(tmp_path / "wt"))
    assert there is not None and (there.branch, there.subject) == ("feat/cart", "cart: wip")
    # Packed refs are read; a packed commit keeps its id, its subject is not read.
    git("gc", "-q", "--prune=now")
    packed = head_commit(str(main))
    assert packed is not None and (packed.sha, packed.subject) == (at.sha, None)
    git("checkout", "-q", "--detach")
    detached = head_commit(str(main))
    assert detached is not None and (detached.sha, detached.branch) == (at.sha, None)
    assert head_commit(str(tmp_path)) is None and head_commit("api") is None
