"""POST /chat over real HTTP: recall into the prompt, the serving gate, the offline answer,
model errors, usage and budget."""

from __future__ import annotations

import pytest

from tests.integration.chat.conftest import CHAT_MODEL
from tests.integration.chat.helpers import answered, chat, remember
from tests.support.hostile_replies import HOSTILE_REPLIES
from tests.support.scripted_model import Reply, scripted_models

FOOD = "My favourite food is durian."
QUESTION = "What is my favourite food?"


def test_the_answer_uses_recalled_memories_and_the_addendum_only_in_the_system_message(
    alice, ctx, scripted, configure
) -> None:
    configure(ctx, {"prompt_addendums": {"chat": "Answer like a ship's captain."}})
    remember(alice, ctx["id"], FOOD)
    scripted.respond_with("chat", Reply.text("You like durian, sailor."))
    out = answered(chat(alice, ctx["id"], QUESTION))
    assert out["answer"] == "You like durian, sailor." and out["model"] == CHAT_MODEL
    assert out["cached"] is False and out["turnId"] and out["sessionId"]
    assert any("durian" in m["text"] for m in out["memories"])
    assert set(out["memories"][0]) == {"id", "kind", "text", "score"}
    (sent,) = scripted.requests_for("chat")
    assert "durian" in sent.user and "<<<MEMORIES" in sent.user and QUESTION in sent.user
    assert "ship's captain" in sent.system and "ship's captain" not in sent.user
    assert "Context addendum" in sent.system


def _memory_block(user: str) -> str:
    return user.split("<<<MEMORIES", 1)[1].split("MEMORIES>>>", 1)[0]


def test_held_and_rejected_memories_never_reach_the_prompt(alice, ctx, scripted, configure) -> None:
    configure(ctx, {"judge": {"enabled": True, "on_warn": "hold", "rows": False}})
    scripted.respond_with(
        "judge",
        lambda r: Reply.json(
            {"verdict": "warn", "reasons": ["policy"]}
            if "My secret hobby" in r.user
            else {"verdict": "pass", "reasons": []}
        ),
    )
    assert remember(alice, ctx["id"], "My secret hobby is lockpicking.")["held"] is True
    remember(alice, ctx["id"], "My hobby is chess.")
    scope = {"project_id": "p1", "mission_id": None, "agent_id": "a1", "visibility": "shared"}
    made = alice.post(
        "/api/v1/memory/commands",
        json={
            "scope": scope,
            "command": {"contract_version": 1, "op": "create", "content": "My hobby is falconry"},
        },
    ).json()
    decided = alice.post(
        "/api/v1/memory/reviews",
        json={
            "scope": scope,
            "command": {
                "contract_version": 1,
                "record_id": made["record_id"],
                "expected_revision": made["revision"],
                "disposition": "rejected",
                "evidence_ref": "case://chat/1",
            },
        },
    )
    assert decided.status_code == 200, decided.text
    scripted.respond_with("chat", Reply.text("Chess."))
    out = answered(chat(alice, ctx["id"], "hobby: lockpicking, falconry, chess?", remember=False))
    block = _memory_block(scripted.requests_for("chat")[-1].user)
    assert "chess" in block
    assert "lockpicking" not in block and "falconry" not in block
    texts = " ".join(m["text"] for m in out["memories"])
    assert "lockpicking" not in texts and "falconry" not in texts


def test_without_a_chat_model_the_answer_lists_memories_and_says_so(
    offline, ctx, make_context
) -> None:
    with offline.client(ctx["key"]) as c:
        remember(c, ctx["id"], FOOD)
        out = answered(chat(c, ctx["id"], QUESTION))
    assert out["model"] == "none" and out["cached"] is False
    assert out["answer"].startswith("From memory:\n- ") and "durian" in out["answer"]
    empty = make_context("empty", subject="erin")
    with offline.client(empty["key"]) as c:
        nothing = answered(chat(c, empty["id"], QUESTION, remember=False))
    assert nothing["answer"] == "Nothing relevant to this is remembered."
    assert nothing["memories"] == [] and nothing["turnId"] is None


def test_an_unreachable_model_is_502_and_the_remembered_turn_stays(
    alice, ctx, scripted, sql
) -> None:
    scripted.respond_with("chat", Reply.error(500))
    resp = chat(alice, ctx["id"], "I live in Lisbon. Where do I live?")
    assert resp.status_code == 502
    assert resp.json()["error"]["code"] == "model_provider_error"
    assert sql("SELECT count(*) FROM turn")[0][0] == 1


