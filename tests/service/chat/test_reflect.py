"""The reflection use case: insights from recent memories, row-gated, reconciled with
their sources."""

from __future__ import annotations

import json

from tests.integration.chat.helpers import INSIGHT
from tests.service.review.memory import Who, create, decide
from tests.service.usecases import facts, query, reflect, refused
from tests.support.scripted_model import Reply


def test_a_second_identical_reflection_adds_nothing(chatting, ctx, scripted, sql) -> None:
    facts(chatting, ctx, "My favourite food is durian.")
    scripted.respond_with("chat", Reply.json(INSIGHT))
    reflect(chatting, ctx)
    before = sql("SELECT count(*) FROM memory_record")[0][0]
    again = reflect(chatting, ctx)
    assert [a["isNew"] for a in again["extraction"]["attributes"]] == [False]
    assert sql("SELECT count(*) FROM memory_record")[0][0] == before


def test_the_row_gate_drops_a_failed_reflected_row(chatting, ctx, scripted, sql) -> None:
    facts(chatting, ctx, "My favourite food is durian.")
    chatting.configure(ctx.id, {"judge": {"enabled": True, "input": False}})
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
    out = reflect(chatting, ctx)
    assert out["extraction"]["attributes"] == []
    bodies = [b for (b,) in sql("SELECT body FROM memory_record WHERE source_kind = 'reflection'")]
    assert bodies and not any("Asian" in b for b in bodies)
    assert ("reflection", "fail") in sql("SELECT source, verdict FROM judgement")


def test_reflection_without_a_chat_model_is_503(svc, ctx) -> None:
    with refused(503, "reflection_model_unavailable") as raised:
        reflect(svc, ctx)
    assert "chat model" in raised.value.message


def test_reflection_needs_write_and_a_model_reply_that_does_not_parse_writes_nothing(
    chatting, ctx, scripted, sql
) -> None:
    facts(chatting, ctx, "My favourite food is durian.")
    reader = chatting.add_key(ctx.id, ["memory_read"], subject="rita")
    with refused(403):
        reflect(chatting, reader)
    scripted.respond_with("chat", Reply.text("not json at all"))
    before = sql("SELECT count(*) FROM memory_record")[0][0]
    out = reflect(chatting, ctx)
    assert out["parsed"] is False and out["extraction"]["attributes"] == []
    assert sql("SELECT count(*) FROM memory_record")[0][0] == before


def test_insights_from_private_memories_are_written_private(chatting, ctx, scripted, sql) -> None:
    facts(chatting, ctx, "My favourite food is durian.", visibility="private")
    scripted.respond_with("chat", Reply.json(INSIGHT))
    reflect(chatting, ctx)
    seen = sql("SELECT DISTINCT visibility FROM memory_record WHERE source_kind = 'reflection'")
    assert seen == [("private",)]


def test_a_reflection_with_nothing_to_read_calls_no_model(chatting, ctx, scripted) -> None:
    out = reflect(chatting, ctx)
    assert out["sources"] == 0 and out["reflectionId"] is None
    assert scripted.requests_for("chat") == []


def test_an_insight_leaves_serving_when_a_memory_it_came_from_is_rejected(
    chatting, ctx, scripted
) -> None:
    alice = Who.of(chatting, ctx)
    rid, rev = create(alice, "User eats sushi weekly")
    scripted.respond_with("chat", Reply.json(INSIGHT))
    assert reflect(chatting, ctx)["sources"] == 1

    def cuisine() -> list[str]:
        hits = query(chatting, ctx, "favourite cuisine Asian")
        return [h["text"] for h in hits if "Asian" in h["text"]]

    assert cuisine()
    decide(alice, rid, rev, disposition="rejected", evidence_ref="case://chat/2")
    assert cuisine() == []
