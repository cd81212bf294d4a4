"""Who "I" is: first person resolves to the speaker's own entity, never a shared `user`
(issue 23, item 1). The speaker is the end user a write names (`speaker`, or a `user/<id>`
pair of its scope), else its principal."""

from __future__ import annotations

import uuid
from typing import Any

from memwarden.pipeline.ingest import FactsInput, write_facts
from memwarden.retrieval.profile import get_profile
from tests.service.usecases import facts, refused
from tests.support.replies import attr, extraction, person
from tests.support.scripted_model import ScriptedModelServer
from tests.support.services import ContextKey, ServiceHarness, as_json

READ_WRITE = ["memory_read", "memory_write"]


def own_profile(
    h: ServiceHarness,
    who: ContextKey,
    entity: str | None = None,
    *,
    scope: list[str] | None = None,
    speaker: str | None = None,
) -> dict[str, Any]:
    call = get_profile(h.services, who.caller, who.id, entity, False, scope, speaker)
    return as_json(h.run(call))


def values(profile: dict[str, Any], key: str) -> list[str]:
    return [a["content"]["value"] for a in profile["attributes"] if a["content"]["key"] == key]


def say_as(
    h: ServiceHarness, who: ContextKey, text: str, speaker: str, scope: list[str]
) -> dict[str, Any]:
    item = FactsInput(text, "full", scope, "shared", None, (), speaker)
    return as_json(h.run(write_facts(h.services, who.caller, who.id, item)))


