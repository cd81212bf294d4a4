"""Held content has no vector until it is approved (vector search cannot find it), approval
embeds it in its own transaction, and rejection removes it from the database."""

from __future__ import annotations

import json

from tests.integration.judge.helpers import rows_reply, table_texts, verdict
from tests.integration.judge.test_holds import held_write

FACTS = "I'm Alice. I work at Acme. I love jazz."


class BrokenEmbedder:
    """An embedder whose every call fails (not "unavailable": a real error)."""

    name = "broken"

    def embed(self, texts: list[str]) -> list[list[float]]:
        raise RuntimeError("embedder down")


def row_held_relation(judged, client, scripted):
    """A live write whose relation the row gate warns about, under on_warn=hold."""
    ctx = judged(on_warn="hold")
    c = client(ctx["key"])
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
    out = c.post(f"/api/v1/{ctx['id']}/facts", json={"text": FACTS}).json()
    assert out["held"] is False
    url = f"/api/v1/{ctx['id']}/judgements"
    (held,) = c.get(url, params={"held": "true"}).json()["judgements"]
    return ctx, c, f"{url}/{held['id']}"


def test_held_records_are_stored_without_a_vector(judged, client, scripted, sql) -> None:
    held_write(judged, client, scripted)
    assert sql("SELECT count(*) FROM memory_record WHERE serving = 'held'")[0][0] > 0
    assert sql(
        "SELECT count(*) FROM memory_record r JOIN memory_embedding e"
        " ON e.context_id = r.context_id AND e.record_id = r.id WHERE r.serving = 'held'"
    ) == [(0,)]
    assert sql("SELECT count(*) FROM memory_record WHERE embedding IS NOT NULL") == [(0,)]


def test_a_held_relation_gets_its_vector_when_approved(judged, client, scripted, sql) -> None:
    _ctx, c, url = row_held_relation(judged, client, scripted)
    ((rid, vectors),) = sql(
        "SELECT r.id, count(e.record_id) FROM memory_record r LEFT JOIN memory_embedding e"
        " ON e.context_id = r.context_id AND e.record_id = r.id"
        " WHERE r.serving = 'held' GROUP BY r.id"
    )
    assert vectors == 0
    assert c.post(f"{url}/approve").status_code == 200
    assert sql(
        "SELECT serving::text, embedding_revision = revision FROM memory_record WHERE id = %s",
        (rid,),
    ) == [("live", True)]


def test_an_approval_whose_embedding_fails_releases_nothing(
    judged, client, scripted, sql, live
) -> None:
    ctx, c, url, _held = held_write(judged, client, scripted)
    held = sql("SELECT count(*) FROM memory_record WHERE serving = 'held'")[0][0]
    working = live.services.models.embedder
    live.services.models.embedder = BrokenEmbedder()
    try:
        assert c.post(f"{url}/approve").status_code == 500
    finally:
        live.services.models.embedder = working
    assert sql("SELECT count(*) FROM memory_record WHERE serving = 'held'") == [(held,)]
    assert sql("SELECT hold_decision FROM judgement WHERE held") == [(None,)]
    # A fresh connection: the server may close the one that answered 500.
    assert client(ctx["key"]).post(f"{url}/approve").status_code == 200
    rows = sql("SELECT embedding_revision = revision FROM memory_record WHERE serving = 'live'")
    assert rows and all(same for (same,) in rows)


def test_rejecting_a_held_write_removes_its_text_chunks_vectors_and_records(
    judged, client, scripted, sql, db_url
) -> None:
    _ctx, c, url, _held = held_write(judged, client, scripted)
    records = sql("SELECT count(*) FROM memory_record")[0][0]
    chunks = sql("SELECT count(*) FROM chunk")[0][0]
    resp = c.post(f"{url}/reject")
    assert resp.status_code == 200, resp.text
    assert resp.json()["changed"] == {"facts": records, "chunks": chunks, "turns": 1}
    assert resp.json()["judgement"]["hold_decision"] == "rejected"
    for table in ("memory_record", "memory_revision", "memory_embedding", "chunk", "turn"):
        assert sql(f"SELECT count(*) FROM {table}") == [(0,)], table
    for table, text in table_texts(db_url).items():
        if table != "public.judgement":  # the review log keeps its excerpt (retention_days)
            assert "jazz" not in text, table


def test_rejecting_a_held_relation_removes_it_and_leaves_the_rest_of_the_write(
    judged, client, scripted, sql
) -> None:
    _ctx, c, url = row_held_relation(judged, client, scripted)
    live_before = sql("SELECT id FROM memory_record WHERE serving = 'live' ORDER BY id")
    resp = c.post(f"{url}/reject")
    assert resp.json()["changed"] == {"facts": 1, "chunks": 0, "turns": 0}
    assert sql("SELECT count(*) FROM memory_record WHERE kind = 'relation'") == [(0,)]
    assert sql("SELECT id FROM memory_record ORDER BY id") == live_before
    assert sql("SELECT DISTINCT serving::text FROM turn") == [("live",)]
