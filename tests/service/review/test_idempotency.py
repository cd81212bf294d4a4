"""Idempotent retries of review decisions, through the use case."""

from __future__ import annotations

from tests.integration.review.helpers import SCOPE
from tests.service.review.memory import Who, command, create, decide
from tests.service.usecases import refused


def test_a_retry_returns_the_original_receipt_after_later_changes_and_deletion(
    alice: Who,
) -> None:
    rid, rev = create(alice, "x")
    first = decide(alice, rid, rev, disposition="rejected", idempotency_key="k")
    rev = first["receipt"]["revision"]
    rev = command(alice, "update", record_id=rid, expected_revision=rev, content="y")["revision"]
    rev = decide(alice, rid, rev, disposition="approved")["receipt"]["revision"]
    assert decide(alice, rid, 1, disposition="rejected", idempotency_key="k") == first
    command(alice, "delete", record_id=rid, expected_revision=rev)
    assert decide(alice, rid, 1, disposition="rejected", idempotency_key="k") == first


def test_a_retry_with_a_rotated_credential_of_the_same_subject_returns_the_original_receipt(
    svc, alice: Who, who_for, ctx
) -> None:
    rid, rev = create(alice, "x")
    first = decide(alice, rid, rev, idempotency_key="rotate")
    rotated = who_for(["memory_review"], subject="alice")
    svc.revoke(ctx)
    again = decide(rotated, rid, rev, idempotency_key="rotate")
    assert again == first and again["receipt"]["credential_id"] == ctx["key_id"]


def test_the_same_key_from_another_subject_is_a_separate_command(alice: Who, who_for) -> None:
    rid, rev = create(alice, "x")
    decide(alice, rid, rev, idempotency_key="shared-key")
    bob = who_for(["memory_review"])
    with refused(409, "stale_revision"):
        decide(bob, rid, rev, idempotency_key="shared-key")


def test_reusing_a_key_for_another_command_is_409(alice: Who) -> None:
    rid, rev = create(alice, "x")
    decide(alice, rid, rev, idempotency_key="k")
    for change in (
        {"disposition": "rejected"},
        {"evidence_ref": "case://other"},
        {"scope": {**SCOPE, "agent_id": None}},
    ):
        with refused(409, "idempotency_conflict"):
            decide(alice, rid, rev, idempotency_key="k", **change)
    other, other_rev = create(alice, "y")
    with refused(409, "idempotency_conflict"):
        decide(alice, other, other_rev, idempotency_key="k")
