"""/facts/batch over HTTP: its limits and item validation. Each item's write is checked
through the use case in tests/service/write/test_batch_and_scanner.py."""

from __future__ import annotations

from tests.integration.write.helpers import counts


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
