"""Which coding agent started a shell (twoclocks/clients/shells.py)."""

from __future__ import annotations

from twoclocks.clients import shells
from twoclocks.clients.shells import AgentShell, agent_shell
from twoclocks.install import CLIENTS


def test_every_installable_client_names_the_variables_of_its_agents_shell() -> None:
    assert len(shells.SHELL_VARIABLES) == len(CLIENTS)
    assert all(shells.SHELL_VARIABLES.values())


def test_each_clients_variable_names_that_client_and_a_persons_terminal_names_none() -> None:
    assert agent_shell({"CLAUDECODE": "1"}) == AgentShell("Claude Code", "CLAUDECODE")
    assert agent_shell({"CODEX_THREAD_ID": "019a"}) == AgentShell("Codex", "CODEX_THREAD_ID")
    assert agent_shell({"CURSOR_AGENT": "1"}) == AgentShell("Cursor", "CURSOR_AGENT")
    terminal = {"HOME": "/home/ana", "TERM_PROGRAM": "vscode", "SHELL": "/bin/zsh"}
    assert agent_shell(terminal) is None


def test_the_note_says_who_acts_and_how_to_act_as_yourself() -> None:
    note = AgentShell("Codex", "CODEX_THREAD_ID").note()
    assert note.startswith("run from Codex's shell (CODEX_THREAD_ID is set)")
    assert "acts as the agent" in note and "your own terminal" in note
