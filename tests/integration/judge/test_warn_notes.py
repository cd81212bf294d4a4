"""An input-gate warn leaves one uncertainty with the reason codes (never the content), in
the write's scope and visibility, that agents see in /state."""

from __future__ import annotations

import json

import pytest

from tests.integration.judge.helpers import rows_reply, verdict

FACTS = "I'm Alice. I work at Acme. I love jazz."
WHERE = {"scope": ["org/acme"], "visibility": "private"}


def judge_notes(state: dict) -> list[dict]:
    return [u for u in state["uncertainties"] if "judgeReasons" in u["content"]]


def rows_pass(scripted) -> None:
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )


@pytest.mark.parametrize("route", ["facts", "facts_batch"])
def test_an_input_warn_stores_one_uncertainty_with_the_codes_in_the_writes_scope(
    judged, client, scripted, route
) -> None:
    ctx = judged()
    c = client(ctx["key"])
    scripted.respond_with("judge", verdict("warn", "personal_data", "sensitive_inference"))
    rows_pass(scripted)
    if route == "facts":
        resp = c.post(f"/api/v1/{ctx['id']}/facts", json={"text": FACTS, **WHERE})
        assert resp.status_code == 201, resp.text
        out = resp.json()
    else:
        resp = c.post(
            f"/api/v1/{ctx['id']}/facts/batch", json={"items": [{"text": FACTS, **WHERE}]}
        )
        assert resp.status_code == 200, resp.text
        (out,) = resp.json()["extractions"]
    assert out["held"] is False
    state = c.get(f"/api/v1/{ctx['id']}/state").json()
    (note,) = judge_notes(state)
    assert note["content"]["judgeReasons"] == ["personal_data", "sensitive_inference"]
    assert note["scope"] == {"path": "org/acme", "visibility": "private"}
    assert note["source"] == {"kind": "turn", "ref": out["turnId"]}
    for word in ("Alice", "Acme", "jazz"):
        assert word not in json.dumps(note)
    assert [u["id"] for u in out["extraction"]["uncertainties"]] == [note["id"]]


def test_an_input_warn_and_row_warns_share_one_uncertainty(judged, client, scripted) -> None:
    ctx = judged()
    c = client(ctx["key"])
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
    assert c.post(f"/api/v1/{ctx['id']}/facts", json={"text": FACTS}).status_code == 201
    (note,) = judge_notes(c.get(f"/api/v1/{ctx['id']}/state").json())
    assert note["content"]["judgeReasons"] == ["personal_data", "policy"]


def test_a_held_input_warn_holds_its_uncertainty_until_approved(judged, client, scripted) -> None:
    ctx = judged(on_warn="hold")
    c = client(ctx["key"])
    scripted.respond_with("judge", verdict("warn", "personal_data"))
    rows_pass(scripted)
    assert c.post(f"/api/v1/{ctx['id']}/facts", json={"text": FACTS}).json()["held"] is True
    assert judge_notes(c.get(f"/api/v1/{ctx['id']}/state").json()) == []
    url = f"/api/v1/{ctx['id']}/judgements"
    (held,) = c.get(url, params={"held": "true"}).json()["judgements"]
    assert c.post(f"{url}/{held['id']}/approve").status_code == 200
    (note,) = judge_notes(c.get(f"/api/v1/{ctx['id']}/state").json())
    assert note["content"]["judgeReasons"] == ["personal_data"]


def test_a_pass_stores_no_judge_uncertainty(judged, client, scripted) -> None:
    ctx = judged()
    c = client(ctx["key"])
    scripted.respond_with("judge", verdict("pass"))
    rows_pass(scripted)
    assert c.post(f"/api/v1/{ctx['id']}/facts", json={"text": FACTS}).status_code == 201
    assert judge_notes(c.get(f"/api/v1/{ctx['id']}/state").json()) == []
