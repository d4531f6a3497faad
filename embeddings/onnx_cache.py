"""A model's ONNX export kept on disk, so a later start needs neither torch nor transformers.

Why: importing torch and transformers takes ~15 s of a server's start on the project's
2-core machine, and the in-memory export another ~1.5 s, while ONNX Runtime and the
``tokenizers`` library import in 0.4 s. The first start exports as before and saves the
ONNX graph here, beside the vectors torch gave for the probe texts; every later start
loads the file, encodes the probes again, and uses it only when they still match torch's
within ``onnx_encoder.TOLERANCE``. Anything else (no file, another model's files, a
mismatch, a read error) falls back to loading the model with torch, which exports again.

The folder's name is a fingerprint of the model directory's files (names, sizes, mtimes),
so a changed or reinstalled model is exported afresh; old folders can be deleted at will.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from twoclocks.embeddings.onnx_encoder import PROBES, TOLERANCE, OnnxEncoder

log = logging.getLogger("twoclocks.embeddings")

MODEL_FILE = "model.onnx"
META_FILE = "export.json"
_FORMAT = 1


class OnnxCache:
    """The folder under ``root`` where the model at ``model_path`` is kept as ONNX."""

    def __init__(self, root: Path, model_path: Path) -> None:
        self.folder = root / f"onnx-{fingerprint(model_path)}"
        self._model_path = model_path

    def save(self, data: bytes, reference: Any, inputs: Sequence[str], max_length: int) -> None:
        """Keep an export and the probe vectors torch gave; a failure is logged, not raised."""
        meta = {
            "format": _FORMAT,
            "inputs": list(inputs),
            "max_length": max_length,
            "probes": list(PROBES),
            "reference": [[float(x) for x in row] for row in reference],
        }
        try:
            self.folder.parent.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=".export-", dir=self.folder.parent))
            (staging / MODEL_FILE).write_bytes(data)
            (staging / META_FILE).write_text(json.dumps(meta))
            try:
                # One rename, so a reader sees a whole export or none; a process that
                # raced us here already put the same export in place.
                os.rename(staging, self.folder)
            except OSError:
                shutil.rmtree(staging, ignore_errors=True)
        except OSError as exc:
            log.warning("could not keep the ONNX export in %s: %s", self.folder, exc)

    def load(self, threads: int, bulk_threads: int | None) -> tuple[OnnxEncoder, int] | None:
        """The kept export as an encoder and its vector length, or None (why is logged)."""
        if not (self.folder / META_FILE).is_file():
            return None
        try:
            import numpy as np

            meta = json.loads((self.folder / META_FILE).read_text())
            if meta.get("format") != _FORMAT or meta.get("probes") != list(PROBES):
                return None
            tokenize = file_tokenizer(self._model_path / "tokenizer.json", meta["max_length"])
            encoder = OnnxEncoder.from_graph(
                str(self.folder / MODEL_FILE), tokenize, meta["inputs"], threads, bulk_threads
            )
            reference = np.asarray(meta["reference"], dtype=np.float32)
            drift = encoder.drift_from(reference)
        except Exception as exc:  # a damaged file or folder: export again, never fail a start
            self._discard(f"{type(exc).__name__}: {exc}")
            return None
        if drift > TOLERANCE:
            self._discard(f"its vectors differ from torch's by {drift:.2g}")
            return None
        return encoder, int(reference.shape[1])

    def _discard(self, why: str) -> None:
        # Removed, so that the export the fallback makes takes its place.
        log.warning("not using the ONNX export in %s (%s); exporting again", self.folder, why)
        shutil.rmtree(self.folder, ignore_errors=True)


def fingerprint(model_path: Path) -> str:
    """A short hash of the names, sizes and mtimes of every file in the model directory."""
    digest = hashlib.sha256()
    for path in sorted(p for p in model_path.rglob("*") if p.is_file()):
        stat = path.stat()
        digest.update(
            f"{path.relative_to(model_path)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode()
        )
    return digest.hexdigest()[:16]


def file_tokenizer(path: Path, max_length: int) -> Any:
    """A callable texts -> numpy arrays by name, from ``tokenizer.json`` through the
    ``tokenizers`` library (what transformers' fast tokenizer runs), padded to the longest
    text and truncated at ``max_length`` as sentence-transformers asks for."""
    import numpy as np
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(path))
    # tokenizer.json may carry its own fixed padding and truncation; ours replace them.
    padding = tokenizer.padding or {}
    pad_token = padding.get("pad_token", "[PAD]")
    pad_id = padding.get("pad_id", tokenizer.token_to_id(pad_token) or 0)
    tokenizer.enable_truncation(max_length=max_length)
    tokenizer.enable_padding(pad_id=pad_id, pad_token=pad_token)

    def tokenize(texts: list[str]) -> Mapping[str, Any]:
        encodings = tokenizer.encode_batch(texts)
        return {
            "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
        }

    return tokenize
