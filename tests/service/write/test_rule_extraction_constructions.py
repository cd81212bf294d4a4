"""The rule extractor's newer constructions (issue 27) through the write path with no model,
read back from the profile: events with their time, a relative's job and death, a friend's
wedding ahead, how long someone has held a job or lived somewhere, and a relative's facts
said with "he" in the next sentence, each bound to the right entity."""

from __future__ import annotations

from typing import Any

from memwarden.retrieval.profile import get_profile
from tests.service.usecases import facts
from tests.support.services import ContextKey, ServiceHarness, as_json


def profile_of(h: ServiceHarness, ctx: ContextKey, entity: str | None = None) -> dict[str, Any]:
    return as_json(h.run(get_profile(h.services, ctx.caller, ctx.id, entity, False)))


def said(profile: dict[str, Any], kind: str) -> set[tuple[str, str]]:
    """(key or label, value or object) of each live record of one kind."""
    rows = profile[kind]
    return {
        (
            r["content"].get("key") or r["content"]["label"],
            r["content"].get("value") or r["content"]["object"],
        )
        for r in rows
    }


def test_an_event_said_with_its_time_is_an_action_of_the_speaker(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    facts(svc, ctx, "Last weekend I went camping with my kids. Two weeks ago I adopted a puppy.")
    assert said(profile_of(svc, ctx), "actions") == {
        ("went", "camping with my kids"),
        ("adopted", "a puppy"),
    }


def test_an_unnamed_husbands_job_and_a_fathers_death_are_kept_on_the_speaker(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    facts(svc, ctx, "My husband works as an accountant. My dad passed away last year.")
    assert said(profile_of(svc, ctx), "actions") == {
        ("husband_role", "accountant"),
        ("lost", "my dad"),
    }


def test_a_friend_getting_married_is_her_record_and_not_the_speakers_status(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    facts(svc, ctx, "My best friend Sarah is getting married in June.")
    mine = profile_of(svc, ctx)
    assert said(mine, "relations") == {("friend", "Sarah")}
    assert said(mine, "attributes") == set()
    assert ("getting", "married in June") in said(profile_of(svc, ctx, "Sarah"), "actions")


def test_how_long_someone_has_been_a_nurse_or_lived_somewhere_keeps_the_current_facts(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    facts(svc, ctx, "I've been a nurse for ten years and I've lived in Seattle for five years.")
    mine = profile_of(svc, ctx)
    assert said(mine, "attributes") == {("role", "nurse")}
    assert said(mine, "relations") == {("lives_in", "Seattle")}


def test_a_brothers_job_and_where_he_has_lived_are_his_own_facts(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    facts(
        svc,
        ctx,
        "My brother Tom is a software engineer at Google. He has lived in Austin since 2015.",
    )
    tom = profile_of(svc, ctx, "Tom")
    assert ("role", "software engineer") in said(tom, "attributes")
    assert {("works_at", "Google"), ("lives_in", "Austin")} <= said(tom, "relations")
    assert said(profile_of(svc, ctx), "relations") == {("brother", "Tom")}
