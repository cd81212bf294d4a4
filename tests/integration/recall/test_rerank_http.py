"""/query over HTTP with a reranker: its order is served, and a reranker that fails or
hangs still leaves a 200 with the fused order. What the stage does in depth is checked on
the use case (tests/service/retrieval/test_rerank_stage.py); here, what the route makes of it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.support.live import LiveServer
from tests.support.scripted_model import RecordedRequest, Reply, fault
from tests.support.scripted_rerank import ScriptedRerankServer, rerank_reply

TEXTS = ["coffee and tea on the terrace", "coffee every morning", "green tea after dinner"]
BODY = {"query": "coffee tea", "mode": "lexical", "kinds": ["chunk"]}


@pytest.fixture
def server() -> Iterator[ScriptedRerankServer]:
    with ScriptedRerankServer() as running:
        yield running


@pytest.fixture
def ctx(live: LiveServer, make_context: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        for text in TEXTS:
            written = client.post(
                f"/api/v1/{ctx['id']}/facts", json={"text": text, "infer": "none"}
            )
            assert written.status_code == 201, written.text
    return ctx


def hits(server: LiveServer, ctx: dict[str, Any]) -> list[str]:
    with server.client(ctx["key"]) as client:
        answer = client.post(f"/api/v1/{ctx['id']}/query", json=BODY)
    assert answer.status_code == 200, answer.text
    return [hit["text"] for hit in answer.json()["hits"]]


def reversing(request: RecordedRequest) -> Reply:
    return rerank_reply([float(n) for n in range(len(request.body["documents"]))])


def test_post_query_serves_the_rerankers_order(
    live: LiveServer, live_with: Callable[..., LiveServer], server: ScriptedRerankServer, ctx
) -> None:
    fused = hits(live, ctx)
    assert len(fused) == 3
    server.respond_with("rerank", reversing)
    reranked = live_with(model_rerank="rerank:bge", rerank_base_url=server.base_url)
    assert hits(reranked, ctx) == fused[::-1]


@pytest.mark.parametrize("name", ["hang", "status_500", "garbage"])
def test_a_failing_reranker_still_answers_200_in_the_fused_order(
    live: LiveServer,
    live_with: Callable[..., LiveServer],
    server: ScriptedRerankServer,
    ctx,
    name: str,
) -> None:
    fused = hits(live, ctx)
    server.respond_with("rerank", fault(name, rerank_reply([0.0, 1.0, 2.0]), hang_s=15.0))
    reranked = live_with(
        model_rerank="rerank:bge",
        rerank_base_url=server.base_url,
        rerank_timeout_s=0.5,
        model_max_retries=0,
    )
    assert hits(reranked, ctx) == fused
