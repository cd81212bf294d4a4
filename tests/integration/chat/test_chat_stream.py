"""POST /chat/stream: server-sent events, and which failures are plain JSON responses."""

from __future__ import annotations

from tests.integration.chat.conftest import CHAT_MODEL
from tests.integration.chat.helpers import events, remember, verdict
from tests.support.scripted_model import Reply

ANSWER = "Durian is your favourite food, by a long way."


def stream(client, cid: str, message: str, **body):
    return client.post(f"/api/v1/{cid}/chat/stream", json={"message": message, **body})


def test_the_stream_sends_memories_then_tokens_then_done(alice, ctx, scripted) -> None:
    remember(alice, ctx["id"], "My favourite food is durian.")
    scripted.respond_with("chat", Reply.text(ANSWER))
    resp = stream(alice, ctx["id"], "What is my favourite food?")
    assert resp.status_code == 200
    assert resp.headers["content-type"].startswith("text/event-stream")
    got = events(resp)
    names = [name for name, _ in got]
    assert names[0] == "memories" and names[-1] == "done"
    assert set(names[1:-1]) == {"token"} and len(names) > 3
    assert "".join(data["text"] for name, data in got if name == "token") == ANSWER
    memories = got[0][1]["memories"]
    assert memories and set(memories[0]) == {"id", "kind", "score"}
    done = got[-1][1]
    assert done["model"] == CHAT_MODEL and done["cached"] is False and done["turnId"]
    assert done["usage"] == {"promptTokens": 11, "completionTokens": 7}
    stages = alice.get(f"/api/v1/{ctx['id']}/usage").json()["stages"]
    assert stages["chat"]["calls"] == 1


def test_a_repeated_streamed_question_is_served_from_the_cache(alice, ctx, scripted) -> None:
    scripted.respond_with("chat", Reply.text(ANSWER))
    first = events(stream(alice, ctx["id"], "What is my favourite food?", remember=False))
    again = events(stream(alice, ctx["id"], "What is my favourite food?", remember=False))
    assert again[-1][1]["cached"] is True and first[-1][1]["cached"] is False
    assert "".join(d["text"] for n, d in again if n == "token") == ANSWER
    assert len(scripted.requests_for("chat")) == 1


def test_a_refused_message_is_a_plain_422_before_the_stream_starts(
    alice, ctx, scripted, configure
) -> None:
    configure(ctx, {"judge": {"enabled": True, "rows": False}})
    scripted.respond_with("judge", verdict("fail", "payment_card"))
    resp = stream(alice, ctx["id"], "My card is 4111 1111 1111 1111")
    assert resp.status_code == 422
    assert resp.headers["content-type"].startswith("application/json")
    assert resp.json()["error"]["code"] == "judge_refused"


def test_an_unreachable_model_is_a_plain_502_before_the_stream_starts(alice, ctx, scripted) -> None:
    scripted.respond_with("chat", Reply.error(503))
    resp = stream(alice, ctx["id"], "hello there", remember=False)
    assert resp.status_code == 502
    assert resp.json()["error"]["code"] == "model_provider_error"


def test_without_a_chat_model_the_stream_carries_the_offline_answer(offline, ctx) -> None:
    with offline.client(ctx["key"]) as c:
        remember(c, ctx["id"], "My favourite food is durian.")
        got = events(stream(c, ctx["id"], "What is my favourite food?"))
    assert [n for n, _ in got] == ["memories", "token", "done"]
    assert got[1][1]["text"].startswith("From memory:") and got[2][1]["model"] == "none"
