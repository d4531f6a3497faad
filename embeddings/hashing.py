"""A deterministic, model-free Embedder for fast unit tests. Not for production.

``HashingEmbedder`` hashes words and character trigrams into ``dimension`` buckets.
Texts that share spelling get similar vectors; texts that share only meaning do not
("ci provider" and "build service" score near zero). Use it where a test needs *an*
embedder (shapes, plumbing, storage round trips, vector indexes) and never where a
test or a feature depends on semantic similarity; those need the real model.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence

_WORD = re.compile(r"[0-9A-Za-z]+")
# Hashed in place of any feature when a text has none, so even "" gets a unit vector.
_EMPTY_FEATURE = "\x00empty"


class HashingEmbedder:
    """Feature-hashing embedder: same text, same vector, on every run and machine."""

    def __init__(self, dimension: int = 384, model_name: str = "hashing-trigram-v1") -> None:
        if dimension < 8:
            raise ValueError(f"dimension must be at least 8, got {dimension}")
        self.dimension = dimension
        self.model_name = model_name

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed each text; no batching is needed, so this is a plain loop."""
        if isinstance(texts, str):
            raise TypeError("embed_documents takes a sequence of texts, not one str")
        return [self._embed(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        """Embed one query the same way as a document."""
        return self._embed(text)

    def _embed(self, text: str) -> list[float]:
        vector = [0.0] * self.dimension
        for feature in _features(text):
            # blake2b, not hash(): Python salts str hashes per process.
            digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
            value = int.from_bytes(digest, "big")
            bucket = value % self.dimension
            # A hashed sign keeps collisions from always adding up.
            vector[bucket] += 1.0 if (value >> 63) & 1 else -1.0
        norm = math.sqrt(sum(x * x for x in vector))
        if norm == 0.0:
            # Every feature cancelled out; fall back to the empty-text vector.
            return self._embed_empty()
        return [x / norm for x in vector]

    def _embed_empty(self) -> list[float]:
        digest = hashlib.blake2b(_EMPTY_FEATURE.encode("utf-8"), digest_size=8).digest()
        vector = [0.0] * self.dimension
        vector[int.from_bytes(digest, "big") % self.dimension] = 1.0
        return vector


def _features(text: str) -> list[str]:
    """Words and padded character trigrams of the lowercased text."""
    features: list[str] = []
    for word in _WORD.findall(text.lower()):
        features.append("w:" + word)
        padded = f"#{word}#"
        features.extend("t:" + padded[i : i + 3] for i in range(len(padded) - 2))
    return features or [_EMPTY_FEATURE]
