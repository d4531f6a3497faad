"""`make clients-check` for Codex: install, `codex mcp list`, hooks, a real shell command
and a real `apply_patch`."""

from __future__ import annotations

import json
import time
from pathlib import Path

from client_runs import (
    Setup,
    block_in,
    episodes_holding,
    failing_remember,
    hook_lines,
    settled,
    sh,
    stored_as,
)


def check_codex(setup: Setup) -> None:
    """codex: install, its own listing of MCP servers, hooks, then a real tool run."""
    run, bin_dir, twoclocks, env = setup.run, setup.bin_dir, setup.twoclocks, setup.env
    project, url, data_dir = setup.project, setup.url, setup.data_dir
    from twoclocks.clients.codex import list_hooks

    codex = str(bin_dir / "codex")
    sh([twoclocks, "install", "codex"], env, project)
    got = sh([codex, "mcp", "get", "twoclocks"], env, project).stdout
    env_line = next((ln.strip() for ln in got.splitlines() if ln.strip().startswith("env:")), "")
    run.check(
        "codex mcp get: entry passes TWOCLOCKS_URL/KEY/DATA_DIR",
        all(n in env_line for n in ("TWOCLOCKS_URL", "TWOCLOCKS_KEY", "TWOCLOCKS_DATA_DIR")),
        env_line,
    )
    doctor = sh([twoclocks, "doctor"], env, project, timeout=60).stdout
    line = next((ln for ln in doctor.splitlines() if "codex:" in ln), "")
    run.check(
        "twoclocks doctor: new Codex hook is untrusted, says how", "not trusted" in line, line
    )

    exec_args = [codex, "exec", "--skip-git-repo-check", "hi"]
    quiet = {**env, "RUST_LOG": "rmcp=info"}
    skipped = sh(exec_args, quiet, project, timeout=25)
    out = skipped.stdout + skipped.stderr
    run.check(
        "codex exec: untrusted hook does not run", "hook: SessionStart" not in out, "as Codex says"
    )
    run.check(
        "codex exec: stdio twoclocks initialized (no exports)",
        "Service initialized as client" in out and 'name: "twoclocks"' in out,
        "rmcp: Service initialized as client, serverInfo twoclocks",
    )
    # What Codex's hook review writes on "Trust all and continue".
    hooks = [
        h
        for h in list_hooks(codex, Path(env["HOME"]), env=env) or []
        if "twoclocks" in h["command"]
    ]
    run.check(
        "codex app-server hooks/list: SessionStart and the capture hooks",
        len(hooks) == 4,
        ", ".join(h["key"].rsplit(":", 3)[1] for h in hooks),
    )
    with (Path(env["HOME"]) / ".codex" / "config.toml").open("a") as config:
        for hook in hooks:
            config.write(
                f'\n[hooks.state."{hook["key"]}"]\ntrusted_hash = "{hook["currentHash"]}"\n'
            )
    doctor = sh([twoclocks, "doctor"], env, project, timeout=60).stdout
    line = next((ln for ln in doctor.splitlines() if "codex:" in ln), "")
    run.check("twoclocks doctor: trusted Codex hook passes", line.startswith("✓"), line)
    trusted = sh(exec_args, quiet, project, timeout=25)
    out = trusted.stdout + trusted.stderr
    run.check(
        "codex exec: trusted SessionStart hook runs",
        "hook: SessionStart Completed" in out,
        "hook: SessionStart Completed",
    )
    lines = hook_lines(out, ("UserPromptSubmit", "PostToolUse", "Stop"))
    counts = settled(url, data_dir, "codex")
    run.check(
        "codex exec: trusted UserPromptSubmit capture hook fired, event stored",
        counts.get("stored", 0) >= 1,
        f"server counted codex events {counts}; " + (" / ".join(lines[:3])[:300] or "no hook line"),
    )
    check_codex_tool(setup, codex)
    check_codex_patch(setup, codex)
    wrong = sh(
        exec_args,
        {**quiet, "RUST_LOG": "info", "TWOCLOCKS_URL": "http://127.0.0.1:9"},
        project,
        timeout=25,
    )
    out = wrong.stdout + wrong.stderr
    seen = next((ln for ln in out.splitlines() if "MCP server stderr" in ln), "")
    run.check(
        "codex exec: exported TWOCLOCKS_URL reaches `twoclocks mcp` (env_vars), fails visibly",
        "cannot reach twoclocks at http://127.0.0.1:9" in seen
        or "server at http://127.0.0.1:9 is not answering" in seen,
        seen.split("MCP server stderr", 1)[-1].strip()[:160],
    )


