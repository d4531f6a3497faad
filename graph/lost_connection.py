"""A statement run once more when the connection under it was lost, on any engine.

After a server restart (or anything between closing idle connections) the pool holds
dead connections: the first use of each fails, the client drops it, and a second run
gets a fresh one. Only a ``repeatable`` statement is run twice: a read, or a write that
answers the same the second time. Each engine says which of its errors mean a dead
connection (graph/<engine>/).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


async def run_once_more_if_lost(
    call: Callable[[], Awaitable[T]],
    repeatable: bool,
    lost: tuple[type[BaseException], ...],
) -> T:
    """``call()``; when it is ``repeatable`` and fails with one of ``lost``, ``call()`` again.

    A server still down fails the second run too, and that error is the caller's.
    """
    if repeatable:
        try:
            return await call()
        except lost:
            pass
    return await call()
