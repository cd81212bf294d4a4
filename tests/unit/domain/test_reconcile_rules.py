"""Reconciliation rules and planner, without a database."""

from __future__ import annotations

import itertools
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memwarden.domain.reconcile_plan import plan
from memwarden.domain.reconcile_rules import (
    ENTITY_SIMILARITY_THRESHOLD,
    Incoming,
    Known,
    KnownEntity,
    KnownFact,
    Plan,
    accept_similar,
    normalise_key,
    normalise_name,
    normalise_value,
)


def ids():
    counter = itertools.count(1)
    return lambda: uuid.UUID(int=next(counter))


def item(kind: str, n: int = 0, held: bool = False, **data) -> Incoming:
    return Incoming(f"{kind[0]}{n}", kind, data, held)


def ent(name: str, etype: str = "person") -> Incoming:
    return item("entity", name=name, entityType=etype, memoryCategory="identity")


def attr(entity: str, key: str, value: str, n: int = 0, **kw) -> Incoming:
    return item(
        "attribute", n, entity=entity, key=key, value=value, memoryCategory="identity", **kw
    )


def after(known: Known, p: Plan) -> Known:
    """The state a plan leaves behind, as the next write would load it."""
    gone = {s.old_id for s in p.supersedes}
    entities = dict(known.entities)
    facts = [f for f in known.facts if f.id not in gone]
    notes = dict(known.notes)
    for r in p.records:
        if r.held:
            continue
        if r.kind == "entity":
            entities[r.norm] = KnownEntity(
                r.id, r.content["name"], r.content["entityType"], r.category
            )
        elif r.kind in ("attribute", "relation", "action") and r.id not in gone:
            facts.append(
                KnownFact(r.id, r.kind, r.entity_id, r.attr_key, r.norm, r.object_entity_id)
            )
        elif r.kind in ("instruction", "uncertainty"):
            notes[(r.kind, r.norm)] = r.id
    return Known(entities, facts, notes)


@pytest.mark.parametrize(
    ("raw", "norm"),
    [
        ("Acme, Inc.", "acme"),
        ("The Beatles", "beatles"),
        ("  Alice   CHEN ", "alice chen"),
        ("Dr. Smith", "dr smith"),
        ("me", "user"),
        ("The User", "user"),
        ("the", "the"),
        ("O'Neil", "o neil"),
        ("!!!", ""),
    ],
)
def test_names_normalise_to_one_identity(raw: str, norm: str) -> None:
    assert normalise_name(raw) == norm


def test_values_and_keys_normalise() -> None:
    assert normalise_value("  CTO. ") == "cto"
    assert normalise_key("Works At") == normalise_key("works-at") == "works_at"


@given(st.text(max_size=40))
def test_normalisation_is_idempotent(text: str) -> None:
    assert normalise_name(normalise_name(text)) == normalise_name(text)
    assert normalise_value(normalise_value(text)) == normalise_value(text)
    assert normalise_key(normalise_key(text)) == normalise_key(text)


def test_a_similar_name_resolves_only_above_the_threshold_and_for_a_compatible_type() -> None:
    assert accept_similar("person", "person", ENTITY_SIMILARITY_THRESHOLD)
    assert accept_similar("other", "place", 0.99)
    assert not accept_similar("person", "organisation", 0.99)
    assert not accept_similar("person", "person", ENTITY_SIMILARITY_THRESHOLD - 0.01)


def test_a_new_entity_and_attribute_are_created_with_readable_bodies() -> None:
    p = plan([ent("Alice Chen"), attr("Alice Chen", "role", "CTO")], Known({}), ids())
    bodies = [r.body for r in p.records]
    assert bodies == ["Alice Chen (person)", "Alice Chen — role: CTO"]
    assert p.records[1].entity_id == p.records[0].id
    assert p.diff["entities"][0]["isNew"] and not p.supersedes


