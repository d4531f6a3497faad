"""The agent key `twoclocks install` makes: what the hooks and MCP send, so the person's
key stays with the CLI and the web screen (issue 15 point 4).

The key is made on the server with the person's key (POST /v1/keys, role agent, name
``agents``) and kept in ``<data dir>/agent-key``, mode 0600, beside the person's key file.
Installing a second client reuses it; when the file is gone but the key is not, the key is
rotated, so exactly one live secret exists and it is in the file. `twoclocks uninstall` of
the last installed client revokes it (``revoke_agent_key``) and removes the file.
"""

from __future__ import annotations

from twoclocks.bootstrap import cli_channel
from twoclocks.client import Client
from twoclocks.client_file import AGENT_KEY_FILE, Target, write_key_file
from twoclocks.domain.errors import InvalidInput, KeyNotFound, TwoclocksError

AGENT_KEY_NAME = "agents"
"""The name of the key every installed client on this machine shares."""

REVOKE_LATER = f"twoclocks keys revoke {AGENT_KEY_NAME}"
"""The command that revokes the agent key by hand (with the person's key, server up)."""


def ensure_agent_key(target: Target, dry_run: bool = False) -> str:
    """Make (or reuse) the agent key and write its file; one report line saying which."""
    path = target.data_dir / AGENT_KEY_FILE
    if path.exists():
        return f"unchanged  {path}: the agent key MCP and the hooks send"
    if dry_run:
        return f"would create  {path}: an agent key for MCP and the hooks"
    person = Client(target.url, target.key, channel=cli_channel(), data_dir=target.data_dir)
    try:
        try:
            made = person.call("POST", "/v1/keys", {"name": AGENT_KEY_NAME, "role": "agent"})
        except InvalidInput:  # the key exists but its file was lost: a new secret
            made = person.call("POST", f"/v1/keys/{AGENT_KEY_NAME}/rotate")
    except TwoclocksError as exc:
        return (
            f"skipped  {path}: no agent key made ({exc.name}: {exc.message}); until there is "
            "one, MCP and the hooks send the person's key, which the server lowers to agent "
            "or tool rule there; run `twoclocks install` again with the server up"
        )
    write_key_file(path, str(made["key"]))
    return f"created  {path}: agent key {AGENT_KEY_NAME!r} (MCP and the hooks send it)"


def revoke_agent_key(target: Target, dry_run: bool = False) -> str:
    """Revoke the agent key (as `twoclocks keys revoke` does) and remove its file; one line.

    The file goes even when the server cannot revoke the key: the line then says so and
    names the command that revokes it later.
    """
    path = target.data_dir / AGENT_KEY_FILE
    if not path.exists():
        return f"unchanged  {path}: no agent key file"
    if dry_run:
        return f"would revoke  agent key {AGENT_KEY_NAME!r} and remove {path}"
    person = Client(target.url, target.key, channel=cli_channel(), data_dir=target.data_dir)
    try:
        person.call("POST", f"/v1/keys/{AGENT_KEY_NAME}/revoke")
        done = f"revoked agent key {AGENT_KEY_NAME!r}"
    except KeyNotFound:  # revoked already (by hand, or by an uninstall elsewhere)
        done = f"agent key {AGENT_KEY_NAME!r} was revoked already"
    except TwoclocksError as exc:
        path.unlink(missing_ok=True)
        return (
            f"removed  {path}, but the agent key {AGENT_KEY_NAME!r} could NOT be revoked "
            f"({exc.name}: {exc.message}); it still works until revoked: with the server up, "
            f"run `{REVOKE_LATER}`"
        )
    path.unlink(missing_ok=True)
    return f"removed  {path}: {done}"
