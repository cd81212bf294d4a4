"""The response cache end to end, with the usage feed showing that a hit books nothing.
The cache's other rules are checked through the use case in tests/service/chat/test_chat.py."""

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
