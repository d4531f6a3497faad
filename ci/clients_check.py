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
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from check_claude import check_claude
from check_codex import check_codex
from client_runs import (
    FACT,
    ROOT,
    Run,
    Setup,
    free_port,
    install_clients,
    sh,
    versions,
    wait_ready,
)


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
        said = stored.stdout.strip().splitlines()
        run.check(
            "CLI with no exports stores a fact", stored.returncode == 0, said[0] if said else ""
        )

        checks: list[Callable[[], None]] = []
        claude_env = client_home("claude-home")
        codex_env = client_home("codex-home")
        checks += [
            lambda: check_claude(
                Setup(run, bin_dir, twoclocks, claude_env, project, url, data_dir)
            ),
            lambda: check_codex(Setup(run, bin_dir, twoclocks, codex_env, project, url, data_dir)),
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
