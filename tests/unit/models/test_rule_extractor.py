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
    (_, _, value) = attrs("I love " + "big " * 20 + "long things")[0]
    assert len(value.split()) == 8


def acts(text: str) -> list[tuple[str, str, str]]:
    return [(a["actor"], a["label"], a["object"]) for a in facts(text)["actions"]]


def test_a_plain_introduction_gives_name_role_employer_its_city_and_pets() -> None:
    text = (
        "Hi, I am Maria Lopez. I work as a nurse at St. Mary Hospital in Boston and I have "
        "two cats."
    )
    assert attrs(text) == [
        ("user", "name", "Maria Lopez"),
        ("user", "role", "nurse"),
        ("user", "pets", "two cats"),
    ]
    assert rels(text) == [
        ("user", "works_at", "St. Mary Hospital"),
        ("St. Mary Hospital", "based_in", "Boston"),
    ]


def test_a_named_relative_becomes_a_person_with_their_own_facts() -> None:
    text = "My sister Ana lives in Madrid and works as a lawyer."
    assert rels(text) == [("user", "sister", "Ana"), ("Ana", "lives_in", "Madrid")]
    assert attrs(text) == [("Ana", "role", "lawyer")]
    assert {"name": "Ana", "entityType": "person", "memoryCategory": "identity"} in facts(text)[
        "entities"
    ]


def test_a_spouse_is_the_single_valued_married_to_relation() -> None:
    assert rels("My wife Jane is a teacher.") == [("user", "married_to", "Jane")]
    assert attrs("My wife Jane is a teacher.") == [("Jane", "role", "teacher")]


def test_he_and_she_resolve_to_the_last_person_named_in_the_text() -> None:
    text = "My colleague Tom is a data scientist. He loves hiking."
    assert ("Tom", "loves", "hiking") in attrs(text)
    # With nobody named, a pronoun's clause is not guessed at.
    assert facts("He loves hiking.")["attributes"] == []


def test_a_third_person_statement_about_a_named_person_is_theirs() -> None:
    assert rels("Ana works at Globex in Lisbon.") == [
        ("Ana", "works_at", "Globex"),
        ("Globex", "based_in", "Lisbon"),
    ]
    assert attrs("Priya is allergic to peanuts.") == [("Priya", "allergies", "peanuts")]


def test_moving_and_no_longer_living_somewhere_fold_into_one_correction() -> None:
    for text in (
        "Actually I moved to Chicago last month, I no longer live in Boston.",
        "I no longer live in Boston. I moved to Chicago.",
    ):
        out = facts(text)
        assert out["corrections"] == [
            {"entity": "user", "key": "lives_in", "oldValue": "Boston", "newValue": "Chicago"}
        ], text
        assert out["relations"] == []


def test_moving_alone_states_the_new_residence() -> None:
    assert rels("We just moved to Denver last week!") == [("user", "lives_in", "Denver")]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I am allergic to penicillin", "allergies", "penicillin"),
        ("I have a severe allergy to shellfish.", "allergies", "shellfish"),
        ("I'm lactose intolerant", "allergies", "lactose (intolerant)"),
        ("I'm vegetarian.", "diet", "vegetarian"),
        ("I have a dog named Rex.", "pets", "a dog named Rex"),
        ("I've got three kids.", "children", "three kids"),
    ],
)
def test_health_diet_pets_and_children_are_attributes(text: str, key: str, value: str) -> None:
    assert attrs(text) == [("user", key, value)]


@pytest.mark.parametrize(
    ("text", "label", "obj"),
    [
        (
            "I went to a support group yesterday and it was so powerful.",
            "went_to",
            "a support group",
        ),
        ("Last year I took a solo trip to Spain.", "took", "a solo trip to Spain"),
        ("Just got back from a family road trip!", "got_back_from", "a family road trip"),
        ("I adopted a puppy last month.", "adopted", "a puppy"),
        ("I've been taking pottery classes.", "taking", "pottery classes"),
        ("I play the violin in an orchestra.", "plays", "the violin in an orchestra"),
        ("I was diagnosed with asthma.", "diagnosed_with", "asthma"),
        ("I have a car.", "owns", "a car"),
        ("We tried a scuba diving lesson last Friday!", "tried", "a scuba diving lesson"),
    ],
)
def test_events_activities_and_possessions_become_actions(text: str, label: str, obj: str) -> None:
    assert acts(text) == [("user", label, obj)]


@pytest.mark.parametrize(
    ("text", "obj"),
    [
        ("I'm planning to continue my education.", "continue my education"),
        ("I am going to visit Kyoto next spring.", "visit Kyoto next spring"),
        ("I plan to run a marathon.", "run a marathon"),
        ("My partner and I plan a camping trip.", "a camping trip"),
    ],
)
def test_plans_are_actions_the_speaker_means_to_take(text: str, obj: str) -> None:
    assert acts(text) == [("user", "plans_to", obj)]


@pytest.mark.parametrize(
    "text",
    [
        "I had a blast!",
        "I was so inspired by that.",
        "Moments like this really motivate me.",
        "Interacting like that cheers me up.",
        "I'm a bit tired today.",
        "I'm getting there.",
        "Thanks, Maria! Sounds great.",
        "I need a break.",
        "I'll let you know.",
        "We've got some cool projects in the works.",
        "Thanks! I made them myself.",
        "Contemporary dance is so expressive.",
        "Once I read a book there.",
        "I'm hoping we can find something nice.",
        "I've got to share these snacks.",
        "I tried to stay calm.",
    ],
)
def test_moods_and_small_talk_leave_nothing(text: str) -> None:
    out = facts(text)
    assert not (out["attributes"] or out["relations"] or out["actions"]), out


def test_a_transcript_prefix_is_not_read_as_a_statement() -> None:
    assert acts("[8 May, 2023] Maria: I adopted a kitten.") == [("user", "adopted", "a kitten")]
