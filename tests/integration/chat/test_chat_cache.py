"""The response cache: keyed by Context, reader, question and memory version."""

from __future__ import annotations

from tests.integration.chat.helpers import answered, chat, remember
from tests.support.scripted_model import Reply

QUESTION = "What is my favourite food?"


def _echo(request) -> Reply:
    """An answer that says whether durian was among the recalled memories."""
    return Reply.text("durian" if "durian" in request.user else "I do not know")


def test_an_identical_question_is_answered_from_the_cache_until_memory_changes(
    alice, ctx, scripted
) -> None:
    scripted.respond_with("chat", _echo)
    remember(alice, ctx["id"], "My favourite food is durian.")
    first = answered(chat(alice, ctx["id"], QUESTION, remember=False))
    again = answered(chat(alice, ctx["id"], "  what is my FAVOURITE food? ", remember=False))
    assert first["cached"] is False and again["cached"] is True
    assert again["answer"] == first["answer"] == "durian"
    assert again["memories"] == first["memories"] and again["model"] == first["model"]
    assert len(scripted.requests_for("chat")) == 1
    stages = alice.get(f"/api/v1/{ctx['id']}/usage").json()["stages"]
    assert stages["chat"]["calls"] == 1  # a hit books nothing
    remember(alice, ctx["id"], "My favourite drink is mate.")
    after = answered(chat(alice, ctx["id"], QUESTION, remember=False))
    assert after["cached"] is False and len(scripted.requests_for("chat")) == 2


def test_a_remembered_repeated_question_leaves_the_version_alone_and_hits_the_cache(
    alice, ctx, scripted, sql
) -> None:
    scripted.respond_with("chat", _echo)
    message = "My favourite food is durian. What is my favourite food?"
    first = answered(chat(alice, ctx["id"], message))
    version = sql("SELECT max(seq) FROM change_event")[0][0]
    again = answered(chat(alice, ctx["id"], message))
    assert version is not None and sql("SELECT max(seq) FROM change_event")[0][0] == version
    assert first["cached"] is False and again["cached"] is True
    assert again["turnId"] != first["turnId"]  # the turn is stored each time
    assert sql("SELECT count(*) FROM turn")[0][0] == 2
    assert len(scripted.requests_for("chat")) == 1


def test_a_context_with_a_chat_addendum_never_uses_the_cache(
    alice, ctx, scripted, configure
) -> None:
    configure(ctx, {"prompt_addendums": {"chat": "Be brief."}})
    scripted.respond_with("chat", _echo)
    outs = [answered(chat(alice, ctx["id"], QUESTION, remember=False)) for _ in range(2)]
    assert [o["cached"] for o in outs] == [False, False]
    assert len(scripted.requests_for("chat")) == 2


def test_the_cache_is_not_shared_between_subjects_with_different_private_memories(
    live, alice, ctx, scripted, make_key
) -> None:
    scripted.respond_with("chat", _echo)
    remember(alice, ctx["id"], "My favourite food is durian.", visibility="private")
    mine = answered(chat(alice, ctx["id"], QUESTION, remember=False))
    with live.client(make_key(ctx["id"], ["memory_read"], subject="bob")) as bob:
        theirs = answered(chat(bob, ctx["id"], QUESTION, remember=False))
    assert mine["answer"] == "durian" and theirs["answer"] == "I do not know"
    assert theirs["cached"] is False and theirs["memories"] == []


def test_a_cached_answer_is_not_served_once_a_memory_in_it_is_no_longer_servable(
    alice, ctx, scripted, sql
) -> None:
    scripted.respond_with("chat", _echo)
    remember(alice, ctx["id"], "My favourite food is durian.")
    answered(chat(alice, ctx["id"], QUESTION, remember=False))
    # Expiry moves no change-feed entry; the hit's servable check still catches it.
    sql("UPDATE memory_record SET expires_at = now() - interval '1 minute'")
    out = answered(chat(alice, ctx["id"], QUESTION, remember=False))
    assert out["cached"] is False and out["memories"] == []
