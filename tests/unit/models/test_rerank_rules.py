"""The reranker's pure rules: reading a /rerank answer, a chat model's ranking, the order
served, and which provider a `provider:model` builds."""

from __future__ import annotations

import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memwarden.models.base import ModelOutputError
from memwarden.models.registry import OPENAI_PROVIDERS
from memwarden.models.rerank import (
    ChatReranker,
    RerankApi,
    build_reranker,
    order_from_ranking,
    parse_rerank_reply,
)
from memwarden.retrieval.rerank_stage import reorder

scores = st.floats(min_value=-50, max_value=50, allow_nan=False)


@given(st.lists(scores, min_size=1, max_size=60), st.randoms())
def test_any_permuted_subset_of_results_is_read_back_best_first(values, rnd) -> None:
    indexes = list(range(len(values)))
    rnd.shuffle(indexes)
    kept = indexes[: rnd.randint(0, len(indexes))]
    rows = [{"index": i, "relevance_score": values[i]} for i in kept]
    got = parse_rerank_reply({"results": rows}, len(values))
    assert sorted(i for i, _ in got) == sorted(kept)
    assert [s for _, s in got] == sorted((values[i] for i in kept), reverse=True)
    tei = parse_rerank_reply([{"index": i, "score": values[i]} for i in kept], len(values))
    assert tei == got


@pytest.mark.parametrize(
    "payload",
    [{}, {"results": {"index": 0}}, "results", [1, 2], {"results": [{"index": True, "score": 1}]}],
)
def test_answers_of_no_known_shape_are_output_errors(payload) -> None:
    with pytest.raises(ModelOutputError):
        parse_rerank_reply(payload, 3)


def test_a_non_finite_score_is_an_output_error() -> None:
    with pytest.raises(ModelOutputError):
        parse_rerank_reply({"results": [{"index": 0, "relevance_score": float("nan")}]}, 1)


@given(st.lists(st.integers(min_value=-5, max_value=70), max_size=80), st.integers(1, 60))
def test_a_chat_ranking_keeps_each_known_number_once_in_the_order_given(ranking, count) -> None:
    got = order_from_ranking(ranking, count)
    indexes = [i for i, _ in got]
    assert len(indexes) == len(set(indexes))
    assert all(0 <= i < count for i in indexes)
    assert indexes == list(dict.fromkeys(n - 1 for n in ranking if 1 <= n <= count))
    assert [s for _, s in got] == sorted((s for _, s in got), reverse=True)


@given(st.integers(0, 60), st.lists(st.integers(-3, 70), max_size=80))
def test_the_served_order_is_a_permutation_with_the_reranked_ones_first(n, picks) -> None:
    candidates = [(uuid.UUID(int=i + 1), 1.0 / (i + 1)) for i in range(n)]
    order = [(i, 0.0) for i in picks]
    got = reorder(candidates, order)
    assert sorted(got) == sorted(candidates)
    placed = list(dict.fromkeys(i for i in picks if 0 <= i < n))
    assert got[: len(placed)] == [candidates[i] for i in placed]
    rest = [c for i, c in enumerate(candidates) if i not in placed]
    assert got[len(placed) :] == rest  # the ones left out keep their fused order


def build(spec: str | None, base_url: str | None = "http://127.0.0.1:9/v1"):
    chats: list[str] = []

    def chat(parsed):
        chats.append(str(parsed))
        return object()

    built = build_reranker(
        spec,
        base_url=base_url,
        api_key=None,
        timeout_s=1.0,
        max_retries=0,
        max_candidates=50,
        chat_provider=chat,  # type: ignore[arg-type,return-value]
        chat_providers=OPENAI_PROVIDERS,
    )
    return built, chats


@pytest.mark.parametrize("spec", [None, "", "  "])
def test_no_model_named_means_no_reranker(spec) -> None:
    assert build(spec)[0] is None


@pytest.mark.parametrize(
    ("spec", "tei"),
    [("rerank:bge", False), ("cohere:rerank-v3.5", False), ("jina:j", False), ("tei:bge", True)],
)
def test_a_rerank_provider_builds_the_api_client_with_its_request_shape(spec, tei) -> None:
    built, chats = build(spec)
    assert isinstance(built, RerankApi) and built.tei is tei
    assert built.url == "http://127.0.0.1:9/v1/rerank"
    assert chats == []


def test_an_openai_compatible_provider_builds_the_chat_scorer_on_the_registry_client() -> None:
    built, chats = build("vllm:qwen2.5-7b")
    assert isinstance(built, ChatReranker)
    assert chats == ["vllm:qwen2.5-7b"]


def test_a_rerank_endpoint_without_a_base_url_is_refused_at_start_up() -> None:
    with pytest.raises(ValueError, match="base URL"):
        build("rerank:bge", base_url=None)


def test_an_unknown_provider_is_refused_at_start_up() -> None:
    with pytest.raises(ValueError, match="unknown provider"):
        build("fastembed:ms-marco")
