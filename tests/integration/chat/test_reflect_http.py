"""POST /reflect: insights from recent memories, row-gated, reconciled with their sources."""

from __future__ import annotations

import json
import uuid

from tests.integration.chat.helpers import remember
from tests.support.replies import EMPTY_EXTRACTION
from tests.support.scripted_model import Reply

EMPTY = EMPTY_EXTRACTION
INSIGHT = {
    **EMPTY,
    "attributes": [
        {
            "entity": "user",
            "key": "favourite_cuisine",
            "value": "Asian",
            "memoryCategory": "knowledge",
        }
    ],
    "uncertainties": [{"about": "user drink", "reason": "tea and coffee both claimed"}],
}


def reflect(client, cid: str, **body):
    return client.post(f"/api/v1/{cid}/reflect", json=body)


def test_reflection_writes_derived_records_naming_the_memories_it_read(
    alice, ctx, scripted, configure, sql
) -> None:
    configure(ctx, {"prompt_addendums": {"chat": "Prefer short values."}})
    remember(alice, ctx["id"], "My favourite food is durian.")
    remember(alice, ctx["id"], "My favourite dish is ramen.")
    read = {r[0] for r in sql("SELECT id FROM memory_record WHERE kind <> 'entity'")}
    scripted.respond_with("chat", Reply.json(INSIGHT))
    resp = reflect(alice, ctx["id"])
    assert resp.status_code == 200, resp.text
    out = resp.json()
    assert out["sources"] == len(read) and out["parsed"] is True
    assert [a["value"] for a in out["extraction"]["attributes"]] == ["Asian"]
    rows = sql(
        "SELECT kind, source_ref, derived_from FROM memory_record WHERE source_kind = 'reflection'"
    )
    assert {kind for kind, _, _ in rows} >= {"attribute", "uncertainty"}
    for _, ref, derived in rows:
        assert ref == uuid.UUID(out["reflectionId"]) and set(derived) == read
    (sent,) = scripted.requests_for("chat")
    assert "durian" in sent.user and "ramen" in sent.user and "<<<MEMORIES" in sent.user
    assert "Prefer short values." in sent.system and "Prefer short values." not in sent.user
    stages = alice.get(f"/api/v1/{ctx['id']}/usage").json()["stages"]
    assert stages["chat"]["calls"] == 1


def test_a_second_identical_reflection_adds_nothing(alice, ctx, scripted, sql) -> None:
    remember(alice, ctx["id"], "My favourite food is durian.")
    scripted.respond_with("chat", Reply.json(INSIGHT))
    assert reflect(alice, ctx["id"]).status_code == 200
    before = sql("SELECT count(*) FROM memory_record")[0][0]
    again = reflect(alice, ctx["id"]).json()
    assert [a["isNew"] for a in again["extraction"]["attributes"]] == [False]
    assert sql("SELECT count(*) FROM memory_record")[0][0] == before


def test_the_row_gate_drops_a_failed_reflected_row(alice, ctx, scripted, configure, sql) -> None:
    remember(alice, ctx["id"], "My favourite food is durian.")
    configure(ctx, {"judge": {"enabled": True, "input": False}})
    scripted.respond_with("chat", Reply.json(INSIGHT))

    def rows(request) -> Reply:
        items = json.loads(request.user)
        verdicts = [
            {
                "id": i["id"],
                "verdict": "fail" if i.get("key") == "favourite_cuisine" else "pass",
                "reasons": ["sensitive_inference"] if i.get("key") == "favourite_cuisine" else [],
            }
            for i in items
        ]
        return Reply.json({"rows": verdicts})

    scripted.respond_with("row_judge", rows)
    out = reflect(alice, ctx["id"]).json()
    assert out["extraction"]["attributes"] == []
    bodies = [b for (b,) in sql("SELECT body FROM memory_record WHERE source_kind = 'reflection'")]
    assert bodies and not any("Asian" in b for b in bodies)
    assert ("reflection", "fail") in sql("SELECT source, verdict FROM judgement")


def test_reflection_without_a_chat_model_is_503(offline, ctx) -> None:
    with offline.client(ctx["key"]) as c:
        resp = reflect(c, ctx["id"])
    assert resp.status_code == 503
    assert resp.json()["error"]["code"] == "reflection_model_unavailable"
    assert "chat model" in resp.json()["error"]["message"]


def test_reflection_needs_write_and_a_model_reply_that_does_not_parse_writes_nothing(
    live, alice, ctx, scripted, make_key, sql
) -> None:
    remember(alice, ctx["id"], "My favourite food is durian.")
    with live.client(make_key(ctx["id"], ["memory_read"], subject="rita")) as reader:
        assert reflect(reader, ctx["id"]).status_code == 403
    scripted.respond_with("chat", Reply.text("not json at all"))
    before = sql("SELECT count(*) FROM memory_record")[0][0]
    out = reflect(alice, ctx["id"]).json()
    assert out["parsed"] is False and out["extraction"]["attributes"] == []
    assert sql("SELECT count(*) FROM memory_record")[0][0] == before


def test_insights_from_private_memories_are_written_private(alice, ctx, scripted, sql) -> None:
    remember(alice, ctx["id"], "My favourite food is durian.", visibility="private")
    scripted.respond_with("chat", Reply.json(INSIGHT))
    assert reflect(alice, ctx["id"]).status_code == 200
    seen = sql("SELECT DISTINCT visibility FROM memory_record WHERE source_kind = 'reflection'")
    assert seen == [("private",)]


def test_a_reflection_with_nothing_to_read_calls_no_model(alice, ctx, scripted) -> None:
    out = reflect(alice, ctx["id"]).json()
    assert out["sources"] == 0 and out["reflectionId"] is None
    assert scripted.requests_for("chat") == []


def test_an_insight_leaves_serving_when_a_memory_it_came_from_is_rejected(
    alice, ctx, scripted
) -> None:
    scope = {"project_id": "p1", "mission_id": None, "agent_id": "a1", "visibility": "shared"}
    made = alice.post(
        "/api/v1/memory/commands",
        json={
            "scope": scope,
            "command": {"contract_version": 1, "op": "create", "content": "User eats sushi weekly"},
        },
    ).json()
    scripted.respond_with("chat", Reply.json(INSIGHT))
    assert reflect(alice, ctx["id"]).json()["sources"] == 1

    def cuisine() -> list[str]:
        resp = alice.post(f"/api/v1/{ctx['id']}/query", json={"query": "favourite cuisine Asian"})
        return [h["text"] for h in resp.json()["hits"] if "Asian" in h["text"]]

    assert cuisine()
    decision = {
        "contract_version": 1,
        "record_id": made["record_id"],
        "expected_revision": made["revision"],
        "disposition": "rejected",
        "evidence_ref": "case://chat/2",
    }
    resp = alice.post("/api/v1/memory/reviews", json={"scope": scope, "command": decision})
    assert resp.status_code == 200, resp.text
    assert cuisine() == []