def check_codex_tool(setup: Setup, codex: str) -> None:
    """A real shell command run by Codex, its model a stand-in (ci/fake_responses_api.py)."""
    run, twoclocks, env = setup.run, setup.twoclocks, setup.env
    project, url, data_dir = setup.project, setup.url, setup.data_dir
    from fake_responses_api import CALL_ID, FakeResponsesApi

    written = ("clients-check-codex", "written_from", "the shell of codex")
    command = failing_remember(twoclocks, written)
    prompt = "run the scripted shell command"
    with FakeResponsesApi(command) as api:
        # No sandbox: Codex's would cut the command off from the server on loopback.
        args = [codex, "exec", "--skip-git-repo-check"]
        args += ["--dangerously-bypass-approvals-and-sandbox", *api.codex_options(), prompt]
        done = sh(args, env, project, timeout=120)
    got = stored_as(twoclocks, env, project, written[0])
    run.check(
        "codex exec, stand-in model: its shell's `twoclocks remember --tier asserted` is "
        "stored as the agent's (CODEX_THREAD_ID)",
        got == [("inferred", "agent")],
        f"stored {got or 'nothing'}; codex said {done.stdout.strip()[-40:]!r}",
    )
    run.check(
        "codex exec, stand-in model: the model's first request holds the block (SessionStart)",
        *block_in(api.requests),
    )
    failed = episodes_holding(
        url, data_dir, project, "the shell of codex", CALL_ID, '"twoclocks_exit_code": 3'
    )
    turns = episodes_holding(url, data_dir, project, prompt, prompt, source="turn:codex")
    run.check(
        "codex exec, stand-in model: the failed command's PostToolUse carries its exit "
        "status (read from the rollout), and the turn is stored",
        failed == 1 and turns == 1,
        f"{failed} PostToolUse episode(s) with {CALL_ID} and exit 3, {turns} turn(s)",
    )


PATCHED = "notes/from-codex.md"
PATCH = f"*** Begin Patch\n*** Add File: {PATCHED}\n+written by apply_patch\n*** End Patch\n"


def check_codex_patch(setup: Setup, codex: str) -> None:
    """Codex's own `apply_patch` tool: its PostToolUse payload names the file it edited."""
    run, twoclocks, env = setup.run, setup.twoclocks, setup.env
    project, url, data_dir = setup.project, setup.url, setup.data_dir
    from fake_responses_api import FakeResponsesApi

    catalog = Path(env["HOME"]) / "stand-in-models.json"
    with FakeResponsesApi(patch=PATCH) as api:
        args = [codex, "exec", "--skip-git-repo-check"]
        args += ["--dangerously-bypass-approvals-and-sandbox", *api.codex_options(catalog)]
        done = sh([*args, "add the scripted note"], env, project, timeout=120)
    out = done.stdout + done.stderr
    edited: list[str] = []
    deadline = time.monotonic() + 10  # the capture is stored after the hook answers
    while PATCHED not in edited and time.monotonic() < deadline:
        time.sleep(0.5)
        listed = sh([twoclocks, "facts", "--all-workspaces", "--json"], env, project).stdout
        facts = json.loads(listed)["facts"] if listed.strip().startswith("{") else []
        edited = [f["object"] for f in facts if f["predicate"] == "edited_file"]
    run.check(
        "codex exec, stand-in model: its apply_patch tool writes the file, and the "
        "PostToolUse capture stores the file it edited",
        (project / PATCHED).is_file() and PATCHED in edited,
        f"file {'written' if (project / PATCHED).is_file() else 'missing'}; edited_file "
        f"{edited or 'none'}; " + " / ".join(hook_lines(out, ("PostToolUse",))[:2]),
    )
