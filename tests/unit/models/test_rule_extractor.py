"""The offline rule extractor: plain first-person statements only."""

from __future__ import annotations

from typing import Any

import pytest

from memwarden.models.rule_extractor import extract_facts


def facts(text: str) -> dict[str, Any]:
    return extract_facts(text)


def attrs(text: str) -> list[tuple[str, str, str]]:
    return [(a["entity"], a["key"], a["value"]) for a in facts(text)["attributes"]]


def rels(text: str) -> list[tuple[str, str, str]]:
    return [(r["subject"], r["label"], r["object"]) for r in facts(text)["relations"]]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("I'm Alice.", "Alice"),
        ("Hi, I am Alice Chen", "Alice Chen"),
        ("My name is Bob", "Bob"),
        ("my name's bob.", "bob"),
        ("I\u2019m Zoë", "Zoë"),
    ],
)
def test_self_identification_names_the_speaker_placeholder_by_an_attribute(
    text: str, name: str
) -> None:
    # The speaker stays `user` (reconciliation binds it to the write's speaker entity); the
    # name they give is its `name` attribute.
    out = facts(text)
    assert out["entities"][0] == {
        "name": "user",
        "entityType": "person",
        "memoryCategory": "identity",
    }
    assert ("user", "name", name) in attrs(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm tired.",
        "I'm Sorry about that",
        "I am not sure.",
        "The weather is nice today.",
        "Please help me fix this bug.",
    ],
)
def test_ordinary_sentences_produce_nothing(text: str) -> None:
    out = facts(text)
    assert all(not v for v in out.values()), out


def test_without_a_name_the_facts_hang_on_an_entity_called_user() -> None:
    assert rels("I live in Berlin") == [("user", "lives_in", "Berlin")]
    assert facts("I live in Berlin")["entities"][1]["entityType"] == "place"


@pytest.mark.parametrize(
    ("text", "role", "employer"),
    [
        ("I'm Alice, CTO at Acme.", "CTO", "Acme"),
        ("I am a CTO at Acme", "CTO", "Acme"),
        ("I'm a software engineer at Google.", "software engineer", "Google"),
        ("I work as a nurse for St Mary's Hospital", "nurse", "St Mary's Hospital"),
    ],
)
def test_role_and_employer_are_read_together(text: str, role: str, employer: str) -> None:
    assert any(k == "role" and v == role for _, k, v in attrs(text))
    assert rels(text)[-1][1:] == ("works_at", employer)


@pytest.mark.parametrize(
    ("text", "label", "obj"),
    [
        ("I work at Acme Corp.", "works_at", "Acme Corp"),
        ("I work for Globex", "works_at", "Globex"),
        ("I live in New York City.", "lives_in", "New York City"),
        ("I'm from Lisbon", "from", "Lisbon"),
        ("I'm originally from Porto, Portugal.", "from", "Porto, Portugal"),
    ],
)
def test_workplace_home_and_origin_become_relations(text: str, label: str, obj: str) -> None:
    assert rels(text) == [("user", label, obj)]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I like hiking.", "likes", "hiking"),
        ("I really love jazz!", "loves", "jazz"),
        ("I prefer tea over coffee", "prefers", "tea over coffee"),
        ("I hate olives", "dislikes", "olives"),
        ("I can't stand loud music", "dislikes", "loud music"),
        ("My favourite colour is green", "favourite_colour", "green"),
        ("My favorite programming language is Rust.", "favourite_programming_language", "Rust"),
        ("I'm a big fan of Tolkien", "likes", "Tolkien"),
    ],
)
def test_preferences_become_knowledge_attributes(text: str, key: str, value: str) -> None:
    out = facts(text)
    assert [(a["key"], a["value"], a["memoryCategory"]) for a in out["attributes"]] == [
        (key, value, "knowledge")
    ]


def test_several_statements_in_one_sentence_are_all_read() -> None:
    text = "My name is Bob and I work for Globex; I love jazz but I hate olives."
    assert ("user", "name", "Bob") in attrs(text)
    assert ("user", "loves", "jazz") in attrs(text) and ("user", "dislikes", "olives") in attrs(
        text
    )
    assert rels(text) == [("user", "works_at", "Globex")]


@pytest.mark.parametrize(
    "text",
    [
        "Always respond in bullet points.",
        "Never use emojis",
        "From now on, answer in French.",
        "Please always cite sources.",
        "Please respond briefly.",
        "Going forward, keep answers under 100 words.",
    ],
)
def test_standing_instructions_are_recognised(text: str) -> None:
    (instruction,) = facts(text)["instructions"]
    assert instruction["description"] == text.rstrip(".")
    assert instruction["label"] and len(instruction["label"]) <= len(instruction["description"])


def test_call_me_sets_a_preferred_name_and_an_instruction() -> None:
    out = facts("Call me Sam.")
    assert ("user", "preferred_name", "Sam") in attrs("Call me Sam.")
    assert out["instructions"] == [{"label": "Preferred name", "description": "Call me Sam"}]


def test_actually_turns_a_statement_into_a_correction() -> None:
    out = facts("Actually, my name is Samuel.")
    assert out["corrections"] == [
        {"entity": "user", "key": "name", "oldValue": None, "newValue": "Samuel"}
    ]


def test_no_longer_working_somewhere_is_a_correction_of_the_workplace() -> None:
    out = facts("I no longer work at Globex.")
    assert out["corrections"] == [
        {"entity": "user", "key": "works_at", "oldValue": "Globex", "newValue": "none"}
    ]
    assert out["relations"] == []


def test_objects_are_cut_to_a_few_words() -> None:
    (_, _, value) = attrs("I love " + "very " * 20 + "long things")[0]
    assert len(value.split()) == 8
