"""The web screen: the page at / and its bundled assets at /static (DESIGN.md §7).

The assets are built from web/ by `make install` (Node) into api/static/, which ships in
the wheel; a checkout that has not built them gets a page saying so instead of a blank one.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, HTMLResponse

STATIC_DIR = Path(__file__).parent / "static"

NOT_BUILT_PAGE = (
    "<!doctype html><title>twoclocks</title><h1>Web assets not built</h1>"
    "<p>The web screen is built from <code>web/</code> with Node: run <code>make install</code> "
    "in the checkout, then reload. The API at <code>/v1</code> works without it.</p>"
)

# Only the files the build writes are served, so no path from the URL reaches the disk.
ASSET_TYPES = {"app.js": "text/javascript"}

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
