"""The web screen: the page at / and its bundled assets at /static (DESIGN.md §7).

The assets are built from web/ by `make install` (Node) into api/static/, which ships in
the wheel; a checkout that has not built them gets a page saying so instead of a blank one.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from twoclocks.api.routes import CallerDep
from twoclocks.domain.errors import KeysNotAllowed
from twoclocks.domain.trust import Writer
from twoclocks.service.ui_tokens import UiTokens

STATIC_DIR = Path(__file__).parent / "static"

NOT_BUILT_PAGE = (
    "<!doctype html><title>twoclocks</title><h1>Web assets not built</h1>"
    "<p>The web screen is built from <code>web/</code> with Node: run <code>make install</code> "
    "in the checkout, then reload. The API at <code>/v1</code> works without it.</p>"
)

# Only the files the build writes are served, so no path from the URL reaches the disk.
# The graph explorer (with its graph library) is its own bundle, loaded on first use, so
# the memory screen's first load stays small.
ASSET_TYPES = {"app.js": "text/javascript", "graph.js": "text/javascript"}

web_router = APIRouter(include_in_schema=False)


@web_router.get("/", response_model=None)
async def page() -> HTMLResponse | FileResponse:
    """The web screen, or a page saying how to build it."""
    index = STATIC_DIR / "index.html"
    if not index.is_file():
        return HTMLResponse(NOT_BUILT_PAGE, status_code=503)
    return FileResponse(index, media_type="text/html")


@web_router.get("/static/{name}")
async def asset(name: str) -> FileResponse:
    """One built asset of the web screen."""
    path = STATIC_DIR / name
    if name not in ASSET_TYPES or not path.is_file():
        raise HTTPException(status_code=404, detail=f"no web asset {name!r}")
    return FileResponse(path, media_type=ASSET_TYPES[name])


class UiToken(BaseModel):
    """A one-time sign-in token for the web screen."""

    token: str = Field(description="redeem once at POST /v1/ui-token/redeem within 60 s")


class RedeemRequest(BaseModel):
    """Body of POST /v1/ui-token/redeem."""

    model_config = ConfigDict(extra="forbid")

    token: str = Field(max_length=128, description="the token from POST /v1/ui-token")


class RedeemedKey(BaseModel):
    """The account key a token was minted for, for the page's session storage."""

    key: str


ui_token_router = APIRouter(prefix="/v1", tags=["web"])

_LOOPBACK = {"127.0.0.1", "::1", "localhost"}


def _tokens(request: Request) -> UiTokens:
    tokens: UiTokens | None = getattr(request.app.state, "ui_tokens", None)
    if tokens is None:
        tokens = request.app.state.ui_tokens = UiTokens()
    return tokens


@ui_token_router.post("/ui-token", response_model=UiToken)
async def mint_ui_token(request: Request, who: CallerDep) -> UiToken:
    """A one-time token that signs the web screen in (`twoclocks ui`); loopback callers only."""
    if request.client is None or request.client.host not in _LOOPBACK:
        raise HTTPException(
            status_code=403,
            detail="sign-in tokens are minted for loopback callers only: "
            "sign in on the page with the account key",
        )
    if who.writer is not Writer.PERSON:
        # The page acts as whoever its key is: only the person's key may sign it in.
        raise KeysNotAllowed(
            "only the person's key signs the web screen in: run `twoclocks ui` with the "
            "person's key (the CLI's key file), not an agent key"
        )
    key = request.headers["authorization"].partition(" ")[2].strip()
    return UiToken(token=_tokens(request).mint(key, datetime.now(UTC)))


@ui_token_router.post("/ui-token/redeem", response_model=RedeemedKey)
async def redeem_ui_token(body: RedeemRequest, request: Request) -> RedeemedKey:
    """Spend a one-time token for the account key it was minted for."""
    return RedeemedKey(key=_tokens(request).redeem(body.token, datetime.now(UTC)))
