"""An entity that only held rows name is hidden with them, released when one of them is
approved, and deleted when the holds on it are rejected (unless a live record uses it)."""

from __future__ import annotations

import json

import pytest

from tests.service.usecases import decide_hold, facts, judgements, profile, refused
from tests.support.replies import attr, extraction, person, rows_reply, verdict
from tests.support.scripted_model import Reply, scripted_models
from tests.support.services import ServiceHarness

TEXT = "Bob is a pilot. Carol knows Bob."


@pytest.fixture
def judging(services_with, scripted) -> ServiceHarness:
    """Judge and extraction both scripted, so a test chooses exactly which rows exist."""
    return services_with(
        **scripted_models(
            scripted, model_judge="openai:judge-model", model_extraction="openai:test-model"
        )
    )


def hold_rows(scripted, held: set[str]) -> None:
    """The input passes; rows with these ids are warned (and so held), others pass."""
    scripted.respond_with("judge", verdict("pass"))
    scripted.respond_with(
        "row_judge",
        lambda r: rows_reply(
            {
                i["id"]: ("warn", "personal_data") if i["id"] in held else "pass"
                for i in json.loads(r.user)
            }
        ),
    )


def entity_serving(sql, name: str) -> list[tuple]:
    return sql(
        "SELECT serving::text, hold_judgement_id IS NOT NULL FROM memory_record"
        " WHERE kind = 'entity' AND norm_name = %s",
        (name,),
    )


def test_an_entity_only_a_held_row_names_is_released_with_it(
    judging, judged, scripted, sql
) -> None:
    ctx = judged(on_warn="hold")
    scripted.respond_with(
        "extraction", Reply.json(extraction(attributes=[attr("Bob", "job", "pilot")]))
    )
    hold_rows(scripted, {"a0"})
    facts(judging, ctx, TEXT)
    assert entity_serving(sql, "bob") == [("held", True)]
    with refused(404):
        profile(judging, ctx, "Bob")
    (held,) = judgements(judging, ctx, held=True)
    decide_hold(judging, ctx, held["id"], approve=True)
    assert entity_serving(sql, "bob") == [("live", True)]
    shown = profile(judging, ctx, "Bob")
    assert [a["content"]["value"] for a in shown["attributes"]] == ["pilot"]


def test_a_listed_entity_that_only_held_rows_name_is_hidden_too(
    judging, judged, scripted, sql
) -> None:
    ctx = judged(on_warn="hold")
    reply = extraction(entities=[person("Bob")], attributes=[attr("Bob", "job", "pilot")])
    scripted.respond_with("extraction", Reply.json(reply))
    hold_rows(scripted, {"a0"})
    facts(judging, ctx, TEXT)
    assert entity_serving(sql, "bob") == [("held", True)]
    (held,) = judgements(judging, ctx, held=True)
    decide_hold(judging, ctx, held["id"], approve=True)
    assert profile(judging, ctx, "Bob")["entity"]["name"] == "Bob"


def test_an_entity_a_live_row_also_names_stays_live(judging, judged, scripted, sql) -> None:
    ctx = judged(on_warn="hold")
    reply = extraction(
        attributes=[attr("Bob", "job", "pilot")],
        relations=[{"subject": "Carol", "label": "knows", "object": "Bob"}],
    )
    scripted.respond_with("extraction", Reply.json(reply))
    hold_rows(scripted, {"a0"})
    facts(judging, ctx, TEXT)
    assert entity_serving(sql, "bob") == [("live", False)]


def test_an_entity_two_held_rows_name_is_released_by_either_approval(
    judging, judged, scripted, sql
) -> None:
    ctx = judged(on_warn="hold")
    reply = extraction(
        attributes=[attr("Bob", "job", "pilot")],
        relations=[{"subject": "Carol", "label": "knows", "object": "Bob"}],
    )
    scripted.respond_with("extraction", Reply.json(reply))
    hold_rows(scripted, {"a0", "r0"})
    facts(judging, ctx, TEXT)
    assert entity_serving(sql, "bob") == [("held", True)]
    holds = judgements(judging, ctx, held=True)
    assert len(holds) == 2
    for hold in holds:  # whichever is approved first releases Bob
        decide_hold(judging, ctx, hold["id"], approve=True)
        assert entity_serving(sql, "bob") == [("live", True)]


def test_rejecting_the_holds_deletes_an_entity_only_they_named(
    judging, judged, scripted, sql
) -> None:
    ctx = judged(on_warn="hold")
    reply = extraction(
        attributes=[attr("Bob", "job", "pilot")],
        relations=[{"subject": "Carol", "label": "knows", "object": "Bob"}],
    )
    scripted.respond_with("extraction", Reply.json(reply))
    hold_rows(scripted, {"a0", "r0"})
    facts(judging, ctx, TEXT)
    first, second = judgements(judging, ctx, held=True)
    decide_hold(judging, ctx, first["id"], approve=False)
    assert entity_serving(sql, "bob") == [("held", True)]  # the other hold still names Bob
    decide_hold(judging, ctx, second["id"], approve=False)
    assert entity_serving(sql, "bob") == []
    assert entity_serving(sql, "carol") == []  # only the held relation named Carol
    assert sql("SELECT kind FROM memory_record") == [("uncertainty",)]  # the judge's note


def test_rejecting_one_hold_then_approving_the_other_releases_the_entity(
    judging, judged, scripted, sql
) -> None:
    ctx = judged(on_warn="hold")
    reply = extraction(
        attributes=[attr("Bob", "job", "pilot")],
        relations=[{"subject": "Carol", "label": "knows", "object": "Bob"}],
    )
    scripted.respond_with("extraction", Reply.json(reply))
    hold_rows(scripted, {"a0", "r0"})
    facts(judging, ctx, TEXT)
    holds = judgements(judging, ctx, held=True)
    linked = sql("SELECT hold_judgement_id::text FROM memory_record WHERE norm_name = 'bob'")[0][0]
    owner = next(h for h in holds if h["id"] == linked)
    other = next(h for h in holds if h["id"] != linked)
    decide_hold(judging, ctx, owner["id"], approve=False)
    decide_hold(judging, ctx, other["id"], approve=True)
    assert entity_serving(sql, "bob") == [("live", True)]
    assert profile(judging, ctx, "Bob")["entity"]["name"] == "Bob"
