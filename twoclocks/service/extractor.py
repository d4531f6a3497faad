"""The turn extractor's client: any OpenAI-compatible ``/chat/completions`` endpoint.

Structured output first (``response_format: json_schema``); an endpoint that refuses it
(HTTP 400/422) is asked for ``json_object`` with the schema beside it (the JSON-mode schema
that llama.cpp's server and several hosted endpoints turn into a grammar), and one that
refuses that too, for a plain ``json_object``, from then on. Timeouts, connection errors,
429 and 5xx are retried with exponential backoff, then the call gives up with
ExtractorUnavailable.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from twoclocks.capture.turns import FACT_SCHEMA
from twoclocks.domain.errors import ExtractorUnavailable

log = logging.getLogger(__name__)

LOCAL_URL = "http://127.0.0.1:11434/v1"
"""``TWOCLOCKS_EXTRACTOR_URL=local``: Ollama's default OpenAI-compatible address."""

Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True)
class AnswerSchema:
    """The JSON an answer must follow: a name for the endpoint and the JSON Schema."""

    name: str
    schema: dict[str, Any]


FACTS_ANSWER = AnswerSchema("facts", FACT_SCHEMA)
"""A turn's facts (``capture.turns``)."""


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
        self.refused = 0
        """How many of ``response_formats``' kinds the endpoint has refused, best first;
        one endpoint refuses a kind whatever the schema, so this holds for every call."""

    @property
    def structured(self) -> bool:
        """True while the endpoint has not refused ``json_schema``."""
        return self.refused == 0

    def _body(
        self, messages: Sequence[dict[str, str]], response_format: dict[str, Any]
    ) -> dict[str, Any]:
        return {
            "model": self.model,
            "messages": list(messages),
            "temperature": 0,
            "max_tokens": 600,
            "response_format": response_format,
        }

    async def complete(
        self, messages: Sequence[dict[str, str]], schema: AnswerSchema = FACTS_ANSWER
    ) -> str:
        """The model's answer text; ExtractorUnavailable after the last failed attempt.

        ``schema`` names the JSON the answer must follow (a turn's facts by default).
        """
        headers = {"Authorization": f"Bearer {self.key}"} if self.key else {}
        formats = response_formats(schema)
        last = "no attempt made"
        attempt = 0
        async with httpx.AsyncClient(timeout=self.timeout_s, transport=self.transport) as http:
            while attempt < self.attempts:
                try:
                    response = await http.post(
                        f"{self.url}/chat/completions",
                        json=self._body(messages, formats[self.refused]),
                        headers=headers,
                    )
                except httpx.HTTPError as exc:
                    last = f"{type(exc).__name__}: {exc}"
                else:
                    if _format_refused(response) and self.refused < len(formats) - 1:
                        # This response_format is not supported here: ask for the next one.
                        self.refused += 1
                        log.info(
                            "extractor %s: no %s, trying the next",
                            self.url,
                            formats[self.refused - 1]["type"],
                        )
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


def response_formats(answer: AnswerSchema = FACTS_ANSWER) -> list[dict[str, Any]]:
    """The ``response_format`` values to try for ``answer``, best first."""
    return [
        {
            "type": "json_schema",
            "json_schema": {"name": answer.name, "strict": True, "schema": answer.schema},
        },
        {"type": "json_object", "schema": answer.schema},
        {"type": "json_object"},
    ]


def _format_refused(response: httpx.Response) -> bool:
    """The endpoint does not take this response_format: a 400/422, or a 5xx naming it
    (llama.cpp's Python server answers its own validation error with a 500)."""
    if response.status_code in (400, 422):
        return True
    return response.status_code >= 500 and "response_format" in response.text


def _content(response: httpx.Response) -> str:
    try:
        data = response.json()
        content = data["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        return ""
    return content if isinstance(content, str) else ""
