"""The turn extractor's client: any OpenAI-compatible ``/chat/completions`` endpoint.

Structured output first (``response_format: json_schema``); an endpoint that refuses it
(HTTP 400/422 naming response_format, or any 400 on the first try) is asked for
``json_object`` from then on. Timeouts, connection errors, 429 and 5xx are retried with
exponential backoff, then the call gives up with ExtractorUnavailable.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import httpx

from twoclocks.capture.turns import FACT_SCHEMA
from twoclocks.domain.errors import ExtractorUnavailable

log = logging.getLogger(__name__)

LOCAL_URL = "http://127.0.0.1:11434/v1"
"""``TWOCLOCKS_EXTRACTOR_URL=local``: Ollama's default OpenAI-compatible address."""

Sleep = Callable[[float], Awaitable[None]]


class Extractor:
    """Asks a chat model for a turn's facts; returns the answer's text (checked elsewhere)."""

    def __init__(
        self,
        url: str,
        model: str,
        key: str | None = None,
        *,
        timeout_s: float = 60.0,
        attempts: int = 3,
        backoff_s: float = 1.0,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.url = (LOCAL_URL if url.strip() == "local" else url.strip()).rstrip("/")
        self.model = model
        self.key = key
        self.timeout_s = timeout_s
        self.attempts = max(1, attempts)
        self.backoff_s = backoff_s
        self.transport = transport
        self.sleep = sleep
        self.structured = True
        """False once the endpoint refused ``json_schema``: then ``json_object`` is asked."""

    def _body(self, messages: Sequence[dict[str, str]]) -> dict[str, Any]:
        if self.structured:
            response_format: dict[str, Any] = {
                "type": "json_schema",
                "json_schema": {"name": "facts", "strict": True, "schema": FACT_SCHEMA},
            }
        else:
            response_format = {"type": "json_object"}
        return {
            "model": self.model,
            "messages": list(messages),
            "temperature": 0,
            "max_tokens": 600,
            "response_format": response_format,
        }

    async def complete(self, messages: Sequence[dict[str, str]]) -> str:
        """The model's answer text; ExtractorUnavailable after the last failed attempt."""
        headers = {"Authorization": f"Bearer {self.key}"} if self.key else {}
        last = "no attempt made"
        attempt = 0
        async with httpx.AsyncClient(timeout=self.timeout_s, transport=self.transport) as http:
            while attempt < self.attempts:
                try:
                    response = await http.post(
                        f"{self.url}/chat/completions", json=self._body(messages), headers=headers
                    )
                except httpx.HTTPError as exc:
                    last = f"{type(exc).__name__}: {exc}"
                else:
                    if response.status_code in (400, 422) and self.structured:
                        # Structured output is not supported here: ask for a JSON object.
                        self.structured = False
                        log.info("extractor %s: no json_schema, using json_object", self.url)
                        continue
                    if response.status_code == 200:
                        return _content(response)
                    last = f"HTTP {response.status_code}: {response.text[:200]}"
                    if response.status_code < 500 and response.status_code != 429:
                        break  # a bad key or model name does not heal by retrying
                attempt += 1
                if attempt < self.attempts:
                    await self.sleep(self.backoff_s * 2 ** (attempt - 1))
        raise ExtractorUnavailable(
            f"the extractor at {self.url} failed after {attempt or 1} attempt(s): {last}; "
            "check TWOCLOCKS_EXTRACTOR_URL / _MODEL / _KEY"
        )


def _content(response: httpx.Response) -> str:
    try:
        data = response.json()
        content = data["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        return ""
    return content if isinstance(content, str) else ""
