"""A small OpenAI-compatible chat server with scripted answers, served on a free port.

The extractor model is an external service, so the tests drive the real HTTP client
against this stand-in: each request is recorded, each answer comes from the script.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

Answer = tuple[int, str] | Callable[[dict[str, Any]], tuple[int, str]]


def facts(*items: dict[str, Any]) -> tuple[int, str]:
    """A 200 answer whose content is ``{"facts": [...]}``."""
    return 200, json.dumps({"facts": list(items)})


def fact(subject: str, predicate: str, obj: str, **more: Any) -> dict[str, Any]:
    """One fact as a model writes it (kind fact, class project, category general)."""
    return {"subject": subject, "predicate": predicate, "object": obj, "kind": "fact",
            "class": "project", "category": "general", **more}  # fmt: skip


@dataclass
class FakeLLM:
    """The script (answers in order; the last repeats) and what the server was sent."""

    script: list[Answer] = field(default_factory=lambda: [facts()])
    requests: list[dict[str, Any]] = field(default_factory=list)
    url: str = ""
    delays: list[float] = field(default_factory=list)
    """Seconds to wait before answering the 1st, 2nd, ... request (a slow model)."""

    def answer(self, body: dict[str, Any]) -> tuple[int, str]:
        step = self.script[min(len(self.requests) - 1, len(self.script) - 1)]
        return step(body) if callable(step) else step


async def _chat(request: Request) -> Response:
    llm: FakeLLM = request.app.state.llm
    body = await request.json()
    llm.requests.append(body)
    if len(llm.requests) <= len(llm.delays):
        await asyncio.sleep(llm.delays[len(llm.requests) - 1])
    status, content = llm.answer(body)
    if status != 200:
        return JSONResponse({"error": {"message": content}}, status_code=status)
    reply = {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}
    return JSONResponse(reply)


@asynccontextmanager
async def serving(llm: FakeLLM) -> AsyncIterator[FakeLLM]:
    """Serve ``llm`` until the block ends; ``llm.url`` is its …/v1 base URL."""
    import uvicorn

    app = Starlette(routes=[Route("/v1/chat/completions", _chat, methods=["POST"])])
    app.state.llm = llm
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        llm.url = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
        yield llm
    finally:
        server.should_exit = True
        await task
        sock.close()
