"""Memory commands over HTTP: body validation, and the change feed they write. What a
command does is checked through the use case in tests/service/review/test_commands.py."""

from __future__ import annotations

import httpx
import pytest

from tests.integration.review.helpers import (
    SCOPE,
    command,
    create,
    decide,
    ok,
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
