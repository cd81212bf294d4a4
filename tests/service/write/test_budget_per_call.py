"""The token budget is checked before every model call of a write, not only at its start
(issue 23, item 16): each extraction window, the row judge, a remote embedder; and every
call's tokens are booked, the calls of a write then refused with 429 included."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests.service.usecases import facts, refused
from tests.support.replies import attr, extraction, person, rows_reply, verdict
from tests.support.scripted_model import Reply, ScriptedModelServer, scripted_models
from tests.support.services import ContextKey, ServiceHarness

TWO_WINDOWS = "b" * 8001


def _booked(sql) -> dict[str, int]:
    rows = sql("SELECT stage, sum(prompt_tokens + completion_tokens)::int FROM usage GROUP BY 1")
    return dict(rows)


@pytest.fixture
def ctx(modelled: ServiceHarness) -> ContextKey:
    return modelled.make_context(subject="alice", config={"token_budget": {"limit": 10}})


def test_each_extraction_window_checks_the_budget_and_the_refused_write_books_what_it_spent(
    modelled, ctx, scripted, sql
) -> None:
    scripted.respond_with("extraction", extraction())  # 18 tokens a call
    with refused(429, "token_budget_exhausted"):
        facts(modelled, ctx, TWO_WINDOWS)
    assert len(scripted.requests_for("extraction")) == 1  # the second window is not sent
    assert _booked(sql) == {"extraction": 18}
    assert sql("SELECT count(*) FROM turn") == [(0,)]


def test_a_documents_extraction_checks_the_budget_before_each_window(
    modelled, ctx, scripted, sql
) -> None:
    from memwarden.documents.processing import process_document
    from memwarden.documents.service import upload

    scripted.respond_with("extraction", extraction())
    modelled.run(
        upload(
            modelled.services,
            ctx.caller,
            ctx.id,
            filename="long.txt",
            declared_type="text/plain",
            data=("Alice works at Acme. " * 800).encode(),
            scope=None,
            visibility="shared",
        )
    )
    ((doc_id,),) = sql("SELECT id FROM document")
    assert modelled.run(process_document(modelled.services, ctx.id, doc_id)) == "failed"
    assert sql("SELECT failure_code FROM document") == [("token_budget_exhausted",)]
    assert len(scripted.requests_for("extraction")) == 1
    assert _booked(sql) == {"extraction": 18}


@pytest.fixture
def judged_and_modelled(services_with, scripted: ScriptedModelServer) -> ServiceHarness:
    return services_with(
        **scripted_models(
            scripted, model_judge="openai:judge-model", model_extraction="openai:test-model"
        )
    )


def test_the_row_judge_sees_the_extraction_tokens_and_a_429_there_still_books_them(
    judged_and_modelled, scripted, sql
) -> None:
    h = judged_and_modelled
    budget = {"judge": {"enabled": True}, "token_budget": {"limit": 40}}
    ctx = h.make_context(subject="alice", config=budget)
    scripted.respond_with("judge", verdict("pass"))  # 18 tokens
    reply = extraction(entities=[person("Bea")], attributes=[attr("Bea", "role", "pilot")])
    scripted.respond_with("extraction", Reply.json(reply, prompt_tokens=30))  # 37 tokens
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )
    with refused(429, "token_budget_exhausted"):
        facts(h, ctx, "Bea is a pilot.")
    assert scripted.requests_for("row_judge") == []
    assert _booked(sql) == {"judge": 18, "extraction": 37}
    assert sql("SELECT count(*) FROM turn") == [(0,)]


@pytest.fixture
def remote_embedder(services_with) -> Iterator[tuple[ServiceHarness, ScriptedModelServer]]:
    with ScriptedModelServer(embedding_dimensions=384) as model:
        yield services_with(**scripted_models(model, model_embedding="openai:emb")), model


def test_a_remote_embedder_is_not_called_past_a_spent_budget(remote_embedder, sql) -> None:
    h, model = remote_embedder
    ctx = h.make_context(subject="alice", config={"token_budget": {"limit": 1}})
    facts(h, ctx, "Lisbon is lovely.", infer="none")
    sent = len([r for r in model.requests if r.path.endswith("/embeddings")])
    assert sent >= 1 and _booked(sql)["embedding"] >= 1
    with refused(429, "token_budget_exhausted"):
        facts(h, ctx, "Porto is lovely too.", infer="none")
    assert len([r for r in model.requests if r.path.endswith("/embeddings")]) == sent
    assert sql("SELECT count(*) FROM turn") == [(1,)]
