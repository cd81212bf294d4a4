"""The rule extractor's third pass (issue 27): news said after a preamble, events with their
time cut off, past participles, being busy with or looking into something, loves stated as
"a love for", trips and weddings ahead, places someone was, deaths in the family, durations
that are no employer, and each construction in first and third person."""

from __future__ import annotations

import pytest

from memwarden.models.rule_extractor import extract_facts


def attrs(text: str) -> list[tuple[str, str, str]]:
    return [(a["entity"], a["key"], a["value"]) for a in extract_facts(text)["attributes"]]


def rels(text: str) -> list[tuple[str, str, str]]:
    return [(r["subject"], r["label"], r["object"]) for r in extract_facts(text)["relations"]]


def acts(text: str) -> list[tuple[str, str, str]]:
    return [(a["actor"], a["label"], a["object"]) for a in extract_facts(text)["actions"]]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My husband works as an accountant.", ("user", "husband_role", "accountant")),
        ("Tom works as an engineer.", None),
    ],
)
def test_the_article_an_before_a_job_is_not_read_as_part_of_the_job(
    text: str, expected: tuple[str, str, str] | None
) -> None:
    if expected:
        assert acts(text) == [expected]
    else:
        assert attrs(text) == [("Tom", "role", "engineer")]


def test_working_from_home_as_something_still_states_the_role() -> None:
    assert attrs("I work from home as a graphic designer.") == [
        ("user", "role", "graphic designer")
    ]


def test_how_long_someone_has_held_a_job_is_not_their_employer() -> None:
    assert attrs("I've been a nurse for ten years.") == [("user", "role", "nurse")]
    assert rels("I've been a nurse for ten years.") == []
    assert rels("I've been a nurse at Mercy Hospital since 2019.") == [
        ("user", "works_at", "Mercy Hospital")
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Two weeks ago I started a new job at Amazon.", ("user", "works_at", "Amazon")),
        ("I've lived in Seattle for five years.", ("user", "lives_in", "Seattle")),
        ("Ana has lived in Lisbon since 2010.", ("Ana", "lives_in", "Lisbon")),
    ],
)
def test_a_time_said_first_or_a_duration_leaves_the_fact_standing(
    text: str, expected: tuple[str, str, str]
) -> None:
    assert expected in rels(text)


def test_having_lived_somewhere_without_a_duration_stays_a_past_event() -> None:
    assert rels("I've lived in Seattle.") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Guess what - I got a puppy two weeks ago!", ("user", "got", "a puppy")),
        (
            "I started volunteering here about a year ago.",
            ("user", "started", "volunteering here"),
        ),
        (
            "Haven't talked in a few days, wanted to let you know I joined a travel club!",
            ("user", "joined", "a travel club"),
        ),
        (
            "Just wanted to give you the heads up on what's been happening lately- I took a "
            "writing class.",
            ("user", "took", "a writing class"),
        ),
    ],
)
def test_news_after_a_preamble_is_an_event_without_how_long_ago(
    text: str, expected: tuple[str, str, str]
) -> None:
    assert acts(text) == [expected]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I've gone camping a few times.", ("user", "went", "camping a few times")),
        ("Tom has seen the Eiffel Tower.", ("Tom", "saw", "the Eiffel Tower")),
        ("I've written three novels.", ("user", "wrote", "three novels")),
    ],
)
def test_a_past_participle_after_have_is_the_event_in_the_past_tense(
    text: str, expected: tuple[str, str, str]
) -> None:
    assert acts(text) == [expected]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I've been busy with writing projects.", ("user", "busy_with", "writing projects")),
        ("I'm swamped with the kids & work.", ("user", "busy_with", "the kids & work")),
        ("I've been looking into local politics.", ("user", "looking_into", "local politics")),
        ("I've just been practicing for my recital.", ("user", "practicing_for", "my recital")),
        (
            "I have been revising and perfecting the recipe.",
            ("user", "revising_and_perfecting", "the recipe"),
        ),
        (
            "I'm putting together an art show.",
            ("user", "putting", "together an art show"),
        ),
        (
            "I got to volunteer at a career fair.",
            ("user", "got_to", "volunteer at a career fair"),
        ),
    ],
)
def test_what_someone_is_busy_with_or_has_been_doing_is_an_ongoing_event(
    text: str, expected: tuple[str, str, str]
) -> None:
    assert acts(text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "I've got to say, that was fun.",
        "I got to go.",
        "I was busy with it.",
        "I'm putting it off.",
    ],
)
def test_obligations_and_vague_objects_state_no_event(text: str) -> None:
    assert acts(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I've always had a love for horses!", [("user", "loves", "horses")]),
        ("Ana has a soft spot for jazz.", [("Ana", "likes", "jazz")]),
    ],
)
def test_a_love_or_a_soft_spot_for_something_is_a_preference(
    text: str, expected: list[tuple[str, str, str]]
) -> None:
    assert attrs(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Next month we are going to Italy.", ("user", "going_to", "Italy")),
        ("We are going camping.", ("user", "going", "camping")),
        ("We're planning to take a team trip.", ("user", "plans_to", "take a team trip")),
        ("I was in Chicago, it was awesome!", ("user", "was_in", "Chicago")),
        ("We were at the Louvre last week.", ("user", "was_at", "Louvre")),
    ],
)
def test_trips_ahead_and_places_someone_was_are_events(
    text: str, expected: tuple[str, str, str]
) -> None:
    assert acts(text) == [expected]


