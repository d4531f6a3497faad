"""`twoclocks install`: writes each client's config under HOME, merges, backs up, is idempotent."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from twoclocks.domain.errors import ConfigError
from twoclocks.install import CLIENTS, MATCHER, Commands, install, installed

COMMANDS = Commands(
    twoclocks="/opt/tc/bin/twoclocks",
    claude_hook="/opt/tc/bin/python -m twoclocks.hooks.claude_code session-start",
    cursor_hook="/opt/tc/bin/python -m twoclocks.hooks.cursor session-start",
    capture_hook="/opt/tc/bin/python -m twoclocks.hooks.capture",
    turn_hook="/opt/tc/bin/python -m twoclocks.hooks.turn",
)
TURN = "/opt/tc/bin/python -m twoclocks.hooks.turn"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty HOME; the installer must honor it."""
    path = tmp_path / "home"
    path.mkdir()
    monkeypatch.setenv("HOME", str(path))
    return path


def _files(home: Path) -> dict[str, str]:
    return {str(p.relative_to(home)): p.read_text() for p in sorted(home.rglob("*")) if p.is_file()}


def _json(path: Path) -> dict:
    return json.loads(path.read_text())


def test_claude_code_gets_the_mcp_server_and_the_session_start_hook(home: Path) -> None:
    install("claude-code", commands=COMMANDS)  # HOME from the environment
    server = _json(home / ".claude.json")["mcpServers"]["twoclocks"]
    assert server == {"type": "stdio", "command": "/opt/tc/bin/twoclocks", "args": ["mcp"]}
    [group] = _json(home / ".claude" / "settings.json")["hooks"]["SessionStart"]
    assert group["matcher"] == MATCHER == "startup|clear|compact|resume"
    assert group["hooks"] == [{"type": "command", "command": COMMANDS.claude_hook, "timeout": 5}]


def test_codex_passes_the_twoclocks_variables_through_env_vars(home: Path) -> None:
    install("codex", home, commands=COMMANDS)
    config = tomllib.loads((home / ".codex" / "config.toml").read_text())
    assert config["mcp_servers"]["twoclocks"] == {
        "command": "/opt/tc/bin/twoclocks",
        "args": ["mcp"],
        "env_vars": ["TWOCLOCKS_URL", "TWOCLOCKS_KEY", "TWOCLOCKS_DATA_DIR"],
    }
    [group] = _json(home / ".codex" / "hooks.json")["hooks"]["SessionStart"]
    assert group["matcher"] == "startup|clear|compact|resume"
    assert group["hooks"][0]["command"] == COMMANDS.claude_hook


def test_cursor_gets_the_workspace_folder_and_a_session_start_hook(home: Path) -> None:
    install("cursor", home, commands=COMMANDS)
    server = _json(home / ".cursor" / "mcp.json")["mcpServers"]["twoclocks"]
    assert server["args"] == ["mcp", "--cwd", "${workspaceFolder}"]
    hooks = _json(home / ".cursor" / "hooks.json")
    assert hooks["version"] == 1
    assert hooks["hooks"]["sessionStart"] == [{"command": COMMANDS.cursor_hook}]


def test_merges_with_existing_settings_and_backs_them_up(home: Path) -> None:
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    theirs = {
        "model": "opus",
        "permissions": {"allow": ["Bash(ls:*)"]},
        "hooks": {
            "SessionStart": [
                {"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}]},
            ],
            "Stop": [{"hooks": [{"type": "command", "command": "notify"}]}],
        },
    }
    settings.write_text(json.dumps(theirs))
    user = home / ".claude.json"
    user.write_text(json.dumps({"numStartups": 7, "mcpServers": {"other": {"command": "x"}}}))
    original = settings.read_text()

    install("claude-code", home, commands=COMMANDS)

    merged = _json(settings)
    assert merged["model"] == "opus" and merged["permissions"] == theirs["permissions"]
    # Their Stop hook stays first; ours (the spool drain) comes after it.
    assert merged["hooks"]["Stop"][:-1] == theirs["hooks"]["Stop"]
    assert merged["hooks"]["SessionStart"][0] == theirs["hooks"]["SessionStart"][0]
    assert len(merged["hooks"]["SessionStart"]) == 2
    assert _json(user)["numStartups"] == 7
    assert set(_json(user)["mcpServers"]) == {"other", "twoclocks"}
    [backup] = list(settings.parent.glob("settings.json.bak-*"))
    assert backup.read_text() == original


def test_codex_toml_keeps_everything_else(home: Path) -> None:
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(
        'model = "gpt-5"\n\n[mcp_servers.other]\ncommand = "x"\n'
        '[mcp_servers.twoclocks]\ncommand = "old"\nargs = ["old"]\n'
        '[mcp_servers.twoclocks.env]\nTWOCLOCKS_URL = "http://h:1"\n'
    )
    install("codex", home, commands=COMMANDS)
    parsed = tomllib.loads(config.read_text())
    assert parsed["model"] == "gpt-5"
    assert parsed["mcp_servers"]["other"] == {"command": "x"}
    assert parsed["mcp_servers"]["twoclocks"] == {
        "command": "/opt/tc/bin/twoclocks",
        "args": ["mcp"],
        "env_vars": ["TWOCLOCKS_URL", "TWOCLOCKS_KEY", "TWOCLOCKS_DATA_DIR"],
        "env": {"TWOCLOCKS_URL": "http://h:1"},
    }


def test_an_older_twoclocks_hook_is_replaced_not_duplicated(home: Path) -> None:
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(
        json.dumps(
            {
                "hooks": {
                    "SessionStart": [
                        {
                            "matcher": "startup",
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": "twoclocks hook claude-code session-start",
                                }
                            ],
                        },
                    ]
                }
            }
        )
    )
    install("claude-code", home, commands=COMMANDS)
    groups = _json(settings)["hooks"]["SessionStart"]
    commands = [h["command"] for g in groups for h in g["hooks"]]
    assert commands == [COMMANDS.claude_hook]


