"""Properties of the rule extractor's parsing, over any text and over random sentences built
from the words its patterns read: it never fails, every value it returns is words of the
text, every record names an entity it lists, and its normalisations are idempotent."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from memwarden.models import rule_extractor as rules
from memwarden.models.rule_extractor import USER, extract_facts

# Words and phrases the patterns look for, so random sentences reach deep branches.
FRAGMENTS = [
    "I",
    "I'm",
    "I am",
    "I've",
    "my",
    "My sister",
    "my husband",
    "Ana",
    "Tom Lee",
    "St.",
    "Mary",
    "Hospital",
    "he",
    "she",
    "we",
    "We're",
    "is",
    "am",
    "was",
    "not",
    "no longer",
    "actually",
    "Actually,",
    "Sorry,",
    "I meant",
    "live",
    "lives in",
    "moved to",
    "moved from",
    "to",
    "in",
    "at",
    "for",
    "with",
    "as a",
    "work",
    "works",
    "working",
    "nurse",
    "Boston",
    "Chicago",
    ",",
    ".",
    "?",
    "!",
    ";",
    " - ",
    "and",
    "but",
    "or",
    "after",
    "have",
    "has",
    "two",
    "three",
    "cats",
    "a dog",
    "named",
    "Rex",
    "kids",
    "allergic",
    "to penicillin",
    "peanuts",
    "love",
    "like",
    "hate",
    "favorite",
    "is my top pick",
    "into",
    "fan of",
    "planning",
    "going to",
    "want to",
    "used to",
    "started",
    "a new job",
    "quit my job",
    "married",
    "retired",
    "34",
    "years old",
    "born",
    "study",
    "studying",
    "speak",
    "French",
    "don't",
    "eat",
    "meat",
    "drive",
    "a Honda",
    "thinking about",
    "trying out",
    "yoga",
    "went",
    "took",
    "last week",
    "yesterday",
    "anymore",
    "the",
    "this",
    "it",
    "you",
    "Call me",
    "Always",
    "Never",
    "please",
    "\u2019",
    "\u2014",
    "(",
    ")",
    "[8 May]",
    "Maria:",
    # Third pass: news preambles, participles, phrasal -ing forms, deaths, trips, durations.
    "wanted to let you know",
    "Guess what",
    "lately-",
    "gone",
    "seen",
    "been",
    "just",
    "busy with",
    "a love for",
    "looking into",
    "putting together",
    "got to",
    "passed away",
    "died",
    "getting married",
    "going",
    "camping",
    "two weeks ago",
    "for ten years",
    "since",
    "lived",
    "mentor",
    "were",
]
sentences = st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=30).map(" ".join)
any_text = st.one_of(st.text(max_size=400), sentences)


def words(text: str) -> set[str]:
    return set(re.findall(r"[^\W_]+", text.casefold()))


# Contractions the extractor spells out, and the one word it adds to a value of its own.
SPELT = {"am", "have", "has", "will", "would", "is", "are", "intolerant"}


def values(out: dict) -> list[str]:
    said = [a["value"] for a in out["attributes"]]
    said += [r["object"] for r in out["relations"]] + [a["object"] for a in out["actions"]]
    said += [e["name"] for e in out["entities"] if e["name"] != USER]
    said += [c["newValue"] for c in out["corrections"] if c["newValue"] != "none"]
    said += [c["oldValue"] for c in out["corrections"] if c["oldValue"]]
    return said


@settings(max_examples=400, deadline=None)
@given(any_text)
def test_any_text_gives_a_valid_extraction_and_never_an_error(text: str) -> None:
    out = extract_facts(text)  # validates against the extraction contract
    assert set(out) >= {"entities", "attributes", "relations", "actions", "corrections"}


@settings(max_examples=400, deadline=None)
@given(any_text)
def test_every_value_extracted_is_made_of_words_of_the_text(text: str) -> None:
    out = extract_facts(text)
    allowed = words(text) | SPELT
    for value in values(out):
        assert words(value) <= allowed, (value, text)


@settings(max_examples=400, deadline=None)
@given(any_text)
def test_every_record_is_about_the_speaker_or_an_entity_the_extraction_lists(text: str) -> None:
    out = extract_facts(text)
    listed = {e["name"] for e in out["entities"]}
    named = [a["entity"] for a in out["attributes"]] + [a["actor"] for a in out["actions"]]
    named += [r["subject"] for r in out["relations"]] + [r["object"] for r in out["relations"]]
    named += [c["entity"] for c in out["corrections"]]
    assert set(named) <= listed, (text, out)


@settings(max_examples=200, deadline=None)
@given(any_text)
def test_extraction_is_deterministic(text: str) -> None:
    assert extract_facts(text) == extract_facts(text)


@settings(max_examples=400, deadline=None)
@given(any_text)
def test_spelling_out_contractions_and_guarding_abbreviations_is_idempotent(text: str) -> None:
    once = rules._protect(text)
    assert rules._protect(once) == once


@settings(max_examples=400, deadline=None)
@given(any_text)
def test_cleaning_an_object_is_idempotent_and_keeps_it_short(text: str) -> None:
    once = rules._clean_object(text)
    assert rules._clean_object(once) == once
    assert len(once.split()) <= rules._MAX_OBJECT_WORDS


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["peanuts", "shellfish", "eggs", "dark chocolate", "jazz"]),
        min_size=2,
        max_size=4,
        unique=True,
    )
)
def test_a_listed_allergy_gives_each_item_once_in_order(items: list[str]) -> None:
    text = "I am allergic to " + ", ".join(items[:-1]) + " and " + items[-1] + "."
    got = [a["value"] for a in extract_facts(text)["attributes"] if a["key"] == "allergies"]
    assert got == items