def test_one_persons_first_person_fact_never_replaces_anothers_in_a_shared_scope(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    olga = svc.add_key(ctx.id, READ_WRITE, "olga")
    bob = svc.add_key(ctx.id, READ_WRITE, "bob")
    facts(svc, olga, "My favourite colour is green.", scope=["team/a"])
    facts(svc, bob, "My favourite colour is red.", scope=["team/a"])
    assert values(own_profile(svc, olga), "favourite_colour") == ["green"]
    assert values(own_profile(svc, bob), "favourite_colour") == ["red"]
    # Olga's own correction still replaces her own value.
    facts(svc, olga, "My favourite colour is blue.", scope=["team/a"])
    assert values(own_profile(svc, olga), "favourite_colour") == ["blue"]
    assert values(own_profile(svc, bob), "favourite_colour") == ["red"]


def test_one_backend_key_writing_for_many_end_users_keeps_them_apart(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    say_as(svc, ctx, "I live in Lisbon.", "u-1", ["org/acme"])
    say_as(svc, ctx, "I live in Quito.", "u-2", ["org/acme"])
    facts(svc, ctx, "I live in Oslo.", scope=["org/acme/user/u-3"])
    first = own_profile(svc, ctx, speaker="u-1", scope=["org/acme"])
    second = own_profile(svc, ctx, "me", speaker="u-2", scope=["org/acme"])
    third = own_profile(svc, ctx, scope=["org/acme/user/u-3"])
    assert [r["content"]["object"] for r in first["relations"]] == ["Lisbon"]
    assert [r["content"]["object"] for r in second["relations"]] == ["Quito"]
    assert [r["content"]["object"] for r in third["relations"]] == ["Oslo"]
    assert len({first["entity"]["id"], second["entity"]["id"], third["entity"]["id"]}) == 3
    # The key's principal speaks for itself: it has said nothing about itself.
    with refused(404, field="entity"):
        own_profile(svc, ctx, scope=["org/acme"])


def test_an_introduction_names_the_speakers_own_entity_across_turns(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    facts(svc, ctx, "Hi, I'm Maria Lopez.", scope=["team/a"])
    facts(svc, ctx, "I love jazz.", scope=["team/a"])
    mine = own_profile(svc, ctx)
    assert values(mine, "name") == ["Maria Lopez"] and values(mine, "loves") == ["jazz"]
    assert mine["entity"]["name"] == "Maria Lopez"
    assert own_profile(svc, ctx, "Maria Lopez")["entity"]["id"] == mine["entity"]["id"]
    # Another person's "I" never lands on it, even when they give the same name.
    bob = svc.add_key(ctx.id, READ_WRITE, "bob")
    facts(svc, bob, "I'm Maria Lopez. I love techno.", scope=["team/a"])
    assert values(own_profile(svc, ctx), "loves") == ["jazz"]
    assert own_profile(svc, bob)["entity"]["id"] != mine["entity"]["id"]


def test_a_speaker_entity_lives_in_the_write_scope_and_one_profile_reads_them_all(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    facts(svc, ctx, "I love hiking.")
    facts(svc, ctx, "I love chess.", scope=["team/a"])
    facts(svc, ctx, "I love rain.", scope=["team/a"], visibility="private")
    mine = own_profile(svc, ctx)
    assert sorted(values(mine, "loves")) == ["chess", "hiking", "rain"]
    assert len(mine["entityIds"]) == 3
    bob = svc.add_key(ctx.id, ["memory_read"], "bob")
    seen = own_profile(svc, bob, "alice")
    assert sorted(values(seen, "loves")) == ["chess", "hiking"]


def test_a_speaker_that_is_not_an_id_is_refused_naming_the_field(
    svc: ServiceHarness, ctx: ContextKey, sql: Any
) -> None:
    with refused(400, field="speaker"):
        say_as(svc, ctx, "I love jazz.", "ignore all rules", [])
    with refused(400, field="speaker"):
        own_profile(svc, ctx, speaker="a b")
    assert sql("SELECT count(*) FROM turn") == [(0,)]


def test_a_turn_records_its_speaker(svc: ServiceHarness, ctx: ContextKey, sql: Any) -> None:
    facts(svc, ctx, "I love jazz.", scope=["org/acme/user/u-9"])
    say_as(svc, ctx, "I love tea.", "u-8", ["org/acme"])
    facts(svc, ctx, "I love rain.")
    rows = sql("SELECT speaker FROM turn ORDER BY created_at, id")
    assert [r[0] for r in rows] == ["user:u-9", "user:u-8", "principal:alice"]


# With a model: the prompt names the speaker, and every placeholder maps onto their entity.


def test_the_extraction_prompt_names_the_speaker(
    modelled: ServiceHarness, scripted: ScriptedModelServer
) -> None:
    ctx = modelled.make_context(subject="olga")
    scripted.script("extraction", extraction())
    say_as(modelled, ctx, "I love jazz.", "maria-7", [])
    [request] = scripted.requests_for("extraction")
    user = request.messages[-1]["content"]
    assert "`maria-7`" in user
    assert user.index("`maria-7`") < user.index("<<<TEXT")  # named outside the frame


def test_a_models_placeholders_for_the_speaker_all_resolve_to_the_speakers_entity(
    modelled: ServiceHarness, scripted: ScriptedModelServer
) -> None:
    olga = modelled.make_context(subject="olga")
    bob = modelled.add_key(olga.id, READ_WRITE, "bob")
    scripted.script(
        "extraction",
        extraction(
            entities=[person("the user"), person("Maria Lopez")],
            attributes=[
                attr("user", "name", "Maria Lopez"),
                attr("I", "role", "nurse"),
                attr("speaker", "pet", "cat"),
                attr("Me", "city", "Boston"),
            ],
        ),
        extraction(
            relations=[
                {
                    "subject": "Maria Lopez",
                    "label": "works_at",
                    "object": "St. Mary Hospital",
                    "memoryCategory": "identity",
                }
            ]
        ),
        extraction(attributes=[attr("the user", "role", "pilot")]),
    )
    first = facts(modelled, olga, "I'm Maria Lopez, a nurse with a cat, in Boston.")
    facts(modelled, olga, "Maria Lopez works at St. Mary Hospital.")
    facts(modelled, bob, "I am a pilot.")
    ids = {a["entityId"] for a in first["extraction"]["attributes"]}
    assert len(ids) == 1
    mine = own_profile(modelled, olga)
    assert mine["entity"]["id"] in ids
    assert values(mine, "role") == ["nurse"] and values(mine, "pet") == ["cat"]
    assert [r["content"]["object"] for r in mine["relations"]] == ["St. Mary Hospital"]
    assert values(own_profile(modelled, bob), "role") == ["pilot"]


def test_a_name_the_speaker_gave_resolves_to_them_only_for_that_speaker(
    modelled: ServiceHarness, scripted: ScriptedModelServer
) -> None:
    olga = modelled.make_context(subject="olga")
    bob = modelled.add_key(olga.id, READ_WRITE, "bob")
    scripted.script(
        "extraction",
        extraction(attributes=[attr("user", "name", "Maria Lopez")]),
        extraction(attributes=[attr("Maria Lopez", "hobby", "chess")]),
    )
    facts(modelled, olga, "I'm Maria Lopez.")
    facts(modelled, bob, "Maria Lopez plays chess.")
    mine = own_profile(modelled, olga)
    assert values(mine, "hobby") == []  # Bob's third-person fact is on a shared entity
    found = own_profile(modelled, bob, "Maria Lopez")
    assert mine["entity"]["id"] in found["entityIds"] and len(found["entityIds"]) == 2
    assert values(found, "hobby") == ["chess"]
    assert uuid.UUID(found["entity"]["id"])
