"""The pure rules of how a LangGraph item lives in a memory-contract note (no server)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from memwarden_client.integrations import _items
from memwarden_client.integrations._items import NamespaceError


def record(text: str) -> dict[str, object]:
    stamp = datetime(2026, 12, 3, tzinfo=UTC).isoformat()
    return {"id": "r1", "revision": 2, "content": {"text": text}, "created_at": stamp}


def test_an_item_decodes_from_its_note_exactly_as_it_was_encoded() -> None:
    value = {"a": [1, 2.5, None, {"b": "ü"}], "t": True}
    item = _items.decode(record(_items.encode(("users", "alice"), "k", value, 5.0)))
    assert item is not None
    assert (item.namespace, item.key, item.value, item.ttl_minutes) == (
        ("users", "alice"),
        "k",
        value,
        5.0,
    )


def test_a_note_the_store_did_not_write_or_whose_token_disagrees_is_no_item() -> None:
    assert _items.decode(record("a plain note")) is None
    forged = _items.encode(("users", "alice"), "k", {}, None).replace('"k"', '"other"')
    assert _items.decode(record(forged)) is None


def test_a_value_too_large_for_a_note_is_refused_before_sending() -> None:
    with pytest.raises(ValueError, match="at most 16000"):
        _items.encode(("n",), "k", {"text": "x" * 16_000}, None)


@pytest.mark.parametrize(
    "namespace", [("has space",), ("dot.ted",), ("",), ("ü",), tuple(str(i) for i in range(16))]
)
def test_a_namespace_label_must_be_a_scope_segment(namespace: tuple[str, ...]) -> None:
    with pytest.raises(NamespaceError):
        _items.check_namespace(namespace)


def test_the_namespace_is_the_project_id_of_the_contract_scope() -> None:
    assert _items.scope_for(("users", "alice"), "private") == {
        "project_id": "users/alice",
        "visibility": "private",
    }
    assert _items.scope_path(("users", "alice")) == "project/users/alice"
    assert _items.scope_for((), "shared") == {"project_id": None, "visibility": "shared"}


@pytest.mark.parametrize(
    ("conditions", "expected"),
    [
        ({"a": 1}, True),
        ({"a": {"$eq": 1}, "b": {"$ne": "x"}}, True),
        ({"a": {"$gt": 1}}, False),
        ({"a": {"$gte": 1, "$lt": 2}}, True),
        ({"a": {"$lte": 0}}, False),
        ({"n": {"c": [1, 2]}}, True),
        ({"n": {"c": [2, 1]}}, False),
        ({"b": {"$gt": 3}}, False),  # not a number: no match, no error
        ({"missing": None}, True),
    ],
)
def test_filters_follow_langgraphs_operators(conditions: dict[str, object], expected: bool) -> None:
    assert _items.matches({"a": 1, "b": "y", "n": {"c": [1, 2]}}, conditions) is expected


def test_an_unknown_filter_operator_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"\$in"):
        _items.matches({"a": 1}, {"a": {"$in": [1]}})


def test_namespace_conditions_match_prefixes_and_suffixes_with_wildcards() -> None:
    ns = ("a", "b", "c")
    assert _items.namespace_matches(ns, [("prefix", ("a", "*"))])
    assert _items.namespace_matches(ns, [("suffix", ("b", "c")), ("prefix", ("a",))])
    assert not _items.namespace_matches(ns, [("suffix", ("b",))])
    assert not _items.namespace_matches(("a",), [("prefix", ("a", "b"))])
    assert _items.fixed_prefix([("suffix", ("x",)), ("prefix", ("a", "*", "c"))]) == ("a",)


def test_a_question_becomes_its_words_or_ed_with_search_operators_taken_as_words() -> None:
    assert _items.any_word_query('what "tea" -does she (drink)?') == (
        "what or tea or does or she or drink"
    )
    assert _items.any_word_query("?!") is None