@pytest.mark.parametrize("client", CLIENTS)
def test_running_twice_changes_nothing_the_second_time(client: str, home: Path) -> None:
    install(client, home, commands=COMMANDS)
    first = _files(home)
    report = install(client, home, commands=COMMANDS)
    assert _files(home) == first
    assert all(line.startswith("unchanged") for line in report)


@pytest.mark.parametrize("client", CLIENTS)
def test_dry_run_writes_nothing(client: str, home: Path) -> None:
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text('{"model": "opus"}')
    before = _files(home)
    report = install(client, home, dry_run=True, commands=COMMANDS)
    assert _files(home) == before
    assert report[-1] == "dry run: nothing was written"
    assert any(line.startswith(("would create", "would update")) for line in report)


def test_a_broken_file_is_refused_and_left_alone(home: Path) -> None:
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text("{ not json")
    with pytest.raises(ConfigError, match="not valid JSON"):
        install("claude-code", home, commands=COMMANDS)
    assert settings.read_text() == "{ not json"
    assert not (home / ".claude.json").exists()


def test_the_key_is_never_written(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TWOCLOCKS_KEY", "tck_secret-key-value")
    for client in CLIENTS:
        install(client, home, commands=COMMANDS)
    assert not any("tck_secret" in text for text in _files(home).values())


def test_installed_reports_parts_and_commands_that_cannot_start(home: Path) -> None:
    assert not any(p.present for p in installed("claude-code", home))
    install("claude-code", home, commands=COMMANDS)
    parts = installed("claude-code", home)
    assert all(p.present for p in parts)
    # /opt/tc does not exist here: the moved-venv failure the doctor must show.
    assert all(p.problem and "does not exist" in p.problem for p in parts)
    install("claude-code", home)  # this interpreter's real commands
    assert [p.problem for p in installed("claude-code", home)] == [None, None, None]


def test_a_codex_entry_without_env_vars_is_reported_with_its_fix(home: Path) -> None:
    install("codex", home)
    config = home / ".codex" / "config.toml"
    config.write_text(
        "\n".join(line for line in config.read_text().splitlines() if "env_vars" not in line)
    )
    [server, _hook, _capture] = installed("codex", home)
    assert server.problem and "env_vars does not pass TWOCLOCKS_URL" in server.problem
    install("codex", home)
    assert [p.problem for p in installed("codex", home)] == [None, None, None]


def test_an_old_startup_clear_matcher_is_reported_and_reinstall_widens_it(home: Path) -> None:
    install("claude-code", home)
    settings = home / ".claude" / "settings.json"
    settings.write_text(settings.read_text().replace(MATCHER, "startup|clear"))
    [_server, hook, _capture] = installed("claude-code", home)
    assert hook.problem and "compact and resume lose the block" in hook.problem
    install("claude-code", home)
    [group] = _json(settings)["hooks"]["SessionStart"]
    assert group["matcher"] == MATCHER
    assert [p.problem for p in installed("claude-code", home)] == [None, None, None]


# -- uninstall: only ours goes ---------------------------------------------------------------


def _theirs(home: Path) -> None:
    """Settings a person had before twoclocks, in every file install touches."""
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text(
        json.dumps(
            {
                "model": "opus",
                "hooks": {
                    "SessionStart": [
                        {"matcher": "startup", "hooks": [{"type": "command", "command": "echo"}]}
                    ]
                },
            }
        )
    )
    (home / ".claude.json").write_text(json.dumps({"mcpServers": {"other": {"command": "x"}}}))
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(
        'model = "gpt-5"\n\n[mcp_servers.other]\ncommand = "x"\n\n[hooks.state."elsewhere"]\n'
        'trusted_hash = "sha256:1"\n'
    )
    (home / ".cursor").mkdir()
    (home / ".cursor" / "hooks.json").write_text(
        json.dumps({"version": 1, "hooks": {"sessionStart": [{"command": "theirs"}]}})
    )


def _parsed(home: Path) -> dict[str, object]:
    out: dict[str, object] = {}
    for name, text in _files(home).items():
        if ".bak-" in name:
            continue
        out[name] = tomllib.loads(text) if name.endswith(".toml") else json.loads(text)
    return out


@pytest.mark.parametrize("client", CLIENTS)
def test_uninstall_removes_only_what_install_added(client: str, home: Path) -> None:
    from twoclocks.clients.codex import hook_keys
    from twoclocks.uninstall import uninstall

    _theirs(home)
    before = _parsed(home)
    install(client, home, commands=COMMANDS)
    if client == "codex":  # the trust Codex records for our hook goes too
        keys = hook_keys(home)
        assert len(keys) == 4  # SessionStart and the three capture hooks
        with (home / ".codex" / "config.toml").open("a") as config:
            for key in keys:
                config.write(f'\n[hooks.state."{key}"]\ntrusted_hash = "sha256:2"\n')
    uninstall(client, home)
    after = _parsed(home)
    new_files = set(after) - set(before)
    assert {k: v for k, v in after.items() if k in before} == before
    # Files install created hold nothing of ours any more.
    for name in new_files:
        assert "twoclocks" not in json.dumps(after[name]), name
    assert not any(p.present for p in installed(client, home))
    first = _files(home)
    report = uninstall(client, home)
    assert _files(home) == first
    assert all(line.startswith("unchanged") for line in report)


# -- capture hooks (issue 12 point 1) --------------------------------------------------------

CAPTURE = "/opt/tc/bin/python -m twoclocks.hooks.capture"


def _handlers(groups: list[dict]) -> list[dict]:
    return [h for g in groups for h in g["hooks"]]


def test_claude_code_capture_hooks_run_in_the_background_and_stop_sends_the_turn(
    home: Path,
) -> None:
    install("claude-code", home, commands=COMMANDS)
    hooks = _json(home / ".claude" / "settings.json")["hooks"]
    # async: the agent never waits; asyncRewake: `claude -p` waits for them before it exits.
    background = {"timeout": 5, "async": True, "asyncRewake": True}
    for event in ("PostToolUse", "PostToolUseFailure", "SubagentStop", "UserPromptSubmit"):
        [group] = hooks[event]
        assert "matcher" not in group  # every tool
        assert group["hooks"] == [
            {"type": "command", "command": f"{CAPTURE} claude-code", **background}
        ]
    assert _handlers(hooks["Stop"]) == [
        {"type": "command", "command": f"{TURN} claude-code", **background}
    ]


def test_codex_capture_hooks_are_post_tool_use_prompts_and_stop(home: Path) -> None:
    install("codex", home, commands=COMMANDS)
    hooks = _json(home / ".codex" / "hooks.json")["hooks"]
    assert set(hooks) == {"SessionStart", "PostToolUse", "UserPromptSubmit", "Stop"}
    assert _handlers(hooks["PostToolUse"])[0]["command"] == f"{CAPTURE} codex"
    assert _handlers(hooks["UserPromptSubmit"])[0]["command"] == f"{CAPTURE} codex"
    assert _handlers(hooks["Stop"])[0]["command"] == f"{TURN} codex"
    # Codex has no async flag for command hooks: none is written.
    assert not any("async" in h for groups in hooks.values() for h in _handlers(groups))


def test_cursor_capture_hooks_cover_tools_shell_edits_prompts_answers_and_stop(
    home: Path,
) -> None:
    install("cursor", home, commands=COMMANDS)
    hooks = _json(home / ".cursor" / "hooks.json")["hooks"]
    for event in ("postToolUse", "afterShellExecution", "afterFileEdit", "beforeSubmitPrompt"):
        assert hooks[event] == [{"command": f"{CAPTURE} cursor"}]
    assert hooks["afterAgentResponse"] == [{"command": f"{TURN} cursor"}]
    assert hooks["stop"] == [{"command": f"{CAPTURE} stop"}]


def test_capture_hooks_keep_the_persons_own_hooks_on_the_same_events(home: Path) -> None:
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    theirs = {"matcher": "Bash", "hooks": [{"type": "command", "command": "my-linter"}]}
    settings.write_text(json.dumps({"hooks": {"PostToolUse": [theirs]}}))
    install("claude-code", home, commands=COMMANDS)
    install("claude-code", home, commands=COMMANDS)
    groups = _json(settings)["hooks"]["PostToolUse"]
    assert groups[0] == theirs and len(groups) == 2
    from twoclocks.uninstall import uninstall

    uninstall("claude-code", home)
    assert _json(settings) == {"hooks": {"PostToolUse": [theirs]}}


@pytest.mark.parametrize("client", CLIENTS)
def test_installed_names_the_capture_hooks_and_any_that_are_missing(
    client: str, home: Path
) -> None:
    install(client, home)
    capture = installed(client, home)[-1]
    assert capture.present and capture.problem is None
    assert capture.what.startswith("capture hooks (") and "top" in capture.what
    path = capture.path
    data = _json(path)
    first = next(e for e in data["hooks"] if e not in ("SessionStart", "sessionStart"))
    del data["hooks"][first]
    path.write_text(json.dumps(data))
    capture = installed(client, home)[-1]
    assert capture.problem and first in capture.problem
