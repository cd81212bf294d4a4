"""An input-gate warn leaves one uncertainty with the reason codes (never the content), in
the write's scope and visibility, that agents see in /state."""

from __future__ import annotations

import json

import pytest

from tests.service.usecases import decide_hold, facts, facts_batch, judgements, state
from tests.support.replies import rows_reply, verdict

FACTS = "I'm Alice. I work at Acme. I love jazz."


def judge_notes(found: dict) -> list[dict]:
    return [u for u in found["uncertainties"] if "judgeReasons" in u["content"]]


def rows_pass(scripted) -> None:
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )


@pytest.mark.parametrize("route", ["facts", "facts_batch"])
def test_an_input_warn_stores_one_uncertainty_with_the_codes_in_the_writes_scope(
    judging, judged, scripted, route
) -> None:
    ctx = judged()
    scripted.respond_with("judge", verdict("warn", "personal_data", "sensitive_inference"))
    rows_pass(scripted)
    if route == "facts":
        out = facts(judging, ctx, FACTS, scope=["org/acme"], visibility="private")
    else:
        item = {"text": FACTS, "scope": ["org/acme"], "visibility": "private"}
        (out,) = facts_batch(judging, ctx, [item])
    assert out["held"] is False
    (note,) = judge_notes(state(judging, ctx))
    assert note["content"]["judgeReasons"] == ["personal_data", "sensitive_inference"]
    assert note["scope"] == {"path": "org/acme", "visibility": "private"}
    assert note["source"] == {"kind": "turn", "ref": out["turnId"]}
    for word in ("Alice", "Acme", "jazz"):
        assert word not in json.dumps(note)
    assert [u["id"] for u in out["extraction"]["uncertainties"]] == [note["id"]]


def test_an_input_warn_and_row_warns_share_one_uncertainty(judging, judged, scripted) -> None:
    ctx = judged()
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    scripted.respond_with(
        "row_judge",
        lambda r: rows_reply(
            {
                i["id"]: ("warn", "policy") if i["id"].startswith("a") else "pass"
                for i in json.loads(r.user)
            }
        ),
    )
    facts(judging, ctx, FACTS)
    (note,) = judge_notes(state(judging, ctx))
    assert note["content"]["judgeReasons"] == ["personal_data", "policy"]


def test_a_held_input_warn_holds_its_uncertainty_until_approved(judging, judged, scripted) -> None:
    ctx = judged(on_warn="hold")
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    rows_pass(scripted)
    assert facts(judging, ctx, FACTS)["held"] is True
    assert judge_notes(state(judging, ctx)) == []
    (held,) = judgements(judging, ctx, held=True)
    decide_hold(judging, ctx, held["id"], approve=True)
    (note,) = judge_notes(state(judging, ctx))
    assert note["content"]["judgeReasons"] == ["personal_data"]


def test_a_pass_stores_no_judge_uncertainty(judging, judged, scripted) -> None:
    ctx = judged()
    scripted.respond_with("judge", verdict("pass"))
    rows_pass(scripted)
    facts(judging, ctx, FACTS)
    assert judge_notes(state(judging, ctx)) == []
