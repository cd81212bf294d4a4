"""The chat use case: the response cache (keyed by Context, reader, question and memory
version) and the input gate (refusals before anything is stored, warnings flagged)."""

from __future__ import annotations

from tests.integration.chat.helpers import PASS, verdict
from tests.service.usecases import chat, facts, refused, state
from tests.support.scripted_model import Reply

QUESTION = "What is my favourite food?"
CARD = "4111 1111 1111 1111"
JUDGE = {"judge": {"enabled": True, "rows": False}}


def _echo(request) -> Reply:
    """An answer that says whether durian was among the recalled memories."""
    return Reply.text("durian" if "durian" in request.user else "I do not know")


def test_a_remembered_repeated_question_leaves_the_version_alone_and_hits_the_cache(
    chatting, ctx, scripted, sql
) -> None:
    scripted.respond_with("chat", _echo)
    message = "My favourite food is durian. What is my favourite food?"
    first = chat(chatting, ctx, message)
    version = sql("SELECT max(seq) FROM change_event")[0][0]
    again = chat(chatting, ctx, message)
    assert version is not None and sql("SELECT max(seq) FROM change_event")[0][0] == version
    assert first["cached"] is False and again["cached"] is True
    assert again["turnId"] != first["turnId"]  # the turn is stored each time
    assert sql("SELECT count(*) FROM turn")[0][0] == 2
    assert len(scripted.requests_for("chat")) == 1


def test_a_context_with_a_chat_addendum_never_uses_the_cache(chatting, ctx, scripted) -> None:
    chatting.configure(ctx.id, {"prompt_addendums": {"chat": "Be brief."}})
    scripted.respond_with("chat", _echo)
    outs = [chat(chatting, ctx, QUESTION, remember=False) for _ in range(2)]
    assert [o["cached"] for o in outs] == [False, False]
    assert len(scripted.requests_for("chat")) == 2


def test_the_cache_is_not_shared_between_subjects_with_different_private_memories(
    chatting, ctx, scripted
) -> None:
    scripted.respond_with("chat", _echo)
    facts(chatting, ctx, "My favourite food is durian.", visibility="private")
    mine = chat(chatting, ctx, QUESTION, remember=False)
    bob = chatting.add_key(ctx.id, ["memory_read"], subject="bob")
    theirs = chat(chatting, bob, QUESTION, remember=False)
    assert mine["answer"] == "durian" and theirs["answer"] == "I do not know"
    assert theirs["cached"] is False and theirs["memories"] == []


def test_a_cached_answer_is_not_served_once_a_memory_in_it_is_no_longer_servable(
    chatting, ctx, scripted, sql
) -> None:
    scripted.respond_with("chat", _echo)
    facts(chatting, ctx, "My favourite food is durian.")
    chat(chatting, ctx, QUESTION, remember=False)
    # Expiry moves no change-feed entry; the hit's servable check still catches it.
    sql("UPDATE memory_record SET expires_at = now() - interval '1 minute'")
    out = chat(chatting, ctx, QUESTION, remember=False)
    assert out["cached"] is False and out["memories"] == []


def test_a_card_number_in_a_chat_message_is_refused_with_422(chatting, ctx, scripted, sql) -> None:
    chatting.configure(ctx.id, JUDGE)
    scripted.respond_with("judge", verdict("fail", "payment_card"))
    for remembered in (True, False):
        with refused(422, "judge_refused") as raised:
            chat(chatting, ctx, f"Is my card {CARD} still valid?", remember=remembered)
        assert "payment_card" in raised.value.extra["reasons"]
    assert sql("SELECT count(*) FROM turn")[0][0] == 0
    assert sql("SELECT source, verdict FROM judgement") == [("chat", "fail")] * 2
    assert scripted.requests_for("chat") == []


def test_a_denied_chat_message_gets_the_fixed_message_and_leaves_nothing(
    chatting, ctx, scripted, sql
) -> None:
    chatting.configure(ctx.id, JUDGE)
    scripted.respond_with("judge", verdict("deny", "policy"))
    for remembered in (True, False):
        with refused(422, "request_denied") as raised:
            chat(chatting, ctx, "zq-denied-marker says hello", remember=remembered)
        err = raised.value
        assert err.message == "the request could not be processed"
        assert err.field is None and err.extra == {}
    assert sql("SELECT count(*) FROM turn")[0][0] == 0
    assert sql("SELECT count(*) FROM judgement")[0][0] == 0
    assert scripted.requests_for("chat") == []


def test_a_chat_warning_is_stored_and_flagged_but_never_held(chatting, ctx, scripted, sql) -> None:
    chatting.configure(ctx.id, {"judge": {"enabled": True, "rows": False, "on_warn": "hold"}})
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    scripted.respond_with("chat", Reply.text("Noted."))
    out = chat(chatting, ctx, "My neighbour is Bob Smith. Who is he?")
    assert out["turnId"]
    assert sql("SELECT serving FROM turn") == [("live",)]
    assert sql("SELECT source, verdict, held FROM judgement") == [("chat", "warn", False)]


def test_a_message_not_remembered_is_judged_and_logged_but_stores_no_turn(
    chatting, ctx, scripted, sql
) -> None:
    chatting.configure(ctx.id, JUDGE)
    scripted.respond_with("judge", PASS)
    scripted.respond_with("chat", Reply.text("Hi."))
    out = chat(chatting, ctx, "hello there", remember=False)
    assert out["turnId"] is None and out["sessionId"] is None
    assert sql("SELECT count(*) FROM turn")[0][0] == 0
    assert sql("SELECT source, verdict, turn_id FROM judgement") == [("chat", "pass", None)]


def test_a_remembered_chat_warning_stores_one_uncertainty_with_the_codes(
    chatting, ctx, scripted
) -> None:
    chatting.configure(ctx.id, JUDGE)
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    scripted.respond_with("chat", Reply.text("Noted."))
    out = chat(chatting, ctx, "My neighbour is Bob Smith. Who is he?", visibility="private")
    notes = [u for u in state(chatting, ctx)["uncertainties"] if "judgeReasons" in u["content"]]
    (note,) = notes
    assert note["content"]["judgeReasons"] == ["personal_data"]
    assert note["source"] == {"kind": "turn", "ref": out["turnId"]}
    assert note["scope"]["visibility"] == "private"
    assert "Bob" not in str(note)
