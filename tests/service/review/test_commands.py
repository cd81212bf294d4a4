"""Memory commands through the use case: create, update and delete with expected
revisions, history kept."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.integration.review.helpers import SCOPE
from tests.service.review.memory import Who, command, create, decide, read, state
from tests.service.usecases import refused


def test_a_created_note_is_revision_one_owned_and_authored_by_the_caller(alice: Who, sql) -> None:
    rid, rev = create(alice, "Alice's standup is at 9:30")
    assert rev == 1
    record = read(alice, rid)["record"]
    assert record["kind"] == "note" and record["memory_category"] == "context"
    assert record["content"] == {"text": "Alice's standup is at 9:30"}
    assert record["author"] == "alice" and record["review"] is None
    assert record["scope"]["project_id"] == "p1" and record["scope"]["agent_id"] == "a1"
    owner = sql("SELECT owner_subject, visibility FROM memory_record WHERE id = %s", (rid,))
    assert owner == [("alice", "shared")]


def test_a_client_chosen_record_id_is_kept_and_cannot_be_reused(alice: Who) -> None:
    rid = "00000000-0000-4000-8000-000000000042"
    assert create(alice, "x", record_id=rid) == (rid, 1)
    with refused(409, "record_exists"):
        command(alice, "create", record_id=rid, content="y")


def test_an_update_bumps_the_revision_and_clears_the_review(alice: Who) -> None:
    rid, rev = create(alice, "draft")
    rev = decide(alice, rid, rev, disposition="approved")["receipt"]["revision"]
    out = command(alice, "update", record_id=rid, expected_revision=rev, content="final")
    assert out == {
        "contract_version": 1,
        "record_id": rid,
        "revision": rev + 1,
        "held": False,
        "judgement": {"verdict": None, "reasons": [], "judgement_id": None},  # judge off
    }
    record = read(alice, rid)["record"]
    assert record["content"] == {"text": "final"} and record["review"] is None
    assert state(alice, rid)["state"]["review"] is None


def test_correcting_a_rejected_record_publishes_a_new_unreviewed_revision(alice: Who) -> None:
    rid, rev = create(alice, "wrong")
    rev = decide(alice, rid, rev, disposition="rejected")["receipt"]["revision"]
    with refused(404):
        read(alice, rid)
    command(alice, "update", record_id=rid, expected_revision=rev, content="right")
    assert read(alice, rid)["record"]["content"] == {"text": "right"}


def test_an_expiry_only_update_keeps_the_review(alice: Who) -> None:
    rid, rev = create(alice, "x")
    rev = decide(alice, rid, rev)["receipt"]["revision"]
    later = (datetime.now(UTC) + timedelta(days=2)).isoformat()
    command(alice, "update", record_id=rid, expected_revision=rev, expires_at=later)
    record = read(alice, rid)["record"]
    assert record["review"]["disposition"] == "approved" and record["expires_at"]


def test_update_and_delete_with_a_stale_revision_are_409(alice: Who) -> None:
    rid, _ = create(alice, "x")
    command(alice, "update", record_id=rid, expected_revision=1, content="y")
    for op, extra in (("update", {"content": "z"}), ("delete", {})):
        with refused(409, "stale_revision") as raised:
            command(alice, op, record_id=rid, expected_revision=1, **extra)
        assert raised.value.extra["current_revision"] == 2


def test_delete_hides_the_record_but_keeps_its_history(alice: Who, sql) -> None:
    rid, rev = create(alice, "forget me")
    out = command(alice, "delete", record_id=rid, expected_revision=rev)
    assert out["revision"] == rev + 1
    with refused(404):
        read(alice, rid)
    current = state(alice, rid)["state"]
    assert current["deleted"] is True and current["expired"] is False
    history = sql(
        "SELECT revision, op, content->>'text' FROM memory_revision WHERE record_id = %s"
        " ORDER BY revision",
        (rid,),
    )
    assert history == [(1, "create", "forget me"), (2, "delete", None)]
    with refused(404):
        command(alice, "delete", record_id=rid, expected_revision=2)
    with refused(404):
        command(alice, "update", record_id=rid, expected_revision=2, content="x")


def test_creating_needs_memory_write_covering_the_scope(alice: Who, who_for) -> None:
    reader = who_for(["memory_read", "memory_review"])
    with refused(403):
        command(reader, "create", content="x")
    narrow = who_for(["memory_write"], subject="carol", scope="project/p2")
    with refused(403):
        command(narrow, "create", content="x")
    assert command(narrow, "create", content="x", scope={**SCOPE, "project_id": "p2"})


def test_another_writer_cannot_touch_a_private_record(alice: Who, who_for) -> None:
    private = {**SCOPE, "visibility": "private"}
    rid, rev = create(alice, "mine", scope=private)
    bob = who_for(["memory_write", "memory_read"])
    with refused(404):
        command(bob, "delete", scope=private, record_id=rid, expected_revision=rev)


def test_content_of_16000_characters_is_accepted(alice: Who) -> None:
    rid, _ = create(alice, "é" * 16_000)
    assert len(read(alice, rid)["record"]["content"]["text"]) == 16_000
