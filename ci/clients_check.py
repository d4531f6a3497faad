"""`make clients-check`: twoclocks against the real clients, as a new user would set it up.

Opt-in (it downloads the clients from npm; `make test` never runs it). It:

1. installs @anthropic-ai/claude-code, @openai/codex and @modelcontextprotocol/inspector
   into a local prefix (build/clients), unless they are there already;
2. starts `twoclocks serve` on a temporary data dir and a non-default port, with its own
   HOME, so the only way a client can find it is the client file `serve` writes;
3. for each client, a fresh HOME holding only that client file (what one person's
   machine has), `twoclocks install <client>`, and the client's own commands, with no
   TWOCLOCKS_* variable exported anywhere;
4. stops the server and checks that the clients and `twoclocks doctor` say so.

Prints one line per check and writes the same as markdown to build/clients/results.md
(docs/clients.md records a run). Exit status 1 when any check fails.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("@anthropic-ai/claude-code", "@openai/codex", "@modelcontextprotocol/inspector")
FACT = ("ci", "ci_provider", "GitHub Actions")


class Run:
    """The checks so far, printed as they pass or fail."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, bool, str]] = []

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        self.rows.append((name, ok, detail))
        print(f"{'PASS' if ok else 'FAIL'}  {name}" + (f"  ({detail})" if detail else ""))
        return ok

    def markdown(self, versions: dict[str, str]) -> str:
        lines = ["| client | version |", "|---|---|"]
        lines += [f"| {k} | {v} |" for k, v in versions.items()]
        lines += ["", "| check | result | detail |", "|---|---|---|"]
        for name, ok, detail in self.rows:
            lines.append(f"| {name} | {'pass' if ok else 'FAIL'} | {detail.replace('|', '/')} |")
        return "\n".join(lines) + "\n"


