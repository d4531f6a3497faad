"""Which coding agent started the shell a command runs in, from the variables it sets there.

An agent with a shell (Claude Code's Bash tool, Codex's shell, Cursor's agent terminal)
can run the CLI, and the CLI reads the person's key file: the key alone cannot tell who
typed the command. So the CLI says where it runs (channel ``shell``) and the server
records the call as the agent's (``domain.trust.writer_of``): a fact it writes is the
agent's, a merge it makes teaches no other subject, and keys are refused. This keeps an
agent's acts its own by default; an agent bent on passing as the person can unset the
variable or read the key file, so the operating system's user stays the wall
(docs/SECURITY.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from twoclocks.clients import claude_code, codex, cursor

SHELL_VARIABLES: dict[str, tuple[str, ...]] = {
    "Claude Code": claude_code.SHELL_VARIABLES,
    "Codex": codex.SHELL_VARIABLES,
    "Cursor": cursor.SHELL_VARIABLES,
}
"""Each client by name, with the variables that mark a shell its agent started."""


@dataclass(frozen=True)
class AgentShell:
    """The agent whose shell this is, and the variable that says so."""

    client: str
    variable: str

    def note(self) -> str:
        """What the CLI tells whoever runs it there."""
        return (
            f"run from {self.client}'s shell ({self.variable} is set): twoclocks acts as the "
            "agent here (its facts are the agent's, it may not manage keys); run it in your "
            "own terminal to act as you"
        )


def agent_shell(environ: Mapping[str, str]) -> AgentShell | None:
    """The agent that started this shell, when one of the clients' variables is set.

    >>> agent_shell({"CLAUDECODE": "1", "HOME": "/home/ana"})
    AgentShell(client='Claude Code', variable='CLAUDECODE')
    >>> agent_shell({"CODEX_THREAD_ID": ""}) is None  # set but empty: not a mark
    True
    """
    for client, variables in SHELL_VARIABLES.items():
        for variable in variables:
            if environ.get(variable):
                return AgentShell(client, variable)
    return None


def cli_channel(shell: AgentShell | None) -> str:
    """The channel the CLI's calls name: ``shell`` in a shell an agent started, else ``cli``.

    The server lowers a ``shell`` call to the agent (``domain.trust.writer_of``).
    """
    return "shell" if shell is not None else "cli"
