"""Held content: approve releases, reject deletes, a second decision is 409."""

from __future__ import annotations

import json

import pytest

from tests.integration.judge.helpers import PASS, audits, rows_reply, verdict
from tests.support.scripted_model import Reply

FACTS = "I'm Alice. I work at Acme. I love jazz."


def held_write(judged, client, scripted):
    ctx = judged(on_warn="hold")
    c = client(ctx["key"])
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )
    assert c.post(f"/api/v1/{ctx['id']}/facts", json={"text": FACTS}).json()["held"] is True
    url = f"/api/v1/{ctx['id']}/judgements"
    (held,) = c.get(url, params={"held": "true"}).json()["judgements"]
    return ctx, c, f"{url}/{held['id']}", held


def test_approve_releases_the_turn_chunks_and_records(
    judged, client, scripted, sql, db_url
) -> None:
    ctx, c, url, _held = held_write(judged, client, scripted)
    records = sql("SELECT count(*) FROM memory_record WHERE serving = 'held'")[0][0]
    chunks = sql("SELECT count(*) FROM chunk WHERE serving = 'held'")[0][0]
    resp = c.post(f"{url}/approve")
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert body["changed"] == {"facts": records, "chunks": chunks, "turns": 1}
    assert body["judgement"]["hold_decision"] == "approved"
    assert sql("SELECT DISTINCT serving::text FROM memory_record") == [("live",)]
    assert sql("SELECT DISTINCT serving::text FROM turn") == [("live",)]
    assert c.get(url.rsplit("/", 1)[0], params={"held": "true"}).json()["judgements"] == []
    assert ("judge.approve", "judgement") in [(a, k) for a, k, _ in audits(db_url, ctx["id"])]


def test_reject_deletes_the_held_content(judged, client, scripted, sql) -> None:
    """Deleted from the database, not marked: see test_hold_content for what else goes."""
    _ctx, c, url, _held = held_write(judged, client, scripted)
    resp = c.post(f"{url}/reject")
    assert resp.status_code == 200
    assert resp.json()["changed"]["turns"] == 1
    assert sql("SELECT count(*) FROM memory_record") == [(0,)]
    assert sql("SELECT count(*) FROM turn") == [(0,)]


@pytest.mark.parametrize(
    ("first", "second"), [("approve", "reject"), ("reject", "approve"), ("approve", "approve")]
)
def test_a_second_decision_on_the_same_judgement_is_409(
    judged, client, scripted, first, second
) -> None:
    _ctx, c, url, _held = held_write(judged, client, scripted)
    assert c.post(f"{url}/{first}").status_code == 200
    resp = c.post(f"{url}/{second}")
    assert resp.status_code == 409 and resp.json()["error"]["code"] == "already_decided"


def test_a_judgement_that_holds_nothing_cannot_be_approved(judged, client, scripted) -> None:
    ctx = judged()
    c = client(ctx["key"])
    scripted.respond_with("judge", Reply.json(PASS))
    c.post(f"/api/v1/{ctx['id']}/facts", json={"text": "hello", "infer": "none"})
    (entry,) = c.get(f"/api/v1/{ctx['id']}/judgements").json()["judgements"]
    resp = c.post(f"/api/v1/{ctx['id']}/judgements/{entry['id']}/approve")
    assert resp.status_code == 409 and resp.json()["error"]["code"] == "not_held"


def test_approving_a_held_fact_that_conflicts_leaves_both_current(
    judged, client, scripted, sql
) -> None:
    ctx = judged(on_warn="hold")
    c = client(ctx["key"])
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )
    scripted.script("judge", Reply.json(PASS))
    c.post(f"/api/v1/{ctx['id']}/facts", json={"text": "I live in Oslo."})
    scripted.script("judge", verdict("warn", "personal_data"))
    c.post(f"/api/v1/{ctx['id']}/facts", json={"text": "I live in Bergen."})
    (held,) = c.get(f"/api/v1/{ctx['id']}/judgements", params={"held": "true"}).json()["judgements"]
    assert c.post(f"/api/v1/{ctx['id']}/judgements/{held['id']}/approve").status_code == 200
    live = [
        b
        for (b,) in sql(
            "SELECT body FROM memory_record WHERE serving = 'live' AND kind <> 'entity'"
        )
    ]
    assert any("Oslo" in b for b in live) and any("Bergen" in b for b in live)


def test_released_records_are_embedded(judged, client, scripted, sql) -> None:
    _ctx, c, url, _held = held_write(judged, client, scripted)
    before = sql("SELECT count(*) FROM memory_embedding")[0][0]
    c.post(f"{url}/approve")
    assert sql("SELECT count(*) FROM memory_embedding")[0][0] > before
