"""A stand-in for a call that drops a cancel once, as asyncio.wait_for did on Python 3.11.

Its first call sets ``entered`` and waits; a cancel then is swallowed and the call returns
``result`` as if it had finished. Later calls return ``result`` at once. Loops that stop by
cancelling their task must still stop.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")


def dropping_one_cancel(result: T) -> tuple[asyncio.Event, Callable[..., Awaitable[T]]]:
    """The event set on the first call, and the stand-in (any arguments) returning ``result``."""
    entered = asyncio.Event()

    async def call(*_args: Any, **_kwargs: Any) -> T:
        if not entered.is_set():
            entered.set()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(30)
        return result

    return entered, call
