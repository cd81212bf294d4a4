"""POST /reflect end to end: derived records, the prompt and the usage feed. The rest of
reflection is checked through the use case in tests/service/chat/test_reflect.py."""

from __future__ import annotations

import uuid

from tests.integration.chat.helpers import INSIGHT, remember
from tests.support.scripted_model import Reply


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
