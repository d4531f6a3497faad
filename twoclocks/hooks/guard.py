"""The guard every hook process runs under: a time backstop, and nothing escapes.

A client runs a hook for each event and waits on it (Claude Code blocks session start
on it, Codex runs Stop in turn), so a hook process must end on time and exit 0 whatever
happens: a broken memory must never block unrelated work. The socket timeouts bound
each request; the backstop here bounds the whole process, should anything outlive them
(a DNS lookup, a slow disk, a fsync). Standard library only, like every hook.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Callable
from typing import Any


class Deadline(BaseException):
    """Raised in the hook's main thread when its backstop expires, or when the client ends
    the hook with SIGTERM (Claude Code's ``-p`` kills async hooks still running at teardown).

    A BaseException, so that no ``except Exception`` on the way swallows it; the hook's
    own failure handler catches it by name and logs it as a ``Timeout``.
    """


def _expire(_signum: int, _frame: Any) -> None:
    raise Deadline()


def arm(seconds: float) -> None:
    """Start the backstop: ``Deadline`` is raised in the main thread after ``seconds``.

    ``seconds <= 0`` arms nothing (``drain`` run by hand may take as long as it needs).
    """
    if seconds <= 0 or not hasattr(signal, "setitimer"):
        return  # Windows: the socket timeouts alone bound the wait
    try:
        signal.signal(signal.SIGALRM, _expire)
        signal.signal(signal.SIGTERM, _expire)
    except ValueError:
        return  # not the main thread (a test's worker): same
    signal.setitimer(signal.ITIMER_REAL, seconds)


def disarm() -> None:
    """Stop the backstop; SIGTERM ends the process again."""
    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, 0)
    _on_sigterm(signal.SIG_DFL)


def shelter() -> None:
    """Let the next few milliseconds of work finish: the backstop stops and SIGTERM is
    ignored until ``disarm``. For saving an event that is about to be cut short; SIGKILL
    still ends the process."""
    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, 0)
    _on_sigterm(signal.SIG_IGN)


def _on_sigterm(handler: signal.Handlers) -> None:
    with contextlib.suppress(ValueError):  # not the main thread: nothing to change
        signal.signal(signal.SIGTERM, handler)


def run_guarded(work: Callable[[], object], seconds: float) -> int:
    """Run one hook's work under a ``seconds`` backstop; always returns 0 (the exit code).

    Nothing escapes, not even Ctrl-C: the work logs its own failures (hooks.log) before
    they reach here, and what still arrives is dropped rather than shown to the client.
    """
    try:
        arm(seconds)
        work()
    except BaseException:
        pass
    finally:
        disarm()
    return 0
