"""/query's reranker stage on a real database, against a scripted /rerank server and a
scripted chat model: the order it serves, what it sends, what it books, and the fused order
whenever the reranker fails, is too slow, or the Context may not spend."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from memwarden.gatekeeper import PassThrough
from tests.service import usecases
from tests.support.bulk_texts import load_texts
from tests.support.scripted_model import RecordedRequest, Reply, fault
from tests.support.scripted_rerank import ScriptedRerankServer, rerank_reply
from tests.support.services import ContextKey, ServiceHarness

TEXTS = [
    "coffee and tea on the terrace at noon",
    "coffee coffee coffee, always coffee in the morning",
    "green tea after dinner",
    "a coffee shop near the station sells tea",
]
QUESTION = "coffee tea"
Build = Callable[..., ServiceHarness]


@pytest.fixture
def server() -> Iterator[ScriptedRerankServer]:
    with ScriptedRerankServer() as running:
        yield running


@pytest.fixture
def ctx(svc: ServiceHarness) -> ContextKey:
    ctx = svc.make_context()
    load_texts(svc, ctx, TEXTS)
    return ctx


def reranked(services_with: Build, server: ScriptedRerankServer, **more: Any) -> ServiceHarness:
    settings = {
        "model_rerank": "rerank:bge-reranker",
        "rerank_base_url": server.base_url,
        "rerank_timeout_s": 2.0,
        "model_max_retries": 0,
    }
    return services_with(**{**settings, **more})


def last_is_best(request: RecordedRequest) -> Reply:
    """Scores rising with the place sent: the reranker reverses the fused order."""
    docs = request.body.get("documents") or request.body.get("texts") or []
    return rerank_reply([float(n) for n in range(len(docs))])


def ask(h: ServiceHarness, ctx: ContextKey, limit: int = 10) -> list[dict[str, Any]]:
    return usecases.query(h, ctx, QUESTION, mode="lexical", limit=limit)


def test_without_a_reranker_named_the_fused_order_is_served_and_nothing_is_called(
    svc: ServiceHarness, ctx: ContextKey, server: ScriptedRerankServer
) -> None:
    assert svc.services.reranker is None
    assert len(ask(svc, ctx)) == 4
    assert server.requests == []


def test_the_hits_come_in_the_rerankers_order_and_keep_their_fused_scores(
    svc: ServiceHarness, ctx: ContextKey, services_with: Build, server: ScriptedRerankServer
) -> None:
    fused = ask(svc, ctx)
    server.respond_with("rerank", last_is_best)
    hits = ask(reranked(services_with, server), ctx)
    assert [h["id"] for h in hits] == [h["id"] for h in reversed(fused)]
    assert {h["id"]: h["score"] for h in hits} == {h["id"]: h["score"] for h in fused}
    (request,) = server.requests_for("rerank")
    assert request.body["query"] == QUESTION
    assert request.body["documents"] == [h["text"] for h in fused]


def test_the_rerankers_tokens_are_booked_to_the_context_under_its_stage(
    ctx: ContextKey, services_with: Build, server: ScriptedRerankServer, sql
) -> None:
    server.respond_with("rerank", last_is_best)  # 42 tokens a call
    ask(reranked(services_with, server), ctx)
    rows = sql("SELECT context_id, stage, prompt_tokens FROM usage")
    assert rows == [(ctx.id, "rerank", 42)]


@pytest.mark.parametrize("name", ["hang", "status_500", "status_429", "garbage", "wrong_schema"])
def test_a_failing_reranker_leaves_the_fused_order_and_the_query_answers(
    svc: ServiceHarness,
    ctx: ContextKey,
    services_with: Build,
    server: ScriptedRerankServer,
    name: str,
) -> None:
    """A hang outlasts the stage's timeout (the reply it would send reverses the order, so a
    query that waited for it would show the reversed order)."""
    fused = ask(svc, ctx)
    server.respond_with("rerank", fault(name, rerank_reply([0.0, 1.0, 2.0, 3.0]), hang_s=15.0))
    hits = ask(reranked(services_with, server, rerank_timeout_s=0.5), ctx)
    assert [h["id"] for h in hits] == [h["id"] for h in fused]
    assert len(server.requests_for("rerank")) == 1


def test_a_context_whose_token_budget_is_spent_is_served_the_fused_order_without_a_call(
    svc: ServiceHarness, services_with: Build, server: ScriptedRerankServer
) -> None:
    ctx = svc.make_context(config={"token_budget": {"limit": 0}})
    load_texts(svc, ctx, TEXTS)
    fused = ask(svc, ctx)
    server.respond_with("rerank", last_is_best)
    hits = ask(reranked(services_with, server), ctx)
    assert [h["id"] for h in hits] == [h["id"] for h in fused]
    assert server.requests_for("rerank") == []


def test_only_the_first_candidates_are_reranked_and_the_rest_follow_in_fused_order(
    svc: ServiceHarness, ctx: ContextKey, services_with: Build, server: ScriptedRerankServer
) -> None:
    fused = [h["id"] for h in ask(svc, ctx)]
    server.respond_with("rerank", last_is_best)
    hits = ask(reranked(services_with, server, rerank_candidates=2), ctx)
    assert [h["id"] for h in hits] == [fused[1], fused[0], *fused[2:]]
    (request,) = server.requests_for("rerank")
    assert len(request.body["documents"]) == 2


def test_the_limit_cuts_the_reranked_list_not_the_candidates_sent(
    svc: ServiceHarness, ctx: ContextKey, services_with: Build, server: ScriptedRerankServer
) -> None:
    fused = [h["id"] for h in ask(svc, ctx)]
    server.respond_with("rerank", last_is_best)
    hits = ask(reranked(services_with, server), ctx, limit=1)
    assert [h["id"] for h in hits] == [fused[-1]]  # the fused last, found past the limit


def test_a_chat_model_can_rank_the_candidates_and_its_tokens_are_booked(
    svc: ServiceHarness, ctx: ContextKey, services_with: Build, server: ScriptedRerankServer, sql
) -> None:
    fused = [h["id"] for h in ask(svc, ctx)]
    server.respond_with("rerank", Reply.json({"ranking": [3, 1]}, prompt_tokens=30))
    h = services_with(
        model_rerank="openai:ranker",
        openai_base_url=server.base_url,
        model_max_retries=0,
    )
    hits = ask(h, ctx)
    assert [x["id"] for x in hits] == [fused[2], fused[0], fused[1], fused[3]]
    (request,) = server.requests_for("rerank")
    assert request.path.endswith("/chat/completions") and request.model == "ranker"
    assert sql("SELECT stage, prompt_tokens, completion_tokens FROM usage") == [("rerank", 30, 7)]


def test_a_copy_of_the_services_shares_their_reranker_instead_of_opening_another(
    services_with: Build, server: ScriptedRerankServer
) -> None:
    """Replay copies Services without the gatekeeper (judge/replay.py); a new reranker
    there would open an HTTP client nothing closes."""
    h = reranked(services_with, server)
    copy = dataclasses.replace(h.services, gatekeeper=PassThrough())
    assert h.services.reranker is not None
    assert copy.reranker is h.services.reranker