def test_will_take_is_still_no_plan_but_planning_to_take_is() -> None:
    assert acts("I will take care of it.") == []
    assert acts("I plan to take a cooking class.") == [("user", "plans_to", "take a cooking class")]


def test_a_friend_getting_married_is_their_wedding_ahead_not_the_speakers() -> None:
    text = "My best friend Sarah is getting married in June."
    assert rels(text) == [("user", "friend", "Sarah")]
    assert acts(text) == [("Sarah", "getting", "married in June")]
    assert attrs(text) == []


def test_a_relative_who_died_is_a_loss_for_the_speaker_or_a_status_of_the_named_person() -> None:
    assert acts("My dad passed away last year.") == [("user", "lost", "my dad")]
    text = "My grandma Rose died in May."
    assert ("Rose", "life_status", "died") in attrs(text)
    assert ("user", "grandma", "Rose") in rels(text)


def test_the_speaker_dying_of_laughter_is_no_death() -> None:
    assert extract_facts("I died laughing at that.")["attributes"] == []


def test_an_unnamed_relatives_age_and_one_word_love_are_kept_on_the_speaker() -> None:
    assert acts("My daughter is 7 years old.") == [("user", "daughter_age", "7")]
    assert acts("My mom loves cooking.") == [("user", "mom_loves", "cooking")]


def test_a_brother_and_a_sister_are_two_relatives() -> None:
    assert acts("I have a brother and a sister.") == [
        ("user", "has", "a brother"),
        ("user", "has", "a sister"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I mentor a transgender teen.", ("user", "mentors", "a transgender teen")),
        ("Ana hikes every weekend.", ("Ana", "hikes", "every weekend")),
    ],
)
def test_regular_activities_in_first_and_third_person(
    text: str, expected: tuple[str, str, str]
) -> None:
    assert acts(text) == [expected]


def test_a_quantity_word_that_opens_a_sentence_is_no_persons_name() -> None:
    out = extract_facts("Tons has gone down since then!")
    assert out["entities"] == [] and out["actions"] == []


@pytest.mark.parametrize(
    "text",
    [
        "I had a wild week.",
        "We had a ton of fun.",
        "I had a bit of a setback.",
        "I saw how counseling helps people.",
        "I love how it shows the togetherness.",
        "I'm a mix of excited and nervous.",
        "I'm going to a few.",
        "Since we chatted last, not much.",
    ],
)
def test_moods_question_word_objects_and_mixed_feelings_state_nothing(text: str) -> None:
    out = extract_facts(text)
    assert out["actions"] == [] and out["attributes"] == [] and out["relations"] == []


def test_learning_how_to_do_something_is_still_an_event() -> None:
    assert acts("I'm learning how to dance.") == [("user", "learning", "how to dance")]


def test_a_tough_exam_is_an_event_not_a_mood() -> None:
    assert acts("I had a tough exam.") == [("user", "had", "a tough exam")]


def test_a_plan_said_with_just_starts_at_its_verb() -> None:
    assert acts("I'll just need the recipe.") == []
    assert acts("I'm planning to also start a blog.") == [("user", "plans_to", "start a blog")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I quit my job at Globex.", ("user", "left_job_at", "Globex")),
        ("I quit my job.", ("user", "left", "my job")),
        ("I was laid off.", ("user", "got", "laid off")),
    ],
)
def test_a_job_left_reads_as_a_sentence(text: str, expected: tuple[str, str, str]) -> None:
    assert acts(text) == [expected]


def test_what_a_since_clause_states_is_the_speakers_and_names_no_one() -> None:
    out = extract_facts("Since I left my job at Door Dash, I've been driving less.")
    assert ("user", "left_job_at", "Door Dash") in acts(
        "Since I left my job at Door Dash, I've been driving less."
    )
    assert all(e["name"] in ("user", "Door Dash") for e in out["entities"])


@pytest.mark.parametrize(
    "text", ["I'm going for my dreams!", "I look forward to meeting you and playing this game!"]
)
def test_going_for_a_dream_and_looking_forward_to_the_listener_are_no_plans(text: str) -> None:
    assert acts(text) == []


def test_looking_forward_to_an_event_is_still_kept() -> None:
    assert acts("I'm looking forward to the concert.") == [
        ("user", "looking_forward_to", "the concert")
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Nature's always been my haven.", ("user", "likes", "Nature")),
        (
            "Epic adventures and magical worlds are my thing.",
            ("user", "likes", "Epic adventures and magical worlds"),
        ),
        ("Dance has been my stress-buster since childhood!", ("user", "likes", "Dance")),
    ],
)
def test_something_named_as_my_haven_or_my_thing_is_a_liking(
    text: str, expected: tuple[str, str, str]
) -> None:
    assert attrs(text) == [expected]


@pytest.mark.parametrize("text", ["I'm allergic to it.", "I'm not a fan of that."])
def test_a_listed_preference_or_allergy_of_a_pointing_word_says_nothing(text: str) -> None:
    assert attrs(text) == []


def test_languages_keep_only_their_capitalised_names() -> None:
    assert attrs("I speak French and some Spanish.") == [("user", "languages", "French")]
