"""The issue's example sentences (issue 27) through POST /facts on the offline defaults (the
rule extractor, no model), read back with GET /profile: what a user with no model
configured finds remembered about themselves and about the people and places they named."""

from __future__ import annotations

from typing import Any

import httpx

from tests.integration.write.helpers import facts, written


def profile(client: httpx.Client, cid: str, entity: str | None = None, **params: Any) -> Any:
    query = {"entity": entity, **params} if entity else params
    resp = client.get(f"/api/v1/{cid}/profile", params=query)
    assert resp.status_code == 200, resp.text
    return resp.json()


def texts(body: dict[str, Any]) -> set[str]:
    return {r["text"] for r in body["attributes"] + body["relations"]}


def test_a_plain_introduction_is_remembered_as_the_speakers_name_job_employer_and_pets(
    alice: httpx.Client, ctx: dict[str, Any]
) -> None:
    cid = ctx["id"]
    text = (
        "Hi, I am Maria Lopez. I work as a nurse at St. Mary Hospital in Boston and I have "
        "two cats."
    )
    written(facts(alice, cid, text))
    mine = profile(alice, cid)
    assert mine["entity"]["name"] == "Maria Lopez"
    assert texts(mine) == {
        "Maria Lopez — name: Maria Lopez",
        "Maria Lopez — role: nurse",
        "Maria Lopez — pets: two cats",
        "Maria Lopez works at St. Mary Hospital",
    }
    # An entity's profile lists the relations that point at it, too.
    assert texts(profile(alice, cid, "St. Mary Hospital")) == {
        "Maria Lopez works at St. Mary Hospital",
        "St. Mary Hospital based in Boston",
    }


def test_a_named_sister_is_a_person_of_her_own_with_her_city_and_job(
    alice: httpx.Client, ctx: dict[str, Any]
) -> None:
    cid = ctx["id"]
    written(facts(alice, cid, "My sister Ana lives in Madrid and works as a lawyer."))
    assert texts(profile(alice, cid)) == {"alice sister Ana"}
    assert texts(profile(alice, cid, "Ana")) == {
        "alice sister Ana",
        "Ana lives in Madrid",
        "Ana — role: lawyer",
    }


def test_moving_and_no_longer_living_somewhere_replaces_the_old_city(
    alice: httpx.Client, ctx: dict[str, Any]
) -> None:
    cid = ctx["id"]
    written(facts(alice, cid, "I live in Boston."))
    text = "Actually I moved to Chicago last month, I no longer live in Boston."
    out = written(facts(alice, cid, text))
    assert [(c["key"], c["oldValue"], c["newValue"]) for c in out["extraction"]["corrections"]] == [
        ("lives_in", "Boston", "Chicago")
    ]
    assert texts(profile(alice, cid)) == {"alice lives in Chicago"}
    history = profile(alice, cid, history="true")["history"]
    assert any(h["text"] == "alice lives in Boston" and h["superseded"] for h in history)


def test_an_allergy_and_a_job_left_are_kept_and_ended_on_the_speaker(
    alice: httpx.Client, ctx: dict[str, Any]
) -> None:
    cid = ctx["id"]
    written(facts(alice, cid, "I am allergic to penicillin. I work at Globex."))
    assert texts(profile(alice, cid)) == {"alice — allergies: penicillin", "alice works at Globex"}
    written(facts(alice, cid, "I quit my job at Globex."))
    assert texts(profile(alice, cid)) == {"alice — allergies: penicillin"}
