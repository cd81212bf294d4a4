"""Memory commands: create, update and delete with expected revisions, history kept."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest

from tests.integration.review.helpers import (
    SCOPE,
    command,
    create,
    decide,
    error_code,
    ok,
    read,
    state,
)


def test_a_created_note_is_revision_one_owned_and_authored_by_the_caller(
    alice: httpx.Client, sql
) -> None:
    rid, rev = create(alice, "Alice's standup is at 9:30")
    assert rev == 1
    record = ok(read(alice, rid))["record"]
    assert record["kind"] == "note" and record["memory_category"] == "context"
    assert record["content"] == {"text": "Alice's standup is at 9:30"}
    assert record["author"] == "alice" and record["review"] is None
    assert record["scope"]["project_id"] == "p1" and record["scope"]["agent_id"] == "a1"
    owner = sql("SELECT owner_subject, visibility FROM memory_record WHERE id = %s", (rid,))
    assert owner == [("alice", "shared")]


def test_a_client_chosen_record_id_is_kept_and_cannot_be_reused(alice: httpx.Client) -> None:
    rid = "00000000-0000-4000-8000-000000000042"
    assert create(alice, "x", record_id=rid) == (rid, 1)
    resp = command(alice, "create", record_id=rid, content="y")
    assert resp.status_code == 409 and error_code(resp) == "record_exists"


def test_an_update_bumps_the_revision_and_clears_the_review(alice: httpx.Client) -> None:
    rid, rev = create(alice, "draft")
    rev = ok(decide(alice, rid, rev, disposition="approved"))["receipt"]["revision"]
    out = ok(command(alice, "update", record_id=rid, expected_revision=rev, content="final"))
    assert out == {"contract_version": 1, "record_id": rid, "revision": rev + 1}
    record = ok(read(alice, rid))["record"]
    assert record["content"] == {"text": "final"} and record["review"] is None
    assert ok(state(alice, rid))["state"]["review"] is None


def test_correcting_a_rejected_record_publishes_a_new_unreviewed_revision(
    alice: httpx.Client,
) -> None:
    rid, rev = create(alice, "wrong")
    rev = ok(decide(alice, rid, rev, disposition="rejected"))["receipt"]["revision"]
    assert read(alice, rid).status_code == 404
    ok(command(alice, "update", record_id=rid, expected_revision=rev, content="right"))
    assert ok(read(alice, rid))["record"]["content"] == {"text": "right"}


def test_an_expiry_only_update_keeps_the_review(alice: httpx.Client) -> None:
    rid, rev = create(alice, "x")
    rev = ok(decide(alice, rid, rev))["receipt"]["revision"]
    later = (datetime.now(UTC) + timedelta(days=2)).isoformat()
    ok(command(alice, "update", record_id=rid, expected_revision=rev, expires_at=later))
    record = ok(read(alice, rid))["record"]
    assert record["review"]["disposition"] == "approved" and record["expires_at"]


def test_update_and_delete_with_a_stale_revision_are_409(alice: httpx.Client) -> None:
    rid, _ = create(alice, "x")
    ok(command(alice, "update", record_id=rid, expected_revision=1, content="y"))
    for op, extra in (("update", {"content": "z"}), ("delete", {})):
        resp = command(alice, op, record_id=rid, expected_revision=1, **extra)
        assert resp.status_code == 409 and error_code(resp) == "stale_revision"
        assert resp.json()["error"]["current_revision"] == 2


def test_delete_hides_the_record_but_keeps_its_history(alice: httpx.Client, sql) -> None:
    rid, rev = create(alice, "forget me")
    out = ok(command(alice, "delete", record_id=rid, expected_revision=rev))
    assert out["revision"] == rev + 1
    assert read(alice, rid).status_code == 404
    current = ok(state(alice, rid))["state"]
    assert current["deleted"] is True and current["expired"] is False
    history = sql(
        "SELECT revision, op, content->>'text' FROM memory_revision WHERE record_id = %s"
        " ORDER BY revision",
        (rid,),
    )
    assert history == [(1, "create", "forget me"), (2, "delete", None)]
    again = command(alice, "delete", record_id=rid, expected_revision=2)
    assert again.status_code == 404
    assert (
        command(alice, "update", record_id=rid, expected_revision=2, content="x").status_code == 404
    )


def test_every_command_writes_a_change_event_and_an_audit_event_without_content(
    alice: httpx.Client, sql
) -> None:
    rid, rev = create(alice, "secret-ish words")
    rev = ok(command(alice, "update", record_id=rid, expected_revision=rev, content="more words"))[
        "revision"
    ]
    rev = ok(decide(alice, rid, rev))["receipt"]["revision"]
    ok(command(alice, "delete", record_id=rid, expected_revision=rev))
    changes = alice.get("/api/v1/memory/changes").json()["changes"]
    assert [(c["entry_type"], c["revision"]) for c in changes] == [
        ("created", 1),
        ("updated", 2),
        ("reviewed", 3),
        ("deleted", 4),
    ]
    audit = sql("SELECT action, target_id::text FROM audit_event WHERE target_id = %s", (rid,))
    assert sorted(a for a, _ in audit) == [
        "memory.create",
        "memory.delete",
        "memory.review",
        "memory.update",
    ]
    assert "words" not in str(sql("SELECT * FROM audit_event"))


def test_creating_needs_memory_write_covering_the_scope(alice: httpx.Client, client_for) -> None:
    reader = client_for(["memory_read", "memory_review"])
    resp = command(reader, "create", content="x")
    assert resp.status_code == 403
    narrow = client_for(["memory_write"], subject="carol", scope="project/p2")
    assert command(narrow, "create", content="x").status_code == 403
    assert (
        command(narrow, "create", content="x", scope={**SCOPE, "project_id": "p2"}).status_code
        == 200
    )


def test_another_writer_cannot_touch_a_private_record(alice: httpx.Client, client_for) -> None:
    private = {**SCOPE, "visibility": "private"}
    rid, rev = create(alice, "mine", scope=private)
    bob = client_for(["memory_write", "memory_read"])
    resp = command(bob, "delete", scope=private, record_id=rid, expected_revision=rev)
    assert resp.status_code == 404


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"op": "create"}, "command.content"),
        ({"op": "create", "content": ""}, "command.content"),
        ({"op": "create", "content": "x" * 16_001}, "command.content"),
        ({"op": "create", "content": "x", "expected_revision": 1}, "command.expected_revision"),
        (
            {"op": "create", "content": "x", "expires_at": "2000-01-01T00:00:00Z"},
            "command.expires_at",
        ),
        ({"op": "update", "expected_revision": 1}, "command.record_id"),
        (
            {"op": "delete", "record_id": "00000000-0000-4000-8000-000000000001"},
            "command.expected_revision",
        ),
        ({"op": "upsert", "content": "x"}, "command.op"),
        ({"op": "create", "content": "x", "kind": "entity"}, "command.kind"),
    ],
)
def test_malformed_commands_are_400(alice: httpx.Client, fields: dict, field: str) -> None:
    body = {"scope": SCOPE, "command": {"contract_version": 1, **fields}}
    resp = alice.post("/api/v1/memory/commands", json=body)
    assert resp.status_code == 400, resp.text
    assert resp.json()["error"]["field"] == field


def test_content_of_16000_characters_is_accepted(alice: httpx.Client) -> None:
    rid, _ = create(alice, "é" * 16_000)
    assert len(ok(read(alice, rid))["record"]["content"]["text"]) == 16_000