def sh(
    args: list[str], env: dict[str, str], cwd: Path, timeout: float = 120, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """Run a client command; a timeout is an answer too (rc 124, output so far)."""
    try:
        return subprocess.run(
            args, env=env, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else exc.stdout or ""
        err = exc.stderr.decode() if isinstance(exc.stderr, bytes) else exc.stderr or ""
        return subprocess.CompletedProcess(args, 124, out, err)


def install_clients(prefix: Path, reinstall: bool) -> Path:
    bin_dir = prefix / "node_modules" / ".bin"
    if reinstall or not all((bin_dir / b).exists() for b in ("claude", "codex", "mcp-inspector")):
        prefix.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund", *PACKAGES],
            check=True,
        )
    return bin_dir


def versions(bin_dir: Path, env: dict[str, str], cwd: Path) -> dict[str, str]:
    inspector = json.loads(
        (bin_dir.parent / "@modelcontextprotocol" / "inspector" / "package.json").read_text()
    )["version"]
    return {
        "Claude Code": sh([str(bin_dir / "claude"), "--version"], env, cwd).stdout.strip(),
        "Codex CLI": sh([str(bin_dir / "codex"), "--version"], env, cwd).stdout.strip(),
        "MCP Inspector": inspector,
        "node": sh(["node", "--version"], env, cwd).stdout.strip(),
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_ready(url: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return True
        except OSError:
            pass
        time.sleep(1)
    return False


def api_get(url: str, data_dir: Path, path: str) -> Any:
    """One GET of the API with the person's key (from the server's data dir), as JSON."""
    key = (data_dir / "key").read_text().strip()
    request = urllib.request.Request(url + path, headers={"Authorization": f"Bearer {key}"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def capture_stats(url: str, data_dir: Path) -> dict[str, dict[str, int]]:
    """Events per client and status the server counted (GET /v1/events/stats)."""
    stats = api_get(url, data_dir, "/v1/events/stats")
    return {c["client"]: c["events"] for c in stats.get("clients", [])}


def settled(url: str, data_dir: Path, client: str, seconds: float = 10) -> dict[str, int]:
    """The client's event counts once something arrived (async hooks finish after the client)."""
    deadline = time.monotonic() + seconds
    while True:
        counts = capture_stats(url, data_dir).get(client, {})
        if counts or time.monotonic() > deadline:
            return counts
        time.sleep(0.5)


def hook_lines(text: str, events: tuple[str, ...]) -> list[str]:
    """Debug-log lines that mention one of our hook events running."""
    return [
        ln.strip()
        for ln in text.splitlines()
        if any(e in ln for e in events) and ("hook" in ln.lower() or "Hook" in ln)
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prefix", type=Path, default=ROOT / "build" / "clients")
    parser.add_argument("--reinstall", action="store_true", help="npm install again")
    parser.add_argument("--keep", action="store_true", help="keep the temporary HOMEs")
    options = parser.parse_args()

    twoclocks = str(Path(sys.executable).with_name("twoclocks"))
    bin_dir = install_clients(options.prefix.resolve(), options.reinstall)
    work = Path(tempfile.mkdtemp(prefix="twoclocks-clients-"))
    project = work / "project"
    project.mkdir()
    base = {k: v for k, v in os.environ.items() if not k.lower().startswith(("twoclocks_", "xdg_"))}
    base["PATH"] = f"{bin_dir}:{Path(sys.executable).parent}:/usr/bin:/bin"
    base.pop("CLAUDE_CODE_ENTRYPOINT", None)
    # Run from an agent's shell, the CLI would act as the agent and `install` could make no
    # agent key: the check plays a person at a terminal (twoclocks/clients/shells.py).
    from twoclocks.clients.shells import SHELL_VARIABLES

    for variable in (v for group in SHELL_VARIABLES.values() for v in group):
        base.pop(variable, None)

    def home(name: str) -> dict[str, str]:
        path = work / name
        path.mkdir(exist_ok=True)
        return {**base, "HOME": str(path)}

    run = Run()
    server_env = home("server-home")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    data_dir = work / "data"
    log = (work / "serve.log").open("w")
    server = subprocess.Popen(
        [twoclocks, "serve", "--data-dir", str(data_dir), "--port", str(port)],
        env=server_env,
        cwd=project,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    found = versions(bin_dir, server_env, project)
    try:
        if not run.check("twoclocks serve is ready", wait_ready(url, 300), url):
            return 1
        announced = Path(server_env["HOME"]) / ".config" / "twoclocks" / "client.json"
        run.check("serve wrote the client file", announced.exists(), str(announced))

        def client_home(name: str) -> dict[str, str]:
            env = home(name)
            target = Path(env["HOME"]) / ".config" / "twoclocks"
            target.mkdir(parents=True, exist_ok=True)
            shutil.copy(announced, target / "client.json")
            return env

        cli = client_home("cli-home")
        stored = sh([twoclocks, "remember", *FACT, "--tier", "observed"], cli, project)
        run.check(
            "CLI with no exports stores a fact", stored.returncode == 0, stored.stdout.strip()
        )

        checks: list[Callable[[], None]] = []
        claude_env = client_home("claude-home")
        codex_env = client_home("codex-home")
        checks += [
            lambda: check_claude(run, bin_dir, twoclocks, claude_env, project, url, data_dir),
            lambda: check_codex(run, bin_dir, twoclocks, codex_env, project, url, data_dir),
            lambda: check_inspector(
                run, bin_dir, twoclocks, client_home("inspector-home"), project, url
            ),
            lambda: check_cursor(run, twoclocks, client_home("cursor-home"), project),
        ]
        for step in checks:
            step()
    finally:
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        log.close()

    listed = sh([str(bin_dir / "claude"), "mcp", "list"], claude_env, project)
    line = next((ln for ln in listed.stdout.splitlines() if ln.startswith("twoclocks:")), "")
    run.check("server down: `claude mcp list` says twoclocks failed", "Failed" in line, line)
    doctor = sh([twoclocks, "doctor"], claude_env, project, timeout=60)
    first = doctor.stdout.splitlines()[0] if doctor.stdout else doctor.stderr
    run.check(
        "server down: `twoclocks doctor` exits 1 and says how to start it",
        doctor.returncode == 1 and "twoclocks serve" in first,
        first,
    )
    results = options.prefix / "results.md"
    results.write_text(run.markdown(found))
    print(f"\n{results}:\n" + results.read_text())
    if not options.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if all(ok for _, ok, _ in run.rows) else 1


def check_claude(
    run: Run,
    bin_dir: Path,
    twoclocks: str,
    env: dict[str, str],
    project: Path,
    url: str,
    data_dir: Path,
) -> None:
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
    check_claude_tool(run, claude, twoclocks, env, project, url, data_dir)

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


def check_claude_tool(
    run: Run,
    claude: str,
    twoclocks: str,
    env: dict[str, str],
    project: Path,
    url: str,
    data_dir: Path,
) -> None:
    """A real tool run by Claude Code, its model a stand-in (ci/fake_messages_api.py)."""
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
        *delivered_before_exit(url, data_dir, prompt),
    )
    tool = "mcp__twoclocks__recall"
    with FakeMessagesApi(tool=tool, tool_input={"query": "which CI do we use"}) as api:
        stand_in = {**env, "ANTHROPIC_BASE_URL": api.url, "ANTHROPIC_API_KEY": "sk-stand-in"}
        sh([claude, "-p", "which CI do we use?", "--allowedTools", tool], stand_in, project)
        seen = next((r for r in map(api.tool_result, reversed(api.requests)) if r), "")
    run.check(
        "claude -p, stand-in model: its MCP tool recall (stdio, the agent key) answers with "
        "the fact the CLI stored",
        FACT[2] in seen and '"status":"rows"' in seen.replace(" ", ""),
        first_fact(seen),
    )


def failing_remember(twoclocks: str, written: tuple[str, str, str]) -> str:
    """A shell command that writes ``written`` asserted, as a person would, then fails: the
    tool event is a failure, which capture keeps as an episode (a plain success that names
    no rule is counted and dropped)."""
    return shlex.join([twoclocks, "remember", *written, "--tier", "asserted"]) + "; exit 3"


def stored_as(
    twoclocks: str, env: dict[str, str], project: Path, subject: str
) -> list[tuple[str, str | None]]:
    """(tier, writer) of each current fact of ``subject``, read with the person's CLI."""
    listed = sh([twoclocks, "facts", "--all-workspaces", "--json"], env, project).stdout
    facts = json.loads(listed)["facts"] if listed.strip().startswith("{") else []
    return [(f["tier"], f.get("writer")) for f in facts if f["subject"] == subject]


def block_in(requests: list[dict[str, Any]]) -> tuple[bool, str]:
    """Whether the first request a client sent its model carries the first-turn block with
    the fact the CLI stored: what the agent knows before the person's first word."""
    first = json.dumps(requests[0], ensure_ascii=False) if requests else ""
    ok = "[[CM-MEM]]" in first and FACT[2] in first
    return ok, (f"block and {FACT[2]!r} in the first request" if ok else "no block")


def first_fact(answer: str) -> str:
    """A recall answer's top fact as one line, or what came back instead."""
    try:
        top = json.loads(answer)["facts"][0]
        return f"top: {top['subject']} · {top['predicate']}: {top['object']} ({top['tier']})"
    except (ValueError, KeyError, IndexError, TypeError):
        return answer[:120] or "no tool result"


def episodes_holding(
    url: str, data_dir: Path, query: str, *texts: str, source: str | None = None
) -> int:
    """How many episodes GET /v1/episodes finds for ``query`` that hold every one of
    ``texts`` (and come from ``source``, when given)."""
    path = "/v1/episodes?" + urllib.parse.urlencode({"query": query, "k": 50})
    found = api_get(url, data_dir, path)["episodes"]
    return sum(
        1 for e in found if all(t in e["content"] for t in texts) and source in (None, e["source"])
    )


def delivered_before_exit(url: str, data_dir: Path, prompt: str) -> tuple[bool, str]:
    """Whether the failed Bash call and the finished turn were stored by the time
    `claude -p` exited: no drain, no wait, nothing left in the spool.

    A headless run exits right after its answer and kills plain ``async`` hooks;
    ``asyncRewake`` makes it wait for them (twoclocks/clients/files.py).
    """
    from fake_messages_api import TOOL_USE_ID

    spool = data_dir / "spool.jsonl"
    spooled = spool.exists() and TOOL_USE_ID in spool.read_text()
    failed = episodes_holding(
        url, data_dir, "the agent's Bash tool", TOOL_USE_ID, "PostToolUseFailure"
    )
    turns = episodes_holding(url, data_dir, prompt, prompt, source="turn:claude-code")
    detail = f"{failed} PostToolUseFailure episode(s) with {TOOL_USE_ID}, {turns} turn(s)" + (
        "; the tool event was spooled" if spooled else ""
    )
    return failed == 1 and turns == 1 and not spooled, detail


def check_codex(
    run: Run,
    bin_dir: Path,
    twoclocks: str,
    env: dict[str, str],
    project: Path,
    url: str,
    data_dir: Path,
) -> None:
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
    check_codex_tool(run, codex, twoclocks, env, project, url, data_dir)
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


def check_codex_tool(
    run: Run,
    codex: str,
    twoclocks: str,
    env: dict[str, str],
    project: Path,
    url: str,
    data_dir: Path,
) -> None:
    """A real shell command run by Codex, its model a stand-in (ci/fake_responses_api.py)."""
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
        url, data_dir, "the shell of codex", CALL_ID, '"twoclocks_exit_code": 3'
    )
    turns = episodes_holding(url, data_dir, prompt, prompt, source="turn:codex")
    run.check(
        "codex exec, stand-in model: the failed command's PostToolUse carries its exit "
        "status (read from the rollout), and the turn is stored",
        failed == 1 and turns == 1,
        f"{failed} PostToolUse episode(s) with {CALL_ID} and exit 3, {turns} turn(s)",
    )


def check_inspector(
    run: Run, bin_dir: Path, twoclocks: str, env: dict[str, str], project: Path, url: str
) -> None:
    inspector = str(bin_dir / "mcp-inspector")
    listed = sh([inspector, "--cli", twoclocks, "mcp", "--method", "tools/list"], env, project)
    names = [
        ln.split('"')[3] for ln in listed.stdout.splitlines() if ln.strip().startswith('"name"')
    ]
    run.check(
        "inspector --cli stdio tools/list (key from the client file)",
        set(names) == {"remember", "recall", "revise", "retract", "timeline", "search_episodes"},
        ", ".join(names),
    )
    recalled = sh(
        [
            inspector,
            "--cli",
            twoclocks,
            "mcp",
            "--method",
            "tools/call",
            "--tool-name",
            "recall",
            "--tool-arg",
            "query=which CI do we use",
        ],
        env,
        project,
    )
    run.check("inspector --cli stdio tools/call recall", FACT[2] in recalled.stdout, FACT[2])
    refused = sh(
        [inspector, "--cli", url + "/mcp", "--transport", "http", "--method", "tools/list"],
        env,
        project,
    )
    text = (refused.stdout + refused.stderr).strip().splitlines()
    detail = next((ln for ln in text if "Unauthorized" in ln), text[0] if text else "")
    run.check(
        "inspector --cli HTTP tools/list without a key: 401 Unauthorized",
        refused.returncode != 0 and "Unauthorized" in detail,
        detail[:160],
    )


def check_cursor(run: Run, twoclocks: str, env: dict[str, str], project: Path) -> None:
    sh([twoclocks, "install", "cursor"], env, project)
    doctor = sh([twoclocks, "doctor"], env, project, timeout=60).stdout
    line = next((ln for ln in doctor.splitlines() if "cursor:" in ln), "")
    run.check("cursor (config only, no client here): installed", line.startswith("✓"), line)
    sh([twoclocks, "mcp", "--cwd", "${workspaceFolder}"], env, project, timeout=30)
    doctor = sh([twoclocks, "doctor"], env, project, timeout=60).stdout
    line = next((ln for ln in doctor.splitlines() if "workspaceFolder" in ln), "")
    run.check(
        "doctor: unexpanded ${workspaceFolder} shown with its fix", "update Cursor" in line, line
    )


if __name__ == "__main__":
    sys.exit(main())
