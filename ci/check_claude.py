"""`make clients-check` for Claude Code: install, MCP list, SessionStart, a real tool run."""

from __future__ import annotations

import json
from pathlib import Path

from client_runs import (
    FACT,
    Setup,
    block_in,
    delivered_before_exit,
    failing_remember,
    first_fact,
    sh,
    stored_as,
)


def check_claude(setup: Setup) -> None:
    """claude: install, its own listing of MCP servers, hooks, then a real tool run."""
    run, bin_dir, twoclocks, env = setup.run, setup.bin_dir, setup.twoclocks, setup.env
    project, url, data_dir = setup.project, setup.url, setup.data_dir
    claude = str(bin_dir / "claude")
    sh([twoclocks, "install", "claude-code"], env, project)
    agent_key = data_dir / "agent-key"
    mode = oct(agent_key.stat().st_mode & 0o777) if agent_key.exists() else "missing"
    run.check(
        "install claude-code: agent key for MCP and hooks in <data dir>/agent-key (0600)",
        mode == "0o600",
        f"{agent_key}: {mode}",
    )
    listed = sh([claude, "mcp", "list"], env, project)
    line = next((ln for ln in listed.stdout.splitlines() if ln.startswith("twoclocks:")), "")
    run.check("claude mcp list: stdio twoclocks Connected (no exports)", "Connected" in line, line)

    sh([claude, "-p", "hi", "--debug"], env, project, timeout=120)
    debug = Path(env["HOME"]) / ".claude" / "debug" / "latest"
    text = debug.read_text() if debug.exists() else ""
    ran = "Hook SessionStart:startup (SessionStart) success" in text
    run.check(
        "claude -p hi --debug: SessionStart hook printed the block",
        ran and FACT[2] in text and "provided additionalContext" in text,
        "debug log has the hook's additionalContext with the stored fact" if ran else "no hook",
    )
    settings = json.loads((Path(env["HOME"]) / ".claude" / "settings.json").read_text())
    ours = [
        e
        for e, groups in settings["hooks"].items()
        if "twoclocks.hooks.capture" in str(groups) or "twoclocks.hooks.turn" in str(groups)
    ]
    run.check(
        "install claude-code: capture hooks in settings.json",
        set(ours)
        >= {"PostToolUse", "PostToolUseFailure", "SubagentStop", "UserPromptSubmit", "Stop"},
        ", ".join(ours),
    )
    # A real tool needs a model: a stand-in one. (The capture hooks of `claude -p hi` race
    # claude's exit a few ms after "not logged in" and are often killed unstarted.)
    check_claude_tool(setup, claude)

    key = (data_dir / "key").read_text().strip()
    sh(
        [
            claude,
            "mcp",
            "add",
            "--transport",
            "http",
            "tc-http",
            url + "/mcp",
            "--header",
            f"Authorization: Bearer {key}",
        ],
        env,
        project,
    )
    sh([claude, "mcp", "add", "--transport", "http", "tc-http-nokey", url + "/mcp"], env, project)
    listed = sh([claude, "mcp", "list"], env, project).stdout.splitlines()
    with_key = next((ln for ln in listed if ln.startswith("tc-http:")), "")
    without = next((ln for ln in listed if ln.startswith("tc-http-nokey:")), "")
    run.check(
        "claude mcp list: HTTP /mcp with the key Connected", "Connected" in with_key, with_key
    )
    run.check(
        "claude mcp list: HTTP /mcp without a key is not Connected",
        bool(without) and "Connected" not in without,
        without,
    )


def check_claude_tool(setup: Setup, claude: str) -> None:
    """A real tool run by Claude Code, its model a stand-in (ci/fake_messages_api.py)."""
    run, twoclocks, env = setup.run, setup.twoclocks, setup.env
    project, url, data_dir = setup.project, setup.url, setup.data_dir
    from fake_messages_api import FakeMessagesApi

    written = ("clients-check", "written_from", "the agent's Bash tool")
    command = failing_remember(twoclocks, written)
    prompt = "run the scripted command"
    with FakeMessagesApi(command) as api:
        stand_in = {**env, "ANTHROPIC_BASE_URL": api.url, "ANTHROPIC_API_KEY": "sk-stand-in"}
        done = sh([claude, "-p", prompt, "--allowedTools", "Bash"], stand_in, project)
    got = stored_as(twoclocks, env, project, written[0])
    run.check(
        "claude -p, stand-in model: its Bash tool's `twoclocks remember --tier asserted` "
        "is stored as the agent's (CLAUDECODE)",
        got == [("inferred", "agent")],
        f"stored {got or 'nothing'}; claude said {done.stdout.strip()[:80]!r}",
    )
    run.check(
        "claude -p, stand-in model: the model's first request holds the block (SessionStart)",
        *block_in(api.requests),
    )
    run.check(
        "claude -p, stand-in model: the failed tool call and the turn are stored before "
        "claude exits (capture hooks `asyncRewake`)",
        *delivered_before_exit(url, data_dir, project, prompt),
    )
    tool = "mcp__twoclocks__recall"
    with FakeMessagesApi(tool=tool, tool_input={"query": "which CI do we use"}) as api:
        stand_in = {**env, "ANTHROPIC_BASE_URL": api.url, "ANTHROPIC_API_KEY": "sk-stand-in"}
        sh([claude, "-p", "which CI do we use?", "--allowedTools", tool], stand_in, project)
        seen = next((r for r in map(api.tool_result, reversed(api.requests)) if r), "")
    run.check(
        "claude -p, stand-in model: its MCP tool recall (stdio, the agent key) answers with "
        "the fact the CLI stored",
        FACT[2] in seen and seen.startswith("rows: "),
        first_fact(seen),
    )
