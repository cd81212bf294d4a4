"""Extraction through the OpenAI-compatible path (a scripted model on 127.0.0.1): windows,
partial failures, unparseable output and provider errors."""

from __future__ import annotations

import httpx

from tests.integration.write.helpers import (
    attr,
    counts,
    extraction,
    facts,
    person,
    query,
    written,
)
from tests.support.scripted_model import Reply


def _client(server, ctx):
    return server.client(ctx["key"])


def test_8000_characters_are_one_window_and_8001_are_two(modelled, ctx, scripted) -> None:
    scripted.respond_with("extraction", extraction())
    with _client(modelled, ctx) as c:
        written(facts(c, ctx["id"], "a" * 8000))
        assert len(scripted.requests_for("extraction")) == 1
        written(facts(c, ctx["id"], "b" * 8001))
    assert len(scripted.requests_for("extraction")) == 3


def test_text_past_ten_windows_is_dropped_and_counted(modelled, ctx, scripted) -> None:
    scripted.respond_with("extraction", extraction())
    kept = 8000 + 9 * (8000 - 256)
    with _client(modelled, ctx) as c:
        written(facts(c, ctx["id"], "w" * (kept + 1234)))
    assert len(scripted.requests_for("extraction")) == 10
    assert modelled.services.write_counters["extraction_dropped_bytes"] == 1234


def test_200000_characters_are_accepted_and_reconciled(modelled, ctx, scripted, sql) -> None:
    scripted.respond_with(
        "extraction",
        extraction(entities=[person("Alice Chen")], attributes=[attr("Alice Chen", "role", "CTO")]),
    )
    text = ("Alice Chen is the CTO of Acme and writes long design notes. " * 3400)[:200_000]
    with _client(modelled, ctx) as c:
        out = written(facts(c, ctx["id"], text))
    ext = out["extraction"]
    assert len(ext["entities"]) == 1 and len(ext["attributes"]) == 1
    assert sql("SELECT count(*) FROM memory_record WHERE kind = 'entity'")[0][0] == 1
    assert sql("SELECT sum(length(text)) >= 200000 FROM chunk")[0][0]
    assert sql("SELECT length(text) FROM turn")[0][0] == 200_000


def test_unparseable_output_stores_the_turn_and_returns_a_chunk_only_diff(
    modelled, ctx, scripted, sql
) -> None:
    scripted.respond_with("extraction", Reply.text("I am not JSON at all"))
    with _client(modelled, ctx) as c:
        out = written(facts(c, ctx["id"], "Marguerite keeps bees on the roof."))
        assert all(out["extraction"][k] == [] for k in ("entities", "attributes", "relations"))
        hits = query(c, ctx["id"], "who keeps bees")
    assert sql("SELECT count(*) FROM turn")[0][0] == 1
    assert sql("SELECT count(*) FROM memory_record")[0][0] == 0
    assert hits and hits[0]["kind"] == "chunk" and hits[0]["source"]["ref"] == out["turnId"]


def test_when_one_window_fails_the_facts_of_the_others_are_kept(modelled, ctx, scripted) -> None:
    scripted.script(
        "extraction",
        Reply.json(extraction(entities=[person("Bea")], attributes=[attr("Bea", "role", "pilot")])),
        Reply.text("{ broken"),
    )
    with _client(modelled, ctx) as c:
        out = written(facts(c, ctx["id"], "x" * 9000))
    assert [e["name"] for e in out["extraction"]["entities"]] == ["Bea"]
    assert modelled.services.write_counters["extraction_windows_failed"] == 1


def test_a_provider_error_is_502_and_writes_nothing(modelled, ctx, scripted, sql) -> None:
    scripted.respond_with("extraction", Reply.error(500))
    before = counts(sql)
    with _client(modelled, ctx) as c:
        resp = facts(c, ctx["id"], "Alice is the CTO.")
    assert resp.status_code == 502
    assert resp.json()["error"]["code"] == "model_provider_error"
    assert counts(sql) == before


def test_the_contexts_extraction_addendum_reaches_the_system_message(
    modelled, ctx, scripted, admin
) -> None:
    admin.patch(
        f"/api/v1/contexts/{ctx['id']}/config",
        json={"prompt_addendums": {"extraction": "Treat ship names as entities."}},
    )
    scripted.respond_with("extraction", extraction())
    with _client(modelled, ctx) as c:
        written(facts(c, ctx["id"], "The Endeavour sailed."))
    request = scripted.requests_for("extraction")[0]
    assert "Treat ship names as entities." in request.system
    assert "Treat ship names" not in request.user


def test_tokens_are_booked_and_a_spent_budget_is_429(modelled, ctx, scripted, admin, sql) -> None:
    admin.patch(f"/api/v1/contexts/{ctx['id']}/config", json={"token_budget": {"limit": 20}})
    scripted.respond_with("extraction", extraction())
    with _client(modelled, ctx) as c:
        written(facts(c, ctx["id"], "first"))
        assert sql("SELECT sum(prompt_tokens + completion_tokens) FROM usage")[0][0] == 18
        written(facts(c, ctx["id"], "second"))
        resp = facts(c, ctx["id"], "third")
        assert resp.status_code == 429
        assert resp.json()["error"]["code"] == "token_budget_exhausted"
        assert written(facts(c, ctx["id"], "no model needed", infer="none"))
    assert sql("SELECT count(*) FROM turn")[0][0] == 3


def test_dropped_text_and_failed_windows_are_counted_per_context_and_per_process(
    modelled, ctx, scripted, make_context
) -> None:
    scripted.script("extraction", *[Reply.json(extraction())] * 9, Reply.text("{ broken"))
    kept = 8000 + 9 * (8000 - 256)
    with _client(modelled, ctx) as c:
        written(facts(c, ctx["id"], "w" * kept + "é" * 1000))
        usage = c.get(f"/api/v1/{ctx['id']}/usage").json()
    other = make_context("other", subject="olga")
    with _client(modelled, other) as c:
        untouched = c.get(f"/api/v1/{other['id']}/usage").json()
    counted = {"windows_run": 10, "windows_failed": 1, "dropped_chars": 1000, "dropped_bytes": 2000}
    assert usage["extraction"] == {**counted, "by_source": {"turn": counted}}
    assert untouched["extraction"]["dropped_bytes"] == 0
    assert untouched["extraction"]["by_source"] == {}
    with httpx.Client(base_url=modelled.url) as anonymous:
        metrics = anonymous.get("/metrics")
    assert metrics.status_code == 200
    assert metrics.headers["content-type"].startswith("text/plain; version=0.0.4")
    lines = metrics.text.splitlines()
    assert "memwarden_extraction_dropped_bytes_total 2000" in lines
    assert "memwarden_extraction_dropped_chars_total 1000" in lines
    assert "memwarden_extraction_windows_run_total 10" in lines
    assert "memwarden_extraction_windows_failed_total 1" in lines
    assert "# TYPE memwarden_extraction_dropped_bytes_total counter" in lines
