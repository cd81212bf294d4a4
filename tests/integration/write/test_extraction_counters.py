"""Dropped extraction text and failed windows, as a person sees them: per Context in
GET /usage and per process on GET /metrics (a scripted extraction model on 127.0.0.1)."""

from __future__ import annotations

import httpx

from tests.integration.write.helpers import extraction, facts, written
from tests.support.scripted_model import Reply


def _client(server, ctx):
    return server.client(ctx["key"])


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
