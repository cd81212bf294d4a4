"""The /rerank API client against a scripted server on 127.0.0.1: both request shapes,
both answer shapes, usage, and every fault a provider shows."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from memwarden.models.base import (
    ModelError,
    ModelOutputError,
    ModelRequestRejected,
    ModelTransportError,
)
from memwarden.models.deadline import request_deadline
from memwarden.models.rerank import API_DOCUMENT_CHARS, RerankApi, RerankResult
from tests.support.scripted_model import FAULTS, RecordingSink, Reply, fault
from tests.support.scripted_rerank import ScriptedRerankServer, rerank_reply

DOCS = ["Caroline went to a support group.", "Melanie paints.", "The weather was fine."]


@pytest.fixture
def server() -> Iterator[ScriptedRerankServer]:
    with ScriptedRerankServer() as running:
        yield running


MakeApi = Callable[..., RerankApi]


@pytest.fixture
def make_api(server: ScriptedRerankServer) -> MakeApi:
    def make(**kwargs: Any) -> RerankApi:
        kwargs.setdefault("timeout_s", 5.0)
        kwargs.setdefault("max_retries", 0)
        return RerankApi("bge-reranker", base_url=server.base_url, api_key="secret", **kwargs)

    return make


def rerank(
    api: RerankApi,
    docs: list[str] = DOCS,
    *,
    within: float | None = None,
    sink: RecordingSink | None = None,
) -> RerankResult:
    async def call() -> RerankResult:
        try:
            with request_deadline(within):
                return await api.rerank("what did Caroline do?", docs, usage_sink=sink)
        finally:
            await api.aclose()

    return asyncio.run(call())


def test_the_shared_shape_posts_model_query_documents_and_top_n_and_orders_by_relevance(
    server: ScriptedRerankServer, make_api: MakeApi
) -> None:
    server.script("rerank", rerank_reply([0.2, 0.9, 0.1]))
    result = rerank(make_api())
    assert [i for i, _ in result.order] == [1, 0, 2]
    assert result.order[0][1] == pytest.approx(0.9)
    (request,) = server.requests_for("rerank")
    assert request.path == "/v1/rerank"
    assert request.body == {
        "model": "bge-reranker",
        "query": "what did Caroline do?",
        "documents": DOCS,
        "top_n": 3,
    }
    assert request.headers["authorization"] == "Bearer secret"


def test_results_sent_in_index_order_are_still_served_best_first(
    server: ScriptedRerankServer, make_api: MakeApi
) -> None:
    rows = [{"index": 0, "relevance_score": 0.1}, {"index": 1, "relevance_score": 0.7}]
    rows.append({"index": 2, "relevance_score": 0.4})
    server.script("rerank", Reply.json({"results": rows}))
    assert [i for i, _ in rerank(make_api()).order] == [1, 2, 0]


def test_tei_gets_its_own_request_shape_and_its_bare_list_answer_is_read(
    server: ScriptedRerankServer, make_api: MakeApi
) -> None:
    server.script("rerank", rerank_reply([0.3, 0.1, 0.8], tei=True))
    result = rerank(make_api(tei=True))
    assert [i for i, _ in result.order] == [2, 0, 1]
    (request,) = server.requests_for("rerank")
    assert request.body == {"query": "what did Caroline do?", "texts": DOCS, "truncate": True}


def test_a_reply_that_leaves_candidates_out_names_only_those_it_scored(
    server: ScriptedRerankServer, make_api: MakeApi
) -> None:
    server.script("rerank", Reply.json({"results": [{"index": 2, "relevance_score": 0.5}]}))
    assert rerank(make_api()).order == [(2, 0.5)]


def test_long_candidates_are_cut_before_they_are_sent(
    server: ScriptedRerankServer, make_api: MakeApi
) -> None:
    server.script("rerank", rerank_reply([0.5, 0.4]))
    rerank(make_api(), ["x" * (API_DOCUMENT_CHARS + 500), "short"])
    (request,) = server.requests_for("rerank")
    assert [len(d) for d in request.body["documents"]] == [API_DOCUMENT_CHARS, 5]


def test_the_reported_tokens_are_booked_under_the_rerank_stage(
    server: ScriptedRerankServer, make_api: MakeApi
) -> None:
    server.script("rerank", rerank_reply([0.5, 0.4, 0.3], usage=42))
    sink = RecordingSink()
    rerank(make_api(), sink=sink)
    (booking,) = sink.bookings
    assert (booking.stage, booking.model, booking.prompt_tokens) == (
        "rerank",
        "scripted-reranker",
        42,
    )
    assert booking.estimated is False


def test_a_reply_without_usage_books_an_estimate_so_the_budget_still_moves(
    server: ScriptedRerankServer, make_api: MakeApi
) -> None:
    server.script("rerank", rerank_reply([0.5, 0.4, 0.3], usage=None))
    sink = RecordingSink()
    rerank(make_api(), sink=sink)
    (booking,) = sink.bookings
    assert booking.estimated is True
    assert booking.prompt_tokens >= sum(len(d) for d in DOCS) // 4


def test_a_500_is_retried_within_the_budget_and_the_later_answer_served(
    server: ScriptedRerankServer, make_api: MakeApi
) -> None:
    server.script("rerank", Reply.error(500), rerank_reply([0.1, 0.2, 0.3]))
    assert [i for i, _ in rerank(make_api(max_retries=1)).order] == [2, 1, 0]
    assert len(server.requests_for("rerank")) == 2


def test_a_400_is_a_rejected_request_and_is_not_retried(
    server: ScriptedRerankServer, make_api: MakeApi
) -> None:
    server.script("rerank", Reply.error(400, "model not found"), rerank_reply([0.1, 0.2, 0.3]))
    with pytest.raises(ModelRequestRejected) as caught:
        rerank(make_api(max_retries=3))
    assert caught.value.status_code == 400
    assert len(server.requests_for("rerank")) == 1


@pytest.mark.parametrize(
    "rows",
    [
        [{"index": 3, "relevance_score": 0.5}],
        [{"index": 0, "relevance_score": 0.5}, {"index": 0, "relevance_score": 0.4}],
        [{"index": "0", "relevance_score": 0.5}],
        [{"index": 0, "relevance_score": "high"}],
        [{"index": 0}],
    ],
    ids=["unknown index", "index twice", "index as text", "score as text", "no score"],
)
def test_a_reply_naming_candidates_wrongly_is_an_output_error(
    server: ScriptedRerankServer, make_api: MakeApi, rows: list[dict[str, Any]]
) -> None:
    server.script("rerank", Reply.json({"results": rows}))
    with pytest.raises(ModelOutputError):
        rerank(make_api())


@pytest.mark.parametrize("name", FAULTS)
def test_every_provider_fault_is_a_model_error_within_the_deadline(
    server: ScriptedRerankServer, make_api: MakeApi, name: str
) -> None:
    """A hang or a trickle is cut by the deadline (the scripted answer, which would be
    served otherwise, never arrives); a broken body is an output error, never a crash."""
    server.script("rerank", fault(name, rerank_reply([0.1, 0.2, 0.3]), hang_s=20.0))
    with pytest.raises(ModelError):
        rerank(make_api(timeout_s=30.0), within=1.0)


def test_a_request_past_its_deadline_is_not_sent(
    server: ScriptedRerankServer, make_api: MakeApi
) -> None:
    server.script("rerank", rerank_reply([0.1, 0.2, 0.3]))

    async def call() -> None:
        api = make_api()
        try:
            with request_deadline(0.001):
                await asyncio.sleep(0.01)
                await api.rerank("q", DOCS)
        finally:
            await api.aclose()

    with pytest.raises(ModelTransportError, match="deadline"):
        asyncio.run(call())
    assert server.requests_for("rerank") == []