@pytest.mark.parametrize("name", ["html_envelope", "deep_envelope", "truncated_envelope"])
def test_an_unreadable_model_reply_is_502_never_500(alice, ctx, scripted, name) -> None:
    scripted.respond_with("chat", HOSTILE_REPLIES[name])
    resp = chat(alice, ctx["id"], "hello there", remember=False)
    assert resp.status_code == 502
    assert resp.json()["error"]["code"] == "model_provider_error"


def test_chat_tokens_are_booked_under_the_chat_stage(alice, ctx, scripted) -> None:
    scripted.respond_with("chat", Reply.text("Hello."))
    answered(chat(alice, ctx["id"], "hello there", remember=False))
    stages = alice.get(f"/api/v1/{ctx['id']}/usage").json()["stages"]
    assert stages["chat"]["calls"] == 1
    assert stages["chat"]["prompt_tokens"] + stages["chat"]["completion_tokens"] == 18


def test_a_spent_budget_is_429_before_the_chat_model_is_called(
    alice, ctx, scripted, configure, sql
) -> None:
    configure(ctx, {"token_budget": {"limit": 10, "period": "day"}})
    sql(
        "INSERT INTO usage (context_id, day, stage, model, calls, prompt_tokens)"
        " VALUES (%s, current_date, 'chat', 'm', 1, 10)",
        (ctx["id"],),
    )
    for remembered in (False, True):
        resp = chat(alice, ctx["id"], "hello there", remember=remembered)
        assert resp.status_code == 429
        assert resp.json()["error"]["code"] == "token_budget_exhausted"
    assert scripted.requests_for("chat") == []
    assert sql("SELECT count(*) FROM turn")[0][0] == 0


def test_chat_needs_read_and_remembering_needs_write(live, ctx, make_key, scripted, sql) -> None:
    scripted.respond_with("chat", Reply.text("Hi."))
    writer = make_key(ctx["id"], ["memory_write"], subject="wendy")
    reader = make_key(ctx["id"], ["memory_read"], subject="rita")
    with live.client(writer) as w, live.client(reader) as r:
        assert chat(w, ctx["id"], "hello", remember=False).status_code == 403
        assert chat(r, ctx["id"], "hello").status_code == 403
        assert chat(r, ctx["id"], "hello", remember=False).status_code == 200
        assert chat(r, ctx["id"], "hello", limit=51).status_code == 400
    assert sql("SELECT count(*) FROM turn")[0][0] == 0


def test_a_context_that_names_its_chat_model_is_answered_by_that_model(
    alice, ctx, scripted, configure
) -> None:
    scripted.respond_with("chat", Reply.text("From the deployment's model."))
    first = answered(chat(alice, ctx["id"], QUESTION, remember=False))
    assert first["model"] == CHAT_MODEL
    configure(ctx, {"models": {"chat": {"provider": "openai", "model": "context-chat"}}})
    scripted.respond_with("chat", Reply.text("From the Context's model."))
    second = answered(chat(alice, ctx["id"], QUESTION, remember=False))
    # the same question, the same memory: the deployment model's cached answer is not reused
    assert second["model"] == "context-chat" and second["cached"] is False
    assert second["answer"] == "From the Context's model."
    assert [r.model for r in scripted.requests_for("chat")] == [CHAT_MODEL, "context-chat"]


def test_a_context_chat_model_with_an_unknown_provider_is_503(alice, ctx, configure) -> None:
    configure(ctx, {"models": {"chat": {"provider": "nowhere", "model": "m"}}})
    resp = chat(alice, ctx["id"], QUESTION, remember=False)
    assert resp.status_code == 503
    assert resp.json()["error"]["code"] == "chat_model_unavailable"


def test_a_remembered_message_whose_extraction_failed_is_flagged_chunk_only(
    live_with, ctx, scripted
) -> None:
    server = live_with(
        **scripted_models(
            scripted,
            model_chat=f"openai:{CHAT_MODEL}",
            model_judge="openai:judge-model",
            model_extraction="openai:test-model",
        )
    )
    scripted.respond_with("extraction", Reply.text("not JSON"))
    scripted.respond_with("chat", Reply.text("Noted."))
    with server.client(ctx["key"]) as c:
        failed = answered(chat(c, ctx["id"], "I keep bees on the roof."))
        unremembered = answered(chat(c, ctx["id"], "Who keeps bees?", remember=False))
    assert failed["chunkOnly"] is True and failed["turnId"]
    assert unremembered["chunkOnly"] is False
