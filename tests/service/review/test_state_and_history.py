"""Metadata-only state and historical receipts, through the use cases."""

from __future__ import annotations

from tests.integration.review.helpers import PRIVATE
from tests.service.review.memory import Who, command, create, decide, receipt_at, state
from tests.service.usecases import refused


def test_state_reports_revision_review_deleted_and_expired_without_content(alice: Who) -> None:
    rid, rev = create(alice, "classified words")
    body = state(alice, rid)
    assert body["contract_version"] == 1 and body["scope"]["project_id"] == "p1"
    assert body["state"] == {
        "record_id": rid,
        "revision": rev,
        "review": None,
        "deleted": False,
        "expired": False,
    }
    receipt = decide(alice, rid, rev, disposition="rejected")["receipt"]
    current = state(alice, rid)
    assert "classified" not in str(current)
    assert current["state"]["review"] == {
        "disposition": "rejected",
        "revision": receipt["revision"],
        "receipt_id": receipt["receipt_id"],
        "reviewer": "alice",
        "decided_at": receipt["decided_at"],
    }


def test_state_evaluates_expiry_against_the_servers_clock(alice: Who, sql) -> None:
    rid, _ = create(alice, "x")
    sql("UPDATE memory_record SET expires_at = now() - interval '1 second' WHERE id = %s", (rid,))
    assert state(alice, rid)["state"]["expired"] is True


def test_a_deleted_record_reports_deleted_and_not_expired(alice: Who, sql) -> None:
    rid, rev = create(alice, "x")
    sql("UPDATE memory_record SET expires_at = now() - interval '1 second' WHERE id = %s", (rid,))
    command(alice, "delete", record_id=rid, expected_revision=rev)
    current = state(alice, rid)["state"]
    assert (current["deleted"], current["expired"]) == (True, False)


def test_state_needs_memory_review(alice: Who, who_for) -> None:
    rid, _ = create(alice, "x")
    reader = who_for(["memory_read", "memory_write"])
    with refused(403):
        state(reader, rid)


def test_a_past_decision_reads_back_as_its_original_receipt(alice: Who) -> None:
    rid, rev = create(alice, "x")
    first = decide(alice, rid, rev, disposition="rejected")["receipt"]
    rev = command(
        alice, "update", record_id=rid, expected_revision=first["revision"], content="fixed"
    )["revision"]
    decide(alice, rid, rev, disposition="approved")
    command(alice, "delete", record_id=rid, expected_revision=rev + 1)
    again = receipt_at(alice, rid, first["revision"])
    assert again == {"contract_version": 1, "receipt": first}


def test_revisions_made_by_commands_have_no_receipt(alice: Who) -> None:
    rid, rev = create(alice, "x")
    rev2 = command(alice, "update", record_id=rid, expected_revision=rev, content="y")["revision"]
    rev3 = command(alice, "delete", record_id=rid, expected_revision=rev2)["revision"]
    for revision in (rev, rev2, rev3, 99):
        with refused(404, "review_not_found"):
            receipt_at(alice, rid, revision)


def test_receipts_of_another_subjects_private_record_are_404(alice: Who, who_for) -> None:
    rid, rev = create(alice, "x", scope=PRIVATE)
    receipt = decide(alice, rid, rev, scope=PRIVATE)["receipt"]
    bob = who_for(["memory_review"])
    with refused(404):
        receipt_at(bob, rid, receipt["revision"], scope=PRIVATE)
    assert receipt_at(alice, rid, receipt["revision"], scope=PRIVATE)["receipt"] == receipt


def test_a_receipt_inconsistent_with_the_records_history_is_an_integrity_failure(
    alice: Who, sql
) -> None:
    rid, rev = create(alice, "x")
    receipt = decide(alice, rid, rev, idempotency_key="k")["receipt"]
    sql(
        "UPDATE memory_revision SET op = 'update' WHERE record_id = %s AND revision = %s",
        (rid, receipt["revision"]),
    )
    for attempt in (
        lambda: receipt_at(alice, rid, receipt["revision"]),
        lambda: decide(alice, rid, rev, idempotency_key="k"),
    ):
        with refused(500, "integrity_failure") as raised:
            attempt()
        err = raised.value
        assert (err.message, err.field, err.extra) == (
            "a review receipt does not match its record's history",
            None,
            {},
        )


def test_a_record_pointing_at_a_missing_receipt_is_an_integrity_failure(alice: Who, sql) -> None:
    rid, rev = create(alice, "x")
    decide(alice, rid, rev)
    sql("DELETE FROM review_receipt WHERE record_id = %s", (rid,))
    with refused(500, "integrity_failure"):
        state(alice, rid)
