"""Held content has no vector until it is approved (vector search cannot find it), approval
embeds it in its own transaction, and rejection removes it from the database."""

from __future__ import annotations

import json

import pytest

from tests.integration.judge.helpers import table_texts
from tests.service.judge.test_holds import held_write
from tests.service.usecases import decide_hold, facts, judgements
from tests.support.replies import rows_reply, verdict

FACTS = "I'm Alice. I work at Acme. I love jazz."


class BrokenEmbedder:
    """An embedder whose every call fails (not "unavailable": a real error)."""

    name = "broken"

    def embed(self, texts: list[str]) -> list[list[float]]:
        raise RuntimeError("embedder down")


def row_held_relation(judging, judged, scripted):
    """A live write whose relation the row gate warns about, under on_warn=hold."""
    ctx = judged(on_warn="hold")
    scripted.respond_with("judge", verdict("pass"))
    scripted.respond_with(
        "row_judge",
        lambda r: rows_reply(
            {
                i["id"]: ("warn", "personal_data") if i["id"].startswith("r") else "pass"
                for i in json.loads(r.user)
            }
        ),
    )
    assert facts(judging, ctx, FACTS)["held"] is False
    (held,) = judgements(judging, ctx, held=True)
    return ctx, held


def test_held_records_are_stored_without_a_vector(judging, judged, scripted, sql) -> None:
    held_write(judging, judged, scripted)
    assert sql("SELECT count(*) FROM memory_record WHERE serving = 'held'")[0][0] > 0
    assert sql(
        "SELECT count(*) FROM memory_record r JOIN memory_embedding e"
        " ON e.context_id = r.context_id AND e.record_id = r.id WHERE r.serving = 'held'"
    ) == [(0,)]
    assert sql("SELECT count(*) FROM memory_record WHERE embedding IS NOT NULL") == [(0,)]


def test_a_held_relation_gets_its_vector_when_approved(judging, judged, scripted, sql) -> None:
    ctx, held = row_held_relation(judging, judged, scripted)
    ((rid, vectors),) = sql(
        "SELECT r.id, count(e.record_id) FROM memory_record r LEFT JOIN memory_embedding e"
        " ON e.context_id = r.context_id AND e.record_id = r.id"
        " WHERE r.serving = 'held' AND r.kind = 'relation' GROUP BY r.id"
    )
    assert vectors == 0
    decide_hold(judging, ctx, held["id"], approve=True)
    assert sql(
        "SELECT serving::text, embedding_revision = revision FROM memory_record WHERE id = %s",
        (rid,),
    ) == [("live", True)]


def test_an_approval_whose_embedding_fails_releases_nothing(judging, judged, scripted, sql) -> None:
    ctx, held = held_write(judging, judged, scripted)
    count = sql("SELECT count(*) FROM memory_record WHERE serving = 'held'")[0][0]
    working = judging.services.models.embedder
    judging.services.models.embedder = BrokenEmbedder()  # type: ignore[assignment]
    try:
        with pytest.raises(RuntimeError):
            decide_hold(judging, ctx, held["id"], approve=True)
    finally:
        judging.services.models.embedder = working
    assert sql("SELECT count(*) FROM memory_record WHERE serving = 'held'") == [(count,)]
    assert sql("SELECT hold_decision FROM judgement WHERE held") == [(None,)]
    decide_hold(judging, ctx, held["id"], approve=True)
    rows = sql("SELECT embedding_revision = revision FROM memory_record WHERE serving = 'live'")
    assert rows and all(same for (same,) in rows)


def test_rejecting_a_held_write_removes_its_text_chunks_vectors_and_records(
    judging, judged, scripted, sql, db_url
) -> None:
    ctx, held = held_write(judging, judged, scripted)
    records = sql("SELECT count(*) FROM memory_record")[0][0]
    chunks = sql("SELECT count(*) FROM chunk")[0][0]
    body = decide_hold(judging, ctx, held["id"], approve=False)
    assert body["changed"] == {"facts": records, "chunks": chunks, "turns": 1}
    assert body["judgement"]["hold_decision"] == "rejected"
    for table in ("memory_record", "memory_revision", "memory_embedding", "chunk", "turn"):
        assert sql(f"SELECT count(*) FROM {table}") == [(0,)], table
    for table, text in table_texts(db_url).items():
        if table != "public.judgement":  # the review log keeps its excerpt (retention_days)
            assert "jazz" not in text, table


def test_rejecting_a_held_relation_removes_it_and_leaves_the_rest_of_the_write(
    judging, judged, scripted, sql
) -> None:
    ctx, held = row_held_relation(judging, judged, scripted)
    live_before = sql("SELECT id FROM memory_record WHERE serving = 'live' ORDER BY id")
    body = decide_hold(judging, ctx, held["id"], approve=False)
    # The relation, and Acme, which only the relation named (see test_held_entities).
    assert body["changed"] == {"facts": 2, "chunks": 0, "turns": 0}
    assert sql("SELECT count(*) FROM memory_record WHERE kind = 'relation'") == [(0,)]
    assert sql("SELECT count(*) FROM memory_record WHERE norm_name = 'acme'") == [(0,)]
    assert sql("SELECT id FROM memory_record ORDER BY id") == live_before
    assert sql("SELECT DISTINCT serving::text FROM turn") == [("live",)]