def test_an_identical_fact_is_a_no_op_reporting_the_existing_id() -> None:
    first = plan([ent("Bo"), attr("Bo", "city", "Oslo")], Known({}), ids())
    again = plan([ent("bo"), attr("BO", "City", "oslo.")], after(Known({}), first), ids())
    assert again.records == [] and again.supersedes == []
    assert again.diff["attributes"][0]["id"] == first.diff["attributes"][0]["id"]
    assert again.diff["attributes"][0]["isNew"] is False


def test_a_new_value_of_a_single_valued_key_supersedes_the_live_one() -> None:
    first = plan([attr("Bo", "city", "Oslo")], Known({}), ids())
    second = plan([attr("Bo", "city", "Rome")], after(Known({}), first), ids())
    assert [s.old_id for s in second.supersedes] == [first.records[1].id]
    assert second.supersedes[0].new_id == second.records[0].id


def test_multi_valued_keys_accumulate() -> None:
    first = plan([attr("Bo", "likes", "jazz")], Known({}), ids())
    second = plan([attr("Bo", "likes", "tea")], after(Known({}), first), ids())
    assert second.supersedes == [] and len(second.records) == 1


def test_a_held_write_supersedes_nothing() -> None:
    first = plan([attr("Bo", "city", "Oslo")], Known({}), ids())
    held = plan([attr("Bo", "city", "Rome")], after(Known({}), first), ids(), write_held=True)
    assert held.supersedes == [] and all(r.held for r in held.records)
    row_held = plan([attr("Bo", "city", "Rome", held=True)], after(Known({}), first), ids())
    assert row_held.supersedes == [] and row_held.records[0].held


def test_a_correction_ending_a_relation_closes_it_without_a_replacement() -> None:
    rel = item(
        "relation", subject="user", label="works_at", object="Initech", memoryCategory="identity"
    )
    first = plan([rel], Known({}), ids())
    end = plan(
        [item("correction", entity="user", key="works_at", oldValue="Initech", newValue="none")],
        after(Known({}), first),
        ids(),
    )
    (closed,) = end.supersedes
    assert closed.new_id is None and end.diff["corrections"][0]["applied"]


def test_a_single_valued_relation_moves() -> None:
    lives = [item("relation", subject="user", label="lives_in", object="Lisbon")]
    first = plan(lives, Known({}), ids())
    moved = plan(
        [item("relation", subject="user", label="lives_in", object="Quito")],
        after(Known({}), first),
        ids(),
    )
    assert len(moved.supersedes) == 1


def corr(entity: str, key: str, old: str | None, new: str) -> Incoming:
    return item("correction", entity=entity, key=key, oldValue=old, newValue=new)


def test_a_fact_the_same_write_retracts_is_never_stored() -> None:
    p = plan(
        [attr("Alice", "likes", "Oslo"), corr("Alice", "likes", None, "none")], Known({}), ids()
    )
    assert [r.kind for r in p.records] == ["entity"] and p.supersedes == []
    assert p.diff["attributes"] == [] and p.diff["corrections"][0]["supersededIds"] == []


def test_ending_every_value_spares_the_ones_a_later_correction_asserts() -> None:
    first = plan([attr("Bo", "likes", "jazz"), attr("Bo", "likes", "tea")], Known({}), ids())
    jazz, tea = first.records[1].id, first.records[2].id
    again = plan(
        [corr("Bo", "likes", None, "none"), corr("Bo", "likes", None, "Tea.")],
        after(Known({}), first),
        ids(),
    )
    assert again.records == [] and [s.old_id for s in again.supersedes] == [jazz]
    assert again.diff["corrections"][1]["id"] == str(tea)


def test_a_correction_to_a_value_the_write_already_stated_still_ends_the_old_one() -> None:
    first = plan([attr("Bo", "likes", "jazz")], Known({}), ids())
    jazz = first.records[1].id
    fix = plan(
        [attr("Bo", "likes", "blues"), corr("Bo", "likes", "jazz", "blues")],
        after(Known({}), first),
        ids(),
    )
    (blues,) = [r for r in fix.records if r.kind == "attribute"]
    assert [(s.old_id, s.new_id) for s in fix.supersedes] == [(jazz, blues.id)]


