"""/facts/batch: each item judged and reconciled on its own, within limits."""

from __future__ import annotations

from tests.integration.write.helpers import counts


def test_a_batch_writes_each_item_in_one_shared_session(alice, ctx, sql) -> None:
    body = {"items": [{"text": "I'm Alice, CTO at Acme."}, {"text": "I love jazz."}]}
    resp = alice.post(f"/api/v1/{ctx['id']}/facts/batch", json=body)
    assert resp.status_code == 200, resp.text
    out = resp.json()["extractions"]
    assert len(out) == 2 and out[0]["sessionId"] == out[1]["sessionId"]
    assert out[1]["extraction"]["attributes"][0]["value"] == "jazz"
    assert sql("SELECT count(*) FROM turn")[0][0] == 2


def test_a_batch_of_more_than_50_items_or_none_is_400(alice, ctx, sql) -> None:
    for items in ([{"text": f"fact {n}"} for n in range(51)], []):
        resp = alice.post(f"/api/v1/{ctx['id']}/facts/batch", json={"items": items})
        assert resp.status_code == 400
    ok = alice.post(
        f"/api/v1/{ctx['id']}/facts/batch",
        json={"items": [{"text": f"I love tea number {n}."} for n in range(50)]},
    )
    assert ok.status_code == 200
    assert counts(sql)["turn"] == 50


def test_one_invalid_item_refuses_the_batch_before_anything_is_written(alice, ctx, sql) -> None:
    body = {"items": [{"text": "I love jazz."}, {"text": "  "}]}
    resp = alice.post(f"/api/v1/{ctx['id']}/facts/batch", json=body)
    assert resp.status_code == 400 and resp.json()["error"]["field"] == "items.1.text"
    assert counts(sql)["turn"] == 0


def test_an_item_that_fails_later_reports_its_error_and_the_others_stand(alice, ctx, sql) -> None:
    body = {
        "items": [
            {"text": "I love jazz."},
            {"text": "I love tea.", "sessionId": "00000000-0000-4000-8000-000000000000"},
        ]
    }
    resp = alice.post(f"/api/v1/{ctx['id']}/facts/batch", json=body)
    out = resp.json()["extractions"]
    assert "turnId" in out[0] and out[1]["error"]["code"] == "not_found"
    assert counts(sql)["turn"] == 1
