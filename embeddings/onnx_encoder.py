"""The same sentence-transformers model, run by ONNX Runtime instead of torch.

Why: for one short query torch spends most of its time in per-call overhead. On the
project's 2-core machine with one thread, all-MiniLM-L6-v2 embeds a question in 4.1 ms
p50 through ONNX Runtime against 16.6 ms through ``SentenceTransformer.encode``, with
vectors equal to torch's within 2e-7. Batches of 64 are compute-bound either way (~290/s).

The transformer is exported from the loaded torch model to ONNX in memory at load time
(about 1.5 s), then mean pooling and L2 normalisation are done here; ``onnx_cache`` keeps
the export on disk so that a later start skips torch altogether. Only models shaped like
that (Transformer, mean Pooling, optional Normalize) take this path, and only when a probe
encodes the same as torch; anything else stays on torch, and ``OnnxUnsuitable`` says why.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

    from twoclocks.embeddings.onnx_cache import OnnxCache

Tokenize = Callable[[list[str]], Mapping[str, Any]]
"""Texts -> numpy arrays by input name (input_ids, attention_mask, ...), padded, truncated."""

PROBES = (
    "which CI do we use?",
    "billing-api ci provider CircleCI since the migration in production",
    "x",
    " ".join(["rollout"] * 300),  # past max_seq_length: the truncation is checked too
)
BULK_TEXTS = 32
"""Batches this large or larger use the bulk session (when there is one)."""
TOLERANCE = 1e-4
"""Largest difference from torch's vector, per component, that the probe accepts."""


class OnnxUnsuitable(Exception):
    """The model cannot run on ONNX Runtime here (shape, export or probe); torch is used."""