def test_a_replacement_retracted_later_in_the_write_only_ends_the_old_value() -> None:
    first = plan([attr("Bo", "likes", "jazz")], Known({}), ids())
    jazz = first.records[1].id
    p = plan(
        [corr("Bo", "likes", "jazz", "blues"), corr("Bo", "likes", "blues", "none")],
        after(Known({}), first),
        ids(),
    )
    assert p.records == [] and [(s.old_id, s.new_id) for s in p.supersedes] == [(jazz, None)]


def test_a_held_correction_retracts_nothing_from_its_write() -> None:
    held = Incoming(
        "c0",
        "correction",
        {"entity": "Bo", "key": "likes", "oldValue": None, "newValue": "none"},
        True,
    )
    p = plan([attr("Bo", "likes", "jazz"), held], Known({}), ids())
    assert [r.kind for r in p.records] == ["entity", "attribute"] and p.supersedes == []


def test_a_judge_warning_note_names_reason_codes_never_content() -> None:
    p = plan(
        [attr("Bo", "card", "4111 1111 1111 1111", n=3)],
        Known({}),
        ids(),
        warned={"a3": ("payment_card",)},
    )
    note = next(r for r in p.records if r.kind == "uncertainty")
    assert note.content["judgeReasons"] == ["payment_card"]
    assert "4111" not in note.body and str(p.records[1].id) in note.content["records"]


names = st.sampled_from(["Alice", "alice", "Bob", "ACME Inc.", "Acme", "the user", "me"])
words = st.sampled_from(["Oslo", "oslo", "Rome", "jazz", "tea", "CTO"])
keys = st.sampled_from(["city", "City", "likes", "role"])
labels = st.sampled_from(["works_at", "lives_in", "knows"])
items = st.one_of(
    st.builds(lambda n: ent(n), names),
    st.builds(lambda e, k, v: attr(e, k, v), names, keys, words),
    st.builds(
        lambda s, lab, o: item("relation", subject=s, label=lab, object=o), names, labels, names
    ),
    st.builds(lambda a, o: item("action", actor=a, label="visited", object=o), names, words),
    st.builds(lambda d: item("instruction", label="rule", description=d), words),
    st.builds(lambda a, r: item("uncertainty", about=a, reason=r), words, words),
    st.builds(
        lambda e, k, o, v: item("correction", entity=e, key=k, oldValue=o, newValue=v),
        names,
        st.sampled_from(["city", "role", "lives_in", "likes"]),
        st.none() | words,
        st.sampled_from(["Oslo", "Rome", "none"]),
    ),
)


def shared_ids():
    counter = itertools.count(1)
    return lambda: lambda: uuid.UUID(int=next(counter))


@settings(max_examples=1000, deadline=None)
@given(st.lists(items, max_size=12), st.lists(items, max_size=8))
def test_writing_the_same_facts_twice_changes_nothing_the_second_time(batch, before) -> None:
    new_ids = shared_ids()
    for start in (Known({}), after(Known({}), plan(before, Known({}), new_ids()))):
        first = plan(batch, start, new_ids())
        second = plan(batch, after(start, first), new_ids())
        assert second.records == [] and second.supersedes == []


@settings(max_examples=200, deadline=None)
@given(st.lists(items, max_size=12))
def test_one_name_is_one_entity_and_no_live_fact_is_duplicated(batch) -> None:
    state = after(Known({}), plan(batch, Known({}), ids()))
    entity_ids = [r.id for r in state.entities.values()]
    assert len(entity_ids) == len(set(entity_ids))
    keys_seen = [(f.kind, f.entity_id, f.key, f.ident) for f in state.facts]
    assert len(keys_seen) == len(set(keys_seen))
    single = [
        (f.entity_id, f.key)
        for f in state.facts
        if f.kind == "attribute" and f.key in ("city", "role")
    ]
    assert len(single) == len(set(single))
