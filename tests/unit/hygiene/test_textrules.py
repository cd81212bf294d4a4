"""The offline reading of free text: structure by pattern, verdicts from words alone."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memwarden.hygiene.textrules import overlap, structure_text, text_verdict


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I work at Acme.", ("relation", "user", "works_at", "Acme")),
        ("Actually, I live in Valencia.", ("attribute", "user", "lives_in", "Valencia")),
        ("My dentist is Dr. Okafor.", ("attribute", "user", "dentist", "Dr Okafor")),
        ("Falcon's status is public beta.", ("attribute", "Falcon", "status", "public beta")),
        ("The API's rate limit is now 600.", ("attribute", "API", "rate_limit", "600")),
        ("The owner of Heron is Ivo.", ("attribute", "Heron", "owner", "Ivo")),
        ("A man is playing a guitar", ("note", None, None, None)),
    ],
)
def test_a_texts_first_fact_is_found_in_the_first_or_third_person(
    text: str, expected: tuple[str, str | None, str | None, str | None]
) -> None:
    assert structure_text(text) == expected


@pytest.mark.parametrize(
    ("a", "b", "verdict"),
    [
        ("A man is playing a guitar", "a man is playing a guitar.", "duplicate"),
        ("A man is slicing an onion", "A man is slicing an onion into rings", "duplicate"),
        ("A dog is running in the park", "A dog is not running in the park", "contradiction"),
        ("A woman isn't cooking pasta", "A woman is cooking pasta", "contradiction"),
        ("A man is playing a guitar", "Two cats sleep on a sofa", "unrelated"),
        ("The nightly backup runs at 03:00 UTC.", "The nightly backup runs at 01:30 UTC.", None),
        ("I'm a vegetarian.", "I drink oat milk in coffee.", "complementary"),
        ("My phone number ends in 4471.", "My new phone number ends in 9902.", None),
        ("A boy is riding a bike on a trail", "A boy is riding a horse near a barn", None),
    ],
)
def test_words_alone_support_only_these_verdicts(a: str, b: str, verdict: str | None) -> None:
    assert text_verdict(a, b) == verdict


sentences = st.lists(
    st.sampled_from(
        [
            "a",
            "the",
            "man",
            "woman",
            "dog",
            "is",
            "not",
            "no",
            "playing",
            "guitar",
            "in",
            "park",
            "i",
            "my",
            "42",
            "7",
            "runs",
        ]
    ),
    min_size=1,
    max_size=8,
).map(" ".join)


@given(sentences, sentences)
def test_text_verdicts_are_symmetric_and_never_a_supersede(a: str, b: str) -> None:
    assert text_verdict(a, b) == text_verdict(b, a)
    assert text_verdict(a, b) != "supersedes"
    assert overlap(a, b) == overlap(b, a)
    assert 0.0 <= overlap(a, b) <= 1.0


@given(sentences)
def test_a_text_restated_is_a_duplicate(a: str) -> None:
    assert text_verdict(a, a.upper() + ".") == "duplicate"
