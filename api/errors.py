"""Translate errors to HTTP at the edge: ``{"error": "<TypeName>", "message": "<what to do>"}``."""

from __future__ import annotations

import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from twoclocks.api.body import is_json
from twoclocks.domain.errors import TwoclocksError
from twoclocks.service.invalid_input import field_message

_ENUM_REPR = re.compile(r"<\w+\.\w+: ('[^']*')>")
"""How pydantic shows an enum member in a Literal, ``<RetiredReason.ENDED: 'ended'>``."""


def error_body(name: str, message: str) -> dict[str, str]:
    """The one error shape of the API."""
    return {"error": name, "message": message}


def _describe(errors: list[Any]) -> str:
    parts = []
    for err in errors[:5]:
        loc = tuple(err.get("loc", ()))
        # The first part says where the input was (body, query string, path); a field may
        # be named "query" too (recall's question), so only the first part is dropped.
        fields = loc[1:] if loc[:1] and loc[0] in ("body", "query", "path") else loc
        where = ".".join(str(p) for p in fields)
        # A rule of ours (a validator's ValueError) reads as its own sentence.
        msg = _ENUM_REPR.sub(r"\1", field_message(err)).removeprefix("Value error, ")
        if err.get("type") == "extra_forbidden":
            msg = "unknown field: remove it (see /docs for the fields this call takes)"
        if err.get("type") == "json_invalid":
            # loc is ("body", <character offset>): a position, not a field.
            cause = (err.get("ctx") or {}).get("error", "not JSON")
            at = err.get("loc", ("body", "?"))[-1]
            parts.append(
                f"the body is not valid JSON ({cause} at character {at}): "
                'send one JSON object, e.g. {"subject": "api", ...}'
            )
            continue
        # A rule over several fields has no field: say where the input was (query, body).
        parts.append(f"{where or (tuple(err.get('loc', ())) or ('body',))[0]}: {msg}")
    return "; ".join(parts)


def _about_the_body(errors: list[Any]) -> bool:
    return any(tuple(err.get("loc", ()))[:1] == ("body",) for err in errors)


async def _unauthenticated(request: Request) -> JSONResponse | None:
    """The 401 a /v1 call without a valid key gets, before anything is said about its body.

    FastAPI reads and validates the body before the key's dependency runs; a caller with no
    key learns nothing about the API's shapes, and fixes the key first.
    """
    if not request.url.path.startswith("/v1/"):
        return None
    from twoclocks.api.routes import caller

    try:
        await caller(request)
    except TwoclocksError as exc:
        return JSONResponse(error_body(exc.name, exc.message), status_code=exc.http_status)
    return None


def install_error_handlers(app: FastAPI) -> None:
    """Every failure leaves as the one error shape, never a stack trace."""

    @app.exception_handler(TwoclocksError)
    async def _ours(_: Request, exc: TwoclocksError) -> JSONResponse:
        return JSONResponse(error_body(exc.name, exc.message), status_code=exc.http_status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        refused = await _unauthenticated(request)
        if refused is not None:
            return refused
        errors = list(exc.errors())
        content_type = request.headers.get("content-type", "")
        if content_type and not is_json(content_type) and _about_the_body(errors):
            return JSONResponse(
                error_body(
                    "UnsupportedMediaType",
                    f"the body is {content_type.split(';')[0]}, and this API reads JSON only: "
                    "send it with Content-Type: application/json",
                ),
                status_code=415,
            )
        # A domain error raised inside a validator keeps its own name and message.
        for err in errors:
            cause = (err.get("ctx") or {}).get("error")
            if isinstance(cause, TwoclocksError):
                return JSONResponse(error_body(cause.name, cause.message), status_code=422)
        return JSONResponse(error_body("InvalidInput", _describe(errors)), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        names = {
            400: "BadRequest",
            404: "NotFound",
            405: "MethodNotAllowed",
            413: "BodyTooLarge",
            401: "Unauthorized",
            415: "UnsupportedMediaType",
        }
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
