"""Metadata-only state, historical receipts and the change feed's reviewed entries."""

from __future__ import annotations

import httpx

from tests.integration.review.helpers import (
    PRIVATE,
    command,
    create,
    decide,
    error_code,
    ok,
    post,
    state,
)


def receipt_at(client: httpx.Client, rid: str, revision: int, **kw) -> httpx.Response:
    return post(client, "reviews/read", record_id=rid, revision=revision, **kw)


def test_state_reports_revision_review_deleted_and_expired_without_content(
    alice: httpx.Client,
) -> None:
    rid, rev = create(alice, "classified words")
    body = ok(state(alice, rid))
    assert body["contract_version"] == 1 and body["scope"]["project_id"] == "p1"
    assert body["state"] == {
        "record_id": rid,
        "revision": rev,
        "review": None,
        "deleted": False,
        "expired": False,
    }
    receipt = ok(decide(alice, rid, rev, disposition="rejected"))["receipt"]
    current = ok(state(alice, rid))
    assert "classified" not in str(current)
    assert current["state"]["review"] == {
        "disposition": "rejected",
        "revision": receipt["revision"],
        "receipt_id": receipt["receipt_id"],
        "reviewer": "alice",
        "decided_at": receipt["decided_at"],
    }


def test_state_evaluates_expiry_against_the_servers_clock(alice: httpx.Client, sql) -> None:
    rid, _ = create(alice, "x")
    sql("UPDATE memory_record SET expires_at = now() - interval '1 second' WHERE id = %s", (rid,))
    assert ok(state(alice, rid))["state"]["expired"] is True


def test_a_deleted_record_reports_deleted_and_not_expired(alice: httpx.Client, sql) -> None:
    rid, rev = create(alice, "x")
    sql("UPDATE memory_record SET expires_at = now() - interval '1 second' WHERE id = %s", (rid,))
    ok(command(alice, "delete", record_id=rid, expected_revision=rev))
    current = ok(state(alice, rid))["state"]
    assert (current["deleted"], current["expired"]) == (True, False)


def test_state_needs_memory_review(alice: httpx.Client, client_for) -> None:
    rid, _ = create(alice, "x")
    reader = client_for(["memory_read", "memory_write"])
    assert state(reader, rid).status_code == 403


def test_a_past_decision_reads_back_as_its_original_receipt(alice: httpx.Client) -> None:
    rid, rev = create(alice, "x")
    first = ok(decide(alice, rid, rev, disposition="rejected"))["receipt"]
    rev = ok(
        command(
            alice, "update", record_id=rid, expected_revision=first["revision"], content="fixed"
        )
    )["revision"]
    ok(decide(alice, rid, rev, disposition="approved"))
    ok(command(alice, "delete", record_id=rid, expected_revision=rev + 1))
    again = ok(receipt_at(alice, rid, first["revision"]))
    assert again == {"contract_version": 1, "receipt": first}


def test_revisions_made_by_commands_have_no_receipt(alice: httpx.Client) -> None:
    rid, rev = create(alice, "x")
    rev2 = ok(command(alice, "update", record_id=rid, expected_revision=rev, content="y"))[
        "revision"
    ]
    rev3 = ok(command(alice, "delete", record_id=rid, expected_revision=rev2))["revision"]
    for revision in (rev, rev2, rev3, 99):
        resp = receipt_at(alice, rid, revision)
        assert resp.status_code == 404 and error_code(resp) == "review_not_found"


def test_receipts_of_another_subjects_private_record_are_404(
    alice: httpx.Client, client_for
) -> None:
    rid, rev = create(alice, "x", scope=PRIVATE)
    receipt = ok(decide(alice, rid, rev, scope=PRIVATE))["receipt"]
    bob = client_for(["memory_review"])
    assert receipt_at(bob, rid, receipt["revision"], scope=PRIVATE).status_code == 404
    assert ok(receipt_at(alice, rid, receipt["revision"], scope=PRIVATE))["receipt"] == receipt


def test_the_change_feed_marks_decision_revisions_as_reviewed(alice: httpx.Client) -> None:
    rid, rev = create(alice, "x")
    decisions = []
    for disposition in ("approved", "rejected", "unreviewed"):
        rev = ok(decide(alice, rid, rev, disposition=disposition))["receipt"]["revision"]
        decisions.append(rev)
    changes = alice.get("/api/v1/memory/changes", params={"after": 1}).json()["changes"]
    assert [(c["entry_type"], c["revision"]) for c in changes] == [
        ("reviewed", r) for r in decisions
    ]


def test_a_receipt_inconsistent_with_the_records_history_is_an_integrity_failure(
    alice: httpx.Client, sql
) -> None:
    rid, rev = create(alice, "x")
    receipt = ok(decide(alice, rid, rev, idempotency_key="k"))["receipt"]
    sql(
        "UPDATE memory_revision SET op = 'update' WHERE record_id = %s AND revision = %s",
        (rid, receipt["revision"]),
    )
    for resp in (
        receipt_at(alice, rid, receipt["revision"]),
        decide(alice, rid, rev, idempotency_key="k"),
    ):
        assert resp.status_code == 500
        assert resp.json() == {
            "error": {
                "code": "integrity_failure",
                "message": "a review receipt does not match its record's history",
            }
        }


def test_a_record_pointing_at_a_missing_receipt_is_an_integrity_failure(
    alice: httpx.Client, sql
) -> None:
    rid, rev = create(alice, "x")
    ok(decide(alice, rid, rev))
    sql("DELETE FROM review_receipt WHERE record_id = %s", (rid,))
    resp = state(alice, rid)
    assert resp.status_code == 500 and error_code(resp) == "integrity_failure"
    assert "state" not in resp.json()
