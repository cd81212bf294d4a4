"""Revision-checked review decisions through the use case: receipts, authority, scope."""

from __future__ import annotations

import pytest

from tests.integration.review.helpers import PRIVATE, SCOPE
from tests.service.review.memory import Who, command, create, decide, read, state
from tests.service.usecases import refused
from tests.support.services import ContextKey, ServiceHarness


def test_a_decision_returns_a_receipt_naming_the_reviewer_key_and_resulting_revision(
    alice: Who, ctx: ContextKey
) -> None:
    rid, rev = create(alice, "Alice prefers green tea")
    body = decide(alice, rid, rev, disposition="approved", idempotency_key="case-1")
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
    alice: Who, who_for
) -> None:
    rid, rev = create(alice, "the deploy key rotates monthly")
    bob = who_for(["memory_review", "memory_read"], subject="bob")
    decide(bob, rid, rev, disposition="approved")
    record = read(alice, rid)["record"]
    assert record["revision"] == rev + 1
    assert record["content"] == {"text": "the deploy key rotates monthly"}
    assert record["author"] == "alice"
    assert record["review"]["disposition"] == "approved"
    assert record["review"]["reviewer"] == "bob"


def test_every_decision_advances_the_revision_even_when_it_repeats_a_disposition(
    alice: Who,
) -> None:
    rid, rev = create(alice, "repeat me")
    for disposition in ("approved", "approved", "unreviewed", "unreviewed"):
        rev = decide(alice, rid, rev, disposition=disposition)["receipt"]["revision"]
    assert rev == 5
    review = state(alice, rid)["state"]["review"]
    assert review["disposition"] == "unreviewed" and review["revision"] == 5


def test_a_rejected_record_is_not_served_and_approval_brings_it_back(alice: Who) -> None:
    rid, rev = create(alice, "a doubtful claim")
    rev = decide(alice, rid, rev, disposition="rejected")["receipt"]["revision"]
    with refused(404):
        read(alice, rid)
    decide(alice, rid, rev, disposition="approved")
    assert read(alice, rid)["record"]["review"]["disposition"] == "approved"


def test_a_stale_expected_revision_is_a_409(alice: Who) -> None:
    rid, rev = create(alice, "x")
    decide(alice, rid, rev)
    with refused(409, "stale_revision"):
        decide(alice, rid, rev, disposition="rejected")
    with refused(409):
        decide(alice, rid, rev + 5)


def test_the_deployment_admin_token_cannot_review(svc: ServiceHarness, alice: Who) -> None:
    rid, rev = create(alice, "x")
    with refused(403):
        decide(Who(svc, svc.admin), rid, rev)


@pytest.mark.parametrize(
    "grants", [["memory_write"], ["memory_read"], ["memory_read", "memory_write", "grant:manage"]]
)
def test_write_read_and_manage_grants_alone_do_not_grant_review(
    alice: Who, who_for, grants: list[str]
) -> None:
    rid, rev = create(alice, "x")
    with refused(403, "missing_grant"):
        decide(who_for(grants), rid, rev)


def test_a_review_grant_must_cover_the_records_scope(alice: Who, who_for) -> None:
    rid, rev = create(alice, "x")
    other = who_for(["memory_review"], scope="project/p2")
    with refused(403):
        decide(other, rid, rev)
    narrow = who_for(["memory_review"], subject="carol", scope="project/p1/agent/a1")
    assert decide(narrow, rid, rev)["receipt"]


def test_another_subjects_private_record_is_404_for_reviewers(alice: Who, who_for) -> None:
    rid, rev = create(alice, "my private note", scope=PRIVATE)
    bob = who_for(["memory_review", "memory_read"])
    for scope in (PRIVATE, SCOPE):
        with refused(404):
            decide(bob, rid, rev, scope=scope)
        with refused(404):
            state(bob, rid, scope=scope)
    assert decide(alice, rid, rev, scope=PRIVATE)["receipt"]


def test_a_record_outside_the_requested_scope_is_404(alice: Who) -> None:
    rid, rev = create(alice, "x")
    elsewhere = {**SCOPE, "project_id": "p2"}
    with refused(404):
        decide(alice, rid, rev, scope=elsewhere)
    with refused(404):
        decide(alice, rid, rev, scope={**SCOPE, "visibility": "private"})
    broader = {"project_id": "p1", "mission_id": None, "agent_id": None, "visibility": "shared"}
    assert decide(alice, rid, rev, scope=broader)["receipt"]


def test_an_unknown_record_is_404(alice: Who) -> None:
    with refused(404):
        decide(alice, "00000000-0000-4000-8000-000000000042", 1)


def test_reviewing_a_deleted_record_is_404(alice: Who) -> None:
    rid, rev = create(alice, "x")
    deleted = command(alice, "delete", record_id=rid, expected_revision=rev)["revision"]
    with refused(404):
        decide(alice, rid, deleted)


def test_reviewing_an_expired_record_records_the_decision_and_leaves_it_expired(
    alice: Who, sql
) -> None:
    rid, rev = create(alice, "short lived")
    sql("UPDATE memory_record SET expires_at = now() - interval '1 minute' WHERE id = %s", (rid,))
    receipt = decide(alice, rid, rev, disposition="approved")["receipt"]
    current = state(alice, rid)["state"]
    assert current["expired"] is True and current["revision"] == receipt["revision"]
    with refused(404):
        read(alice, rid)


def test_evidence_of_exactly_2048_utf8_bytes_is_accepted(alice: Who) -> None:
    rid, rev = create(alice, "x")
    evidence = "€" * 682 + "xx"  # 2046 + 2 bytes
    assert decide(alice, rid, rev, evidence_ref=evidence)["receipt"]["evidence_ref"] == evidence
