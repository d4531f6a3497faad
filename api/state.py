"""Where a request finds the running service (set by the app factory)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import Request

from twoclocks.domain.errors import StoreUnavailable

if TYPE_CHECKING:
    from twoclocks.bootstrap import Runtime


def runtime_of(request: Request) -> Runtime:
    """The Runtime the app was started with; 503 while it is still starting."""
    runtime: Runtime | None = getattr(request.app.state, "runtime", None)
    if runtime is None:
        raise StoreUnavailable("the service is still starting: retry in a few seconds")
    return runtime