class OnnxEncoder:
    """Mean-pooled, unit-length sentence vectors from an ONNX Runtime session."""

    def __init__(
        self,
        session: Any,
        tokenize: Tokenize,
        inputs: Sequence[str],
        bulk_session: Any = None,
    ) -> None:
        self._session = session
        self._bulk = bulk_session or session
        self._tokenize = tokenize
        self._inputs = tuple(inputs)

    @classmethod
    def from_model(
        cls,
        model: SentenceTransformer,
        threads: int,
        bulk_threads: int | None = None,
        cache: OnnxCache | None = None,
    ) -> OnnxEncoder:
        """Export ``model``'s transformer and check it; raises OnnxUnsuitable. An export
        that passes is kept in ``cache`` (when given) for the next start.

        ``threads`` run queries and small batches. With ``bulk_threads`` above it, batches
        of at least BULK_TEXTS run on a second session that wide (without spin-waiting, so
        it yields the cores at once): a bulk load has the machine to itself, while a
        query shares it with the store and the web server.
        """
        try:
            # Imported here so that a missing or broken runtime is OnnxUnsuitable (torch
            # encodes) rather than a failure at the first encode.
            import onnxruntime  # noqa: F401
            import torch
        except ImportError as exc:
            raise OnnxUnsuitable(f"onnxruntime is not installed ({exc})") from exc
        modules: list[Any] = list(model)
        transformer = modules[0] if modules else None
        if not _mean_pooled(modules) or transformer is None:
            raise OnnxUnsuitable("the model is not Transformer + mean Pooling (+ Normalize)")
        tokenizer = model.tokenizer
        inputs = [n for n in tokenizer.model_input_names if n in _KNOWN_INPUTS]
        max_length = int(transformer.max_seq_length)

        def tokenize(texts: list[str]) -> Mapping[str, Any]:
            return tokenizer(  # type: ignore[no-any-return]
                texts, padding=True, truncation=True, max_length=max_length, return_tensors="np"
            )

        try:
            data = _export(transformer.auto_model, tokenizer, inputs, torch)
            encoder = cls.from_graph(data, tokenize, inputs, threads, bulk_threads)
        except Exception as exc:  # the exporter and the runtime raise many kinds
            raise OnnxUnsuitable(f"export to ONNX failed: {type(exc).__name__}: {exc}") from exc
        reference = model.encode(list(PROBES), normalize_embeddings=True, convert_to_numpy=True)
        if (drift := encoder.drift_from(reference)) > TOLERANCE:
            raise OnnxUnsuitable(f"ONNX vectors differ from torch's by {drift:.2g}")
        if cache is not None:
            cache.save(data, reference, inputs, max_length)
        return encoder

    @classmethod
    def from_graph(
        cls,
        graph: bytes | str,
        tokenize: Tokenize,
        inputs: Sequence[str],
        threads: int,
        bulk_threads: int | None,
    ) -> OnnxEncoder:
        """An encoder over an ONNX graph (its bytes, or a file's path): a session of
        ``threads``, and a second one of ``bulk_threads`` when that is wider."""
        import onnxruntime

        session = _session(onnxruntime, graph, threads)
        bulk = None
        if bulk_threads is not None and bulk_threads > threads:
            bulk = _session(onnxruntime, graph, bulk_threads)
        return cls(session, tokenize, inputs, bulk)

    def drift_from(self, reference: Any) -> float:
        """The largest difference, per component, from ``reference``: torch's vectors for
        PROBES."""
        import numpy as np

        return float(np.abs(self.encode(list(PROBES), batch_size=8) - reference).max())

    def encode(self, texts: list[str], batch_size: int) -> Any:
        """Unit-length vectors, one row per text, in input order (a float32 numpy array)."""
        import numpy as np

        # Shortest first, as sentence-transformers does, so a batch pads little.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        session = self._bulk if len(texts) >= BULK_TEXTS else self._session
        out: Any = None
        for start in range(0, len(texts), batch_size):
            chunk = order[start : start + batch_size]
            vectors = self._encode_batch(session, [texts[i] for i in chunk], np)
            if out is None:
                out = np.empty((len(texts), vectors.shape[1]), dtype=np.float32)
            out[chunk] = vectors
        return out

    def _encode_batch(self, session: Any, texts: list[str], np: Any) -> Any:
        batch = self._tokenize(texts)
        feed = {name: batch[name].astype(np.int64) for name in self._inputs}
        hidden = session.run(None, feed)[0]
        mask = batch["attention_mask"][..., None].astype(np.float32)
        pooled = (hidden * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.clip(norms, 1e-12, None)


_KNOWN_INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def _session(onnxruntime: Any, graph: bytes | str, threads: int) -> Any:
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    if threads > 1:
        # Spinning threads burn the core the store needs between two kernels.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return onnxruntime.InferenceSession(graph, options, providers=["CPUExecutionProvider"])


def _mean_pooled(modules: list[Any]) -> bool:
    names = [type(m).__name__ for m in modules]
    if names not in (["Transformer", "Pooling"], ["Transformer", "Pooling", "Normalize"]):
        return False
    config = modules[1].get_config_dict()
    if "pooling_mode" in config:  # sentence-transformers 6: one named mode
        return bool(config["pooling_mode"] == "mean")
    # Older releases: one boolean per mode.
    chosen = [k for k, v in config.items() if k.startswith("pooling_mode") and v]
    return chosen == ["pooling_mode_mean_tokens"]


def _export(auto_model: Any, tokenizer: Any, inputs: list[str], torch: Any) -> bytes:
    class LastHidden(torch.nn.Module):  # type: ignore[misc]
        """The transformer with keyword inputs and one output, as the exporter needs."""

        def __init__(self) -> None:
            super().__init__()
            self.inner = auto_model

        def forward(self, *args: Any) -> Any:
            return self.inner(**dict(zip(inputs, args, strict=True))).last_hidden_state

    sample = tokenizer(["an example sentence"], return_tensors="pt")
    axes = {name: {0: "batch", 1: "tokens"} for name in (*inputs, "last_hidden_state")}
    buffer = io.BytesIO()
    # The exporter warns about operators it rewrites; the probe in from_model is the check.
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            LastHidden().eval(),
            tuple(sample[name] for name in inputs),
            buffer,
            input_names=inputs,
            output_names=["last_hidden_state"],
            dynamic_axes=axes,
            opset_version=17,
            dynamo=False,
        )
    return buffer.getvalue()
