"""The Embedder port: what the service needs from any text-embedding model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable


@runtime_checkable
class Embedder(Protocol):
    """Turns text into L2-normalised vectors, so a dot product is the cosine similarity.

    ``dimension`` and ``model_name`` are read-only here: an adapter may hold them as
    plain attributes or compute them (the sentence-transformers adapter learns its
    dimension only when the model loads).
    """

    @property
    def dimension(self) -> int:
        """Length of every vector this embedder returns."""
        ...

    @property
    def model_name(self) -> str:
        """Stable name of the model, stored beside vectors so a model change is visible."""
        ...

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed many texts in batches; one unit-length vector per text, in order."""
        ...

    def embed_query(self, text: str) -> list[float]:
        """Embed one search query as a unit-length vector (adapters may cache these)."""
        ...
