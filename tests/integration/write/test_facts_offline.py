"""POST /facts's input checks: blank text and binary junk are 400. What a write does is
checked through the use case in tests/service/write/test_facts.py."""

from __future__ import annotations

from tests.integration.write.helpers import counts, facts


def test_empty_or_blank_text_is_400(alice, ctx, sql) -> None:
    for text in ("", "   \n\t "):
        resp = facts(alice, ctx["id"], text)
        assert resp.status_code == 400 and resp.json()["error"]["field"] == "text"
    assert counts(sql)["turn"] == 0


def test_binary_junk_is_400(alice, ctx, sql) -> None:
    for raw in (
        '{"text": "abc\\u0000def"}',
        '{"text": "bad \\ud800 surrogate"}',
        '{"text": "\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006xy"}',
    ):
        resp = alice.post(
            f"/api/v1/{ctx['id']}/facts", content=raw, headers={"content-type": "application/json"}
        )
        assert resp.status_code == 400, raw
        assert resp.json()["error"]["code"] == "binary_content"
    assert counts(sql)["turn"] == 0
