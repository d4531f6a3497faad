"""Which statements run once more when their connection was lost (graph/lost_connection.py)."""

from __future__ import annotations

import pytest

from twoclocks.graph.lost_connection import run_once_more_if_lost

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Flaky:
    """Fails its first ``failures`` calls with ``error``, then answers how many it took."""

    def __init__(self, error: BaseException, failures: int = 1) -> None:
        self.error, self.failures, self.calls = error, failures, 0

    async def __call__(self) -> int:
        self.calls += 1
        if self.calls <= self.failures:
            raise self.error
        return self.calls


async def test_a_repeatable_statement_runs_again_on_a_fresh_connection() -> None:
    assert await run_once_more_if_lost(Flaky(ConnectionError()), True, (ConnectionError,)) == 2


async def test_a_statement_that_would_answer_differently_runs_once() -> None:
    once = Flaky(ConnectionError())
    with pytest.raises(ConnectionError):
        await run_once_more_if_lost(once, False, (ConnectionError,))
    assert once.calls == 1


async def test_a_server_still_down_fails_the_second_run_and_other_errors_are_not_retried() -> None:
    down = Flaky(ConnectionError(), failures=2)
    with pytest.raises(ConnectionError):
        await run_once_more_if_lost(down, True, (ConnectionError,))
    assert down.calls == 2
    wrong = Flaky(ValueError("bad statement"))
    with pytest.raises(ValueError):
        await run_once_more_if_lost(wrong, True, (ConnectionError,))
    assert wrong.calls == 1
