"""Translate errors to HTTP at the edge: ``{"error": "<TypeName>", "message": "<what to do>"}``."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from twoclocks.domain.errors import TwoclocksError


def error_body(name: str, message: str) -> dict[str, str]:
    """The one error shape of the API."""
    return {"error": name, "message": message}


def _describe(errors: list[Any]) -> str:
    parts = []
    for err in errors[:5]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p not in ("body", "query", "path"))
        msg = err.get("msg", "invalid")
        if err.get("type") == "extra_forbidden":
            msg = "unknown field: remove it (see /docs for the fields this call takes)"
        parts.append(f"{where or 'body'}: {msg}")
    return "; ".join(parts)


def install_error_handlers(app: FastAPI) -> None:
    """Every failure leaves as the one error shape, never a stack trace."""

    @app.exception_handler(TwoclocksError)
    async def _ours(_: Request, exc: TwoclocksError) -> JSONResponse:
        return JSONResponse(error_body(exc.name, exc.message), status_code=exc.http_status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = list(exc.errors())
        # A domain error raised inside a validator keeps its own name and message.
        for err in errors:
            cause = (err.get("ctx") or {}).get("error")
            if isinstance(cause, TwoclocksError):
                return JSONResponse(error_body(cause.name, cause.message), status_code=422)
        return JSONResponse(error_body("InvalidInput", _describe(errors)), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        names = {404: "NotFound", 405: "MethodNotAllowed", 413: "BodyTooLarge", 401: "Unauthorized"}
        return JSONResponse(
            error_body(names.get(exc.status_code, "HTTPError"), str(exc.detail)),
            status_code=exc.status_code,
        )

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
        return JSONResponse(
            error_body("InternalError", f"{type(exc).__name__}: the server failed; see its log"),
            status_code=500,
        )
