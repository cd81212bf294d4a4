"""Extraction through the facts use case and the OpenAI-compatible path (a scripted model
on 127.0.0.1): windows, partial failures, unparseable output and provider errors."""

from __future__ import annotations

import pytest

from tests.integration.write.helpers import counts
from tests.service.usecases import facts, query, refused
from tests.support.hostile_replies import HOSTILE_REPLIES
from tests.support.replies import attr, extraction, person
from tests.support.scripted_model import Reply
from tests.support.services import ContextKey, ServiceHarness


@pytest.fixture
def ctx(modelled: ServiceHarness) -> ContextKey:
    return modelled.make_context(subject="alice")


def test_8000_characters_are_one_window_and_8001_are_two(modelled, ctx, scripted) -> None:
    scripted.respond_with("extraction", extraction())
    facts(modelled, ctx, "a" * 8000)
    assert len(scripted.requests_for("extraction")) == 1
    facts(modelled, ctx, "b" * 8001)
    assert len(scripted.requests_for("extraction")) == 3


def test_text_past_ten_windows_is_dropped_and_counted(modelled, ctx, scripted) -> None:
    scripted.respond_with("extraction", extraction())
    kept = 8000 + 9 * (8000 - 256)
    facts(modelled, ctx, "w" * (kept + 1234))
    assert len(scripted.requests_for("extraction")) == 10
    assert modelled.services.write_counters["extraction_dropped_bytes"] == 1234


def test_200000_characters_are_accepted_and_reconciled(modelled, ctx, scripted, sql) -> None:
    scripted.respond_with(
        "extraction",
        extraction(entities=[person("Alice Chen")], attributes=[attr("Alice Chen", "role", "CTO")]),
    )
    text = ("Alice Chen is the CTO of Acme and writes long design notes. " * 3400)[:200_000]
    out = facts(modelled, ctx, text)
    ext = out["extraction"]
    assert len(ext["entities"]) == 1 and len(ext["attributes"]) == 1
    assert sql("SELECT count(*) FROM memory_record WHERE kind = 'entity'")[0][0] == 1
    assert sql("SELECT sum(length(text)) >= 200000 FROM chunk")[0][0]
    assert sql("SELECT length(text) FROM turn")[0][0] == 200_000


def test_unparseable_output_stores_the_turn_and_returns_a_chunk_only_diff(
    modelled, ctx, scripted, sql
) -> None:
    scripted.respond_with("extraction", Reply.text("I am not JSON at all"))
    out = facts(modelled, ctx, "Marguerite keeps bees on the roof.")
    assert all(out["extraction"][k] == [] for k in ("entities", "attributes", "relations"))
    hits = query(modelled, ctx, "who keeps bees")
    assert sql("SELECT count(*) FROM turn")[0][0] == 1
    assert sql("SELECT count(*) FROM memory_record")[0][0] == 0
    assert hits and hits[0]["kind"] == "chunk" and hits[0]["source"]["ref"] == out["turnId"]


def test_when_one_window_fails_the_facts_of_the_others_are_kept(modelled, ctx, scripted) -> None:
    scripted.script(
        "extraction",
        Reply.json(extraction(entities=[person("Bea")], attributes=[attr("Bea", "role", "pilot")])),
        Reply.text("{ broken"),
    )
    out = facts(modelled, ctx, "x" * 9000)
    assert [e["name"] for e in out["extraction"]["entities"]] == ["Bea"]
    assert modelled.services.write_counters["extraction_windows_failed"] == 1


@pytest.mark.parametrize("name", sorted(HOSTILE_REPLIES))
def test_an_unreadable_window_counts_as_failed_and_the_turn_is_chunk_only(
    modelled, ctx, scripted, sql, name
) -> None:
    scripted.respond_with("extraction", HOSTILE_REPLIES[name])
    out = facts(modelled, ctx, "Marguerite keeps bees on the roof.")
    assert out["extraction"]["chunkOnly"] is True
    assert all(out["extraction"][k] == [] for k in ("entities", "attributes", "relations"))
    assert modelled.services.write_counters["extraction_windows_failed"] == 1
    assert sql("SELECT count(*) FROM turn")[0][0] == 1
    assert sql("SELECT count(*) FROM memory_record")[0][0] == 0


def test_a_provider_error_is_502_and_writes_nothing(modelled, ctx, scripted, sql) -> None:
    scripted.respond_with("extraction", Reply.error(500))
    before = counts(sql)
    with refused(502, "model_provider_error"):
        facts(modelled, ctx, "Alice is the CTO.")
    assert counts(sql) == before


def test_the_contexts_extraction_addendum_reaches_the_system_message(
    modelled, ctx, scripted
) -> None:
    addendum = "Treat ship names as entities."
    modelled.configure(ctx.id, {"prompt_addendums": {"extraction": addendum}})
    scripted.respond_with("extraction", extraction())
    facts(modelled, ctx, "The Endeavour sailed.")
    request = scripted.requests_for("extraction")[0]
    assert "Treat ship names as entities." in request.system
    assert "Treat ship names" not in request.user


def test_tokens_are_booked_and_a_spent_budget_is_429(modelled, ctx, scripted, sql) -> None:
    modelled.configure(ctx.id, {"token_budget": {"limit": 20}})
    scripted.respond_with("extraction", extraction())
    facts(modelled, ctx, "first")
    assert sql("SELECT sum(prompt_tokens + completion_tokens) FROM usage")[0][0] == 18
    facts(modelled, ctx, "second")
    with refused(429, "token_budget_exhausted"):
        facts(modelled, ctx, "third")
    assert facts(modelled, ctx, "no model needed", infer="none")
    assert sql("SELECT count(*) FROM turn")[0][0] == 3
