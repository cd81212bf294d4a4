"""A request's total deadline for model calls (issue 15, finding 2): a hanging judge or a
model that trickles its body is cut at `request_deadline_s`, not per-call timeout times
attempts, and the stage then follows its own error rule."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable

import pytest

from memwarden.pipeline.reprocess import reprocess_turn
from tests.integration.write.helpers import counts
from tests.service.usecases import facts, facts_batch, refused
from tests.support.replies import PASS_VERDICT, extraction
from tests.support.scripted_model import Reply, ScriptedModelServer, scripted_models
from tests.support.services import ServiceHarness

DEADLINE_S = 2.0
SLOW_S = 8.0  # longer than the deadline, shorter than the 10 s per-call timeout


@pytest.fixture
def bounded(
    services_with: Callable[..., ServiceHarness], scripted: ScriptedModelServer
) -> ServiceHarness:
    """A scripted judge and extraction model, 10 s per call with two retries, 2 s per request."""
    return services_with(
        **scripted_models(
            scripted,
            model_judge="openai:judge-model",
            model_extraction="openai:test-model",
            model_timeout_s=10.0,
            model_max_retries=2,
            request_deadline_s=DEADLINE_S,
        )
    )


def _judged(h: ServiceHarness, on_error: str = "fail"):
    config = {"judge": {"enabled": True, "on_error": on_error}}
    return h.make_context("judged", subject="alice", config=config)


def test_a_hanging_judge_refuses_the_write_at_the_deadline(bounded, scripted, sql) -> None:
    ctx = _judged(bounded)
    scripted.respond_with("judge", Reply.json(PASS_VERDICT).after(SLOW_S))
    before = counts(sql)
    started = time.monotonic()
    with refused(422, "judge_unavailable"):
        facts(bounded, ctx, "Alice is the CTO.")
    assert time.monotonic() - started < DEADLINE_S + 1.5
    assert len(scripted.requests_for("judge")) == 1  # no retry after the deadline
    assert counts(sql) == before


def test_a_hanging_judge_under_on_error_allow_lets_the_write_through(bounded, scripted) -> None:
    ctx = _judged(bounded, on_error="allow")
    scripted.respond_with("judge", Reply.json(PASS_VERDICT).after(SLOW_S))
    scripted.respond_with("extraction", Reply.json(extraction()))
    started = time.monotonic()
    out = facts(bounded, ctx, "Alice is the CTO.", infer="raw")
    assert out["turnId"]
    assert time.monotonic() - started < DEADLINE_S + 1.5


def test_a_trickled_extraction_reply_is_cut_at_the_deadline(bounded, scripted, sql) -> None:
    ctx = bounded.make_context(subject="alice")
    scripted.respond_with("extraction", Reply.json(extraction()).trickled(0.05))
    before = counts(sql)
    started = time.monotonic()
    with refused(502, "model_provider_error"):
        facts(bounded, ctx, "Alice is the CTO.")
    assert time.monotonic() - started < DEADLINE_S + 1.5
    assert len(scripted.requests_for("extraction")) == 1
    assert counts(sql) == before


def test_reprocessing_a_turn_with_a_hanging_model_is_502_at_the_deadline(bounded, scripted) -> None:
    ctx = bounded.make_context(subject="alice")
    scripted.respond_with("extraction", Reply.text("not json at all"))
    written = facts(bounded, ctx, "Alice is the CTO.")
    assert written["extraction"]["chunkOnly"]
    scripted.respond_with("extraction", Reply.json(extraction()).after(SLOW_S))
    turn = uuid.UUID(written["turnId"])
    started = time.monotonic()
    with refused(502, "model_provider_error"):
        bounded.run(reprocess_turn(bounded.services, ctx.caller, ctx.id, turn))
    assert time.monotonic() - started < DEADLINE_S + 1.5


def test_a_batch_shares_one_deadline_across_its_items(bounded, scripted, sql) -> None:
    ctx = _judged(bounded)
    scripted.respond_with("judge", Reply.json(PASS_VERDICT).after(SLOW_S))
    before = counts(sql)
    started = time.monotonic()
    out = facts_batch(bounded, ctx, [{"text": f"Alice likes tea number {n}."} for n in range(3)])
    assert time.monotonic() - started < DEADLINE_S + 1.5  # not one deadline per item
    assert [item["error"]["code"] for item in out] == ["judge_unavailable"] * 3
    assert len(scripted.requests_for("judge")) == 1  # later items start no call
    assert counts(sql) == before
