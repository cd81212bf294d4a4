"""Review decisions over HTTP: the body's validation and the credential check. What a
decision does is checked through the use case in tests/service/review/test_decisions.py."""

from __future__ import annotations

import httpx
import pytest

from tests.integration.review.helpers import (
    create,
    decide,
    decide_body,
    error_code,
)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"disposition": "maybe"}, "command.disposition"),
        ({"expected_revision": 0}, "command.expected_revision"),
        ({"expected_revision": -3}, "command.expected_revision"),
        ({"expected_revision": 1.5}, "command.expected_revision"),
        ({"expected_revision": True}, "command.expected_revision"),
        ({"evidence_ref": ""}, "command.evidence_ref"),
        ({"evidence_ref": "   "}, "command.evidence_ref"),
        ({"evidence_ref": "x" * 2049}, "command.evidence_ref"),
        ({"evidence_ref": "€" * 683}, "command.evidence_ref"),
        ({"evidence_ref": "case\n42"}, "command.evidence_ref"),
        ({"evidence_ref": "case\u0000"}, "command.evidence_ref"),
        ({"record_id": "not-a-uuid"}, "command.record_id"),
        ({"contract_version": 2}, "command.contract_version"),
        ({"idempotency_key": ""}, "command.idempotency_key"),
        ({"surprise": 1}, "command.surprise"),
    ],
)
def test_invalid_decisions_are_400_naming_the_field(
    alice: httpx.Client, change: dict, field: str
) -> None:
    rid, rev = create(alice, "x")
    body = decide_body(rid, rev)
    body["command"].update(change)
    resp = alice.post("/api/v1/memory/reviews", json=body)
    assert resp.status_code == 400, resp.text
    assert resp.json()["error"]["field"] == field


def test_unknown_fields_in_the_scope_or_body_are_400(alice: httpx.Client) -> None:
    rid, rev = create(alice, "x")
    body = decide_body(rid, rev)
    body["scope"]["tenant"] = "other"
    assert alice.post("/api/v1/memory/reviews", json=body).status_code == 400
    body = decide_body(rid, rev)
    body["reviewer"] = "mallory"
    resp = alice.post("/api/v1/memory/reviews", json=body)
    assert resp.status_code == 400 and error_code(resp) == "unknown_field"


def test_a_missing_or_invalid_credential_is_401(live, alice: httpx.Client) -> None:
    rid, rev = create(alice, "x")
    with live.client() as anon:
        assert anon.post("/api/v1/memory/reviews", json=decide_body(rid, rev)).status_code == 401
    with live.client("mwk_nonsense") as bad:
        assert decide(bad, rid, rev).status_code == 401
