"""The input gate on /chat: refusals before anything is stored, warnings flagged not held."""

from __future__ import annotations

from tests.integration.chat.helpers import PASS, answered, chat, verdict
from tests.support.scripted_model import Reply

CARD = "4111 1111 1111 1111"
JUDGE = {"judge": {"enabled": True, "rows": False}}


def test_a_card_number_in_a_chat_message_is_refused_with_422(
    alice, ctx, scripted, configure, sql
) -> None:
    configure(ctx, JUDGE)
    scripted.respond_with("judge", verdict("fail", "payment_card"))
    for remembered in (True, False):
        resp = chat(alice, ctx["id"], f"Is my card {CARD} still valid?", remember=remembered)
        assert resp.status_code == 422
        assert resp.json()["error"]["code"] == "judge_refused"
        assert "payment_card" in resp.json()["error"]["reasons"]
    assert sql("SELECT count(*) FROM turn")[0][0] == 0
    assert sql("SELECT source, verdict FROM judgement") == [("chat", "fail")] * 2
    assert scripted.requests_for("chat") == []


def test_a_denied_chat_message_gets_the_fixed_message_and_leaves_nothing(
    alice, ctx, scripted, configure, sql
) -> None:
    configure(ctx, JUDGE)
    scripted.respond_with("judge", verdict("deny", "policy"))
    for remembered in (True, False):
        resp = chat(alice, ctx["id"], "zq-denied-marker says hello", remember=remembered)
        assert resp.status_code == 422
        assert resp.json()["error"] == {
            "code": "request_denied",
            "message": "the request could not be processed",
        }
    assert sql("SELECT count(*) FROM turn")[0][0] == 0
    assert sql("SELECT count(*) FROM judgement")[0][0] == 0
    assert scripted.requests_for("chat") == []


def test_a_chat_warning_is_stored_and_flagged_but_never_held(
    alice, ctx, scripted, configure, sql
) -> None:
    configure(ctx, {"judge": {"enabled": True, "rows": False, "on_warn": "hold"}})
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    scripted.respond_with("chat", Reply.text("Noted."))
    out = answered(chat(alice, ctx["id"], "My neighbour is Bob Smith. Who is he?"))
    assert out["turnId"]
    assert sql("SELECT serving FROM turn") == [("live",)]
    assert sql("SELECT source, verdict, held FROM judgement") == [("chat", "warn", False)]


def test_a_message_not_remembered_is_judged_and_logged_but_stores_no_turn(
    alice, ctx, scripted, configure, sql
) -> None:
    configure(ctx, JUDGE)
    scripted.respond_with("judge", PASS)
    scripted.respond_with("chat", Reply.text("Hi."))
    out = answered(chat(alice, ctx["id"], "hello there", remember=False))
    assert out["turnId"] is None and out["sessionId"] is None
    assert sql("SELECT count(*) FROM turn")[0][0] == 0
    assert sql("SELECT source, verdict, turn_id FROM judgement") == [("chat", "pass", None)]


def test_a_remembered_chat_warning_stores_one_uncertainty_with_the_codes(
    alice, ctx, scripted, configure
) -> None:
    configure(ctx, JUDGE)
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    scripted.respond_with("chat", Reply.text("Noted."))
    message = "My neighbour is Bob Smith. Who is he?"
    out = answered(chat(alice, ctx["id"], message, visibility="private"))
    state = alice.get(f"/api/v1/{ctx['id']}/state").json()
    (note,) = [u for u in state["uncertainties"] if "judgeReasons" in u["content"]]
    assert note["content"]["judgeReasons"] == ["personal_data"]
    assert note["source"] == {"kind": "turn", "ref": out["turnId"]}
    assert note["scope"]["visibility"] == "private"
    assert "Bob" not in str(note)
