"""Revision-checked review decisions through HTTP: receipts, authority, validation."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import ADMIN_TOKEN
from tests.integration.review.helpers import (
    PRIVATE,
    SCOPE,
    command,
    create,
    decide,
    decide_body,
    error_code,
    ok,
    read,
    state,
)


def test_a_decision_returns_a_receipt_naming_the_reviewer_key_and_resulting_revision(
    alice: httpx.Client, ctx: dict
) -> None:
    rid, rev = create(alice, "Alice prefers green tea")
    body = ok(decide(alice, rid, rev, disposition="approved", idempotency_key="case-1"))
    assert body["contract_version"] == 1
    receipt = body["receipt"]
    assert receipt["contract_version"] == 1
    assert receipt["record_id"] == rid and receipt["revision"] == rev + 1
    assert receipt["disposition"] == "approved" and receipt["reviewer"] == "alice"
    assert receipt["credential_id"] == ctx["key_id"]
    assert receipt["evidence_ref"] == "case://quality/1"
    assert receipt["idempotency_key"] == "case-1"
    assert receipt["receipt_id"] and receipt["decided_at"]


def test_a_decision_advances_the_revision_without_changing_content_or_author(
    alice: httpx.Client, client_for
) -> None:
    rid, rev = create(alice, "the deploy key rotates monthly")
    bob = client_for(["memory_review", "memory_read"], subject="bob")
    ok(decide(bob, rid, rev, disposition="approved"))
    record = ok(read(alice, rid))["record"]
    assert record["revision"] == rev + 1
    assert record["content"] == {"text": "the deploy key rotates monthly"}
    assert record["author"] == "alice"
    assert record["review"]["disposition"] == "approved"
    assert record["review"]["reviewer"] == "bob"


def test_every_decision_advances_the_revision_even_when_it_repeats_a_disposition(
    alice: httpx.Client,
) -> None:
    rid, rev = create(alice, "repeat me")
    for disposition in ("approved", "approved", "unreviewed", "unreviewed"):
        rev = ok(decide(alice, rid, rev, disposition=disposition))["receipt"]["revision"]
    assert rev == 5
    review = ok(state(alice, rid))["state"]["review"]
    assert review["disposition"] == "unreviewed" and review["revision"] == 5


def test_a_rejected_record_is_not_served_and_approval_brings_it_back(alice: httpx.Client) -> None:
    rid, rev = create(alice, "a doubtful claim")
    rev = ok(decide(alice, rid, rev, disposition="rejected"))["receipt"]["revision"]
    assert read(alice, rid).status_code == 404
    ok(decide(alice, rid, rev, disposition="approved"))
    assert ok(read(alice, rid))["record"]["review"]["disposition"] == "approved"


def test_a_stale_expected_revision_is_a_409(alice: httpx.Client) -> None:
    rid, rev = create(alice, "x")
    ok(decide(alice, rid, rev))
    resp = decide(alice, rid, rev, disposition="rejected")
    assert resp.status_code == 409 and error_code(resp) == "stale_revision"
    future = decide(alice, rid, rev + 5)
    assert future.status_code == 409


def test_the_deployment_admin_token_cannot_review(live, alice: httpx.Client) -> None:
    rid, rev = create(alice, "x")
    with live.client(ADMIN_TOKEN) as admin:
        resp = decide(admin, rid, rev)
    assert resp.status_code == 403


@pytest.mark.parametrize(
    "grants", [["memory_write"], ["memory_read"], ["memory_read", "memory_write", "grant:manage"]]
)
def test_write_read_and_manage_grants_alone_do_not_grant_review(
    alice: httpx.Client, client_for, grants: list[str]
) -> None:
    rid, rev = create(alice, "x")
    resp = decide(client_for(grants), rid, rev)
    assert resp.status_code == 403 and error_code(resp) == "missing_grant"


def test_a_review_grant_must_cover_the_records_scope(alice: httpx.Client, client_for) -> None:
    rid, rev = create(alice, "x")
    other = client_for(["memory_review"], scope="project/p2")
    assert decide(other, rid, rev).status_code == 403
    narrow = client_for(["memory_review"], subject="carol", scope="project/p1/agent/a1")
    assert decide(narrow, rid, rev).status_code == 200


def test_another_subjects_private_record_is_404_for_reviewers(
    alice: httpx.Client, client_for
) -> None:
    rid, rev = create(alice, "my private note", scope=PRIVATE)
    bob = client_for(["memory_review", "memory_read"])
    for scope in (PRIVATE, SCOPE):
        assert decide(bob, rid, rev, scope=scope).status_code == 404
        assert state(bob, rid, scope=scope).status_code == 404
    assert decide(alice, rid, rev, scope=PRIVATE).status_code == 200


def test_a_record_outside_the_requested_scope_is_404(alice: httpx.Client) -> None:
    rid, rev = create(alice, "x")
    elsewhere = {**SCOPE, "project_id": "p2"}
    assert decide(alice, rid, rev, scope=elsewhere).status_code == 404
    assert decide(alice, rid, rev, scope={**SCOPE, "visibility": "private"}).status_code == 404
    broader = {"project_id": "p1", "mission_id": None, "agent_id": None, "visibility": "shared"}
    assert decide(alice, rid, rev, scope=broader).status_code == 200


def test_an_unknown_record_is_404(alice: httpx.Client) -> None:
    resp = decide(alice, "00000000-0000-4000-8000-000000000042", 1)
    assert resp.status_code == 404


def test_reviewing_a_deleted_record_is_404(alice: httpx.Client) -> None:
    rid, rev = create(alice, "x")
    deleted = ok(command(alice, "delete", record_id=rid, expected_revision=rev))["revision"]
    assert decide(alice, rid, deleted).status_code == 404


def test_reviewing_an_expired_record_records_the_decision_and_leaves_it_expired(
    alice: httpx.Client, sql
) -> None:
    rid, rev = create(alice, "short lived")
    sql("UPDATE memory_record SET expires_at = now() - interval '1 minute' WHERE id = %s", (rid,))
    receipt = ok(decide(alice, rid, rev, disposition="approved"))["receipt"]
    current = ok(state(alice, rid))["state"]
    assert current["expired"] is True and current["revision"] == receipt["revision"]
    assert read(alice, rid).status_code == 404


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


def test_evidence_of_exactly_2048_utf8_bytes_is_accepted(alice: httpx.Client) -> None:
    rid, rev = create(alice, "x")
    evidence = "€" * 682 + "xx"  # 2046 + 2 bytes
    assert ok(decide(alice, rid, rev, evidence_ref=evidence))["receipt"]["evidence_ref"] == evidence


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
