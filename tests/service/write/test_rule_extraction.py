"""The offline rule extractor through the whole write path (issue 27): what plain
conversational English leaves in memory when no model is configured, bound to the speaker."""

from __future__ import annotations

from typing import Any

from memwarden.pipeline.ingest import FactsInput, write_facts
from memwarden.retrieval.profile import get_profile
from tests.service.usecases import facts
from tests.support.services import ContextKey, ServiceHarness, as_json


def profile_of(
    h: ServiceHarness, ctx: ContextKey, entity: str | None = None, history: bool = False
) -> dict[str, Any]:
    return as_json(h.run(get_profile(h.services, ctx.caller, ctx.id, entity, history)))


def values(profile: dict[str, Any], key: str) -> list[str]:
    return [a["content"]["value"] for a in profile["attributes"] if a["content"]["key"] == key]


def objects(profile: dict[str, Any], label: str) -> list[str]:
    return [r["content"]["object"] for r in profile["relations"] if r["content"]["label"] == label]


def test_an_introduction_leaves_the_name_job_employer_city_and_pets_on_the_speaker(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    facts(
        svc,
        ctx,
        "Hi, I am Maria Lopez. I work as a nurse at St. Mary Hospital in Boston and I have "
        "two cats.",
    )
    mine = profile_of(svc, ctx)
    assert mine["entity"]["name"] == "Maria Lopez"
    assert values(mine, "role") == ["nurse"] and values(mine, "pets") == ["two cats"]
    assert objects(mine, "works_at") == ["St. Mary Hospital"]
    assert objects(profile_of(svc, ctx, "St. Mary Hospital"), "based_in") == ["Boston"]


def test_a_relative_named_by_the_speaker_gets_their_own_facts(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    facts(svc, ctx, "My sister Ana lives in Madrid and works as a lawyer.")
    assert objects(profile_of(svc, ctx), "sister") == ["Ana"]
    ana = profile_of(svc, ctx, "Ana")
    assert objects(ana, "lives_in") == ["Madrid"] and values(ana, "role") == ["lawyer"]


def test_moving_and_no_longer_living_somewhere_supersedes_the_old_residence(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    facts(svc, ctx, "I live in Boston.")
    assert objects(profile_of(svc, ctx), "lives_in") == ["Boston"]
    out = facts(svc, ctx, "Actually I moved to Chicago last month, I no longer live in Boston.")
    assert objects(profile_of(svc, ctx), "lives_in") == ["Chicago"]
    history = profile_of(svc, ctx, history=True)["history"]
    (boston,) = [r for r in history if r["content"].get("object") == "Boston"]
    chicago = profile_of(svc, ctx)["relations"][0]
    assert boston["superseded"] and boston["supersededBy"] == chicago["id"]
    assert [c["key"] for c in out["extraction"]["corrections"]] == ["lives_in"]


def test_a_health_fact_and_a_preference_are_kept(svc: ServiceHarness, ctx: ContextKey) -> None:
    facts(svc, ctx, "I am allergic to penicillin. I really love jazz.")
    mine = profile_of(svc, ctx)
    assert values(mine, "allergies") == ["penicillin"] and values(mine, "loves") == ["jazz"]


def test_each_speakers_first_person_facts_land_on_their_own_entity(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    for speaker, text in (
        ("u-1", "Hi, I am Maria Lopez. I am allergic to penicillin."),
        ("u-2", "I'm Tom. My colleague Maria is a pilot. She lives in Oslo."),
    ):
        item = FactsInput(text, "full", ["org/acme"], "shared", None, (), speaker)
        svc.run(write_facts(svc.services, ctx.caller, ctx.id, item))

    def own(speaker: str) -> dict[str, Any]:
        call = get_profile(svc.services, ctx.caller, ctx.id, None, False, ["org/acme"], speaker)
        return as_json(svc.run(call))

    maria, tom = own("u-1"), own("u-2")
    assert maria["entity"]["name"] == "Maria Lopez" and values(maria, "allergies") == ["penicillin"]
    assert tom["entity"]["name"] == "Tom" and objects(tom, "colleague") == ["Maria"]
    # Tom's third-person facts are about the Maria he named, never about his own entity.
    assert values(tom, "role") == [] and objects(tom, "lives_in") == []
    colleague = as_json(svc.run(get_profile(svc.services, ctx.caller, ctx.id, "Maria", False)))
    assert values(colleague, "role") == ["pilot"] and objects(colleague, "lives_in") == ["Oslo"]
