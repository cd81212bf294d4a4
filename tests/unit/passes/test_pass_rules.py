"""The passes' pure rules: the extractive summary and consolidation's candidate pairs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from memwarden.passes import extractive
from memwarden.passes.candidates import attribute_pairs, name_key, pairs
from memwarden.passes.unit import fingerprint

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _e(
    name: str,
    etype: str = "person",
    path: str = "",
    vis: str = "shared",
    owner: str = "a",
    facts: int = 1,
    age: int = 0,
    speaker: str | None = None,
) -> dict[str, Any]:
    return {
        "id": f"{path}/{vis}/{owner}/{name}/{speaker}",
        "name": name,
        "norm_name": f"speaker:{speaker}" if speaker else name_key(name),
        "entity_type": etype,
        "scope_path": path,
        "visibility": vis,
        "owner_subject": owner,
        "facts": facts,
        "revision": 1,
        "created_at": T0 + timedelta(seconds=age),
    }


sentence = st.from_regex(r"[A-Z][a-z]{2,8}( [a-z]{2,8}){2,6}\.", fullmatch=True)


@given(st.lists(sentence, min_size=1, max_size=12))
def test_an_extractive_summary_says_only_sentences_of_the_text_in_their_order(parts) -> None:
    text = " ".join(parts)
    summary = extractive.summarise(text)
    assert summary and len(summary) <= extractive.MAX_CHARS
    picked = extractive.sentences(summary)
    assert all(s in parts for s in picked)
    positions = [parts.index(s) for s in picked]
    assert positions == sorted(positions)


def test_the_sentences_about_what_the_text_keeps_returning_to_rank_first() -> None:
    text = (
        "Acme builds pipelines. The weather was mild. Acme pipelines serve hospitals. "
        "Lunch was soup. Acme hires pipeline engineers."
    )
    summary = extractive.summarise(text, max_sentences=2)
    assert "weather" not in summary and "soup" not in summary


def test_a_fingerprint_ignores_order_and_changes_with_any_input() -> None:
    assert fingerprint(["a:1", "b:2"]) == fingerprint(["b:2", "a:1"])
    assert fingerprint(["a:1", "b:2"]) != fingerprint(["a:1", "b:3"])


def test_names_compare_without_case_punctuation_or_a_leading_article() -> None:
    assert name_key("The  Acme, Inc.") == name_key("acme inc")


def test_a_name_that_begins_exactly_one_longer_name_is_a_sure_pair() -> None:
    found = pairs([_e("Alice"), _e("Alice Chen"), _e("Bob")])
    assert [(p.a["name"], p.b["name"], p.sure) for p in found] == [("Alice", "Alice Chen", True)]


def test_a_name_that_begins_several_is_unsure_of_each() -> None:
    found = pairs([_e("Alice"), _e("Alice Chen"), _e("Alice Smith")])
    assert sorted((p.b["name"], p.sure) for p in found) == [
        ("Alice Chen", False),
        ("Alice Smith", False),
    ]


def test_the_speaker_and_the_only_other_person_are_an_unsure_pair() -> None:
    found = pairs([_e("user"), _e("Alice"), _e("Acme", etype="organization")])
    assert [(p.a["name"], p.b["name"], p.reason, p.sure) for p in found] == [
        ("user", "Alice", "self_reference", False)
    ]


def test_two_speakers_own_entities_are_never_a_pair_whatever_their_names() -> None:
    found = pairs(
        [
            _e("Maria Lopez", speaker="user:u-1"),
            _e("Maria Lopez", speaker="user:u-2"),
            _e("alice", speaker="principal:alice"),
            _e("alice", speaker="user:alice"),
            _e("Maria", speaker="user:u-3"),
        ]
    )
    assert found == []


def test_a_speakers_own_entity_is_never_the_one_merged_away() -> None:
    mine = _e("Maria Lopez", facts=1, age=9, speaker="user:u-1")
    same = pairs([mine, _e("maria lopez", facts=7)])
    prefix = pairs([_e("Maria", speaker="user:u-2"), _e("Maria Lopez")])
    selves = pairs([_e("alice", speaker="principal:alice"), _e("Bob")])
    assert [(p.b["norm_name"], p.reason) for p in same] == [("speaker:user:u-1", "same_name")]
    assert [(p.b["norm_name"], p.reason) for p in prefix] == [("speaker:user:u-2", "name_prefix")]
    assert [(p.b["norm_name"], p.reason, p.sure) for p in selves] == [
        ("speaker:principal:alice", "self_reference", False)
    ]


def test_no_pair_crosses_a_scope_a_visibility_or_a_private_owner() -> None:
    found = pairs(
        [
            _e("Alice", path="p1"),
            _e("Alice Chen", path="p2"),
            _e("Bob", vis="private", owner="a"),
            _e("Bob Ray", vis="private", owner="b"),
            _e("Carol"),
            _e("Carol Lu", vis="private"),
        ]
    )
    assert found == []


def test_the_same_name_twice_keeps_the_one_with_more_facts() -> None:
    found = pairs([_e("Acme Inc.", "org", facts=1), _e("acme inc", "org", facts=3, age=5)])
    assert [(p.a["name"], p.b["name"], p.sure) for p in found] == [("Acme Inc.", "acme inc", True)]


def _a(key: str, value: str, age: int, entity: str = "e1") -> dict[str, Any]:
    return {
        "id": f"{entity}/{key}",
        "entity_id": entity,
        "attr_key": key,
        "value": value,
        "scope_path": "",
        "visibility": "shared",
        "owner_subject": "a",
        "created_at": T0 + timedelta(seconds=age),
    }


def test_one_attribute_under_two_keys_is_a_pair_sure_only_with_the_same_value() -> None:
    same = attribute_pairs([_a("job", "Engineer", 0), _a("occupation", "engineer.", 5)])
    assert [(p.a["attr_key"], p.b["attr_key"], p.sure) for p in same] == [
        ("occupation", "job", True)
    ]
    differ = attribute_pairs([_a("favorite_food", "ramen", 0), _a("favourite_food", "pho", 1)])
    assert [p.sure for p in differ] == [False]
    assert attribute_pairs([_a("job", "x", 0), _a("city", "x", 1)]) == []
    assert attribute_pairs([_a("job", "x", 0), _a("role", "x", 1, entity="e2")]) == []
