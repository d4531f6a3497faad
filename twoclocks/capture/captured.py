"""What a capture rule reads and writes: the fact it captured, the context it reads, and a
shell line's words (no model, no I/O)."""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from twoclocks.capture.events import ToolEvent
from twoclocks.domain.model import MAX_TEXT, Cardinality, FactClass, Kind


class CapturedFact(BaseModel):
    """A fact a rule read off a tool event, before it is written (observed tier)."""

    model_config = ConfigDict(frozen=True)

    rule: str
    subject: str
    predicate: str
    object: str
    kind: Kind = Kind.FACT
    cardinality: Cardinality | None = None
    fact_class: FactClass = FactClass.TASK
    category: str
    ends: tuple[str, ...] = ()
    """Slots of the same subject whose current value the event makes old news, ended when
    this fact is written: the whole suite's result ends the last result of a part of it."""
    read_off: bool = False
    """True for a state the event only reads (the default branch a command prints, the
    branch a commit names, a HEAD): it held before, so its start is not stated. Else the
    event made it true (a checkout, a test run): it starts when the event is written."""


class RuleContext(BaseModel):
    """What a rule knows beyond the event: the repo's name, where the worktree is, and this
    session's earlier failures."""

    model_config = ConfigDict(frozen=True)

    repo: str
    failures_before: int = 0
    top: str | None = None
    """The worktree's top folder (its real path), where it is known."""
    cwd: str | None = None
    """The event's working directory (its real path), where it is known."""


Rule = Callable[[ToolEvent, RuleContext], list[CapturedFact]]

_CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|[\x00-\x08\x0b-\x1f\x7f]")
_URL_CREDENTIALS = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@]+@")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "fish"})
_SCRIPT = frozenset({"-c", "-lc", "-ic", "-lic", "-ilc"})


def clean(text: str, limit: int = 200) -> str:
    """One line, no terminal escapes or control characters, at most ``limit`` characters."""
    line = " ".join(_CONTROL.sub(" ", text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def strip_credentials(text: str) -> str:
    """Remove ``user:password@`` (or a bare token) from every URL in ``text``.

    >>> strip_credentials("git push https://me:ghp_abc@github.com/acme/web.git main")
    'git push https://github.com/acme/web.git main'
    """
    return _URL_CREDENTIALS.sub(r"\1", text)


def segments(command: str) -> list[list[str]]:
    """The simple commands of a shell line, as words, leading ``VAR=value`` dropped."""
    out: list[list[str]] = []
    for part in re.split(r"&&|\|\||;|\n|\|", command):
        try:
            words = shlex.split(part, comments=False)
        except ValueError:
            words = part.split()
        while words and _ASSIGNMENT.match(words[0]):
            words = words[1:]
        if len(words) >= 3 and os.path.basename(words[0]) in _SHELLS and words[1] in _SCRIPT:
            out += segments(words[2])  # bash -lc "cargo test": the script is the command
        elif words:
            out.append(words)
    return out


def captured_fact(rule: str, ctx: RuleContext, predicate: str, obj: str, **kw: Any) -> CapturedFact:
    """A fact about the repo (``subject`` in ``kw`` names another), its value made one line."""
    kw.setdefault("subject", ctx.repo)
    return CapturedFact(rule=rule, predicate=predicate, object=clean(obj, MAX_TEXT), **kw)


def option_value(args: Sequence[str], *names: str) -> str | None:
    """The value given to the first of ``names`` in ``args`` (``-C dir``, ``--dir=web``)."""
    for i, arg in enumerate(args):
        for name in names:
            if arg == name and i + 1 < len(args):
                return args[i + 1]
            if name.startswith("--") and arg.startswith(name + "="):
                return arg.split("=", 1)[1]
    return None
